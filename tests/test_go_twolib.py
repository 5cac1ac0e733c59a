"""The two-liberty check of the tree prior's assessment (games.go.twolib.group_check) on
hand-built 7x7 positions with hand-checked answers: attack, defence, hopeless extensions, miai,
and the defender's counter-atari. Diagrams are drawn with row 7 at the top: ``X`` black, ``O``
white; Black is to move."""
import numpy as np

from games.go import board as gb, twolib as gt
from games.go import Go
from tests.test_go_policy import padded
from tests.test_go_rules import position


def _moves(diagram, stone):
    """The moves the check suggests to Black for the group of the stone on ``stone``."""
    g = Go(7)
    s = position(g, diagram, to_play=0)
    n, w = g.size, g.size + 2
    group = s[gb.at(padded(g, stone), gb.GROUP)]
    queue = np.empty(gt.QUEUE, dtype=np.int64)
    k = gt.group_check(s, w, group, group, gb.BLACK, queue, 0)
    return {g.action_to_vertex((q // w - 1) * n + q % w - 1) for q in queue[:k]}


def test_black_ataris_a_white_stone_left_with_two_liberties():
    # White D4 has two liberties, D3 and E4, neither joining anything.
    assert _moves("""
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""", "D4") == {"D3", "E4"}


def test_black_extends_its_stone_where_the_extension_gains_liberties():
    # White C4 leaves Black D4 the liberties D3 and E4; E4 is a dead end (E5 and F4 are White:
    # one empty neighbour, E3), so only D3 extends. No white group near is short of liberties.
    assert _moves("""
        . . . . . . .
        . . . . . . .
        . . . O O . .
        . . O X . O .
        . . . . . . .
        . . . . . . .
        . . . . . . .""", "D4") == {"D3"}


def test_two_liberties_in_miai_are_left_alone():
    # White C4 leaves Black D4 the liberties D3 and E4. With Black D2 (four liberties) D3
    # joins it and E4 leads out: miai, so the check gives nothing; without D2 it takes D3 or
    # E4.
    diagram = """
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X . . .
        . . . . . . .
        . . . X . . .
        . . . . . . ."""
    assert _moves(diagram, "D4") == set()
    lines = diagram.strip().splitlines()
    lines[5] = "        . . . . . . ."
    assert _moves("\n".join(lines), "D4") == {"D3", "E4"}


def test_the_defender_also_takes_a_liberty_of_an_attacker_short_of_them():
    # White C5 leaves Black C4-D4 the liberties B4 and D3 (no miai). Black extends at either,
    # or takes a liberty of White C3, which has two (B3, D3; D3 is both).
    assert _moves("""
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . . X X O . .
        . . O . . . .
        . . X . . . .
        . . . . . . .""", "C4") == {"B4", "D3", "B3"}
