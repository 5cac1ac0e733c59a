"""Numbers with an ``ownership`` kernel: at a finished game the number the total ends on
(``total % actions``) is the winner's (+1 the first player, -1 the second), or nobody's (row
1) after a draw; an unfinished position is not counted."""
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import ACTIONS, STATUS, TOTAL
from games.contract import DRAW, FIRST_WINS, ONGOING


@njit(cache=True)
def ownership(state, rng, out):
    if state[STATUS] == ONGOING:
        return 0
    a = state[TOTAL] % state[ACTIONS]
    if state[STATUS] == DRAW:
        out[1, a] += 1.0
    else:
        out[0, a] += 1.0 if state[STATUS] == FIRST_WINS else -1.0
    return 1


class NumbersOwned(Numbers):
    name = "numbers-owned"
    kernel_module = __name__
