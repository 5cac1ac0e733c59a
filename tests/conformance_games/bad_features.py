"""Broken: ``move_features`` gives ids past ``num_features``."""
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import ACTIONS, STATUS
from games.contract import ONGOING


@njit(cache=True)
def move_features(state, cand, feats):
    if state[STATUS] != ONGOING:
        return 0
    n = state[ACTIONS]
    for a in range(n):
        cand[a] = a
        feats[a, 0] = a                 # wrong: ids up to actions - 1 > num_features - 1
        feats[a, 1] = -1
    return n


class BadFeatures(Numbers):
    name = "bad-features"
    kernel_module = __name__
    num_features = 2
    feature_slots = 1
