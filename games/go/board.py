"""The Go board machinery behind :mod:`games.go.kernels`: state layout, incremental groups and
3x3 codes (the position history and setup stones: :mod:`games.go.history`).

Everything here works on one flat ``int64`` state array and is compiled with numba;
:mod:`games.go.kernels` builds the contract kernels on top of it (read its docstring first for
the rules) and :mod:`games.go.game` the Python face. Start with :func:`place_stone`. The area count of a final
position is in :mod:`games.go.area`.

State layout (``n`` = board size, ``w = n + 2``, ``P = w * w`` padded points)::

    s[0 : HEADER]               header fields F_* (size, player to move, ko point, passes, ...)
    s[at(p, 0) : at(p, 8)]      the record of padded point p, 8 fields (64 bytes):
        COLOR                   EMPTY, BLACK, WHITE or BORDER
        GROUP                   for a stone: id of its group (a point of the group)
        NEXT                    for a stone: next stone of the same group (circular list)
        LIBS, LSUM, LSQ         for a group id: pseudo-liberty count, sum and sum of squares
        GSIZE                   for a group id: number of stones
        EPOS                    for an empty point: its index in the empty list
    s[F_EMPTY_AT + i]           the empty points, i < s[F_NEMPTY], in no particular order
    s[F_HIST_AT + i]            hash of every position so far, i < s[F_HISTLEN]
                                (capacity: the move cap + 1 + n*n setup entries, up to
                                pat_at(w, 0))
    s[pat_at(w, p)]             with s[F_PAT3] set (enable_pat3), the 3x3 code of padded point
                                p (every board point, stone or empty; border entries are
                                scratch): the colours of its eight neighbours, 2 bits each
                                (games.go.policy.neighbourhood). Last, so that the board
                                copies of the ladder and the assessment (``s[:s[F_HIST_AT]]``,
                                F_PAT3 cleared) leave them out.

Points are padded indices ``p = (row + 1) * w + col + 1``, row 0 at the top; the border ring
holds BORDER so the neighbours are simply ``p ± 1`` and ``p ± w`` without bounds tests.

Pseudo-liberties count (stone, empty neighbour) pairs, so they are cheap to update: a stone
placed on p takes p away from each neighbouring group, a captured stone gives its point back.
The 3x3 codes are kept up to date the same way (as Pachi's board keeps its pat3 codes) once
enable_pat3 has set F_PAT3: a stone placed or removed on p adds or subtracts its colour at p's
slot in each of the eight neighbours' codes, so a pattern lookup reads one entry instead of
eight colours. They are off by default, so that the playouts that do not read them (the
default policy) pay one test a stone, not eight updates (measured: +9 % instructions a 9x9
playout when always on); the learned playout (games.go.learned) turns them on in its copy.
A group is in atari (exactly one liberty) iff ``LSUM² == LIBS · LSQ`` - by Cauchy-Schwarz all
its pseudo-liberties are then the same point - an O(1) atari, capture and suicide test without
liberty sets. Merging two groups relabels the smaller one.

The Zobrist hash (F_HASH) covers the stones only (positional superko); the history holds the
hash after every move or setup, starting with the empty board's 0.

Why one flat array read through ``s[at(p, FIELD)]`` rather than named views: numba counts
references on every array passed between functions, and those atomic increments cost more
than the Go logic itself (a playout was 4x slower with views). Helpers here take only ``s`` and
integers.
"""
import numpy as np
from numba import njit

from games.compiled import nrt_free
from games.contract import ONGOING

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3

MIN_SIZE, MAX_SIZE = 5, 19
MAX_PADDED = (MAX_SIZE + 2) ** 2
NO_POINT = 0            # padded point 0 is a border corner, never a board point: "no ko"

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
F_HISTLEN = 10      # positions recorded in the history
F_NEMPTY = 11       # empty points in the empty list
F_MAXMOVES = 12     # move cap: the game ends and is scored after this many moves
F_STONES_B = 13     # black stones on the board
F_STONES_W = 14     # white stones on the board
F_LAST = 15         # last action played (-1: none yet)
F_HANDICAP = 16     # fixed handicap stones placed at the start (information only)
F_EMPTY_AT = 17     # offset of the empty list
F_HIST_AT = 18      # offset of the history
F_POLICY = 19       # playout policy: POLICY_UNIFORM, or POLICY_PATTERNS and its options
F_PRIORS = 20       # new tree nodes' prior knowledge: 0 none, 1 on (games.go.prior and
                    # games.go.assess)
