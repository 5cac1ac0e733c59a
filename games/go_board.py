"""The Go board machinery behind :mod:`games.go`: state layout, incremental groups, scoring.

Everything here works on one flat ``int64`` state array (layout below) and is compiled with
numba. :mod:`games.go` builds the contract kernels and the Python face on top of it; read its
docstring first for the rules.

State layout (``n`` = board size, ``w = n + 2``, ``P = w * w`` padded points)::

    [0, HEADER)          header fields F_* (size, player to move, ko point, passes, ...)
    COLOR   [P]          EMPTY, BLACK, WHITE or BORDER for every padded point
    GROUP   [P]          for a stone: id of its group (the id is one of the group's points)
    NEXT    [P]          for a stone: next stone of the same group (circular list)
    LIBS    [P]          for a group id: pseudo-liberty count (stone, empty neighbour) pairs
    LSUM    [P]          for a group id: sum of its pseudo-liberty points
    LSQ     [P]          for a group id: sum of squares of its pseudo-liberty points
    GSIZE   [P]          for a group id: number of stones
    EPOS    [P]          for an empty point: its index in EMPTY
    EMPTY   [n*n]        the empty points (first F_NEMPTY entries), in no particular order
    HIST    [MAXMOVES + 1 + n*n]   Zobrist hashes of every position so far (F_HISTLEN used)

Points are padded indices ``p = (row + 1) * w + col + 1`` with row 0 at the top; the border
ring holds BORDER so neighbours are simply ``p ± 1`` and ``p ± w`` with no bounds tests.

A group is in atari (exactly one liberty) iff ``LSUM² == LIBS · LSQ``: by Cauchy-Schwarz the
pseudo-liberty points are then all the same point, which is ``LSUM // LIBS``. That gives O(1)
atari, capture and suicide tests without liberty sets. Merging two groups relabels the smaller.

The Zobrist hash (header F_HASH) covers the stones only (positional superko); HIST holds the
hash after every move or setup, starting with the empty board.
"""
import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
ILLEGAL, ONGOING, FIRST_WINS, SECOND_WINS, DRAW = -1, 0, 1, 2, 3   # as in games.base

MIN_SIZE, MAX_SIZE = 5, 19
MAX_PADDED = (MAX_SIZE + 2) ** 2
NO_POINT = 0            # padded point 0 is a border corner: never a board point ("no ko")

# Header fields.
F_SIZE = 0          # board size n
F_TOMOVE = 1        # player to move: 0 Black, 1 White (colour = F_TOMOVE + 1)
F_KO = 2            # point the player to move may not play (simple ko), or NO_POINT
F_PASSES = 3        # consecutive passes just played
F_MOVES = 4         # moves played (passes included, setup stones not)
F_CAPS_B = 5        # white stones captured by Black
F_CAPS_W = 6        # black stones captured by White
F_KOMI2 = 7         # twice the komi (an integer)
F_STATUS = 8        # ONGOING or the final status
F_HASH = 9          # Zobrist hash of the stones on the board
F_HISTLEN = 10      # entries used in HIST
F_NEMPTY = 11       # entries used in EMPTY
F_MAXMOVES = 12     # move cap: the game ends and is scored after this many moves
F_STONES_B = 13     # black stones on the board
F_STONES_W = 14     # white stones on the board
F_LAST = 15         # last action played (-1: none yet)
F_HANDICAP = 16     # fixed handicap stones placed at the start (information only)
HEADER = 20

_KEYS = np.random.default_rng(0x60B0A4D).integers(
    -(2 ** 63), 2 ** 63 - 1, size=3 * MAX_PADDED, dtype=np.int64)
_KEYS[:MAX_PADDED] = 0          # colour 0 (empty) hashes to nothing
ZOBRIST = _KEYS                 # ZOBRIST[colour * MAX_PADDED + p], a fixed table (~10 kB)


@njit(cache=True)
def max_moves(n):
    """The move cap for board size ``n``: 3 n² moves (passes included)."""
    return 3 * n * n


