"""Board-wide tactical assessment of Go groups for the tree prior: every group short of liberties.

Before the points are judged one by one (:func:`games.go.prior.point_prior`), every group on
the board with one or two liberties, of either colour, suggests moves to the player ``c`` to
move, as the "assess" of Pachi's Moggy playout policy does for Pachi's tree (Baudiš and Gailly
2011, "Pachi: State of the art open source Go program"; ``playout_moggy_assess_group``). In
virtual playouts of ``unit`` (the prior's unit, Pachi's ``eqex``):

* a group in atari: for the attacker, taking its liberty; for its owner, capturing an enemy
  group in atari that touches it, or extending at its liberty if that leaves two liberties or
  more: ``2 unit`` won, plus ``unit / 2`` won for each stone of the group beyond the first (up
  to 15 stones). An extension caught in a ladder (:func:`games.go.ladder.ladder_captured`)
  gets ``unit`` lost instead;
* a group with two liberties that a stone on one of them would chase into a ladder: that
  liberty (the chase, or the defender's right extension), ``unit`` won, and nothing else for
  the group; otherwise the moves of the two-liberty rule (:func:`games.go.twolib.group_check`:
  ataris that are not hopeless, extensions, counter-captures), ``unit / 2`` won each.

Functions take the state ``s`` and integers only (see :mod:`games.go.board`).
"""
from numba import njit

from games.go.board import (BLACK, COLOR, EMPTY, F_HIST_AT, F_PAT3, F_SIZE, GROUP, NEXT, WHITE, at,
                            in_atari, is_legal_point, place_stone)
from games.go.libs import captures, count_around, liberties_after, liberty_of, libs3, playable
from games.go.ladder import ladder_captured
from games.go.twolib import group_check

MAX_STONES = 15


@njit(cache=True)
def _stones(s, g, most):
    """The stones of group ``g``, counted up to ``most``."""
    k = 0
    x = g
    while k < most:
        k += 1
        x = s[at(x, NEXT)]
        if x == g:
            break
    return k


@njit(cache=True)
def _atari(s, w, g, c, unit, visits, wins):
    """The moves around ``g``, a group in atari, for player ``c`` (module docstring)."""
    lib = liberty_of(s, g)
    won = 2 * unit + (_stones(s, g, MAX_STONES) - 1) * unit // 2
    if s[at(g, COLOR)] != c:
        if playable(s, w, lib, c):
            visits[lib] += won
            wins[lib] += won
        return
    counter = False
    x = g
    while True:
        for d in (1, -1, w, -w):
            y = x + d
            if s[at(y, COLOR)] == 3 - c and in_atari(s, s[at(y, GROUP)]):
                q = liberty_of(s, s[at(y, GROUP)])
                if playable(s, w, q, c):
                    visits[q] += won
                    wins[q] += won
                    counter = True
        x = s[at(x, NEXT)]
        if x == g:
            break
    if not playable(s, w, lib, c):
        return
    libs = liberties_after(s, w, lib, c, 3)
    if libs < 2 and not captures(s, w, lib, c):
        return
    if not counter and libs == 2 and not captures(s, w, lib, c) and ladder_captured(s, w, lib, c):
        visits[lib] += unit
        return
    visits[lib] += won
    wins[lib] += won


@njit(cache=True)
def _would_be_ladder(s, w, g, escape, chase, owner):
    """True if an enemy stone on ``chase`` (a liberty of ``owner`` group ``g``, which has two)
    leaves ``g`` in atari and an extension on ``escape`` caught in a ladder. As Pachi's
    ``wouldbe_ladder``: only for liberties side by side or diagonal, and a chase point touching
    one ``owner`` stone and two empty points."""
    dr = abs(escape // w - chase // w)
    dc = abs(escape % w - chase % w)
    if dr > 1 or dc > 1:
        return False
    if count_around(s, w, chase, owner) != 1 or count_around(s, w, chase, EMPTY) != 2:
        return False
    if not is_legal_point(s, w, chase, 3 - owner):
        return False
    t = s[:s[F_HIST_AT]].copy()                 # the board and the empty list, no history
    t[F_PAT3] = 0                               # and no 3x3 codes
    place_stone(t, w, chase, 3 - owner, True)
    if in_atari(t, t[at(chase, GROUP)]) or not in_atari(t, t[at(g, GROUP)]):
        return False
    if not is_legal_point(t, w, escape, owner):
        return False
    return ladder_captured(t, w, escape, owner)


@njit(cache=True)
def assess_groups(s, w, c, unit, visits, wins, queue):
    """Add to ``visits`` and ``wins`` (int64 arrays indexed by padded point) the virtual
    playouts the groups short of liberties suggest to player ``c`` (module docstring);
    ``queue``: int64 scratch of :data:`games.go.twolib.QUEUE` entries."""
    n = s[F_SIZE]
    for r in range(1, n + 1):
        for col in range(1, n + 1):
            p = r * w + col
            v = s[at(p, COLOR)]
            if (v != BLACK and v != WHITE) or s[at(p, GROUP)] != p:
                continue
            k, a, b = libs3(s, w, p)
            if k == 1:
                _atari(s, w, p, c, unit, visits, wins)
            elif k == 2:
                ladder = False
                if _would_be_ladder(s, w, p, b, a, v):
                    visits[a] += unit
                    wins[a] += unit
                    ladder = True
                if _would_be_ladder(s, w, p, a, b, v):
                    visits[b] += unit
                    wins[b] += unit
                    ladder = True
                if ladder:
                    continue
                m = group_check(s, w, p, p, c, queue, 0)
                for i in range(m):
                    visits[queue[i]] += unit // 2
                    wins[queue[i]] += unit // 2
