"""The rules of Nim as compiled helpers, in a module of their own: the kernels in
``nim_plugin`` call them. The engine notices edits here on the next run (the kernels import
this module, so its file is part of their compiled closure)."""
from numba import njit

from games.contract import FIRST_WINS, ILLEGAL, ONGOING

HEAPS, MAX_TAKE = 3, 50          # action h * MAX_TAKE + (n - 1) takes n from heap h
TO_PLAY, STATUS = HEAPS, HEAPS + 1


@njit(cache=True)
def take(state, heap, count):
    """Take ``count`` objects from ``heap`` for the player to move; return the new status
    (normal play: whoever takes the last object wins), or ILLEGAL with the state unchanged."""
    if state[STATUS] != ONGOING or heap < 0 or heap >= HEAPS or count < 1 or count > state[heap]:
        return ILLEGAL
    state[heap] -= count
    if state[0] + state[1] + state[2] == 0:
        state[STATUS] = FIRST_WINS + state[TO_PLAY]
    state[TO_PLAY] = 1 - state[TO_PLAY]
    return state[STATUS]
