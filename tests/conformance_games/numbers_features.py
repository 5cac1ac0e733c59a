"""Numbers with move features: the id of a number is the remainder mod 4 of the total it
leads to, plus 4 on the last ply, plus 8 for the second player. A policy that knows the rule
(remainder 0 or 1: the first player wins, 2: the second) puts its weight on the last ply's
winning remainders of each player: ids 4 and 5 for the first player, 14 for the second."""
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from conformance_games.numbers import ACTIONS, LENGTH, PLIES, STATUS, TOTAL
from games.contract import ONGOING


@njit(cache=True)
def move_features(state, cand, feats):
    if state[STATUS] != ONGOING:
        return 0
    last = 4 if state[PLIES] + 1 == state[LENGTH] else 0
    second = 8 * (state[PLIES] % 2)
    for a in range(state[ACTIONS]):
        cand[a] = a
        feats[a, 0] = (state[TOTAL] + a) % 4 + last + second
        if feats.shape[1] > 1:
            feats[a, 1] = -1
    return state[ACTIONS]


class NumbersWithFeatures(Numbers):
    name = "numbers-features"
    kernel_module = __name__
    num_features = 16
    feature_slots = 1
