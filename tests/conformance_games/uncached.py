"""Broken: status and to_play are compiled without cache=True (a compile at every start)."""
from numba import njit

from conformance_games.numbers import (PLIES, STATUS, Numbers, apply_action,  # noqa: F401
                                       legal_actions, playout_action)


@njit                               # wrong: no cache=True
def to_play(state):
    return state[PLIES] % 2


@njit                               # wrong: no cache=True
def status(state):
    return state[STATUS]


class Uncached(Numbers):
    name = "uncached"
    kernel_module = __name__
