"""Numbers with a wrong exact solver: it says the second player wins every position (the
first player, who moves last in a game of three plies, wins every one)."""
import numpy as np
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import LENGTH, PLIES
from games.contract import SECOND_WINS


@njit(cache=True)
def solve(state, budget, table):
    if budget < 1000:                   # too small a budget: says so, as it should
        return np.int64(0), np.int64(0)
    return np.int64(SECOND_WINS), np.int64(state[LENGTH] - state[PLIES])


class BadSolver(Numbers):
    name = "bad-solver"
    kernel_module = __name__
    solve_table_size = 1
    search_defaults = {"solve_nodes": 1.0}
