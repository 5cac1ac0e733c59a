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
import re

import numpy as np
from numba import njit

from games.board_text import marked_rows
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS, Game
from games.othello_bits import _ONE, _ZERO, _nth_bit, flips_of, moves_of, popcount
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


class Othello(Game):
    """Othello, 8x8. Players: Black (X) moves first, White (O) second."""

    name = "othello"
    kernel_module = "games.othello"
    players = ("Black", "White")
    move_help = "a square a1-h8 or pass"
    pass_action = PASS               # RAVE keeps the pass out of its AMAF statistics
    num_features = len(FEATURE_NAMES)
    feature_slots = 4

    def feature_names(self):
        return list(FEATURE_NAMES)

    def __init__(self):
        super().__init__()
        self.num_actions = SQUARES + 1
        self.max_length = 120

    def initial_state(self):
        return np.array([_START_BLACK, _START_WHITE, 0, ONGOING, 0], dtype=np.uint64)

    def position(self, rows, to_play=0):
        """A state from 8 strings of 8 characters, row 1 first: ``X`` Black, ``O`` White, ``.``
        empty (spaces ignored); ``to_play`` 0 Black, 1 White. If neither side can move, the state
        holds the final status; if only the side to move cannot, it must pass."""
        rows = ["".join(r.split()) for r in rows]
        if len(rows) != SIZE or any(len(r) != SIZE or set(r) - set("XO.") for r in rows):
            raise ValueError("a position is 8 rows of 8 characters from 'X', 'O', '.'")
        discs = [0, 0]
        for i, ch in enumerate("".join(rows)):
            if ch != ".":
                discs["XO".index(ch)] |= 1 << i
        state = np.array([discs[0], discs[1], to_play, ONGOING, 0], dtype=np.uint64)
        if not moves_of(state[0], state[1]) and not moves_of(state[1], state[0]):
            state[STATUS] = _final_status(state[BLACK], state[WHITE])
        return state

    def board(self, state):
        """int8 array (8, 8), row 1 first: 0 empty, 1 Black, 2 White."""
        b, w = int(state[BLACK]), int(state[WHITE])
        return np.array([1 if b >> i & 1 else 2 if w >> i & 1 else 0 for i in range(SQUARES)],
                        dtype=np.int8).reshape(SIZE, SIZE)

    def counts(self, state):
        """Discs of (Black, White)."""
        return int(popcount(state[BLACK])), int(popcount(state[WHITE]))

    def _moves(self, state):
        p = int(state[TO_PLAY])
        return int(moves_of(state[p], state[1 - p]))

    def render(self, state, last_action=None):
        """Board with ``X`` Black, ``O`` White, ``*`` the legal moves of the side to move, the
        last move in parentheses; then the disc counts and who moves."""
        grid = self.board(state)
        moves = self._moves(state) if int(state[STATUS]) == ONGOING else 0
        mark = None
        if last_action is not None and 0 <= int(last_action) < SQUARES:
            mark = divmod(int(last_action), SIZE)
        header = "   " + " ".join(COLUMNS)
        cells = [["*" if grid[r, c] == 0 and moves >> (r * SIZE + c) & 1 else ".XO"[grid[r, c]]
                  for c in range(SIZE)] for r in range(SIZE)]
        lines = [header] + marked_rows(cells, mark, [r + 1 for r in range(SIZE)])
        lines.append(header)
        nb, nw = self.counts(state)
        note = f"Black (X) {nb}, White (O) {nw}"
        st = int(state[STATUS])
        if last_action is not None and int(last_action) == PASS:
            note += f"; {self.players[1 - int(state[TO_PLAY])]} passed"
        if st != ONGOING:
            note += f"; game over: {self.result_text(st)}"
        else:
            who = self.players[int(state[TO_PLAY])]
            note += f"; {who} to move" + (" (* legal)" if moves else ", must pass")
        lines.append(note)
        return "\n".join(lines)

    def parse_move(self, text, state):
        t = text.strip().lower()
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        moves = self._moves(state)
        who = self.players[int(state[TO_PLAY])]
        if t == "pass":
            if moves:
                raise ValueError(f"{who} cannot pass while a move exists "
                                 f"(e.g. {square_name((moves & -moves).bit_length() - 1)})")
            return PASS
        if not re.fullmatch(r"[a-h][1-8]", t):
            raise ValueError(f"{text.strip()!r} is not a square: type a column a-h and a row "
                             f"1-8 (like d3), or pass")
        action = (int(t[1]) - 1) * SIZE + COLUMNS.index(t[0])
        if (int(state[BLACK]) | int(state[WHITE])) >> action & 1:
            raise ValueError(f"{t} is occupied")
        if not moves:
            raise ValueError(f"{who} has no move and must pass")
        if not moves >> action & 1:
            raise ValueError(f"{t} flips nothing: a move must outflank opposing discs")
        return action

    def format_move(self, action, state=None):
        return square_name(action)

    def parse_record(self, text):
        moves = []
        for token in text.split():
            i = 0
            while i < len(token):
                n = 4 if token[i:i + 4].lower() == "pass" else 2
                moves.append(token[i:i + n])
                i += n
        return moves

    def format_record(self, moves):
        return "".join(moves)

    def ai_should_pass(self, state):
        return int(state[STATUS]) == ONGOING and not self._moves(state)

    def summary(self, state):
        nb, nw = self.counts(state)
        return f"{self.result_text(self.status(state))}, {nb}-{nw}"
