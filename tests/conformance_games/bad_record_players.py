"""Broken: rollout_record records the players as 1 and 2 instead of 0 and 1."""
from numba import njit

from conformance_games.numbers import Numbers
from conformance_games.numbers_rollouts import (apply_action, legal_actions,  # noqa: F401
                                                playout_action, rollout, status, to_play)
from conformance_games.numbers_rollouts import rollout_record as correct_record


@njit(cache=True)
def rollout_record(state, rng, actions, players):
    st, n = correct_record(state, rng, actions, players)
    for i in range(n):
        players[i] += 1             # wrong
    return st, n


class BadRecordPlayers(Numbers):
    name = "bad-record-players"
    kernel_module = __name__
