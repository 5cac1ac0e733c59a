"""Broken: rollout_record records the moves but returns the winner the wrong way round (its
rollout is correct)."""
from numba import njit

from conformance_games.numbers import Numbers
from conformance_games.numbers_rollouts import (apply_action, legal_actions,  # noqa: F401
                                                playout_action, rollout, status, to_play)
from conformance_games.numbers_rollouts import rollout_record as correct_record
from games.contract import FIRST_WINS, SECOND_WINS


@njit(cache=True)
def rollout_record(state, rng, actions, players):
    st, n = correct_record(state, rng, actions, players)
    if st == FIRST_WINS:
        st = SECOND_WINS            # wrong
    elif st == SECOND_WINS:
        st = FIRST_WINS
    return st, n


class SwappedRecord(Numbers):
    name = "swapped-record"
    kernel_module = __name__
