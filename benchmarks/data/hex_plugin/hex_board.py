"""The board of Hex as compiled helpers: the layout of the state, the six neighbours of a
cell, a union-find of the stones that knows when a player's edges are joined, and a flood fill
that names the winner of a full board. The kernels of ``hex_plugin`` call them.

State (int32), for an ``n`` x ``n`` board of ``m = n * n`` cells:

=============================  ============================================================
``state[SIZE]``                ``n``
``state[TO_PLAY]``             0 (Black) or 1 (White)
``state[STATUS]``              ``ONGOING``, ``FIRST_WINS`` (Black) or ``SECOND_WINS``
``state[PLY]``                 stones on the board
``state[CELLS + i]``           cell ``i = row * n + column``: ``EMPTY``, ``BLACK``, ``WHITE``
``state[CELLS + m + j]``       union-find parent of node ``j``: the ``m`` cells, then the four
                               edges (``m + TOP``, ``m + BOTTOM``, ``m + LEFT``, ``m + RIGHT``)
=============================  ============================================================

The board is a rhombus: cell ``(r, c)`` touches ``(r - 1, c)``, ``(r - 1, c + 1)``,
``(r, c - 1)``, ``(r, c + 1)``, ``(r + 1, c - 1)`` and ``(r + 1, c)``. Black joins the top
and bottom rows, White the left and right columns. A full board always has exactly one
winner (the Hex theorem), so there are no draws.
"""
import numpy as np

from games.compiled import nrt_free

SIZE, TO_PLAY, STATUS, PLY = 0, 1, 2, 3
CELLS = 4                                   # the header's length: cells start here
EMPTY, BLACK, WHITE, SEEN = 0, 1, 2, 3      # SEEN: marks a cell during a flood fill
TOP, BOTTOM, LEFT, RIGHT = 0, 1, 2, 3       # the edges, after the cells in the union-find
DR = np.array([-1, -1, 0, 0, 1, 1], dtype=np.int64)
DC = np.array([0, 1, -1, 1, -1, 0], dtype=np.int64)


def state_length(n):
    """Entries of the state of an ``n`` x ``n`` board."""
    return CELLS + 2 * n * n + 4


@nrt_free
def neighbour(n, cell, k):
    """Neighbour ``k`` (0-5) of ``cell`` on an ``n`` x ``n`` board, or -1 off the board."""
    r = cell // n + DR[k]
    c = cell % n + DC[k]
    if r < 0 or r >= n or c < 0 or c >= n:
        return np.int64(-1)
    return np.int64(r * n + c)


@nrt_free
def find(state, base, x):
    """The root of node ``x`` in the union-find whose parents start at ``state[base]``, with
    path halving."""
    while state[base + x] != x:
        parent = state[base + state[base + x]]
        state[base + x] = parent
        x = parent
    return np.int64(x)


@nrt_free
def union(state, base, a, b):
    """Join the sets of nodes ``a`` and ``b``."""
    ra = find(state, base, a)
    rb = find(state, base, b)
    if ra != rb:
        state[base + ra] = rb


@nrt_free
def place(state, cell, stone):
    """Put ``stone`` (``BLACK`` or ``WHITE``) on the empty ``cell``, join it to its
    neighbours of its colour and to the edges it touches; True if that joins its player's
    two edges."""
    n = np.int64(state[SIZE])
    m = n * n
    base = CELLS + m
    state[CELLS + cell] = stone
    for k in range(6):
        nb = neighbour(n, cell, k)
        if nb >= 0 and state[CELLS + nb] == stone:
            union(state, base, cell, nb)
    r, c = cell // n, cell % n
    if stone == BLACK:
        if r == 0:
            union(state, base, cell, m + TOP)
        if r == n - 1:
            union(state, base, cell, m + BOTTOM)
        return find(state, base, m + TOP) == find(state, base, m + BOTTOM)
    if c == 0:
        union(state, base, cell, m + LEFT)
    if c == n - 1:
        union(state, base, cell, m + RIGHT)
    return find(state, base, m + LEFT) == find(state, base, m + RIGHT)


@nrt_free
def black_joins_full_board(state, stack):
    """On a full board, does Black join top and bottom? A flood fill from Black's stones of
    the top row, ``stack`` (at least ``m`` int32 entries, here part of the state itself)
    holding the cells to visit; visited cells are marked ``SEEN`` (the board is spoilt)."""
    n = np.int64(state[SIZE])
    top = 0
    for c in range(n):
        if state[CELLS + c] == BLACK:
            state[CELLS + c] = SEEN
            state[stack + top] = c
            top += 1
    while top > 0:
        top -= 1
        cell = np.int64(state[stack + top])
        if cell // n == n - 1:
            return True
        for k in range(6):
            nb = neighbour(n, cell, k)
            if nb >= 0 and state[CELLS + nb] == BLACK:
                state[CELLS + nb] = SEEN
                state[stack + top] = nb
                top += 1
    return False
