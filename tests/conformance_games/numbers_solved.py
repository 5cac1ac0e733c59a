"""Numbers with a correct exact solver: the outcome depends on the total modulo 4 only, so a
minimax over the residues of the numbers left to pick settles any position. Every game ends
after ``length`` plies, so the plies to the end are known whatever the play."""
import numpy as np
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       outcome, playout_action, status, to_play)
from conformance_games.numbers import ACTIONS, LENGTH, PLIES, STATUS, TOTAL
from games.contract import DRAW, FIRST_WINS


@njit(cache=True)
def _best(total, left, mover, actions):
    """Final status under best play with ``left`` plies to go, ``mover`` to pick."""
    if left == 0:
        return outcome(total)
    win, loss = FIRST_WINS + mover, FIRST_WINS + 1 - mover
    best = loss
    for a in range(min(actions, 4)):            # only the residue matters
        st = _best(total + a, left - 1, 1 - mover, actions)
        if st == win:
            return win
        if st == DRAW:
            best = DRAW
    return best


@njit(cache=True)
def solve(state, budget, table):
    left = state[LENGTH] - state[PLIES]
    if state[STATUS] != 0:
        return np.int64(state[STATUS]), np.int64(0)
    if budget < 4 ** min(left, 8):
        return np.int64(0), np.int64(0)
    return np.int64(_best(state[TOTAL], left, state[PLIES] % 2, state[ACTIONS])), np.int64(left)


class NumbersSolved(Numbers):
    name = "numbers-solved"
    kernel_module = __name__
    solve_table_size = 1
    search_defaults = {"solve_nodes": 1.0}
