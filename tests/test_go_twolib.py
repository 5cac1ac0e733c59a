"""The two-liberty rule of the ``twolib`` playout policy (games.go_twolib) on hand-built 7x7
positions with hand-checked answers: attack, defence, hopeless extensions, miai, and the
defender's counter-atari. Diagrams are drawn with row 7 at the top: ``X`` black, ``O`` white;
White has just played the move named in each test, and Black is to move."""
from games.go_game import Go
from tests.test_go_policy import picks
from tests.test_go_rules import position


def _after(diagram, last, policy="twolib"):
    g = Go(7, playout_policy=policy)
    s = position(g, diagram, to_play=1)
    g.play(s, g.parse_move(last, s))
    return picks(g, s, draws=200)


# White D4 (just played) has two liberties, D3 and E4, neither joining anything.
ATTACK = """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."""


def test_black_ataris_a_white_stone_left_with_two_liberties():
    assert _after(ATTACK, "D4") == {"D3", "E4"}
    assert len(_after(ATTACK, "D4", policy="patterns")) > 2      # the rule is the difference


def test_black_extends_its_stone_where_the_extension_gains_liberties():
    # White C4 leaves Black D4 the liberties D3 and E4; E4 is a dead end (E5 and F4 are White:
    # one empty neighbour, E3), so only D3 extends. No white group near is short of liberties.
    assert _after("""
        . . . . . . .
        . . . . . . .
        . . . O O . .
        . . . X . O .
        . . . . . . .
        . . . . . . .
        . . . . . . .""", "C4") == {"D3"}


def test_two_liberties_in_miai_are_left_alone():
    # White C4 leaves Black D4 the liberties D3 and E4. With Black D2 (four liberties) D3
    # joins it and E4 leads out: miai, so the rule gives nothing and the policy plays as the
    # patterns policy does, a hane next to C4 (C3 or C5); without D2 it takes D3 or E4.
    diagram = """
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . . X . . .
        . . . . . . .
        . . . X . . .
        . . . . . . ."""
    assert _after(diagram, "C4") == _after(diagram, "C4", policy="patterns") == {"C3", "C5"}
    lines = diagram.strip().splitlines()
    lines[5] = "        . . . . . . ."
    assert _after("\n".join(lines), "C4") == {"D3", "E4"}


def test_the_defender_also_takes_a_liberty_of_an_attacker_short_of_them():
    # White C5 leaves Black C4-D4 the liberties B4 and D3 (no miai). Black extends at either,
    # or takes a liberty of White C3, which has two (B3, D3; D3 is both).
    assert _after("""
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . X X O . .
        . . O . . . .
        . . X . . . .
        . . . . . . .""", "C5") == {"B4", "D3", "B3"}
