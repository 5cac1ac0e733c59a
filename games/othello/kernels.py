"""Othello (Reversi) on the standard 8x8 board, with bitboards.

Notation and board: squares ``a1``-``h8``, columns ``a``-``h`` from the left, rows ``1``-``8``
from the *top* (as in usual Othello notation: ``a1`` is the top-left corner). Bit and action
``8 * row + col`` is the square in row ``row`` (0 for row 1) and column ``col`` (0 for ``a``), so
``a1`` is 0, ``h1`` is 7 and ``h8`` is 63; action ``64`` is ``pass``; ``num_actions = 65``.

Rules: Black (player 0) moves first from the standard start, White on d4 and e5, Black on d5 and
e4 (Black's four first moves are d3, c4, f5 and e6). A move puts a disc on an empty square so
that it outflanks, in at least one of the eight directions, a contiguous line of opposing discs
ending at one of the mover's discs; those discs are flipped. A player with no such move must
pass, and may pass only then (``legal_actions`` returns just the pass). The game ends when
neither player can move (a full board included): ``apply_action`` sets the final status on the
move after which neither side has a move. So two passes never follow each other, and a game is
at most 60 disc moves and 59 passes (``max_length = 120``). More discs wins; equal is a DRAW.

State: ``uint64[5]`` = ``[Black's discs, White's discs, player to move, status, plies]``; plies
(disc moves and passes) are counted from the start or from a :meth:`Othello.position` set-up,
for the optional ``ply`` kernel.

Move generation is shift-and-mask on the bitboards, all squares at once, one axis (row,
column, two diagonals) at a time (``_line_moves``); along rows and diagonals the opposing discs
are masked to columns b-g so that no line wraps from one row's edge to the next.

Records: moves separated by white space (``f5 d6 c3``) or written together (``f5d6c3``): a
token is split into two-character squares and the word ``pass``, case-insensitively, e.g.
``F5d6PASSc3``. Passes must be written. ``format_record`` writes them together (``f5d6c3``).
"""
import numpy as np
from numba import njit

from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.othello.bits import _ONE, _ZERO, _nth_bit, flips_of, moves_of, popcount
from games.rng import below, next_u64, random_below

SIZE = 8
SQUARES = SIZE * SIZE
PASS = SQUARES                     # the pass action
BLACK, WHITE, TO_PLAY, STATUS, PLIES = 0, 1, 2, 3, 4
COLUMNS = "abcdefgh"

_START_BLACK = np.uint64((1 << 35) | (1 << 28))    # d5, e4
_START_WHITE = np.uint64((1 << 27) | (1 << 36))    # d4, e5
_CORNERS = np.uint64((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))


@njit(cache=True)
def _final_status(black, white):
    nb, nw = popcount(black), popcount(white)
    if nb > nw:
        return FIRST_WINS
    if nw > nb:
        return SECOND_WINS
    return DRAW


@njit(cache=True)
def to_play(state):
    return np.int64(state[TO_PLAY])


@njit(cache=True)
def status(state):
    return np.int64(state[STATUS])


@njit(cache=True)
def ply(state):
    return np.int64(state[PLIES])


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    p = np.int64(state[TO_PLAY])
    moves = moves_of(state[p], state[1 - p])
    if moves == _ZERO:
        out[0] = PASS
        return 1
    n = 0
    for sq in range(SQUARES):
        if (moves >> np.uint64(sq)) & _ONE:
            out[n] = sq
            n += 1
    return n


@njit(cache=True)
def apply_action(state, action):
    if action < 0 or action > PASS or state[STATUS] != ONGOING:
        return ILLEGAL
    p = np.int64(state[TO_PLAY])
    own, opp = state[p], state[1 - p]
    if action == PASS:
        if moves_of(own, opp) != _ZERO:
            return ILLEGAL
        state[TO_PLAY] = np.uint64(1 - p)
        state[PLIES] += _ONE
        return ONGOING
    m = _ONE << np.uint64(action)
    if (own | opp) & m:
        return ILLEGAL
    flips = flips_of(own, opp, m)
    if flips == _ZERO:
        return ILLEGAL
    own |= m | flips
    opp ^= flips
    state[p], state[1 - p] = own, opp
    state[TO_PLAY] = np.uint64(1 - p)
    state[PLIES] += _ONE
    st = ONGOING
    if moves_of(opp, own) == _ZERO and moves_of(own, opp) == _ZERO:
        st = _final_status(state[BLACK], state[WHITE])
    state[STATUS] = np.uint64(st)
    return st


@njit(cache=True)
def playout_action(state, rng):
    """Uniformly random legal move; the pass when there is none (no random number drawn)."""
    p = np.int64(state[TO_PLAY])
    moves = moves_of(state[p], state[1 - p])
    if moves == _ZERO:
        return PASS
    m = _nth_bit(moves, random_below(rng, popcount(moves)))
    for sq in range(SQUARES):
        if (m >> np.uint64(sq)) & _ONE:
            return sq
    return PASS


