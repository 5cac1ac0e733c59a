"""The position history of the Go board (games.go.board): the Zobrist hash after a move, the
positional-superko test against every position so far, and setup stones.

Functions take the state ``s`` and integers only (see :mod:`games.go.board`).
"""
from numba import njit

from games.compiled import nrt_free
from games.go.board import (COLOR, EMPTY, F_HASH, F_HIST_AT, F_HISTLEN, F_KO, F_MAXMOVES, F_MOVES,
                            F_PASSES, F_SIZE, GROUP, LIBS, MAX_PADDED, NEXT, NO_POINT, BLACK, WHITE,
                            ZOBRIST, at, in_atari, pat_at, place_stone)


@nrt_free
def hash_after(s, w, p, c):
    """Zobrist hash of the position after a legal ``c`` stone on ``p`` (state unchanged)."""
    h = s[F_HASH] ^ ZOBRIST[c * MAX_PADDED + p]
    enemy = 3 - c
    key = enemy * MAX_PADDED
    seen0 = -1
    seen1 = -1
    seen2 = -1
    k = 0
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] != enemy:
            continue
        g = s[at(q, GROUP)]
        if g != seen0 and g != seen1 and g != seen2 and in_atari(s, g):
            x = g
            while True:         # this group is captured: its stones leave the board
                h ^= ZOBRIST[key + x]
                x = s[at(x, NEXT)]
                if x == g:
                    break
        if k == 0:
            seen0 = g
        elif k == 1:
            seen1 = g
        else:
            seen2 = g
        k += 1
    return h


@nrt_free
def in_history(s, h):
    """True if hash ``h`` is one of the positions recorded so far."""
    h0 = s[F_HIST_AT]
    for i in range(s[F_HISTLEN]):
        if s[h0 + i] == h:
            return True
    return False


@nrt_free
def push_history(s):
    """Record the current position's hash; False (and nothing recorded) if the history is full."""
    k = s[F_HISTLEN]
    if s[F_HIST_AT] + k >= pat_at(s[F_SIZE] + 2, 0):        # the history ends at the 3x3 codes
        return False
    s[s[F_HIST_AT] + k] = s[F_HASH]
    s[F_HISTLEN] = k + 1
    return True


@njit(cache=True)
def setup_stones(s, points, cols):
    """Place stones of colours ``cols[i]`` on padded ``points[i]`` as one setup (no captures,
    not a move; one history entry for the resulting position). Returns 0, or 1 + the index of
    an occupied or repeated point, or -1 if some group is left without liberties, or -2 if the
    history has no room left. On failure ``s`` is left half-changed: callers use a copy."""
    w = s[F_SIZE] + 2
    if s[F_HIST_AT] + s[F_HISTLEN] + 1 + s[F_MAXMOVES] - s[F_MOVES] > pat_at(w, 0):
        return -2               # keep room in the history for every move still to come
    for i in range(points.shape[0]):
        p = points[i]
        if s[at(p, COLOR)] != EMPTY:
            return 1 + i
        place_stone(s, w, p, cols[i], False)
    for p in range(w * w):
        v = s[at(p, COLOR)]
        if (v == BLACK or v == WHITE) and s[at(s[at(p, GROUP)], LIBS)] == 0:
            return -1
    if not push_history(s):
        return -2
    s[F_KO] = NO_POINT
    s[F_PASSES] = 0
    return 0
