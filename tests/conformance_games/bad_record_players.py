"""Broken: rollout_record records the players as 1 and 2 instead of 0 and 1."""
from numba import njit

from conformance_games.numbers import ACTIONS, STATUS, Numbers
from conformance_games.numbers_rollouts import (apply_action, legal_actions,  # noqa: F401
                                                playout_action, rollout, status, to_play)
from games.contract import ONGOING
from games.rng import random_below


@njit(cache=True)
def rollout_record(state, rng, actions, players):
    n = 0
    while state[STATUS] == ONGOING:
        a = random_below(rng, state[ACTIONS])
        if n < actions.shape[0]:
            actions[n] = a
            players[n] = to_play(state) + 1     # wrong
            n += 1
        apply_action(state, a)
    return state[STATUS], n


class BadRecordPlayers(Numbers):
    name = "bad-record-players"
    kernel_module = __name__
