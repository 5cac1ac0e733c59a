"""Ladders for Go's playouts and tree priors: whether a group that extends out of atari is
caught by the usual ladder, read on a copy of the board with one line and no branching (the
ladder reading of Pachi's and Fuego's playouts). The atari defence (games.go.policy) and the
board-wide assessment (games.go.assess) refuse an extension a ladder catches.

Functions take the state ``s`` and integers only (see games.go.board).
"""
import numpy as np
from numba import njit

from games.compiled import nrt_free
from games.go.board import (COLOR, EMPTY, F_HIST_AT, F_PAT3, F_SIZE, GROUP, NEXT, at, in_atari,
                            is_legal_point, place_stone)
from games.go.libs import count_around, libs3


@nrt_free
def _captures_next_to(s, w, g, c):
    """True if an enemy group touching ``c`` group ``g`` is in atari (``g`` can take it)."""
    x = g
    while True:
        for d in (1, -1, w, -w):
            y = x + d
            if s[at(y, COLOR)] == 3 - c and in_atari(s, s[at(y, GROUP)]):
                return True
        x = s[at(x, NEXT)]
        if x == g:
            break
    return False


@njit(cache=True)
def ladder_captured(s, w, p, c):
    """True if a ``c`` stone extended on ``p`` (the last liberty of a ``c`` group) is caught
    in a ladder: :func:`read_ladder` on a new copy of the board."""
    return read_ladder(s, w, p, c, np.empty(s[F_HIST_AT], dtype=np.int64))


@nrt_free
def read_ladder(s, w, p, c, t):
    """True if a ``c`` stone extended on ``p`` (the last liberty of a ``c`` group) is caught
    in a ladder: read on a copy in ``t`` (int64 scratch of at least ``s[F_HIST_AT]`` entries,
    the board and the empty list; neither the history nor the 3x3 codes are copied), the
    attacker ataris on the liberty that leaves the other one the fewest open points (the usual
    ladder), the defender extends, until the defender has three liberties or can capture an
    attacking group in atari (it escapes) or is left in atari after extending (it is
    captured). The ladder reading of Pachi's and Fuego's playouts, with one line and no
    branching."""
    for i in range(s[F_HIST_AT]):
        t[i] = s[i]
    t[F_PAT3] = 0                               # the copy has no room for the 3x3 codes
    place_stone(t, w, p, c, True)
    g = t[at(p, GROUP)]
    attacker = 3 - c
    for _ in range(4 * t[F_SIZE]):
        n, a, b = libs3(t, w, g)
        if n >= 3 or _captures_next_to(t, w, g, c):
            return False
        if n <= 1:
            return True
        hit = a                                 # atari on a leaves b, and the reverse:
        if not is_legal_point(t, w, a, attacker) or (    # leave the one with fewer open points
                is_legal_point(t, w, b, attacker)
                and count_around(t, w, a, EMPTY) < count_around(t, w, b, EMPTY)):
            hit = b
        if not is_legal_point(t, w, hit, attacker):
            return False
        place_stone(t, w, hit, attacker, True)
        if in_atari(t, t[at(hit, GROUP)]) or _captures_next_to(t, w, g, c):
            return False                        # the defender takes an attacking stone
        n, a, b = libs3(t, w, g)
        if n != 1:
            return n == 0
        if not is_legal_point(t, w, a, c):
            return True
        place_stone(t, w, a, c, True)
        g = t[at(a, GROUP)]
    return False
