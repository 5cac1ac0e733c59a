"""Numbers with correct hand-written rollout and rollout_record."""
from numba import njit

from conformance_games.numbers import (ACTIONS, STATUS, Numbers, apply_action,  # noqa: F401
                                       legal_actions, playout_action, status, to_play)
from games.contract import ONGOING
from games.rng import random_below


@njit(cache=True)
def rollout(state, rng):
    while state[STATUS] == ONGOING:
        apply_action(state, random_below(rng, state[ACTIONS]))
    return state[STATUS]


@njit(cache=True)
def rollout_record(state, rng, actions, players):
    n = 0
    while state[STATUS] == ONGOING:
        a = random_below(rng, state[ACTIONS])
        if n < actions.shape[0]:
            actions[n] = a
            players[n] = to_play(state)
            n += 1
        apply_action(state, a)
    return state[STATUS], n


class NumbersWithRollouts(Numbers):
    name = "numbers-rollouts"
    kernel_module = __name__
