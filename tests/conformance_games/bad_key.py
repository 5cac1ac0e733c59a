"""Broken: ``position_key`` forgets the plies played, so positions with different players to
move share a key."""
import numpy as np
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import TOTAL


@njit(cache=True)
def position_key(state):
    return np.uint64(state[TOTAL])          # wrong: the same total after 1 and after 2 plies


class BadKey(Numbers):
    name = "bad-key"
    kernel_module = __name__