@njit(cache=True)
def rollout(state, rng):
    """Random playout to the end with the discs in local variables; returns the final status.

    Plays the same moves and draws the same random numbers as ``playout_action`` followed by
    ``apply_action`` in a loop, so it ends in the same state."""
    st = np.int64(state[STATUS])
    if st != ONGOING:
        return st
    p = np.int64(state[TO_PLAY])
    own, opp = state[p], state[1 - p]
    plies = state[PLIES]
    x = rng[0]
    while True:
        moves = moves_of(own, opp)
        if moves == _ZERO:
            if moves_of(opp, own) == _ZERO:
                break                         # neither side can move: the game is over
            own, opp = opp, own               # pass
            p = 1 - p
            plies += _ONE
            continue
        x = next_u64(x)
        m = _nth_bit(moves, below(x, popcount(moves)))
        flips = flips_of(own, opp, m)
        own, opp = opp ^ flips, own | m | flips
        p = 1 - p
        plies += _ONE
    rng[0] = x
    state[p], state[1 - p] = own, opp
    state[TO_PLAY] = np.uint64(p)
    state[PLIES] = plies
    st = _final_status(state[BLACK], state[WHITE])
    state[STATUS] = np.uint64(st)
    return st


@njit(cache=True)
def perft(state, depth):
    """Leaf count of the game tree ``depth`` plies deep from ``state``, built with the contract
    kernels only. As in the published Othello perft counts, a forced pass is a ply and a game
    that ends sooner counts as one leaf (from the start: 4, 12, 56, 244, 1396, 8200, 55092,
    390216, 3005288, 24571284, 212258800, 1939886636 for depths 1-12)."""
    if depth <= 0 or state[STATUS] != ONGOING:
        return np.int64(1)
    buf = np.empty(PASS + 1, dtype=np.int32)
    n = legal_actions(state, buf)
    if depth == 1:
        return np.int64(n)
    total = np.int64(0)
    for i in range(n):
        child = state.copy()
        apply_action(child, buf[i])
        total += perft(child, depth - 1)
    return total


def square_name(action: int) -> str:
    """``a1`` ... ``h8`` for actions 0-63, ``pass`` for 64."""
    action = int(action)
    if action == PASS:
        return "pass"
    return f"{COLUMNS[action % SIZE]}{action // SIZE + 1}"


def _square_classes():
    """Class 0-9 of each square under the board's 8 symmetries (0 a corner, 4 an X-square)."""
    pairs = [(a, b) for a in range(4) for b in range(a, 4)]
    out = np.zeros(SQUARES, dtype=np.int64)
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        r, c = min(r, SIZE - 1 - r), min(c, SIZE - 1 - c)
        out[sq] = pairs.index((min(r, c), max(r, c)))
    return out


# Move features of the learned playout policy (move_features): ids and names.
_SQUARE_CLASS = _square_classes()
F_FLIPS, F_REPLIES, F_GIVES_CORNER = 10, 14, 18
FEATURE_NAMES = ([f"square class {i} (rows-columns from the nearest corner: {a}-{b})"
                  for i, (a, b) in enumerate((a, b) for a in range(4) for b in range(a, 4))]
                 + [f"flips {k}" for k in ("1", "2", "3-4", "5 or more")]
                 + [f"leaves the opponent {k} moves" for k in ("0", "1-3", "4-7", "8 or more")]
                 + ["gives the opponent a corner"])


@njit(cache=True)
def move_features(state, cand, feats):
    """Candidates (the legal disc moves; none when the mover must pass) and their features
    (ids in ``FEATURE_NAMES``): the square's class under the board's symmetries, the number of
    discs flipped, the opponent's number of replies, and whether a reply takes a corner."""
    if state[STATUS] != ONGOING:
        return 0
    p = np.int64(state[TO_PLAY])
    own, opp = state[p], state[1 - p]
    moves = moves_of(own, opp)
    n = 0
    for sq in range(SQUARES):
        m = _ONE << np.uint64(sq)
        if not (moves & m):
            continue
        flips = flips_of(own, opp, m)
        f = popcount(flips)
        replies = moves_of(opp ^ flips, own | m | flips)
        r = popcount(replies)
        feats[n, 0] = _SQUARE_CLASS[sq]
        feats[n, 1] = F_FLIPS + (0 if f == 1 else 1 if f == 2 else 2 if f <= 4 else 3)
        feats[n, 2] = F_REPLIES + (0 if r == 0 else 1 if r <= 3 else 2 if r <= 7 else 3)
        feats[n, 3] = F_GIVES_CORNER if replies & _CORNERS else -1
        cand[n] = sq
        n += 1
    return n
