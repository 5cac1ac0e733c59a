"""Othello's bitboard primitives: bit ``8 * row + col`` is a square (see :mod:`games.othello.kernels`);
move generation and flips are shift-and-mask, all squares at once, one axis at a time."""
import numpy as np
from numba import njit

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_INNER = np.uint64(0x7E7E7E7E7E7E7E7E)    # every square but columns a and h
# One step along a line is a shift by 1 (a row), 8 (a column), 7 or 9 (the diagonals): towards
# higher bits (east, south, south-west, south-east) or lower bits (the opposite ways).
_E, _SW, _S, _SE = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_P = np.array([1, 2, 4, 8, 16, 32], dtype=np.uint64)


@njit(cache=True)
def popcount(b):
    """Number of set bits of ``b`` (uint64), as int64."""
    b = b - ((b >> _P[0]) & _M1)
    b = (b & _M2) + ((b >> _P[1]) & _M2)
    b = (b + (b >> _P[2])) & _M4
    b = b + (b >> _P[3])
    b = b + (b >> _P[4])
    b = b + (b >> _P[5])
    return np.int64(b & np.uint64(0x7F))


@njit(cache=True)
def _line_moves(own, opp, s):
    """Squares past a line of ``opp`` discs that starts next to an ``own`` disc, both ways along
    the axis of step ``s``. ``opp`` must exclude columns a and h unless ``s`` is 8: a line that
    is cut there cannot wrap from one row's edge to the next."""
    s2 = s + s
    pairs = opp & (opp << s)                  # opposing discs with another one a step before
    x = opp & (own << s)                      # lines of 1 ...
    x |= opp & (x << s)                       # ... up to 2
    x |= pairs & (x << s2)                    # ... up to 4
    x |= pairs & (x << s2)                    # ... up to 6, the longest possible
    moves = x << s
    pairs = opp & (opp >> s)                  # the same the other way
    x = opp & (own >> s)
    x |= opp & (x >> s)
    x |= pairs & (x >> s2)
    x |= pairs & (x >> s2)
    return moves | (x >> s)


@njit(cache=True)
def moves_of(own, opp):
    """Bitboard of the squares where the owner of ``own`` may move against ``opp``."""
    inner = opp & _INNER
    moves = (_line_moves(own, inner, _E) | _line_moves(own, opp, _S)
             | _line_moves(own, inner, _SW) | _line_moves(own, inner, _SE))
    return moves & ~(own | opp)


@njit(cache=True)
def _line_flips(own, opp, m, s):
    """Discs of ``opp`` flipped along the axis of step ``s`` by a disc put on bit ``m`` (``opp``
    masked as for :func:`_line_moves`)."""
    flips = _ZERO
    s2 = s + s
    pairs = opp & (opp << s)
    x = opp & (m << s)                        # the run of opposing discs next to m ...
    x |= opp & (x << s)
    x |= pairs & (x << s2)
    x |= pairs & (x << s2)
    if (x << s) & own:                        # ... flips if one of ours closes it
        flips |= x
    pairs = opp & (opp >> s)
    x = opp & (m >> s)
    x |= opp & (x >> s)
    x |= pairs & (x >> s2)
    x |= pairs & (x >> s2)
    if (x >> s) & own:
        flips |= x
    return flips


@njit(cache=True)
def flips_of(own, opp, m):
    """Discs of ``opp`` flipped by the owner of ``own`` playing on the square of bit ``m``."""
    inner = opp & _INNER
    return (_line_flips(own, inner, m, _E) | _line_flips(own, opp, m, _S)
            | _line_flips(own, inner, m, _SW) | _line_flips(own, inner, m, _SE))


@njit(cache=True)
def _nth_bit(b, k):
    """The ``k``-th lowest set bit of ``b`` (0-based), as a one-bit bitboard."""
    for _ in range(k):
        b &= b - _ONE
    return b & ~(b - _ONE)
