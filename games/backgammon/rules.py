"""Backgammon's state layout constants and move generation, in OpenSpiel's action encoding
(the layout, the encoding and the rules are described in :mod:`games.backgammon.kernels`).

Points are counted from the mover's side: ``r`` = 1-24 (home 1-6), 25 the bar, 0 borne off;
the mover's checkers are at ``state[b + r]`` and the opponent's at ``state[o + 25 - r]`` with
``b`` and ``o`` the bases (0 or ``SIDE``) of the mover's and the opponent's halves.
"""
import numpy as np
from numba import njit

from games.contract import CHANCE, ONGOING

CHECKERS = 15
BAR, OFF = 25, 0
SIDE = 26                       # entries per player in the state
TO_PLAY, DIE_LO, DIE_HI, DOUBLE_HALF, TURNS, PREV, STATUS, PLY, MAX_TURNS = range(52, 61)
STATE_LEN = 61
NUM_ACTIONS = 1352
LOW_FIRST = 676                 # added when the first checker move uses the lower die
NONE_DIGIT = 25                 # no checker move in this digit
PASS = NUM_ACTIONS - 1          # 25 * 26 + 25 + 676
OPENING_OUTCOMES, ROLL_OUTCOMES = 30, 36
# OpenSpiel's order of the 36 chance outcomes: the 30 ordered non-doubles, then the doubles.
ROLLS = np.array([[1, 2], [2, 1], [1, 3], [3, 1], [1, 4], [4, 1], [1, 5], [5, 1], [1, 6],
                  [6, 1], [2, 3], [3, 2], [2, 4], [4, 2], [2, 5], [5, 2], [2, 6], [6, 2],
                  [3, 4], [4, 3], [3, 5], [5, 3], [3, 6], [6, 3], [4, 5], [5, 4], [4, 6],
                  [6, 4], [5, 6], [6, 5], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6]],
                 dtype=np.int64)


@njit(cache=True)
def digit(player, r):
    """OpenSpiel's digit of ``player``'s point ``r`` (1-24, 25 the bar): ``pos`` or 24."""
    if r == BAR:
        return 24
    return 24 - r if player == 0 else r - 1


@njit(cache=True)
def point_of(player, dig):
    """``player``'s point number (1-24, 25 the bar) of OpenSpiel digit ``dig`` (0-24)."""
    if dig == 24:
        return BAR
    return 24 - dig if player == 0 else dig + 1


@njit(cache=True)
def outside(state, b):
    """How many checkers of the player at base ``b`` are outside their home (bar included)."""
    n = 0
    for r in range(7, 26):
        n += state[b + r]
    return n


@njit(cache=True)
def can_move(state, b, o, frm, d, out_home):
    """May the player at base ``b`` (opponent at base ``o``) move a checker from point
    ``frm`` (25: the bar) by die ``d``? ``out_home``: their checkers outside home."""
    if state[b + frm] == 0:
        return False
    if state[b + BAR] > 0 and frm != BAR:
        return False
    to = frm - d
    if to <= 0:
        if out_home > 0:
            return False
        if to == 0:
            return True
        for r in range(6, frm, -1):          # a larger die only from the farthest point
            if state[b + r] > 0:
                return False
        return True
    return state[o + 25 - to] <= 1


@njit(cache=True)
def move(state, b, o, frm, d):
    """Move a checker of the player at base ``b`` from ``frm`` by ``d`` (bearing off when it
    passes point 0), sending a hit blot of the opponent (base ``o``) to the bar; True if hit."""
    state[b + frm] -= 1
    to = frm - d
    if to <= 0:
        state[b + OFF] += 1
        return False
    state[b + to] += 1
    if state[o + 25 - to] == 1:
        state[o + 25 - to] = 0
        state[o + BAR] += 1
        return True
    return False


@njit(cache=True)
def unmove(state, b, o, frm, d, hit):
    """Undo :func:`move` (``hit``: its result)."""
    state[b + frm] += 1
    to = frm - d
    if to <= 0:
        state[b + OFF] -= 1
        return
    state[b + to] -= 1
    if hit:
        state[o + 25 - to] = 1
        state[o + BAR] -= 1


@njit(cache=True)
def _after(out_home, frm, d):
    """Checkers outside home after a move from ``frm`` by ``d``."""
    if frm >= 7 and frm - d <= 6:
        return out_home - 1
    return out_home


