"""The search against exactly solved Connect Four positions (tests/data, see its README)."""
import csv
from pathlib import Path

import pytest

import games
from mcts import MCTS, SearchConfig

DATA = Path(__file__).parent / "data" / "connect4_positions.tsv"
G = games.get("connect4")
SEED = 1
END_PLAYOUTS = 100_000


def rows():
    with open(DATA) as f:
        out = list(csv.DictReader(f, delimiter="\t"))
    for r in out:
        r["plies"] = int(r["plies"])
        r["value"] = int(r["value"])
        r["scores"] = [None if s == "x" else int(s) for s in r["move_scores"].split(",")]
    return out


ROWS = rows()


@pytest.fixture(scope="module")
def engine():
    return MCTS(G, SearchConfig(seed=SEED), log=None)


def immediate_win_score(n):
    return (43 - n) // 2


def immediate_loss_score(n):
    return -((42 - n) // 2)


def keeps_outcome(row, action):
    score, value = row["scores"][action], row["value"]
    return (score > 0) == (value > 0) and (score == 0) == (value == 0)


def test_plays_an_immediate_win_wherever_there_is_one(engine):
    cases = [r for r in ROWS if immediate_win_score(r["plies"]) in r["scores"]]
    assert len(cases) > 50
    for r in cases:
        state, _ = G.play_record(r["moves"])
        result = engine.search(state, playouts=20_000)
        assert r["scores"][result.action] == immediate_win_score(r["plies"]), r["moves"]


def opponent_threatens(state):
    """True if the opponent, were it to move now, could complete four at once."""
    swapped = state.copy()
    swapped[0] ^= swapped[1]          # stones of the opponent become the side to move
    swapped[2] += 1
    for col in G.legal_actions(swapped):
        if G.play(swapped.copy(), int(col)) in (1, 2):
            return True
    return False


def test_blocks_an_immediate_threat(engine):
    """The opponent threatens to win at once, we cannot win at once, and some move avoids an
    immediate loss (one threat, not two): the search must pick such a move."""
    cases = []
    for r in ROWS:
        state, _ = G.play_record(r["moves"])
        loss = immediate_loss_score(r["plies"])
        if (opponent_threatens(state) and immediate_win_score(r["plies"]) not in r["scores"]
                and any(s is not None and s != loss for s in r["scores"])):
            cases.append(r)
    assert len(cases) > 20
    for r in cases:
        state, _ = G.play_record(r["moves"])
        result = engine.search(state, playouts=50_000)
        assert r["scores"][result.action] != immediate_loss_score(r["plies"]), r["moves"]


def test_keeps_the_outcome_in_end_positions(engine):
    """At 100,000 playouts and seed 1 the chosen move keeps the exact outcome in >= 90 %."""
    end = [r for r in ROWS if r["plies"] >= 28]
    assert len(end) == 150
    kept = 0
    for r in end:
        state, _ = G.play_record(r["moves"])
        kept += keeps_outcome(r, engine.search(state, playouts=END_PLAYOUTS).action)
    assert kept / len(end) >= 0.90, f"{kept}/{len(end)}"


def test_solver_proofs_agree_with_the_exact_values(engine):
    """MCTS-Solver: on every end position a proof, when found, has the sign of the exact value,
    a proven win is played with a winning move, and most positions get proven."""
    proven = 0
    for r in (r for r in ROWS if r["plies"] >= 28):
        state, _ = G.play_record(r["moves"])
        result = engine.search(state, playouts=200_000)
        expected = "win" if r["value"] > 0 else ("draw" if r["value"] == 0 else "loss")
        if result.proof:
            proven += 1
            assert result.proof == expected, r["moves"]
            assert result.plies >= 1
            if expected == "win":
                assert r["scores"][result.action] > 0, r["moves"]
    assert proven >= 120


def test_solve_win_stops_early(engine):
    # From the data README: O to move wins (column 4 fastest, column 6 slower).
    state, _ = G.play_record("21654512623411561522354715467")
    result = engine.search(state, playouts=1_000_000)
    assert result.proof == "win" and result.move in ("4", "6")
    assert result.playouts < 1_000_000 and result.value == 1.0


def test_solve_immediate_win_in_one_ply(engine):
    state, _ = G.play_record("15564727745664633327775164234")
    result = engine.search(state, playouts=10_000)
    assert (result.proof, result.plies, result.move) == ("win", 1, "2")
