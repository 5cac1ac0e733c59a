"""Broken: rollout plays the game out on the state but reports the winner the wrong way round."""
from numba import njit

from conformance_games.numbers import (ACTIONS, STATUS, Numbers, apply_action,  # noqa: F401
                                       legal_actions, playout_action, status, to_play)
from games.contract import FIRST_WINS, ONGOING, SECOND_WINS
from games.rng import random_below


@njit(cache=True)
def rollout(state, rng):
    while state[STATUS] == ONGOING:
        apply_action(state, random_below(rng, state[ACTIONS]))
    st = state[STATUS]
    if st == FIRST_WINS:
        return SECOND_WINS          # wrong
    if st == SECOND_WINS:
        return FIRST_WINS
    return st


class SwappedRollout(Numbers):
    name = "swapped-rollout"
    kernel_module = __name__