@njit(cache=True)
def layout(n):
    """Offsets ``(COLOR, GROUP, NEXT, LIBS, LSUM, LSQ, GSIZE, EPOS, EMPTY, HIST, total length)``."""
    w = n + 2
    pp = w * w
    o_color = HEADER
    o_empty = HEADER + 8 * pp
    o_hist = o_empty + n * n
    total = o_hist + max_moves(n) + 1 + n * n
    return (o_color, o_color + pp, o_color + 2 * pp, o_color + 3 * pp, o_color + 4 * pp,
            o_color + 5 * pp, o_color + 6 * pp, o_color + 7 * pp, o_empty, o_hist, total)


@njit(cache=True)
def views(s):
    """Named views into state ``s``:
    ``(color, group, nxt, libs, lsum, lsq, gsize, epos, empty, hist)``."""
    n = s[F_SIZE]
    pp = (n + 2) * (n + 2)
    o = layout(n)
    return (s[o[0]:o[0] + pp], s[o[1]:o[1] + pp], s[o[2]:o[2] + pp], s[o[3]:o[3] + pp],
            s[o[4]:o[4] + pp], s[o[5]:o[5] + pp], s[o[6]:o[6] + pp], s[o[7]:o[7] + pp],
            s[o[8]:o[9]], s[o[9]:o[10]])


def new_state(n, komi2):
    """A fresh state: empty ``n`` x ``n`` board, Black to move, komi ``komi2 / 2``."""
    o = layout(n)
    s = np.zeros(o[10], dtype=np.int64)
    w = n + 2
    s[F_SIZE] = n
    s[F_KOMI2] = komi2
    s[F_MAXMOVES] = max_moves(n)
    s[F_LAST] = -1
    s[F_KO] = NO_POINT
    color = s[o[0]:o[0] + w * w].reshape(w, w)
    color[:, :] = BORDER
    color[1:n + 1, 1:n + 1] = EMPTY
    points = np.array([(r + 1) * w + c + 1 for r in range(n) for c in range(n)], dtype=np.int64)
    s[o[8]:o[8] + n * n] = points
    s[o[7] + points] = np.arange(n * n)
    s[F_NEMPTY] = n * n
    s[o[9]] = 0                 # the empty board's hash
    s[F_HISTLEN] = 1
    s[F_STATUS] = ONGOING
    return s


@njit(cache=True)
def in_atari(libs, lsum, lsq, g):
    """True if group ``g`` has exactly one liberty."""
    return lsum[g] * lsum[g] == libs[g] * lsq[g]


@njit(cache=True)
def is_legal_point(color, group, libs, lsum, lsq, w, p, c):
    """True if a ``c`` stone on empty point ``p`` is not suicide (ko is the caller's business):
    it has an empty neighbour, joins a friendly group with another liberty, or captures."""
    for d in (1, -1, w, -w):
        q = p + d
        v = color[q]
        if v == EMPTY:
            return True
        if v != BORDER:
            atari = in_atari(libs, lsum, lsq, group[q])
            if (v == c) != atari:      # friend not in atari, or enemy in atari
                return True
    return False


@njit(cache=True)
def is_own_eye(color, w, p, c):
    """True if empty point ``p`` is an eye of colour ``c`` for the playout policy: all four
    neighbours are ``c`` stones or the edge, and the diagonals hold at most one enemy stone in
    the centre, none on the edge or in the corner (else it is a false eye)."""
    for d in (1, -1, w, -w):
        v = color[p + d]
        if v != c and v != BORDER:
            return False
    enemy = 0
    edge = 0
    for d in (w + 1, w - 1, 1 - w, -1 - w):
        v = color[p + d]
        if v == BORDER:
            edge = 1
        elif v != EMPTY and v != c:
            enemy += 1
    return enemy + edge < 2


@njit(cache=True)
def _take_empty(s, empty, epos, p):
    """Remove ``p`` from the empty-point list."""
    k = s[F_NEMPTY] - 1
    i = epos[p]
    last = empty[k]
    empty[i] = last
    epos[last] = i
    s[F_NEMPTY] = k


