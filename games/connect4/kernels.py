"""Connect Four on the standard board: 7 columns x 6 rows, four in a row in any direction wins.

Representation (bitboards, after J. Tromp and P. Pons): bit ``7*c + r`` is column ``c`` (0 left),
row ``r`` (0 bottom); bit ``7*c + 6`` is an always-empty sentinel so shifted lines never wrap.
The state is ``uint64[5]``: ``[stones of the player to move, mask of all stones, plies played,
status, playout policy]``. Actions are columns 0-6, written ``1``-``7``; a game record is the
string of columns played, e.g. ``4453``. A full board with no four in a row is a draw.

Playout policies (``Connect4(playout_policy=...)``):

* ``"threats"`` (the default): take an immediate win; else block the opponent's immediate
  win; else a uniform random column among those that do not put the stone right below a cell
  where the opponent would complete four (the "non-losing moves" of Pons's solver), or any
  column if every one does. The threats come from bitboard shifts (``winning_cells``).
* ``"uniform"``: a uniform random open column (OpenSpiel's random rollouts; ``bench`` uses it).
"""
import numpy as np
from numba import njit

from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING
from games.rng import below, next_u64

WIDTH, HEIGHT = 7, 6
H1 = HEIGHT + 1
CELLS = WIDTH * HEIGHT
POS, MASK, PLIES, STATUS, POLICY = 0, 1, 2, 3, 4
POLICIES = {"uniform": 0, "threats": 1}
_ONE = np.uint64(1)
_BOTTOM = np.array([1 << (H1 * c) for c in range(WIDTH)], dtype=np.uint64)
_TOP = np.array([1 << (HEIGHT - 1 + H1 * c) for c in range(WIDTH)], dtype=np.uint64)
_SHIFTS = np.array([1, H1, H1 - 1, H1 + 1], dtype=np.uint64)   # vertical, horizontal, 2 diagonals
_COLUMN = np.array([((1 << HEIGHT) - 1) << (H1 * c) for c in range(WIDTH)], dtype=np.uint64)
_BOARD = np.uint64(sum(((1 << HEIGHT) - 1) << (H1 * c) for c in range(WIDTH)))
_BOTTOMS = np.uint64(sum(1 << (H1 * c) for c in range(WIDTH)))


@njit(cache=True)
def has_four(b):
    """True if bitboard ``b`` (uint64) holds four in a row."""
    for i in range(4):
        s = _SHIFTS[i]
        m = b & (b >> s)
        if m & (m >> (s + s)):
            return True
    return False


@njit(cache=True)
def to_play(state):
    return np.int64(state[PLIES] & _ONE)


@njit(cache=True)
def ply(state):
    return np.int64(state[PLIES])


@njit(cache=True)
def status(state):
    return np.int64(state[STATUS])


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    n = 0
    for c in range(WIDTH):
        if not (state[MASK] & _TOP[c]):
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def _drop(pos, mask, plies, col):
    """Drop a stone in ``col`` for the player to move; return (pos, mask, plies, status)."""
    new_mask = mask | (mask + _BOTTOM[col])
    mover = pos | (new_mask ^ mask)
    plies += 1
    st = ONGOING
    if has_four(mover):
        st = FIRST_WINS + np.int64((plies - 1) & 1)
    elif plies == CELLS:
        st = DRAW
    return mover ^ new_mask, new_mask, plies, st


@njit(cache=True)
def apply_action(state, action):
    if action < 0 or action >= WIDTH or state[STATUS] != ONGOING or (state[MASK] & _TOP[action]):
        return ILLEGAL
    pos, mask, plies, st = _drop(state[POS], state[MASK], np.int64(state[PLIES]), action)
    state[POS] = pos
    state[MASK] = mask
    state[PLIES] = np.uint64(plies)
    state[STATUS] = np.uint64(st)
    return st


@njit(cache=True)
def position_key(state):
    """Pons's key: the mover's stones plus the mask, one bit above each column's top stone, so
    every position (with the player to move) has its own key."""
    return state[POS] + state[MASK]


@njit(cache=True)
def _random_column(mask, x):
    """Uniform random open column by rejection; returns (column, new rng state)."""
    while True:
        x = next_u64(x)
        c = below(x, WIDTH)
        if not (mask & _TOP[c]):
            return c, x


@njit(cache=True)
def winning_cells(b, mask):
    """The empty cells (a bitboard) where a stone would give ``b`` four in a row: for each
    direction, three of ``b``'s stones in line with the cell (Pons's ``compute_winning_position``).
    """
    r = (b << np.uint64(1)) & (b << np.uint64(2)) & (b << np.uint64(3))   # vertical
    for i in range(1, 4):
        s = _SHIFTS[i]
        p = (b << s) & (b << (s + s))
        r |= p & (b << (s + s + s))
        r |= p & (b >> s)
        p = (b >> s) & (b >> (s + s))
        r |= p & (b << s)
        r |= p & (b >> (s + s + s))
    return r & (_BOARD ^ mask)