F_LASTKO = 21       # the ko point of the latest ko capture (NO_POINT: none yet)
F_LASTKO_AT = 22    # F_MOVES when that ko capture was played
F_PAT3 = 23         # 1: the 3x3 codes (pat_at) are kept up to date, 0: not (see enable_pat3)
HEADER = 24

# Playout policies: uniform (0) or the patterns policy (bit 0), which may first fight kos
# (bit 1: the ko policy) and may play on to the end without the mercy rule (bit 2).
POLICY_UNIFORM, POLICY_PATTERNS = 0, 1
POLICY_KO = 2           # first retake (or fill) a ko captured in the last KO_AGE moves
POLICY_FINISH = 4       # no mercy rule (games.go.playout): the playout fills the board to the end
POLICY_TREE = 8         # the search's moves too are the policy's candidates (no own-eye fill, no
                        # self-atari of 2+ stones; legal_actions): frontends.go_ownership

# Fields of a point record.
COLOR, GROUP, NEXT, LIBS, LSUM, LSQ, GSIZE, EPOS = range(8)
REC = 8


def _zobrist_table():
    """``ZOBRIST[colour * MAX_PADDED + p]``: fixed pseudo-random 64-bit keys (splitmix64 from a
    fixed seed, so the table never depends on a library version); colour EMPTY maps to 0."""
    mask = (1 << 64) - 1
    x = 0x60B0A4D
    keys = []
    for _ in range(2 * MAX_PADDED):
        x = (x + 0x9E3779B97F4A7C15) & mask
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        keys.append(z ^ (z >> 31))
    table = np.array([0] * MAX_PADDED + keys, dtype=np.uint64)
    return table.view(np.int64).copy()


ZOBRIST = _zobrist_table()      # ~10 kB, frozen into the compiled code (an owning array: a
#                                 view of another array made every playout ~40 % slower)


@njit(cache=True, inline="always")
def at(p, field):
    """Index in the state of ``field`` of point ``p``'s record."""
    return HEADER + REC * p + field


@njit(cache=True, inline="always")
def pat_at(w, p):
    """Index in the state of the 3x3 code of padded point ``p`` (board width ``w = n + 2``):
    after the records, the empty list (n² entries) and the history (3 n² + 1 + n² entries)."""
    return HEADER + REC * w * w + 5 * (w - 2) * (w - 2) + 1 + p


@nrt_free
def _pat_add(s, w, p, delta):
    """Add ``delta`` (a colour, or minus one) at ``p``'s slot of its eight neighbours' 3x3
    codes: ``p`` is the SE neighbour of ``p - w - 1``, slot 7, ... the NW of ``p + w + 1``."""
    b = pat_at(w, p)
    s[b + w + 1] += delta
    s[b + w] += delta << 2
    s[b + w - 1] += delta << 4
    s[b + 1] += delta << 6
    s[b - 1] += delta << 8
    s[b - w + 1] += delta << 10
    s[b - w] += delta << 12
    s[b - w - 1] += delta << 14


@nrt_free
def enable_pat3(s, w):
    """Compute every board point's 3x3 code from the colours and keep them up to date from
    now on (F_PAT3)."""
    for p in range(w, w * w - w):
        if s[at(p, COLOR)] != BORDER:
            code = 0
            k = 0
            for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1):
                code |= s[at(p + d, COLOR)] << (2 * k)
                k += 1
            s[pat_at(w, p)] = code
    s[F_PAT3] = 1


def move_cap(n):
    """The move cap for board size ``n``: 3 n² moves (passes included)."""
    return 3 * n * n


