"""Broken: apply_action adds the number to the total before it checks the move, so a refused
move still changes the state."""
from numba import njit

from conformance_games.numbers import (ACTIONS, LENGTH, PLIES, STATUS, TOTAL,  # noqa: F401
                                       Numbers, legal_actions, outcome, playout_action, status,
                                       to_play)
from games.contract import ILLEGAL, ONGOING


@njit(cache=True)
def apply_action(state, action):
    state[TOTAL] += action          # wrong: written before the move is checked
    if state[STATUS] != ONGOING or action < 0 or action >= state[ACTIONS]:
        return ILLEGAL
    state[PLIES] += 1
    if state[PLIES] == state[LENGTH]:
        state[STATUS] = outcome(state[TOTAL])
    return state[STATUS]


class DirtyRefusal(Numbers):
    name = "dirty-refusal"
    kernel_module = __name__
