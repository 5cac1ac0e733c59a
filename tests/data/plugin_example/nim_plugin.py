"""Nim with three heaps as an outside package adds a game: normal play, the player who takes
the last object wins. A position is lost for the side to move exactly when the heaps' XOR is 0
(Bouton 1901). Registered through the ``mcts_engine.games`` entry point; written from
docs/adding-a-game.md.

Parameter ``heaps``: three sizes from 0 to 50, e.g. ``--heaps 3,4,5`` (the default).
State int64[5]: heaps 0-2, player to move, status. Action ``h * 50 + (n - 1)`` takes ``n``
(1-50) from heap ``h``: 150 actions. Notation ``h:n`` with heaps numbered from 1, e.g. ``2:3``.
The rules themselves are in the helper module ``nim_rules``.
"""
import numpy as np
from numba import njit

from games.contract import ONGOING, Game, Param
from games.rng import random_below
from nim_rules import HEAPS, MAX_TAKE, STATUS, TO_PLAY, take


@njit(cache=True)
def to_play(state):
    return state[TO_PLAY]


@njit(cache=True)
def status(state):
    return state[STATUS]


@njit(cache=True)
def legal_actions(state, out):
    n = 0
    if state[STATUS] != ONGOING:
        return 0
    for h in range(HEAPS):
        for count in range(1, state[h] + 1):
            out[n] = h * MAX_TAKE + count - 1
            n += 1
    return n


@njit(cache=True)
def apply_action(state, action):
    return take(state, action // MAX_TAKE, action % MAX_TAKE + 1)


@njit(cache=True)
def playout_action(state, rng):
    """Uniform over the legal moves without building their list (nothing is allocated): the
    k-th move of the heaps taken in order."""
    k = random_below(rng, state[0] + state[1] + state[2])
    for h in range(HEAPS):
        if k < state[h]:
            return h * MAX_TAKE + k
        k -= state[h]
    return -1


class Nim(Game):
    name = "nim"
    kernel_module = "nim_plugin"
    parameters = (Param("heaps", str, "3,4,5", "three heap sizes from 0 to 50, e.g. 3,4,5"),)
    players = ("first", "second")
    move_help = "heap:count, e.g. 2:3"

    def __init__(self, heaps="3,4,5"):
        super().__init__(heaps=heaps)
        try:
            self.heaps = [int(x) for x in self.params["heaps"].split(",")]
        except ValueError:
            self.heaps = []
        if len(self.heaps) != HEAPS or not all(0 <= x <= MAX_TAKE for x in self.heaps):
            raise ValueError(f"heaps must be three numbers from 0 to {MAX_TAKE}, e.g. 3,4,5; "
                             f"got {heaps!r}")
        self.num_actions = HEAPS * MAX_TAKE
        self.max_length = sum(self.heaps)

    def initial_state(self):
        return np.array(self.heaps + [0, ONGOING], dtype=np.int64)

    def render(self, state, last_action=None):
        return "\n".join(f"heap {h + 1}: {'|' * int(state[h])}" for h in range(HEAPS))

    def parse_move(self, text, state):
        try:
            h, n = (int(x) for x in text.strip().split(":"))
        except ValueError:
            raise ValueError(f"{text!r} is not a move: write heap:count, e.g. 2:3") from None
        if not (1 <= h <= HEAPS and 1 <= n <= int(state[h - 1])):
            raise ValueError(f"cannot take {n} from heap {h}")
        return (h - 1) * MAX_TAKE + n - 1

    def format_move(self, action, state=None):
        return f"{action // MAX_TAKE + 1}:{action % MAX_TAKE + 1}"
