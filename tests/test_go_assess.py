"""The board-wide assessment of Go groups for the tree prior (games.go.assess), on hand-built
9x9 positions whose answers are checked by hand from the rules of the module docstring (after
Pachi's ``playout_moggy_assess_group``), with the prior's unit of 20 virtual playouts.

Diagrams are drawn with row 9 at the top: ``X`` black, ``O`` white."""
import numpy as np
import pytest

from games.go import assess as ga
from games.go.board import F_TOMOVE
from games.go import Go
from games.go.twolib import QUEUE
from tests.test_go_rules import position

UNIT = 20


def assess(game, state):
    """{vertex: (virtual playouts, virtual wins)} for every point the groups suggest."""
    n, w = game.size, game.size + 2
    visits = np.zeros(w * w, dtype=np.int64)
    wins = np.zeros(w * w, dtype=np.int64)
    ga.assess_groups(state, w, state[F_TOMOVE] + 1, UNIT, visits, wins,
                     np.empty(QUEUE, dtype=np.int64))
    return {game.action_to_vertex((p // w - 1) * n + p % w - 1): (int(visits[p]), int(wins[p]))
            for p in range(w * w) if visits[p] or wins[p]}


THREE_IN_ATARI = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O O O . . .
. . . X X X O . .
. . . O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . ."""

LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . O X . . . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . ."""

TWO_LIBERTIES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . ."""


@pytest.mark.parametrize("to_play", [0, 1])
def test_a_group_in_atari_gives_its_liberty_two_units_and_half_a_unit_per_extra_stone(to_play):
    """Black's D5-F5 has one liberty, C5. White takes three stones there, Black extends to three
    liberties (B5, C4, C6): both get 2 units + 2 half units = 60 won; nothing else is short
    of liberties."""
    g = Go(9)
    assert assess(g, position(g, THREE_IN_ATARI, to_play)) == {"C5": (60, 60)}


def test_an_escape_caught_in_a_ladder_loses_and_a_ladder_breaker_makes_it_win():
    """White E4 ataris D4; D3 gives two liberties and the ladder runs to the lower left: one
    unit lost. A black stone on B2 breaks the ladder: the extension wins 2 units."""
    g = Go(9)
    s = position(g, LADDER, to_play=1)
    g.play(s, g.parse_move("E4", s))
    assert assess(g, s) == {"D3": (20, 0)}
    rows = LADDER.strip().splitlines()
    rows[7] = ". X . . . . . . ."
    s = position(g, "\n".join(rows), to_play=1)
    g.play(s, g.parse_move("E4", s))
    assert assess(g, s) == {"D3": (40, 40)}
    s = position(g, LADDER, to_play=1)        # White to move takes the lone stone: 2 units
    g.play(s, g.parse_move("E4", s))
    g.play(s, g.parse_move("H8", s))
    assert assess(g, s) == {"D3": (40, 40)}


@pytest.mark.parametrize("to_play", [0, 1])
def test_the_liberty_that_ladders_a_two_liberty_group_wins_a_unit_and_nothing_else(to_play):
    """D4 has two liberties, D3 and E4. White on E4 leaves the ladder of the test above (one
    unit won, for either side: the chase, or the extension that avoids it); White on D3 lets
    Black out through E4 towards the open side (E5, F4): no ladder, and no other move."""
    g = Go(9)
    assert assess(g, position(g, LADDER, to_play)) == {"E4": (20, 20)}


@pytest.mark.parametrize("to_play", [0, 1])
def test_a_two_liberty_group_gives_the_two_liberty_rule_half_a_unit(to_play):
    """White E5 between D5 and F5 has two liberties, E4 and E6, too far apart for a ladder:
    atari for Black, extension for White, on either side: half a unit each."""
    g = Go(9)
    assert assess(g, position(g, TWO_LIBERTIES, to_play)) == {"E4": (10, 10), "E6": (10, 10)}