@njit(cache=True)
def _random_in(cells, x):
    """A uniform random column holding one of the playable ``cells``; (column, rng state)."""
    count = 0
    for c in range(WIDTH):
        if cells & _COLUMN[c]:
            count += 1
    x = next_u64(x)
    k = below(x, count)
    for c in range(WIDTH):
        if cells & _COLUMN[c]:
            if k == 0:
                return c, x
            k -= 1
    return -1, x


@njit(cache=True)
def _policy_column(pos, mask, policy, x):
    """The playout policy's column for the player to move (``pos``: its stones)."""
    if policy == 0:
        return _random_column(mask, x)
    playable = (mask + _BOTTOMS) & _BOARD
    win = winning_cells(pos, mask) & playable
    if win:
        return _random_in(win, x)
    threats = winning_cells(pos ^ mask, mask)
    block = threats & playable
    if block:
        return _random_in(block, x)
    safe = playable & ~(threats >> np.uint64(1))
    return _random_in(safe if safe else playable, x)


@njit(cache=True)
def playout_action(state, rng):
    c, rng[0] = _policy_column(state[POS], state[MASK], state[POLICY], rng[0])
    return c


@njit(cache=True)
def rollout(state, rng):
    """A playout of the state's policy to the end with the bitboards in registers; returns the
    status."""
    pos, mask, plies, st = state[POS], state[MASK], np.int64(state[PLIES]), np.int64(state[STATUS])
    x = rng[0]
    if state[POLICY] == 0:              # the uniform loop on its own: no per-move dispatch
        while st == ONGOING:
            c, x = _random_column(mask, x)
            pos, mask, plies, st = _drop(pos, mask, plies, c)
    else:
        while st == ONGOING:
            c, x = _policy_column(pos, mask, 1, x)
            pos, mask, plies, st = _drop(pos, mask, plies, c)
    rng[0] = x
    state[POS], state[MASK], state[PLIES], state[STATUS] = pos, mask, np.uint64(plies), np.uint64(st)
    return st


# Move features of the learned playout policy (move_features): ids and names.
F_WIN, F_BLOCK, F_UNDER_THREAT, F_UNDER_OWN, F_THREAT, F_DOUBLE = range(6)
F_CENTRE = 6                    # + |column - 3|: 6 .. 9
F_ROW = 10                      # + row of the stone: 10 .. 15
FEATURE_NAMES = (["wins at once", "blocks an immediate win", "below the opponent's winning cell",
                  "below our own winning cell", "makes a winning cell", "makes two winning cells"]
                 + [f"{d} columns from the centre" for d in range(4)]
                 + [f"row {r + 1}" for r in range(HEIGHT)])


@njit(cache=True)
def _count_bits(b):
    n = 0
    while b:
        b &= b - _ONE
        n += 1
    return n


@njit(cache=True)
def move_features(state, cand, feats):
    """Candidates (every open column) and their binary features (ids in ``FEATURE_NAMES``):
    an immediate win, a block, the cell below an opponent's or our own winning cell, new
    winning cells made (one; two or more), the distance from the centre column, the row."""
    if state[STATUS] != ONGOING:
        return 0
    pos, mask = state[POS], state[MASK]
    opp = pos ^ mask
    mine = winning_cells(pos, mask)
    theirs = winning_cells(opp, mask)
    n = 0
    for c in range(WIDTH):
        if mask & _TOP[c]:
            continue
        cell = (mask + _BOTTOM[c]) & _COLUMN[c]
        above = cell << _ONE
        k = 0
        if mine & cell:
            feats[n, k] = F_WIN
            k += 1
        if theirs & cell:
            feats[n, k] = F_BLOCK
            k += 1
        if theirs & above:
            feats[n, k] = F_UNDER_THREAT
            k += 1
        if mine & above:
            feats[n, k] = F_UNDER_OWN
            k += 1
        made = _count_bits(winning_cells(pos | cell, mask | cell) & ~mine)
        if made >= 1:
            feats[n, k] = F_THREAT if made == 1 else F_DOUBLE
            k += 1
        feats[n, k] = F_CENTRE + abs(c - 3)
        k += 1
        row = 0
        while not (cell & (_BOTTOM[c] << np.uint64(row))):
            row += 1
        feats[n, k] = F_ROW + row
        k += 1
        if k < feats.shape[1]:
            feats[n, k] = -1
        cand[n] = c
        n += 1
    return n


from games.connect4.solver import solve  # noqa: E402,F401  (the contract's kernel; it imports this module)
