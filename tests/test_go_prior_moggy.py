"""Pachi's own prior terms (games.go_prior.moggy_terms, ``Go(prior_moggy=True)``) on
hand-built positions checked by hand: a bad self-atari and the move it gives way to, a
throw-in left alone, the ko point after a ko capture, the first and third lines of an empty
board.

Diagrams are drawn with row 1 at the bottom: ``X`` black, ``O`` white."""
import numpy as np

from games import go_prior as gpr
from games.go_game import Go
from tests.test_go_policy import padded, priors
from tests.test_go_rules import play_all, position
from tests.test_go_selfatari import ESCAPE

BLACK, WHITE = 1, 2
U = gpr.PRIOR_UNIT


def terms(game, state, colour):
    """``{vertex: (visits, wins)}`` of moggy_terms for ``colour``, points with a term only."""
    w = game.size + 2
    visits = np.zeros(w * w, dtype=np.int64)
    wins = np.zeros(w * w, dtype=np.int64)
    gpr.moggy_terms(state, w, colour, U, visits, wins)
    out = {}
    for a in range(game.size * game.size):
        v = game.format_move(a)
        p = padded(game, v)
        if visits[p] or wins[p]:
            out[v] = (int(visits[p]), int(wins[p]))
    return out


def test_empty_board_first_line_lost_third_line_won():
    """7x7, nothing on the board: every point of the first line (24) a unit lost, every point
    of the third line (the ring C3-E5 around D4, 8 points) a unit won, nothing else."""
    g = Go(7)
    got = terms(g, g.initial_state(), BLACK)
    first = {g.format_move(r * 7 + c) for r in range(7) for c in range(7)
             if min(r, c, 6 - r, 6 - c) == 0}
    third = {"C3", "C4", "C5", "D3", "D5", "E3", "E4", "E5"}
    assert len(first) == 24
    assert got == {**{v: (U, 0) for v in first}, **{v: (U, U) for v in third}}


def test_bad_self_atari_lost_and_its_cousin_won():
    """White A3-B3 has two liberties, A2 and B2 (tests.test_go_selfatari): B2 is a bad
    self-atari (a unit lost) that gives way to A2 (a unit won); a lone stone on A1 is a bad
    self-atari with no cousin. Edge terms only where no stone is within distance 2: the
    first line A7-G7, F1-G1 and G2-G6 (lost), the third line's E5 (won)."""
    g = Go(7)
    s = position(g, ESCAPE, to_play=1)
    edge = {v: (U, 0) for v in "A7 B7 C7 D7 E7 F7 G7 F1 G1 G2 G3 G4 G5 G6".split()}
    assert terms(g, s, WHITE) == {**edge, "E5": (U, U), "B2": (U, 0), "A2": (U, U),
                                  "A1": (U, 0)}


def test_a_throw_in_gets_no_malus_but_the_simple_prior_gives_one():
    """A white stone on A1 or B1 inside Black's eyeless group is a self-atari that ataris the
    group: Pachi's reading leaves it alone, the simple prior takes 2 units (the stone joins
    no white group: 1 unit) off it."""
    eyeless = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O . . .
        X X X O . . .
        X X X O . . .
        . . X O . . ."""
    g = Go(7)
    s = position(g, eyeless, to_play=1)
    got = terms(g, s, WHITE)
    assert "A1" not in got and "B1" not in got
    plain = priors(g, s, ["A1", "G7"])
    read = priors(Go(7, prior_moggy=True), position(Go(7, prior_moggy=True), eyeless, 1),
                  ["A1", "G7"])
    assert read["A1"] == (plain["A1"][0] - U, plain["A1"][1])
    assert read["G7"] == plain["G7"]


KO = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X O . . .
        . X O . O . .
        . . X O . . .
        . . . . . . ."""
TENUKI = "G7 A7 G6 A6 F7 B7 F6 B6 G5 A5 E7"


def test_the_ko_point_is_won_for_ten_moves():
    """Black D3 takes the white stone on C3 in a ko. Two moves later White may retake at C3
    (a unit won for White; the recapture is no self-atari); 11 moves later the ko is old and
    Black's C3, which connects, gets nothing."""
    g = Go(7)
    s = position(g, KO)
    play_all(g, s, "D3")
    soon = s.copy()
    play_all(g, soon, "G7 A7")
    assert terms(g, soon, WHITE)["C3"] == (U, U)
    play_all(g, s, TENUKI)
    assert "C3" not in terms(g, s, BLACK)


def test_off_by_default_and_in_the_prior_kernel_when_on():
    """The flag is off by default; on, the prior kernel adds the terms: on an empty 7x7
    board the third-line C3 gets a unit won more than the centre D4 and the first-line A1 a
    unit lost (the simple prior's half unit lost on the second line goes)."""
    assert Go(7).params["prior_moggy"] is False
    on = Go(7, prior_moggy=True)
    got = priors(on, on.initial_state(), ["A1", "B2", "C3", "D4"])
    even = (U, U / 2)
    assert got["D4"] == even and got["B2"] == even
    assert got["C3"] == (2 * U, 1.5 * U) and got["A1"] == (2 * U, U / 2)
