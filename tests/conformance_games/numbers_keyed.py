"""Numbers with a correct ``position_key``: the plies played and the running total decide the
future (the same total by other numbers is a transposition)."""
import numpy as np
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import PLIES, TOTAL


@njit(cache=True)
def position_key(state):
    return np.uint64(state[TOTAL]) * np.uint64(1024) + np.uint64(state[PLIES])


class NumbersKeyed(Numbers):
    name = "numbers-keyed"
    kernel_module = __name__