max_moves = njit(cache=True)(move_cap)      # the same, for compiled callers


def state_length(n):
    """Length of the state array for board size ``n``."""
    return HEADER + (REC + 1) * (n + 2) ** 2 + n * n + move_cap(n) + 1 + n * n


def new_state(n, komi2):
    """A fresh state: empty ``n`` x ``n`` board, Black to move, komi ``komi2 / 2``."""
    w = n + 2
    s = np.zeros(state_length(n), dtype=np.int64)
    s[F_SIZE] = n
    s[F_KOMI2] = komi2
    s[F_MAXMOVES] = max_moves(n)
    s[F_LAST] = -1
    s[F_KO] = NO_POINT
    s[F_EMPTY_AT] = HEADER + REC * w * w
    s[F_HIST_AT] = s[F_EMPTY_AT] + n * n
    assert s[F_HIST_AT] + move_cap(n) + 1 + n * n == pat_at(w, 0) == s.shape[0] - w * w
    rec = s[HEADER:HEADER + REC * w * w].reshape(w, w, REC)
    rec[:, :, COLOR] = BORDER
    rec[1:n + 1, 1:n + 1, COLOR] = EMPTY
    points = np.array([(r + 1) * w + c + 1 for r in range(n) for c in range(n)], dtype=np.int64)
    s[s[F_EMPTY_AT]:s[F_EMPTY_AT] + n * n] = points
    s[HEADER + REC * points + EPOS] = np.arange(n * n)
    s[F_NEMPTY] = n * n
    s[s[F_HIST_AT]] = 0         # the empty board's hash
    s[F_HISTLEN] = 1
    s[F_STATUS] = ONGOING
    return s


def colors(s):
    """The COLOR field of every padded point, shape ``(w, w)`` (a copy)."""
    w = int(s[F_SIZE]) + 2
    return s[HEADER:HEADER + REC * w * w].reshape(w, w, REC)[:, :, COLOR].copy()


@njit(cache=True, inline="always")
def in_atari(s, g):
    """True if group ``g`` has exactly one liberty."""
    total = s[at(g, LSUM)]
    return total * total == s[at(g, LIBS)] * s[at(g, LSQ)]


@nrt_free
def is_legal_point(s, w, p, c):
    """True if a ``c`` stone on empty point ``p`` is not suicide (ko is the caller's business):
    it has an empty neighbour, joins a friendly group with another liberty, or captures."""
    for d in (1, -1, w, -w):
        q = p + d
        v = s[at(q, COLOR)]
        if v == EMPTY:
            return True
        if v != BORDER:
            if (v == c) != in_atari(s, s[at(q, GROUP)]):   # friend not in atari, enemy in atari
                return True
    return False


@nrt_free
def is_own_eye(s, w, p, c):
    """True if empty point ``p`` is an eye of colour ``c`` for the playout policy: its four
    neighbours are ``c`` stones or the edge, and its diagonals hold at most one enemy stone in
    the centre, none on the edge or in the corner (else it is a false eye)."""
    for d in (1, -1, w, -w):
        v = s[at(p + d, COLOR)]
        if v != c and v != BORDER:
            return False
    return not false_eyelike(s, w, p, c)


@nrt_free
def false_eyelike(s, w, p, owner):
    """True if the diagonals of ``p`` make it a false eye of ``owner``: two stones of the other
    colour in the centre, one at the edge or in the corner."""
    hostile = 0
    edge = 0
    for d in (w + 1, w - 1, 1 - w, -1 - w):
        v = s[at(p + d, COLOR)]
        if v == BORDER:
            edge = 1
        elif v == 3 - owner:
            hostile += 1
    return hostile + edge >= 2


