"""Self-atari reading for the playouts (games.go_selfatari) on hand-built positions whose
answers are checked by hand: a lone stone into atari, a group that should escape instead,
throw-ins and nakade that kill, a sacrifice that leaves a living straight four, the cousin
(the move instead) and the false-eye redirect; then the ko-selfatari policy end to end.

Diagrams are drawn with row 1 at the bottom: ``X`` black, ``O`` white."""
import numpy as np
import pytest

from games import go, go_board as gb, go_libs as gl, go_selfatari as gs
from games.contract import ONGOING
from games.go_game import Go
from games.rng import new_rng
from tests.test_go_policy import padded
from tests.test_go_rules import kernel_legal, position

BLACK, WHITE = 1, 2


def read(diagram, vertex, colour, seed=5):
    """``(bad self-atari?, self-atari?, cousin vertex or None)`` for ``colour`` at ``vertex``
    on a 7x7 board."""
    g = Go(7)
    s = position(g, diagram)
    w = g.size + 2
    scratch = np.empty(gs.SCRATCH, dtype=np.int64)
    p = padded(g, vertex)
    bad = gs.bad_self_atari_read(s, w, p, colour, scratch)
    q, _ = gs.cousin(s, w, p, colour, np.uint64(seed), scratch)
    return bad, gl.self_atari(s, w, p, colour), vertex_of(g, q)


def vertex_of(g, p):
    if p == gb.NO_POINT:
        return None
    w = g.size + 2
    return g.format_move((p // w - 1) * g.size + p % w - 1)


def test_a_lone_stone_into_atari_is_bad_and_has_no_cousin():
    """White D4 between three black stones: one liberty (D3), nothing in atari; the black
    stones have four liberties, so there is no two-liberty group to play next to instead."""
    snare = """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X . X . .
        . . . . . . .
        . . . . . . .
        . . . . . . ."""
    assert read(snare, "D4", WHITE) == (True, True, None)
    assert read(snare, "D4", BLACK) == (False, False, None)


ESCAPE = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X X . . . .
        O O X . . . .
        . . X . . . .
        . X X . . . ."""


def test_a_group_that_can_run_plays_its_other_liberty_instead():
    """White A3-B3 has two liberties, A2 and B2. B2 leaves it one (A2), yet A2 leads out to
    A1: bad, and the cousin is A2. A2 itself keeps two liberties (A1, B2): no self-atari."""
    assert read(ESCAPE, "B2", WHITE) == (True, True, "A2")
    assert read(ESCAPE, "A2", WHITE) == (False, False, None)


def test_a_throw_in_that_ataris_an_eyeless_group_is_good():
    """Black's group has only A1 and B1 inside; a white stone on either is a self-atari that
    puts the black group in atari, so it stays."""
    eyeless = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O . . .
        X X X O . . .
        X X X O . . .
        . . X O . . ."""
    assert read(eyeless, "A1", WHITE)[:2] == (False, True)
    assert read(eyeless, "B1", WHITE)[:2] == (False, True)


def test_nakade_in_a_three_point_eye_is_good():
    """White B1 sits in Black's eye A1-B1-C1, the black group has no outside liberty: A1 or
    C1 next to it ataris the group, and the two stones captured leave a dead eye."""
    three = """
        . . . . . . .
        . . . . . . .
        O O O O . . .
        X X X O . . .
        X X X O . . .
        X X X X O . .
        . O . X O . ."""
    assert read(three, "A1", WHITE) == (False, True, "C1")
    assert read(three, "C1", WHITE) == (False, True, "A1")


@pytest.mark.parametrize("vertex, bad", [("E1", True), ("A1", True)])
def test_a_sacrifice_that_leaves_a_straight_four_is_bad(vertex, bad):
    """Black's eye A1-E1 holds white B1-D1; either end makes four white stones in atari, and
    once captured they leave a straight four, which lives."""
    five = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O O O O O O
        X X X X X X O
        X X X X X X O
        . O O O . X O"""
    assert read(five, vertex, WHITE)[:2] == (bad, True)


def test_a_sacrifice_that_leaves_a_bent_three_is_good():
    """Black's eye A1-D1 holds white B1-C1: D1 makes three white stones in atari whose
    capture leaves three points in a row, which White kills at the middle."""
    four = """
        . . . . . . .
        . . . . . . .
        O O O O O O .
        X X X X X O .
        X X X X X O .
        X X X X X O .
        . O O . X O ."""
    assert read(four, "D1", WHITE)[:2] == (False, True)


@pytest.mark.parametrize("row2, expected", [
    (". X O X . . .", "C3"),     # white C2 in atari (liberty C3): capture it
    (". X O . . . .", "D2"),     # two liberties, D2 and C3: atari it from D2 (read first)
    (". X X . . . .", None),     # no enemy stone on a diagonal: a true eye, no redirect
])
def test_filling_a_false_eye_gives_way_to_the_capture_or_atari_next_to_it(row2, expected):
    """B1 is surrounded by black stones (A1, C1, B2); white C2 on its diagonal makes it a
    false eye, and Black plays next to C2 instead of filling it."""
    g = Go(7)
    s = position(g, "\n".join([". . . . . . ."] * 5 + [row2, "X . X . . . ."]))
    scratch = np.empty(gs.SCRATCH, dtype=np.int64)
    p = gs.eyefill_redirect(s, g.size + 2, padded(g, "B1"), BLACK, scratch)
    assert vertex_of(g, p) == expected


def test_the_reading_only_ever_refuses_self_ataris():
    """On positions from random games, every legal point with two empty neighbours or more
    is never read as bad, and every point read as bad is a self-atari by games.go_libs."""
    g = Go(9)
    w = g.size + 2
    rng = np.random.default_rng(4)
    scratch = np.empty(gs.SCRATCH, dtype=np.int64)
    bad_seen = 0
    for _ in range(6):
        s = g.initial_state()
        while g.status(s) == ONGOING:
            c = g.to_play(s) + 1
            for a in kernel_legal(g, s) - {g.pass_action}:
                p = (a // g.size + 1) * w + a % g.size + 1
                bad = gs.bad_self_atari_read(s, w, p, c, scratch)
                if bad:
                    bad_seen += 1
                    assert gl.self_atari(s, w, p, c)
                if gl.count_around(s, w, p, gb.EMPTY) >= 2:
                    assert not bad
            moves = [a for a in g.legal_actions(s) if a != g.pass_action]
            g.play(s, int(rng.choice(moves)) if moves else g.pass_action)
    assert bad_seen > 50


@pytest.mark.parametrize("policy", ["ko-selfatari", "shapes-selfatari", "rated-selfatari",
                                    "rated-tactics-selfatari"])
def test_selfatari_policies_play_legal_moves_and_finish(policy):
    """The policies' moves are legal and never fill the mover's own eye; seeded rollouts
    from the empty board end, and the same seed gives the same final position."""
    g = Go(9, playout_policy=policy)
    rng, pick = np.random.default_rng(2), new_rng(2)
    s = g.initial_state()
    for _ in range(40):
        legal = kernel_legal(g, s)
        candidates = {a for a in legal if a != g.pass_action and not g.is_own_eye(s, a)}
        assert {int(go.playout_action(s, pick)) for _ in range(30)} <= (
            candidates | {g.pass_action})
        moves = [a for a in g.legal_actions(s) if a != g.pass_action]
        g.play(s, int(rng.choice(moves)))
    ends = []
    for _ in range(2):
        t = g.initial_state()
        assert go.rollout(t, new_rng(11)) != ONGOING
        ends.append(t)
    assert np.array_equal(ends[0], ends[1])
