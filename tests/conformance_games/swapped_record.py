"""Broken: rollout_record records the moves but returns the winner the wrong way round (its
rollout is correct)."""
from numba import njit

from conformance_games.numbers import ACTIONS, STATUS, Numbers
from conformance_games.numbers_rollouts import (apply_action, legal_actions,  # noqa: F401
                                                playout_action, rollout, status, to_play)
from games.contract import FIRST_WINS, ONGOING, SECOND_WINS
from games.rng import random_below


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
    st = state[STATUS]
    if st == FIRST_WINS:
        st = SECOND_WINS            # wrong
    elif st == SECOND_WINS:
        st = FIRST_WINS
    return st, n


class SwappedRecord(Numbers):
    name = "swapped-record"
    kernel_module = __name__
