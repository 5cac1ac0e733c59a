"""The generic search: determinism, tree invariants, the node capacity, errors, genericity."""
from pathlib import Path

import numpy as np
import pytest

import games
from games.contract import ILLEGAL, ONGOING
from mcts import MCTS, GameOverError, SearchConfig
from mcts.search import NO_CHILDREN, ROOT
from mcts.tree import NOT_PROVEN

G = games.get("connect4")


def search(record="", playouts=20_000, **config):
    config.setdefault("transpositions", False)   # a tree; the graph is tests/test_transpositions
    engine = MCTS(G, SearchConfig(**config), log=None)
    state, _ = G.play_record(record)
    return engine, engine.search(state, playouts=playouts)


def test_same_seed_same_visits_and_move():
    _, a = search("4453", seed=11)
    _, b = search("4453", seed=11)
    assert a.children == b.children and a.pv == b.pv and a.move == b.move
    _, c = search("4453", seed=12)
    assert [x.visits for x in c.children] != [x.visits for x in a.children]


def test_result_accounts_for_every_playout():
    engine, r = search("", playouts=30_000, seed=3)
    assert r.playouts == 30_000
    assert sum(c.visits for c in r.children) == 30_000
    assert sorted(c.move for c in r.children) == list("1234567")
    assert r.move == r.children[0].move == r.pv[0]
    assert r.children[0].visits == max(c.visits for c in r.children)


def test_principal_variation_follows_moves_of_two_visits_or_more():
    engine, r = search("", playouts=60, seed=3, solve_nodes=0)
    tree, node, state = engine.tree, ROOT, G.initial_state()
    for i, move in enumerate(r.pv):
        kids = list(tree.children(node))
        node = next(j for j in kids if G.format_move(int(tree.action[j]), state) == move)
        assert tree.visits[node] >= (1 if i == 0 else 2)
        best = max(tree.visits[j] for j in kids)
        assert tree.visits[node] == best          # the most visited, as the docstring says
        G.play(state, int(tree.action[node]))
    deeper = [tree.visits[j] for j in tree.children(node)] if tree.first_child[node] >= 0 else []
    assert all(v < 2 for v in deeper)             # it stops where one playout's moves begin
    assert len(r.pv) >= 2


def check_invariants(tree):
    """visits(node) = own evaluations + sum of children's visits, with own evaluations 0 at an
    expanded root, 1 at an expanded non-root node (its first playout), all at terminals; a node
    proven by the solver is scored by its proof from then on, so it may have more. A root
    inherited by tree reuse keeps the 1 of its first playout, or all the evaluations of its
    proof if it was proven as a leaf (by the exact solver) before it became the root."""
    used = tree.used
    assert used <= tree.capacity
    for node in range(used):
        kids = tree.children(node)
        child_visits = int(tree.visits[kids.start:kids.stop].sum()) if len(kids) else 0
        if tree.first_child[node] == NO_CHILDREN:
            assert tree.num_children[node] == 0
            continue
        assert all(tree.parent[j] == node for j in kids)
        assert all(tree.mover[j] == 1 - tree.mover[node] for j in kids)   # alternating game
        own = 1
        if node == ROOT:
            own = int(tree.visits[node]) - child_visits
            assert own in (0, 1) or (tree.proven[node] and own > 0)   # a proof leaf before
        if tree.proven[node]:
            assert tree.visits[node] >= own + child_visits, node
        else:
            assert tree.visits[node] == own + child_visits, node
        assert tree.status[node] == ONGOING
        assert 0 <= tree.value_sum[node] <= tree.visits[node]


@pytest.mark.parametrize("solver", [True, False])
def test_tree_invariants_hold(solver):
    engine, r = search("4453", playouts=50_000, seed=5, solver=solver)
    check_invariants(engine.tree)
    assert r.nodes == engine.tree.used
    engine, r = search("2165451262341156152235471", playouts=50_000, seed=5, solver=solver)
    check_invariants(engine.tree)
    assert (engine.tree.proven[:r.nodes] != 0).any() == solver


def test_capacity_is_never_exceeded_and_search_goes_on():
    engine, r = search("", playouts=20_000, seed=5, capacity=60)
    tree = engine.tree
    assert r.nodes <= 60 and r.playouts == 20_000
    assert tree.visits[ROOT] == 20_000
    # with the tree full, leaves keep receiving playouts: visits >= 1 + children's visits
    for node in range(1, r.nodes):
        kids = tree.children(node)
        assert tree.visits[node] >= (1 if len(kids) else 0) + sum(tree.visits[j] for j in kids)


def test_terminal_children_are_scored_not_played_out():
    # X to move can win at once in column 1 (three X stones stacked there).
    engine, r = search("121212", playouts=5_000, seed=1)
    assert r.move == "1" and r.children[0].value == 1.0
    tree = engine.tree
    win = next(j for j in tree.children(ROOT) if tree.action[j] == 0)
    assert tree.status[win] != ONGOING and tree.first_child[win] == NO_CHILDREN


