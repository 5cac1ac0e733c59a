"""Connect Four rules: wins in every direction (edges included), full columns, the full-board
draw, notation, and legal moves checked against the solved positions in tests/data."""
import csv
from pathlib import Path

import numpy as np
import pytest

import games
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.rng import new_rng, random_below

DATA = Path(__file__).parent / "data" / "connect4_positions.tsv"
G = games.get("connect4")


def reference_winner(grid):
    """Independent four-in-a-row scan of a (6, 7) grid (0 empty, 1 X, 2 O): 0, 1 or 2."""
    rows, cols = grid.shape
    for r in range(rows):
        for c in range(cols):
            p = grid[r, c]
            if not p:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                rr, cc = r + 3 * dr, c + 3 * dc
                if 0 <= rr < rows and 0 <= cc < cols and all(
                        grid[r + i * dr, c + i * dc] == p for i in range(4)):
                    return int(p)
    return 0


def status_after(record):
    state, _ = G.play_record(record)
    return G.status(state)


@pytest.mark.parametrize("record, expected", [
    ("1122334", FIRST_WINS),          # horizontal, bottom row, left edge
    ("7766554", FIRST_WINS),          # horizontal, bottom row, right edge
    ("1212121", FIRST_WINS),          # vertical, left edge
    ("71711616151", FIRST_WINS),      # vertical reaching the top row
    ("12237334444", FIRST_WINS),      # diagonal rising to the right from the corner
    ("76651554444", FIRST_WINS),      # diagonal rising to the left from the corner
    ("444444555555666666177777" "17", SECOND_WINS),   # O: top row, right edge
])
def test_wins_in_each_direction(record, expected):
    state, _ = G.play_record(record[:-1])
    assert G.status(state) == ONGOING
    assert reference_winner(G.cells(state)) == 0
    st = G.play(state, int(record[-1]) - 1)
    assert st == expected
    assert reference_winner(G.cells(state)) == expected


def test_full_column_is_illegal():
    state, _ = G.play_record("444444")
    assert list(G.legal_actions(state)) == [0, 1, 2, 4, 5, 6]
    with pytest.raises(ValueError, match="column 4 is full"):
        G.parse_move("4", state)
    assert G.kernels.apply_action(state.copy(), 3) == ILLEGAL


def test_full_board_draw():
    record = "123413711243276242214355351754735567476666"   # a seeded random game
    state, _ = G.play_record(record[:-1])
    assert G.status(state) == ONGOING
    assert G.play(state, int(record[-1]) - 1) == DRAW
    assert reference_winner(G.cells(state)) == 0 and (G.cells(state) > 0).all()
    assert len(G.legal_actions(state)) == 0


@pytest.mark.parametrize("text, message", [
    ("0", "not a column"), ("8", "not a column"), ("x", "not a column"),
    ("", "not a column"), ("44", "not a column"), ("-1", "not a column"),
])
def test_parse_errors(text, message):
    with pytest.raises(ValueError, match=message):
        G.parse_move(text, G.initial_state())


def test_record_errors_name_the_move():
    with pytest.raises(ValueError, match="move 3"):
        G.play_record("44x5")
    with pytest.raises(ValueError, match="move 7.*full"):
        G.play_record("4444444")
    with pytest.raises(ValueError, match="over"):
        G.play_record("12121212")


def test_moves_after_the_end_are_rejected():
    state, _ = G.play_record("1212121")
    assert len(G.legal_actions(state)) == 0
    assert G.kernels.apply_action(state.copy(), 4) == ILLEGAL


def test_parse_and_format_round_trip():
    state = G.initial_state()
    for a in range(7):
        assert G.parse_move(G.format_move(a), state) == a


def test_random_games_agree_with_reference_scan():
    """Status after every move of 300 seeded random games equals an independent grid scan."""
    rng = new_rng(7)
    for _ in range(300):
        state = G.initial_state()
        while G.status(state) == ONGOING:
            legal = G.legal_actions(state)
            G.play(state, int(legal[random_below(rng, len(legal))]))
            grid = G.cells(state)
            winner = reference_winner(grid)
            plies = int((grid > 0).sum())
            expected = winner if winner else (DRAW if plies == 42 else ONGOING)
            assert G.status(state) == expected
            assert G.to_play(state) == plies % 2


def test_legal_moves_match_the_solved_positions():
    """Full columns are exactly the `x` entries of move_scores in tests/data."""
    with open(DATA) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 375
    for row in rows:
        state, _ = G.play_record(row["moves"])
        expected = [i for i, s in enumerate(row["move_scores"].split(",")) if s != "x"]
        assert list(G.legal_actions(state)) == expected
        assert G.to_play(state) == int(row["plies"]) % 2


def test_state_shape_and_dtype():
    state = G.initial_state()
    assert state.shape == (5,) and state.dtype == np.uint64
