"""Fine: rollout_record records its moves last first (as a playout that fills a board at once
might record them in any order); the players and actions are right, so the game conforms."""
from numba import njit

from conformance_games.numbers import Numbers
from conformance_games.numbers_rollouts import (apply_action, legal_actions,  # noqa: F401
                                                playout_action, rollout, status, to_play)
from conformance_games.numbers_rollouts import rollout_record as in_order


@njit(cache=True)
def rollout_record(state, rng, actions, players):
    st, n = in_order(state, rng, actions, players)
    for i in range(n // 2):
        j = n - 1 - i
        actions[i], actions[j] = actions[j], actions[i]
        players[i], players[j] = players[j], players[i]
    return st, n


class ReversedRecord(Numbers):
    name = "reversed-record"
    kernel_module = __name__