def test_finished_position_is_refused():
    engine = MCTS(G, log=None)
    state, _ = G.play_record("1212121")
    with pytest.raises(GameOverError, match="game is over"):
        engine.search(state, playouts=100)


@pytest.mark.parametrize("budget", [{}, {"playouts": 0}, {"seconds": -1.0}])
def test_bad_budget_is_refused(budget):
    engine = MCTS(G, log=None)
    with pytest.raises(ValueError):
        engine.search(G.initial_state(), **budget)


def test_seconds_budget_runs_playouts():
    engine = MCTS(G, log=None)
    r = engine.search(G.initial_state(), seconds=0.05)
    assert r.playouts > 0 and r.seconds > 0


def test_search_does_not_change_the_position():
    engine = MCTS(G, log=None)
    state, _ = G.play_record("4453")
    before = state.copy()
    engine.search(state, playouts=1_000)
    assert np.array_equal(state, before)


def test_mcts_names_no_concrete_game():
    for path in (Path(__file__).parent.parent / "mcts").glob("*.py"):
        text = path.read_text().lower()
        for name in games.names():
            assert f"games.{name}" not in text and f"{name}." not in text, (path, name)


def test_illegal_status_is_distinct():
    assert ILLEGAL < 0 <= ONGOING


def subtree_size(tree, node):
    size, todo = 0, [node]
    while todo:
        n = todo.pop()
        size += 1
        todo.extend(tree.children(n))
    return size


def test_tree_reuse_keeps_the_subtree_and_reclaims_the_rest():
    engine = MCTS(G, SearchConfig(seed=2, transpositions=False), log=None)
    state = G.initial_state()
    r = engine.search(state, playouts=50_000)
    tree = engine.tree
    child = tree.child_with_action(ROOT, r.action)
    reply = max(tree.children(child), key=lambda j: tree.visits[j])
    kept_visits = int(tree.visits[reply])
    expected_nodes = subtree_size(tree, reply)
    for a in (r.action, int(tree.action[reply])):
        G.play(state, a)
        engine.advance(a)
    r2 = engine.search(state, playouts=1)
    assert engine.tree.visits[ROOT] == kept_visits + 1
    assert r2.nodes >= expected_nodes and r2.nodes <= expected_nodes + 7
    check_invariants(engine.tree)


def test_reuse_over_a_whole_self_play_game_keeps_invariants_and_memory_bounded():
    engine = MCTS(G, SearchConfig(seed=4, capacity=300_000, transpositions=False), log=None)
    state = G.initial_state()
    while G.status(state) == ONGOING:
        r = engine.search(state, playouts=20_000)
        check_invariants(engine.tree)
        assert r.nodes <= 300_000
        G.play(state, r.action)
        engine.advance(r.action)


def test_no_reuse_when_the_position_does_not_follow():
    engine = MCTS(G, SearchConfig(seed=2, transpositions=False), log=None)
    state = G.initial_state()
    engine.search(state, playouts=5_000)
    engine.advance(3)
    other, _ = G.play_record("1")                  # not the position after column 4
    r = engine.search(other, playouts=5_000)
    assert sum(c.visits for c in r.children) == 5_000


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_sum_their_playouts_and_are_reproducible(threads):
    """Root parallelisation: each thread its own tree, so a playout budget is reproducible."""
    a = search("4453", playouts=30_000, seed=8, threads=threads, parallel="root")[1]
    b = search("4453", playouts=30_000, seed=8, threads=threads, parallel="root")[1]
    assert a.playouts == 30_000 == sum(c.visits for c in a.children)
    assert a.children == b.children


@pytest.mark.parametrize("record", ["4455", "443322", "3344"])
def test_a_proof_in_one_tree_does_not_cut_the_other_trees_budget(record):
    """Root parallelisation with a playout budget: a thread whose tree proves the root stops,
    the others go on to their own proof (or budget), so the merged result is reproducible."""
    for seed in range(4):
        runs = [search(record, playouts=20_000, seed=seed, threads=2, parallel="root")
                for _ in range(2)]
        (engine, a), (_, b) = runs
        assert all(tree.proven[ROOT] != NOT_PROVEN for tree in engine.trees)
        assert a.children == b.children and a.move == b.move


def test_a_full_tree_is_said_once_with_what_to_do():
    import io
    game = games.get("tictactoe")
    log = io.StringIO()
    engine = MCTS(game, SearchConfig(seed=1, threads=1, capacity=200, solver=False), log=log)
    for _ in range(3):
        engine.search(game.initial_state(), playouts=2000)
    assert log.getvalue().count("note: the search tree is full (200 nodes") == 1
    assert "give more nodes (--nodes)" in log.getvalue()
    quiet = io.StringIO()                   # a tree with room to spare says nothing
    MCTS(game, SearchConfig(seed=1, threads=1, capacity=100_000), log=quiet).search(
        game.initial_state(), playouts=500)
    assert "tree is full" not in quiet.getvalue()
