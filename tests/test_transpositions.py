"""Transpositions: the table of mcts.transpositions and the search sharing children over it."""
import numpy as np

import games
from mcts import MCTS, SearchConfig
from mcts.search import NO_CHILDREN, ROOT
from mcts.transpositions import EMPTY, table_find, table_insert, table_renumber, table_size

G = games.get("connect4")


def table(size):
    return np.zeros(size, dtype=np.uint64), np.full(size, EMPTY, dtype=np.int32)


def test_table_size_is_a_power_of_two_for_half_the_capacity():
    assert [table_size(c) for c in (1, 4, 6, 1000, 4_000_000)] == [2, 2, 4, 512, 2_097_152]


def test_insert_find_replace_and_a_full_table():
    keys, nodes = table(4)
    for key, node in ((7, 1), (11, 2), (19, 3), (23, 4)):
        assert table_insert(keys, nodes, np.uint64(key), node)
    assert [table_find(keys, nodes, np.uint64(k)) for k in (7, 11, 19, 23, 5)] == [1, 2, 3, 4, EMPTY]
    assert table_insert(keys, nodes, np.uint64(11), 9)          # same key: replaced
    assert table_find(keys, nodes, np.uint64(11)) == 9
    assert not table_insert(keys, nodes, np.uint64(31), 5)      # every slot taken
    assert table_find(keys, nodes, np.uint64(31)) == EMPTY


def test_renumber_keeps_surviving_nodes_under_their_new_numbers():
    keys, nodes = table(8)
    for key, node in ((100, 0), (200, 1), (300, 2), (400, 3)):
        table_insert(keys, nodes, np.uint64(key), node)
    new_index = np.array([-1, 0, -1, 1], dtype=np.int64)        # nodes 1 and 3 kept
    table_renumber(keys, nodes, new_index)
    found = [table_find(keys, nodes, np.uint64(k)) for k in (100, 200, 300, 400)]
    assert found == [EMPTY, 0, EMPTY, 1]
    assert (nodes != EMPTY).sum() == 2


def position_of(tree, node, root_state):
    """The state reached from ``root_state`` by the actions from the root to ``node``."""
    actions = []
    while node != ROOT:
        actions.append(int(tree.action[node]))
        node = int(tree.parent[node])
    state = root_state.copy()
    for a in reversed(actions):
        G.play(state, a)
    return state


def check_graph(tree, root_state):
    """Every block of children is whole, has one parent (the node that expanded it) and
    belongs to nodes of one position; returns how many nodes borrow another's block."""
    owner = {}
    borrowed = 0
    for node in range(tree.used):
        first = int(tree.first_child[node])
        if first == NO_CHILDREN:
            continue
        kids = tree.children(node)
        assert kids.stop <= tree.used
        parents = {int(tree.parent[j]) for j in kids}
        assert len(parents) == 1
        assert all(tree.mover[j] == 1 - tree.mover[node] for j in kids)
        expander = parents.pop()
        if expander != node:
            borrowed += 1
            assert np.array_equal(position_of(tree, node, root_state),
                                  position_of(tree, expander, root_state)), node
        owner.setdefault(first, expander)
        assert owner[first] == expander
    return borrowed


def test_connect4_shares_children_of_transposed_positions_only():
    engine = MCTS(G, SearchConfig(seed=3), log=None)
    state, _ = G.play_record("4453")
    engine.search(state, playouts=60_000)
    assert check_graph(engine.tree, state) > 100
    off = MCTS(G, SearchConfig(seed=3, transpositions=False), log=None)
    off.search(state, playouts=60_000)
    assert check_graph(off.tree, state) == 0
    assert off.tree.used > engine.tree.used       # the graph holds the same playouts in fewer nodes


def test_reuse_of_a_graph_keeps_it_consistent_and_copies_shared_blocks_once():
    engine = MCTS(G, SearchConfig(seed=4, capacity=400_000), log=None)
    state = G.initial_state()
    for _ in range(8):
        r = engine.search(state, playouts=30_000)
        check_graph(engine.tree, state)
        G.play(state, r.action)
        engine.advance(r.action)
    r = engine.search(state, playouts=1)
    assert r.reused > 0
    tree = engine.tree
    assert check_graph(tree, state) > 0
    blocks = {int(tree.first_child[n]): int(tree.num_children[n]) for n in range(tree.used)
              if tree.first_child[n] != NO_CHILDREN}
    assert tree.used == 1 + sum(blocks.values())  # the root and each block once, nothing else


def test_proofs_found_over_transpositions_have_the_exact_values():
    """On the first 40 middle positions of the solved set (tests/data), every proof has the
    sign of the exact value and a proven win is played with a winning move."""
    from test_connect4_search import ROWS
    engine = MCTS(G, SearchConfig(seed=1), log=None)
    proven = 0
    for row in [r for r in ROWS if 14 <= r["plies"] <= 27][:40]:
        state, _ = G.play_record(row["moves"])
        result = engine.search(state, playouts=100_000)
        if result.proof:
            proven += 1
            v = row["value"]
            assert result.proof == ("win" if v > 0 else "draw" if v == 0 else "loss")
            if v > 0:
                assert row["scores"][result.action] > 0
    assert proven >= 20


def test_a_cycle_through_a_bad_key_ends_the_principal_variation():
    """A key shared by positions with different players to move (tests/conformance_games/
    bad_key.py) links nodes into cycles; the search and its principal variation still end."""
    from conformance_games.bad_key import BadKey
    game = BadKey()
    engine = MCTS(game, SearchConfig(seed=1, capacity=50_000, solver=False), log=None)
    result = engine.search(game.initial_state(), playouts=5_000)
    assert result.playouts == 5_000
    assert 1 <= len(result.pv) <= game.max_length + 1