@njit(cache=True)
def _give_empty(s, empty, epos, p):
    """Append ``p`` to the empty-point list."""
    k = s[F_NEMPTY]
    empty[k] = p
    epos[p] = k
    s[F_NEMPTY] = k + 1


@njit(cache=True)
def _merge(group, nxt, libs, lsum, lsq, gsize, a, b):
    """Merge groups ``a`` and ``b`` (distinct ids); return the surviving id."""
    if gsize[a] < gsize[b]:
        a, b = b, a
    x = b
    while True:                 # relabel the smaller group
        group[x] = a
        x = nxt[x]
        if x == b:
            break
    nxt[a], nxt[b] = nxt[b], nxt[a]     # splice the two circular lists
    libs[a] += libs[b]
    lsum[a] += lsum[b]
    lsq[a] += lsq[b]
    gsize[a] += gsize[b]
    return a


@njit(cache=True)
def _remove_group(s, color, group, nxt, libs, lsum, lsq, epos, empty, w, g):
    """Take group ``g`` off the board; its neighbours gain the freed pseudo-liberties.
    Returns the number of stones removed (hash and stone counts are updated)."""
    c = color[g]
    h = s[F_HASH]
    base = c * MAX_PADDED
    count = 0
    x = g
    while True:
        color[x] = EMPTY
        h ^= ZOBRIST[base + x]
        _give_empty(s, empty, epos, x)
        for d in (1, -1, w, -w):
            q = x + d
            v = color[q]
            if (v == BLACK or v == WHITE) and group[q] != g:
                f = group[q]
                libs[f] += 1
                lsum[f] += x
                lsq[f] += x * x
        count += 1
        x = nxt[x]
        if x == g:
            break
    s[F_HASH] = h
    if c == BLACK:
        s[F_STONES_B] -= count
    else:
        s[F_STONES_W] -= count
    return count


@njit(cache=True)
def place_stone(s, color, group, nxt, libs, lsum, lsq, gsize, epos, empty, w, p, c, capture):
    """Put a ``c`` stone on empty point ``p`` and update groups, liberties, hash, stone counts
    and the empty list. With ``capture``, enemy groups left without liberties are removed and
    credited to ``c``; the new ko point is returned (``NO_POINT`` if none). Legality (occupied,
    ko, suicide, superko) is the caller's job."""
    color[p] = c
    s[F_HASH] ^= ZOBRIST[c * MAX_PADDED + p]
    _take_empty(s, empty, epos, p)
    if c == BLACK:
        s[F_STONES_B] += 1
    else:
        s[F_STONES_W] += 1
    group[p] = p
    nxt[p] = p
    gsize[p] = 1
    nl = 0
    ns = 0
    nq = 0
    for d in (1, -1, w, -w):
        q = p + d
        v = color[q]
        if v == EMPTY:
            nl += 1
            ns += q
            nq += q * q
        elif v != BORDER:       # any neighbouring group loses the pseudo-liberty at p
            g = group[q]
            libs[g] -= 1
            lsum[g] -= p
            lsq[g] -= p * p
    libs[p] = nl
    lsum[p] = ns
    lsq[p] = nq
    me = p
    for d in (1, -1, w, -w):
        q = p + d
        if color[q] == c and group[q] != me:
            me = _merge(group, nxt, libs, lsum, lsq, gsize, me, group[q])
    if not capture:
        return NO_POINT
    enemy = 3 - c
    captured = 0
    last = NO_POINT
    for d in (1, -1, w, -w):
        q = p + d
        if color[q] == enemy and libs[group[q]] == 0:
            captured += _remove_group(s, color, group, nxt, libs, lsum, lsq, epos, empty, w,
                                      group[q])
            last = q
    if captured == 0:
        return NO_POINT
    if c == BLACK:
        s[F_CAPS_B] += captured
    else:
        s[F_CAPS_W] += captured
    if captured == 1 and gsize[me] == 1 and libs[me] == 1:
        return last             # a single stone took a single stone and has one liberty
    return NO_POINT