@nrt_free
def _remove_group(s, w, g):
    """Take group ``g`` off the board: its points become empty, neighbouring groups gain the
    pseudo-liberties, hash and stone count follow. Returns the number of stones removed."""
    c = s[at(g, COLOR)]
    h = s[F_HASH]
    key = c * MAX_PADDED
    e0 = s[F_EMPTY_AT]
    k = s[F_NEMPTY]
    x = g
    count = 0
    while True:
        s[at(x, COLOR)] = EMPTY
        if s[F_PAT3]:
            _pat_add(s, w, x, -c)
        h ^= ZOBRIST[key + x]
        s[e0 + k] = x
        s[at(x, EPOS)] = k
        k += 1
        for d in (1, -1, w, -w):
            q = x + d
            v = s[at(q, COLOR)]
            if (v == BLACK or v == WHITE) and s[at(q, GROUP)] != g:
                f = s[at(q, GROUP)]
                s[at(f, LIBS)] += 1
                s[at(f, LSUM)] += x
                s[at(f, LSQ)] += x * x
        count += 1
        x = s[at(x, NEXT)]
        if x == g:
            break
    s[F_HASH] = h
    s[F_NEMPTY] = k
    s[F_STONES_B + c - BLACK] -= count
    return count


@nrt_free
def _merge(s, a, b):
    """Merge groups ``a`` and ``b`` (distinct ids); return the surviving id."""
    if s[at(a, GSIZE)] < s[at(b, GSIZE)]:
        a, b = b, a
    x = b
    while True:                 # relabel the smaller group
        s[at(x, GROUP)] = a
        x = s[at(x, NEXT)]
        if x == b:
            break
    na = s[at(a, NEXT)]         # splice the two circular lists
    s[at(a, NEXT)] = s[at(b, NEXT)]
    s[at(b, NEXT)] = na
    for f in (LIBS, LSUM, LSQ, GSIZE):
        s[at(a, f)] += s[at(b, f)]
    return a


@nrt_free
def place_stone(s, w, p, c, capture):
    """Put a ``c`` stone on empty point ``p``; update groups, liberties, hash, stone counts and
    the empty list. With ``capture``, enemy groups left without liberties are removed and
    credited to ``c``, and the new ko point is returned (``NO_POINT`` if none). Legality
    (occupied, ko, suicide, superko) is the caller's job; so are turn and history."""
    s[at(p, COLOR)] = c
    if s[F_PAT3]:
        _pat_add(s, w, p, c)
    s[F_HASH] ^= ZOBRIST[c * MAX_PADDED + p]
    s[F_STONES_B + c - BLACK] += 1
    e0 = s[F_EMPTY_AT]          # take p out of the empty list
    k = s[F_NEMPTY] - 1
    i = s[at(p, EPOS)]
    last = s[e0 + k]
    s[e0 + i] = last
    s[at(last, EPOS)] = i
    s[F_NEMPTY] = k
    nl = 0
    ns = 0
    nq = 0
    for d in (1, -1, w, -w):
        q = p + d
        v = s[at(q, COLOR)]
        if v == EMPTY:
            nl += 1
            ns += q
            nq += q * q
        elif v != BORDER:       # a neighbouring group loses its pseudo-liberty at p
            g = s[at(q, GROUP)]
            s[at(g, LIBS)] -= 1
            s[at(g, LSUM)] -= p
            s[at(g, LSQ)] -= p * p
    s[at(p, GROUP)] = p
    s[at(p, NEXT)] = p
    s[at(p, GSIZE)] = 1
    s[at(p, LIBS)] = nl
    s[at(p, LSUM)] = ns
    s[at(p, LSQ)] = nq
    me = p
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] == c and s[at(q, GROUP)] != me:
            me = _merge(s, me, s[at(q, GROUP)])
    if not capture:
        return NO_POINT
    enemy = 3 - c
    captured = 0
    last = NO_POINT
    for d in (1, -1, w, -w):
        q = p + d
        if s[at(q, COLOR)] == enemy and s[at(s[at(q, GROUP)], LIBS)] == 0:
            captured += _remove_group(s, w, s[at(q, GROUP)])
            last = q
    if captured == 0:
        return NO_POINT
    s[F_CAPS_B + c - BLACK] += captured
    if captured == 1 and s[at(me, GSIZE)] == 1 and s[at(me, LIBS)] == 1:
        return last             # a lone stone took a lone stone and has one liberty: ko
    return NO_POINT
