"""Broken: rollout plays in local variables (allowed: the state is a scratch copy) and reports
the winner the wrong way round; only the result rates can tell."""
from numba import njit

from conformance_games.numbers import (ACTIONS, LENGTH, PLIES, STATUS, TOTAL, Numbers,  # noqa
                                       apply_action, legal_actions, outcome, playout_action,
                                       status, to_play)
from games.contract import FIRST_WINS, ONGOING, SECOND_WINS
from games.rng import random_below


@njit(cache=True)
def rollout(state, rng):
    total, plies, st = state[TOTAL], state[PLIES], state[STATUS]
    while st == ONGOING:
        total += random_below(rng, state[ACTIONS])
        plies += 1
        if plies == state[LENGTH]:
            st = outcome(total)
    if st == FIRST_WINS:
        return SECOND_WINS          # wrong
    if st == SECOND_WINS:
        return FIRST_WINS
    return st


class SwappedQuietRollout(Numbers):
    name = "swapped-quiet-rollout"
    kernel_module = __name__
