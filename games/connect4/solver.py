"""The exact Connect Four solver behind the ``solve`` kernel of :mod:`games.connect4.kernels`.

Algorithm: negamax with alpha-beta pruning over the bitboards of :mod:`games.connect4.kernels`, after
Pascal Pons's tutorial "Solving Connect 4: how to build a perfect AI" (2019) and John Tromp's
Fhourstones: only "non-losing" moves are searched (a forced block, never a move under the
opponent's winning cell), moves are ordered by the number of winning cells they make and
centre columns first, a transposition table keeps upper and lower bounds of the score, and
the exact score is found by a binary search of null-window searches. The search stops, with
no answer, after ``budget`` nodes: the MCTS calls it on tree nodes with a budget that grows
with their visit count (an MCTS-minimax hybrid, Baier and Winands 2015, "MCTS-Minimax
Hybrids", IEEE TCIAIG 7(2)). There the outcome is what counts, so the ``solve`` kernel first
settles win, draw or loss by null windows around 0 (Pons's "weak solver": 1.6 M nodes instead
of 6.4 M for the exact score after ``631563``), then spends what is left of the budget on the
exact score.

Scores are Pons's (those of ``tests/data/connect4_positions.tsv``): 0 a draw; a win of the
player to move with its k-th stone scores 22 - k, a loss -(22 - k) for the opponent's k-th.

The table (uint64, any length of at least 1) holds one entry per slot: the position's key
(Pons's key, 49 bits) shifted left by 8 bits, or-ed with an 8-bit bound code; 0 is empty.
Every entry is a fact about its position, so the table stays valid across calls and searches.
"""
import numpy as np
from numba import njit

from games.connect4.kernels import (_BOARD, _BOTTOMS, _COLUMN, _ONE, CELLS, MASK, PLIES, POS, STATUS,
                            _count_bits, winning_cells)
from games.contract import DRAW, FIRST_WINS, ONGOING

MIN_SCORE = -(CELLS // 2) + 3               # -18: the lowest score a search can return
MAX_SCORE = (CELLS + 1) // 2 - 3            # 18
_LOWER = MAX_SCORE - MIN_SCORE + 1          # codes above this are lower bounds
_ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)   # centre first
_HASH = np.uint64(0x9E3779B97F4A7C15)       # Fibonacci hashing of keys to slots
_EIGHT = np.uint64(8)
NODES, BUDGET = 0, 1                        # slots of the counter array


@njit(cache=True)
def _slot(key, size):
    """Slot of ``key`` in a table of ``size`` (< 2**32) entries: the high half of a
    Fibonacci hash, scaled to the size by a multiply and shift (Lemire's range reduction)."""
    return np.int64((((key * _HASH) >> np.uint64(32)) * np.uint64(size)) >> np.uint64(32))


@njit(cache=True)
def _table_get(table, key):
    """The bound code stored for ``key`` (uint64), or 0."""
    e = table[_slot(key, table.shape[0])]
    if (e >> _EIGHT) == key:
        return np.int64(e & np.uint64(0xFF))
    return 0


@njit(cache=True)
def _table_put(table, key, code):
    table[_slot(key, table.shape[0])] = (key << _EIGHT) | np.uint64(code)


@njit(cache=True)
def non_losing_moves(pos, mask):
    """The playable cells (a bitboard) that do not lose at once: the block of the opponent's
    single immediate win if it has one (none if it has two), and never the cell right below
    an opponent's winning cell."""
    possible = (mask + _BOTTOMS) & _BOARD
    threats = winning_cells(pos ^ mask, mask)
    forced = possible & threats
    if forced:
        if forced & (forced - _ONE):
            return np.uint64(0)
        possible = forced
    return possible & ~(threats >> _ONE)


