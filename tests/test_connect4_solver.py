"""The exact Connect Four solver (games.connect4.solver) against the solved positions of
tests/data/connect4_positions.tsv (an independent solver's scores), and its calls from the
search (mcts.uct_template.try_solve)."""
import csv
from pathlib import Path

import numpy as np
import pytest

import games
from games.connect4.kernels import MASK, PLIES, POS
from games.connect4.solver import plies_to_end, solve, solve_outcome, solve_score
from games.contract import DRAW, FIRST_WINS, ONGOING, SECOND_WINS
from mcts import MCTS, SearchConfig
from mcts.results import Proof

DATA = Path(__file__).resolve().parent / "data" / "connect4_positions.tsv"
ROWS = list(csv.DictReader(open(DATA), delimiter="\t"))
GAME = games.get("connect4")


def _table():
    return np.zeros(GAME.solve_table_size, dtype=np.uint64)


def _score(state, table, budget=10 ** 9):
    found, score, _ = solve_score(state[POS], state[MASK], np.int64(state[PLIES]),
                                  np.int64(budget), table)
    assert found
    return int(score)


def test_every_middle_and_end_position_has_its_exact_score():
    table = _table()
    rows = [r for r in ROWS if int(r["plies"]) >= 14]
    assert len(rows) == 300
    for r in rows:
        state, _ = GAME.play_record(r["moves"])
        assert _score(state, table) == int(r["value"]), r["moves"]


@pytest.mark.parametrize("stratum", [(14, 27), (28, 42)], ids=["middle", "end"])
def test_every_move_of_twenty_positions_has_its_exact_score(stratum):
    table = _table()
    rows = [r for r in ROWS if stratum[0] <= int(r["plies"]) <= stratum[1]][:20]
    for r in rows:
        state, _ = GAME.play_record(r["moves"])
        n = int(r["plies"])
        for col, want in enumerate(r["move_scores"].split(",")):
            if want == "x":
                continue
            child = state.copy()
            st = GAME.play(child, col)
            got = (43 - n) // 2 if st != ONGOING and st != DRAW else (
                0 if st == DRAW else -_score(child, table))
            assert got == int(want), (r["moves"], col + 1)


def test_a_begin_position_is_not_settled_in_a_hundred_nodes_but_is_in_a_billion():
    row = next(r for r in ROWS if int(r["plies"]) == 6)
    state, _ = GAME.play_record(row["moves"])
    assert solve(state, np.int64(100), _table()) == (ONGOING, 0)
    st, plies = solve(state, np.int64(10 ** 9), _table())
    value = int(row["value"])
    want = DRAW if value == 0 else (FIRST_WINS if value > 0 else SECOND_WINS)   # X to move
    assert (st, plies) == (want, plies_to_end(value, 6))


def test_best_play_by_the_solver_ends_in_the_plies_it_says():
    # From ten end positions, both sides play a move of best score; the game ends with the
    # status and after the plies that solve() gave for the start.
    table = _table()
    for r in [r for r in ROWS if int(r["plies"]) >= 28][:10]:
        state, _ = GAME.play_record(r["moves"])
        want, plies = solve(state, np.int64(10 ** 9), table)
        played = 0
        while GAME.status(state) == ONGOING:
            best, best_col = None, None
            for col in GAME.legal_actions(state):
                child = state.copy()
                st = GAME.play(child, int(col))
                s = 100 if st not in (ONGOING, DRAW) else (0 if st == DRAW else
                                                           -_score(child, table))
                if best is None or s > best:
                    best, best_col = s, int(col)
            GAME.play(state, best_col)
            played += 1
        assert (GAME.status(state), played) == (want, plies), r["moves"]


def test_the_outcome_of_every_middle_position_and_its_score_when_found():
    # The weak solve settles the sign of the file's value; with the same table the exact score
    # follows when its extra budget suffices, and the kernel's plies are those of the score
    # found, else those of the slowest win or loss (an upper bound).
    table = _table()
    exact = 0
    for r in [r for r in ROWS if 14 <= int(r["plies"]) <= 27]:
        state, _ = GAME.play_record(r["moves"])
        value, moves = int(r["value"]), int(r["plies"])
        found, sign, score_found, score, _ = solve_outcome(
            state[POS], state[MASK], np.int64(moves), np.int64(10 ** 9), table)
        assert (found, sign) == (True, (value > 0) - (value < 0)), r["moves"]
        assert score == (value if score_found else sign), r["moves"]
        exact += bool(score_found)
        _, plies = solve(state, np.int64(10 ** 9), _table())
        assert plies in (plies_to_end(value, moves), plies_to_end(sign, moves)), r["moves"]
    assert exact >= 100


