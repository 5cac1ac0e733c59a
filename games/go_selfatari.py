"""Which self-ataris Go's playouts refuse, and the nakade fill-ins they still allow.

A random move that leaves its own group of two stones or more in atari, capturing nothing,
is nearly always a blunder, and the ``patterns`` policies refuse it (a lone stone in atari
may be a throw-in, and stays allowed). But refusing every such move also refuses how a
group with one large eye is killed: the attacker fills the eye space until the defender,
put in atari by the filling stones, must capture them and is left with a dead shape. If
neither side may fill, a dead group survives to the end of the playout and counts as alive.

So a self-atari of two to five stones is allowed when it is such a nakade (after the rules
of Pachi's ``is_bad_selfatari``, Baudiš and Gailly 2011, "Pachi: State of the art open
source Go program"; written here in a smaller form):

* it puts an enemy group in atari: every enemy group next to the move has two liberties,
  the move and one same other point ``L``, and the mover's own group is left with ``L``
  as its only liberty, so the enemy must capture there;
* ``L`` is inside: its empty neighbours are only the move, and the only friendly stones
  next to it belong to the group the move makes (else connecting is the better move);
* the captured stones leave a dead eye space: three points or fewer, the square or the T
  of four, the cross or the bulky five of :mod:`games.go_nakade`.

Functions take the state ``s`` and integers only (see :mod:`games.go_board`).
"""
import numpy as np
from numba import njit

from games.go_board import COLOR, EMPTY, GROUP, GSIZE, NEXT, NO_POINT, at
from games.go_libs import libs3, self_atari
from games.go_nakade import MAX_EYE, dead_shape

_MOST = MAX_EYE         # the largest group a nakade fill-in may make


@njit(cache=True)
def _other_liberty(s, w, p, c):
    """The point ``L`` of the module docstring for a ``c`` stone on ``p``, or NO_POINT when
    the move puts no enemy group in atari or the enemy groups it does disagree on ``L``."""
    lib2 = NO_POINT
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] != 3 - c:
            continue
        n, a, b = libs3(s, w, s[at(q, GROUP)])
        if n != 2:
            return NO_POINT     # an enemy group the move does not atari: no nakade
        other = b if a == p else a
        if lib2 != NO_POINT and other != lib2:
            return NO_POINT
        lib2 = other
    return lib2


@njit(cache=True)
def _group_points(s, w, p, c, region):
    """The points of the group a ``c`` stone on ``p`` would make, written to ``region``
    (int64, ``_MOST`` entries); returns their number, or 0 if more than ``_MOST``."""
    region[0] = p
    size = 1
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] != c:
            continue
        g = s[at(q, GROUP)]
        seen = False
        for i in range(1, size):
            if s[at(region[i], GROUP)] == g:
                seen = True
        if seen:
            continue
        if size + s[at(g, GSIZE)] > _MOST:
            return 0
        x = g
        while True:
            region[size] = x
            size += 1
            x = s[at(x, NEXT)]
            if x == g:
                break
    return size


@njit(cache=True)
def nakade_fill(s, w, p, c, region):
    """True if a ``c`` stone on empty ``p``, a self-atari, is a nakade fill-in (the module
    docstring); ``region``: int64 scratch of ``MAX_EYE`` entries."""
    lib2 = _other_liberty(s, w, p, c)
    if lib2 == NO_POINT:
        return False
    size = _group_points(s, w, p, c, region)
    if size < 2:
        return False
    for i in range(size):                   # the group's only liberty must be lib2
        for d in (1, -1, w, -w):
            q = region[i] + d
            if s[at(q, COLOR)] == EMPTY and q != p and q != lib2:
                return False
    for d in (1, -1, w, -w):                # lib2 inside, touching no other friendly group
        q = lib2 + d
        v = s[at(q, COLOR)]
        if v == EMPTY and q != p:
            return False
        if v == c:
            own = False
            for i in range(size):
                if region[i] == q:
                    own = True
            if not own:
                return False
    return dead_shape(w, region, size)


@njit(cache=True)
def bad_self_atari(s, w, p, c):
    """True if a ``c`` stone on empty ``p`` is a self-atari (:func:`games.go_libs.self_atari`)
    of two stones or more that is not a nakade fill-in (:func:`nakade_fill`)."""
    if not self_atari(s, w, p, c):
        return False
    joins = False
    for d in (1, -1, w, -w):
        if s[at(p + d, COLOR)] == c:
            joins = True
    if not joins:
        return False            # a lone stone: maybe a throw-in
    return not nakade_fill(s, w, p, c, np.empty(_MOST, dtype=np.int64))
