"""Broken: playout_action writes to the state (it bumps the total) instead of only choosing."""
from numba import njit

from conformance_games.numbers import (ACTIONS, TOTAL, Numbers, apply_action,  # noqa: F401
                                       legal_actions, status, to_play)
from games.rng import random_below


@njit(cache=True)
def playout_action(state, rng):
    state[TOTAL] += 1               # wrong: the policy must not change the position
    return random_below(rng, state[ACTIONS])


class WritingPolicy(Numbers):
    name = "writing-policy"
    kernel_module = __name__
