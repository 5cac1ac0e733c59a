"""The self-atari filter of the playouts (games.go_selfatari) on hand-built 7x7 positions:
a nakade fill-in of two to five stones is allowed, other self-ataris of two stones or more
are refused. Diagrams are drawn with row 7 at the top: ``X`` black, ``O`` white; Black is
to move."""
import pytest

from games.go_game import Go
from games.go_selfatari import bad_self_atari
from tests.test_go_policy import padded, picks
from tests.test_go_rules import position

# White's corner group has the eye space A1-B1-C1 and no outside liberty; Black has played
# its vital point B1. Either end (A1 or C1) makes two black stones in atari and puts White
# in atari too: White must capture, and the two captured points leave one eye. Dead group.
KILL = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X X X X . .
        O O O O X . .
        . X . O X . ."""


def _bad(diagram, vertex, colour=1):
    g = Go(7)
    s = position(g, diagram)
    return bool(bad_self_atari(s, g.size + 2, padded(g, vertex), colour))


@pytest.mark.parametrize("vertex", ["A1", "C1"])
def test_filling_a_dead_eye_space_is_allowed(vertex):
    assert not _bad(KILL, vertex)


def test_the_playouts_play_the_fill_in():
    g = Go(7)
    s = position(g, KILL)
    assert {"A1", "C1"} <= picks(g, s, draws=400)


def test_a_group_with_an_outside_liberty_is_not_atari_ed_so_the_fill_in_is_refused():
    # E1 empty: White keeps the liberty E1, the fill-in ataris nothing (a semeai).
    diagram = KILL.replace("O X . .\n", "O . . .\n").replace(". X . O X . .", ". X . O . . .")
    assert _bad(diagram, "A1") and _bad(diagram, "C1")


def test_a_fill_in_whose_other_liberty_leads_out_is_refused():
    # White's eye space is open (D1 empty, E1 empty): the black group's liberty C1 touches
    # the empty D1, so A1 fills from the outside and is refused; the lone-stone rule aside.
    diagram = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X X X X . .
        O O O O X . .
        . X . . . . ."""
    assert _bad(diagram, "A1")


def test_a_fill_in_that_leaves_a_living_eye_space_is_refused():
    # Black B1-C1-D1 inside White's eye space A1-E1; A1 or E1 makes four black stones in
    # atari and ataris White, but the captured points form a straight four: alive.
    diagram = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X X X X X X
        O O O O O O X
        . X X X . O X"""
    assert _bad(diagram, "A1") and _bad(diagram, "E1")
    # With White on E1 and D1 empty, A1 makes three stones in atari and ataris White: the
    # captured points form a straight three, dead. With D1 and E1 both empty White keeps a
    # third liberty, nothing is atari-ed, and A1 is refused again.
    assert not _bad(diagram.replace(". X X X . O X", ". X X . O O X"), "A1")
    assert _bad(diagram.replace(". X X X . O X", ". X X . . O X"), "A1")


def test_the_dead_corner_group_dies_in_the_playouts():
    # Before the fill-in rule no side could ever play A1 or C1 (both self-ataris of two
    # stones or more), so every playout ended with White's dead group alive. Now Black
    # fills, White must capture, and Black kills the two-point eye left.
    from games import go
    from games.go_board import COLOR, WHITE, at
    from games.rng import new_rng
    g = Go(7)
    start = position(g, KILL)
    rng = new_rng(5)
    dead = 0
    for _ in range(40):
        s = start.copy()
        go.rollout(s, rng)
        dead += int(s[at(padded(g, "A2"), COLOR)] != WHITE)
    assert dead == 40          # the code before: 0 of 40