def test_a_position_whose_outcome_needs_fewer_nodes_than_its_score():
    # After 6 3 1 5 6 3 the mover wins (column 6 alone; Pons's score 2). The sign takes
    # 1,557,378 nodes, the exact score 6,405,028 from scratch: with two million the kernel
    # knows the win but not its length, and gives the slowest win's plies.
    state, _ = GAME.play_record("631563")
    assert solve_score(state[POS], state[MASK], np.int64(6), np.int64(10 ** 9), _table())[:2] \
        == (True, 2)
    found, sign, score_found, _, nodes = solve_outcome(
        state[POS], state[MASK], np.int64(6), np.int64(2_000_000), _table())
    assert (found, sign, score_found) == (True, 1, False) and nodes > 2_000_000
    assert solve(state, np.int64(2_000_000), _table()) == (FIRST_WINS, plies_to_end(1, 6))
    assert solve(state, np.int64(1_500_000), _table()) == (ONGOING, 0)
    assert solve(state, np.int64(10 ** 9), _table()) == (FIRST_WINS, plies_to_end(2, 6))


def test_plies_to_end_of_pons_scores():
    assert plies_to_end((43 - 10) // 2, 10) == 1        # wins with its next stone
    assert plies_to_end(-((42 - 11) // 2), 11) == 2      # the opponent wins next
    assert plies_to_end(0, 30) == 12                     # a draw fills the board


def test_the_search_proves_a_middle_position_with_the_solver_and_not_without():
    row = next(r for r in ROWS if int(r["plies"]) == 16 and int(r["value"]) > 0)
    state, _ = GAME.play_record(row["moves"])
    with_solver = MCTS(GAME, SearchConfig(seed=1, solve_nodes=64.0), log=None)
    without = MCTS(GAME, SearchConfig(seed=1, solve_nodes=0.0), log=None)
    proved = with_solver.search(state, playouts=20_000)
    plain = without.search(state, playouts=20_000)
    assert proved.proof is Proof.WIN
    assert int(row["move_scores"].split(",")[proved.action]) > 0
    assert plain.proof is None


def test_the_same_seed_gives_the_same_search_with_the_solver():
    row = next(r for r in ROWS if int(r["plies"]) == 12)
    state, _ = GAME.play_record(row["moves"])
    runs = [MCTS(GAME, SearchConfig(seed=3, solve_nodes=16.0), log=None).search(
        state, playouts=5000) for _ in range(2)]
    assert [c.visits for c in runs[0].children] == [c.visits for c in runs[1].children]


def test_a_reused_root_proven_by_the_solver_is_proven_again_by_its_moves():
    # After our move and a reply, the tree's node for the new position was proven by the
    # solver without a proven winning move below it; the next search must find that move
    # (Tree.unprove_root) rather than return at once with the old, unproven children.
    from mcts.tree import NOT_PROVEN
    seen = 0
    for r in [r for r in ROWS if 14 <= int(r["plies"]) <= 20 and int(r["value"]) > 0]:
        engine = MCTS(GAME, SearchConfig(seed=2, threads=1), log=None)
        state, _ = GAME.play_record(r["moves"])
        first = engine.search(state, playouts=20_000)
        tree = engine.tree
        ours = tree.child_with_action(0, first.action)
        for reply in tree.children(ours):
            kids = tree.children(reply)
            if tree.proven[reply] == NOT_PROVEN or not len(kids) or (
                    tree.proven[kids.start:kids.stop] != NOT_PROVEN).any():
                continue
            s = state.copy()
            GAME.play(s, first.action)
            GAME.play(s, int(tree.action[reply]))
            engine.advance(first.action)
            engine.advance(int(tree.action[reply]))
            again = engine.search(s, playouts=20_000)
            assert again.proof is Proof.WIN and again.children[0].proof is Proof.WIN
            child = s.copy()
            GAME.play(child, again.action)
            assert solve(child, np.int64(10 ** 9), _table())[0] == FIRST_WINS + GAME.to_play(s)
            seen += 1
            break
        if seen == 3:
            return
    pytest.fail(f"only {seen} positions where the solver proved a reused root")


def test_a_solver_budget_is_refused_where_it_cannot_apply():
    from mcts.checks import check_config
    with pytest.raises(ValueError, match="go has no exact solver"):
        check_config(games.get("go"), SearchConfig(solve_nodes=8.0))
    for bad in (-1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="solve_nodes must be a number of at least 0, got "):
            check_config(GAME, SearchConfig(solve_nodes=bad))
    check_config(games.get("go"), SearchConfig(solve_nodes=0.0))     # off: fine anywhere