@njit(cache=True)
def hash_after(s, color, group, nxt, libs, lsum, lsq, w, p, c):
    """Zobrist hash of the position after a legal ``c`` stone on ``p`` (state unchanged)."""
    h = s[F_HASH] ^ ZOBRIST[c * MAX_PADDED + p]
    enemy = 3 - c
    base = enemy * MAX_PADDED
    seen0 = -1
    seen1 = -1
    seen2 = -1
    k = 0
    for d in (1, -1, w, -w):
        q = p + d
        if color[q] != enemy:
            continue
        g = group[q]
        if g != seen0 and g != seen1 and g != seen2 and in_atari(libs, lsum, lsq, g):
            x = g
            while True:         # this group is captured: its stones leave the board
                h ^= ZOBRIST[base + x]
                x = nxt[x]
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


@njit(cache=True)
def in_history(s, hist, h):
    """True if hash ``h`` is one of the positions recorded so far."""
    for i in range(s[F_HISTLEN]):
        if hist[i] == h:
            return True
    return False


@njit(cache=True)
def push_history(s, hist):
    """Record the current position's hash (no-op if the history is full)."""
    k = s[F_HISTLEN]
    if k < hist.shape[0]:
        hist[k] = s[F_HASH]
        s[F_HISTLEN] = k + 1


@njit(cache=True)
def area(s, color, epos, empty, w):
    """Tromp-Taylor area ``(black, white)``: stones plus empty regions that reach only that
    colour. The regions are found by a breadth-first search done in place in the empty list
    (it is reordered, nothing is allocated): ``EMPTY[done:tail]`` is the region being grown,
    and an empty point is unvisited iff its index is ``>= tail``."""
    black = s[F_STONES_B]
    white = s[F_STONES_W]
    total = s[F_NEMPTY]
    done = 0
    while done < total:
        head = done
        tail = done + 1
        reach = 0
        while head < tail:
            x = empty[head]
            head += 1
            for d in (1, -1, w, -w):
                q = x + d
                v = color[q]
                if v == EMPTY:
                    j = epos[q]
                    if j >= tail:           # unvisited: swap it to the end of the region
                        r = empty[tail]
                        empty[tail] = q
                        epos[q] = tail
                        empty[j] = r
                        epos[r] = j
                        tail += 1
                elif v != BORDER:
                    reach |= v
        if reach == BLACK:
            black += tail - done
        elif reach == WHITE:
            white += tail - done
        done = tail
    return black, white


@njit(cache=True)
def final_status(s, color, epos, empty, w):
    """Score the position by area and komi; return FIRST_WINS, SECOND_WINS or DRAW."""
    black, white = area(s, color, epos, empty, w)
    diff2 = 2 * (black - white) - s[F_KOMI2]
    if diff2 > 0:
        return FIRST_WINS
    if diff2 < 0:
        return SECOND_WINS
    return DRAW


@njit(cache=True)
def setup_stones(s, points, c):
    """Place ``c`` stones on padded ``points`` as setup (no captures, not a move). Returns 0,
    or 1 + the index of an occupied or repeated point, or -1 if some group is left without
    liberties, or -2 if the history is full. On failure ``s`` is partly changed: callers work
    on a copy."""
    color, group, nxt, libs, lsum, lsq, gsize, epos, empty, hist = views(s)
    w = s[F_SIZE] + 2
    for i in range(points.shape[0]):
        p = points[i]
        if color[p] != EMPTY:
            return 1 + i
        place_stone(s, color, group, nxt, libs, lsum, lsq, gsize, epos, empty, w, p, c, False)
    for i in range(color.shape[0]):
        if (color[i] == BLACK or color[i] == WHITE) and libs[group[i]] == 0:
            return -1
    if s[F_HISTLEN] >= hist.shape[0]:
        return -2
    push_history(s, hist)
    s[F_KO] = NO_POINT
    s[F_PASSES] = 0
    return 0