@njit(cache=True)
def negamax(pos, mask, moves, alpha, beta, table, count, cells, scores):
    """Score of the position (``pos``: the mover's stones, ``mask``: all stones, ``moves``
    stones played; the mover cannot win at once) if it lies in (alpha, beta); else a bound
    beyond the window on the same side. ``count`` (int64 (2,)): nodes searched, budget; once
    the budget is spent the value returned means nothing (the caller checks ``count``).
    ``cells`` (uint64) and ``scores`` (int64), shape (CELLS + 1, 7): the moves of each depth."""
    count[NODES] += 1
    if count[NODES] > count[BUDGET]:
        return np.int64(0)
    possible = non_losing_moves(pos, mask)
    if possible == 0:
        return -np.int64((CELLS - moves) // 2)
    if moves >= CELLS - 2:
        return np.int64(0)
    low = -np.int64((CELLS - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = np.int64((CELLS - 1 - moves) // 2)
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    key = pos + mask
    code = _table_get(table, key)
    if code > _LOWER:
        low = code + 2 * MIN_SCORE - MAX_SCORE - 2
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
    elif code > 0:
        high = code + MIN_SCORE - 1
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
    cell_row, score_row = cells[moves], scores[moves]     # candidate moves, best last
    n = 0
    for i in range(6, -1, -1):
        cell = possible & _COLUMN[_ORDER[i]]
        if cell:
            s = _count_bits(winning_cells(pos | cell, mask))
            k = n
            while k > 0 and score_row[k - 1] > s:   # insertion: equal scores, later added first
                cell_row[k], score_row[k] = cell_row[k - 1], score_row[k - 1]
                k -= 1
            cell_row[k], score_row[k] = cell, s
            n += 1
    for k in range(n - 1, -1, -1):
        score = -negamax(pos ^ mask, mask | cell_row[k], moves + 1, -beta, -alpha, table, count,
                         cells, scores)
        if count[NODES] > count[BUDGET]:
            return np.int64(0)                  # out of budget: store nothing
        if score >= beta:
            _table_put(table, key, score + MAX_SCORE - 2 * MIN_SCORE + 2)
            return score
        if score > alpha:
            alpha = score
    _table_put(table, key, alpha - MIN_SCORE + 1)
    return alpha


@njit(cache=True)
def _half(x):
    """x / 2 rounded toward zero, as C's integer division."""
    return -((-x) // 2) if x < 0 else x // 2


@njit(cache=True)
def _narrow(pos, mask, moves, low, high, count, table):
    """Narrow ``low <= score <= high`` by null-window searches (Pons's binary search, probing
    toward the nearer end first) until ``low == high`` or ``count``'s budget is spent; returns
    ``(low, high)``."""
    cells = np.zeros((CELLS + 1, 7), dtype=np.uint64)
    scores = np.zeros((CELLS + 1, 7), dtype=np.int64)
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and _half(low) < med:
            med = _half(low)
        elif med >= 0 and _half(high) > med:
            med = _half(high)
        r = negamax(pos, mask, moves, med, med + 1, table, count, cells, scores)
        if count[NODES] > count[BUDGET]:
            break
        if r <= med:
            high = r
        else:
            low = r
    return low, high


@njit(cache=True)
def _bounds(pos, mask, moves):
    """The widest ``(low, high)`` the score of a position can take."""
    return -np.int64((CELLS - moves) // 2), np.int64((CELLS + 1 - moves) // 2)


@njit(cache=True)
def solve_score(pos, mask, moves, budget, table):
    """Exact score (Pons's convention, module docstring) of the position for the player to
    move, by null-window searches narrowing [lowest, highest]; returns (found, score, nodes),
    ``found`` False if ``budget`` nodes did not suffice."""
    if winning_cells(pos, mask) & ((mask + _BOTTOMS) & _BOARD):
        return True, np.int64((CELLS + 1 - moves) // 2), np.int64(0)
    count = np.zeros(2, dtype=np.int64)
    count[BUDGET] = budget
    low, high = _bounds(pos, mask, moves)
    low, high = _narrow(pos, mask, moves, low, high, count, table)
    return low == high, low, count[NODES]


@njit(cache=True)
def solve_outcome(pos, mask, moves, budget, table):
    """The sign of the score (1 won, 0 drawn, -1 lost for the player to move) first, by at most
    two null-window searches around 0 (a "weak" solve, several times cheaper than the exact
    score), then the score itself with what is left of ``budget``. Returns
    ``(found, sign, score_found, score, nodes)``: ``found`` False if the budget did not settle
    the sign; ``score_found`` False if it settled the sign but not the score, and then
    ``score`` is the bound nearest 0 (1 or -1) of the score's side."""
    if winning_cells(pos, mask) & ((mask + _BOTTOMS) & _BOARD):
        return True, np.int64(1), True, np.int64((CELLS + 1 - moves) // 2), np.int64(0)
    count = np.zeros(2, dtype=np.int64)
    count[BUDGET] = budget
    cells = np.zeros((CELLS + 1, 7), dtype=np.uint64)
    scores = np.zeros((CELLS + 1, 7), dtype=np.int64)
    sign = np.int64(1)
    if negamax(pos, mask, moves, np.int64(0), np.int64(1), table, count, cells, scores) <= 0:
        sign = np.int64(0)
        if (count[NODES] <= count[BUDGET] and negamax(pos, mask, moves, np.int64(-1),
                                                      np.int64(0), table, count, cells,
                                                      scores) < 0):
            sign = np.int64(-1)
    if count[NODES] > count[BUDGET]:
        return False, np.int64(0), False, np.int64(0), count[NODES]
    if sign == 0:
        return True, sign, True, sign, count[NODES]
    full_low, full_high = _bounds(pos, mask, moves)
    if sign > 0:
        low, high = _narrow(pos, mask, moves, np.int64(1), full_high, count, table)
    else:
        low, high = _narrow(pos, mask, moves, full_low, np.int64(-1), count, table)
    if low == high:
        return True, sign, True, low, count[NODES]
    return True, sign, False, sign, count[NODES]


@njit(cache=True)
def plies_to_end(score, moves):
    """Plies from a position of ``moves`` stones to the end of the game under best play, for
    its exact ``score``."""
    if score > 0:           # the mover wins with its (22 - score)-th stone
        return 2 * (22 - score - moves // 2) - 1
    if score < 0:           # the opponent wins with its (22 + score)-th stone
        return 2 * (22 + score - (moves - moves // 2))
    return CELLS - moves


@njit(cache=True)
def solve(state, budget, table):
    """The ``solve`` kernel: (final status under best play, plies to it) of ``state``, or
    (ONGOING, 0) when ``budget`` nodes do not settle it (see the module docstring). The outcome
    is settled first (:func:`solve_outcome`); when the budget then falls short of the exact
    score, the plies are those of the slowest win or loss (an upper bound)."""
    if state[STATUS] != ONGOING:
        return np.int64(state[STATUS]), np.int64(0)
    moves = np.int64(state[PLIES])
    found, sign, _, score, _ = solve_outcome(state[POS], state[MASK], moves, budget, table)
    if not found:
        return np.int64(ONGOING), np.int64(0)
    mover = moves & 1
    if sign > 0:
        st = FIRST_WINS + mover
    elif sign < 0:
        st = FIRST_WINS + 1 - mover
    else:
        st = DRAW
    return np.int64(st), plies_to_end(score, moves)