@njit(cache=True)
def generate(state, out):
    """Write the mover's legal actions (in OpenSpiel's encoding) to ``out`` (int32, length
    ``NUM_ACTIONS``); return how many. The state is changed and restored on the way."""
    p = np.int64(state[TO_PLAY])
    b = SIDE * p
    o = SIDE - b
    lo = np.int64(state[DIE_LO])
    hi = np.int64(state[DIE_HI])
    ndice = 1 if lo == hi else 2
    out_home = outside(state, b)
    n = 0
    singles = 0
    tail = out.shape[0] - 1                 # single moves are kept at the end of ``out``
    for frm in range(BAR, 0, -1):
        if state[b + frm] == 0:
            continue
        for k in range(ndice):
            d = hi if k == 0 else lo
            if not can_move(state, b, o, frm, d, out_home):
                continue
            d2 = lo if k == 0 else hi
            base = digit(p, frm) + (0 if k == 0 else LOW_FIRST)
            hit = move(state, b, o, frm, d)
            out2 = _after(out_home, frm, d)
            found = False
            for frm2 in range(BAR, 0, -1):
                if state[b + frm2] > 0 and can_move(state, b, o, frm2, d2, out2):
                    out[n] = base + 26 * digit(p, frm2)
                    n += 1
                    found = True
            unmove(state, b, o, frm, d, hit)
            if not found:
                out[tail - singles] = base + 26 * NONE_DIGIT
                singles += 1
    if n > 0:
        return n
    if singles == 0:
        out[0] = PASS
        return 1
    high = False                             # the higher die when it can be played
    for i in range(singles):
        if out[tail - i] < LOW_FIRST:
            high = True
    for i in range(singles):
        a = out[tail - i]
        if a < LOW_FIRST or not high:
            out[n] = a
            n += 1
    return n


@njit(cache=True)
def _any_pair(state, b, o, lo, hi):
    """Can the mover play two checker moves (one with each die, or two of a double)?"""
    out_home = outside(state, b)
    ndice = 1 if lo == hi else 2
    for frm in range(BAR, 0, -1):
        if state[b + frm] == 0:
            continue
        for k in range(ndice):
            d = hi if k == 0 else lo
            if not can_move(state, b, o, frm, d, out_home):
                continue
            d2 = lo if k == 0 else hi
            hit = move(state, b, o, frm, d)
            out2 = _after(out_home, frm, d)
            found = False
            for frm2 in range(BAR, 0, -1):
                if state[b + frm2] > 0 and can_move(state, b, o, frm2, d2, out2):
                    found = True
                    break
            unmove(state, b, o, frm, d, hit)
            if found:
                return True
    return False


@njit(cache=True)
def _any_single(state, b, o, d):
    out_home = outside(state, b)
    for frm in range(BAR, 0, -1):
        if can_move(state, b, o, frm, d, out_home):
            return True
    return False


@njit(cache=True)
def is_legal(state, action):
    """Is player action ``action`` one of :func:`generate`'s (without listing them)?"""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    p = np.int64(state[TO_PLAY])
    b = SIDE * p
    o = SIDE - b
    lo = np.int64(state[DIE_LO])
    hi = np.int64(state[DIE_HI])
    if action == PASS:
        return not (_any_single(state, b, o, lo) or _any_single(state, b, o, hi))
    high_first = action < LOW_FIRST
    x = action if high_first else action - LOW_FIRST
    first, second = x % 26, x // 26
    if first == NONE_DIGIT or (lo == hi and not high_first):
        return False
    d1 = hi if high_first else lo
    d2 = lo if high_first else hi
    frm = point_of(p, first)
    out_home = outside(state, b)
    if not can_move(state, b, o, frm, d1, out_home):
        return False
    if second != NONE_DIGIT:
        hit = move(state, b, o, frm, d1)
        ok = can_move(state, b, o, point_of(p, second), d2, _after(out_home, frm, d1))
        unmove(state, b, o, frm, d1, hit)
        return ok
    if _any_pair(state, b, o, lo, hi):
        return False
    return high_first or not _any_single(state, b, o, hi)



def new_state(max_turns=500):
    """The initial position (before the opening roll): int32[STATE_LEN]."""
    s = np.zeros(STATE_LEN, dtype=np.int32)
    for b in (0, SIDE):
        s[b + 24], s[b + 13], s[b + 8], s[b + 6] = 2, 5, 3, 5
    s[TO_PLAY] = CHANCE
    s[TURNS] = -1
    s[PREV] = -1
    s[STATUS] = ONGOING
    s[MAX_TURNS] = max_turns
    return s
