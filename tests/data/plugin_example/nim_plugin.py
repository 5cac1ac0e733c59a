"""Nim with three heaps (3, 4, 5) as an outside package would add it: normal play, the player
who takes the last object wins. A position is lost for the side to move exactly when the
heaps' XOR is 0 (Bouton 1901). Registered through the ``mcts_engine.games`` entry point.

State int64[5]: heaps 0-2, player to move, status. Action ``h * 5 + (n - 1)`` takes ``n``
(1-5) from heap ``h``; notation ``h:n`` with heaps numbered from 1, e.g. ``2:3``.
"""
import numpy as np
from numba import njit

from games.contract import FIRST_WINS, ILLEGAL, ONGOING, Game
from games.rng import random_below

HEAPS, MAX_TAKE, TO_PLAY, STATUS = 3, 5, 3, 4


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
        for take in range(1, min(state[h], MAX_TAKE) + 1):
            out[n] = h * MAX_TAKE + take - 1
            n += 1
    return n


@njit(cache=True)
def apply_action(state, action):
    h, take = action // MAX_TAKE, action % MAX_TAKE + 1
    if state[STATUS] != ONGOING or action < 0 or h >= HEAPS or take > state[h]:
        return ILLEGAL
    state[h] -= take
    if state[0] + state[1] + state[2] == 0:
        state[STATUS] = FIRST_WINS + state[TO_PLAY]
    state[TO_PLAY] = 1 - state[TO_PLAY]
    return state[STATUS]


@njit(cache=True)
def playout_action(state, rng):
    out = np.empty(HEAPS * MAX_TAKE, dtype=np.int32)
    n = legal_actions(state, out)
    return out[random_below(rng, n)]


class Nim(Game):
    name = "nim"
    kernel_module = "nim_plugin"
    players = ("first", "second")
    move_help = "heap:count, e.g. 2:3"

    def __init__(self, heaps="3,4,5"):
        super().__init__(heaps=heaps)
        self.heaps = [int(x) for x in str(heaps).split(",")]
        if len(self.heaps) != HEAPS or not all(0 <= x <= 9 for x in self.heaps):
            raise ValueError("heaps must be three numbers from 0 to 9, e.g. 3,4,5")
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
        if not (1 <= h <= HEAPS and 1 <= n <= min(MAX_TAKE, int(state[h - 1]))):
            raise ValueError(f"cannot take {n} from heap {h}")
        return (h - 1) * MAX_TAKE + n - 1

    def format_move(self, action, state=None):
        return f"{action // MAX_TAKE + 1}:{action % MAX_TAKE + 1}"
