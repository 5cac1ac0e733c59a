"""Broken: rollout does not play at all and always says the game is a draw."""
from numba import njit

from conformance_games.numbers import (Numbers, apply_action, legal_actions,  # noqa: F401
                                       playout_action, status, to_play)
from games.contract import DRAW


@njit(cache=True)
def rollout(state, rng):
    return DRAW                     # wrong


class DrawRollout(Numbers):
    name = "draw-rollout"
    kernel_module = __name__
