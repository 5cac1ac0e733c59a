"""Nim for ``players`` players (2 to 6): from a pile of ``stones``, each in turn takes 1, 2 or
3 (action = stones taken - 1); whoever takes the last stone gets 1, the player who moved just
before gets 0.5, everyone else 0 (ranked rewards, so that max-n has few ties). A
deterministic game of more than two players with a ``returns`` kernel. State: int64
``[pile, to_play, last, previous, status, players]``."""
import numpy as np
from numba import njit

from games.contract import ENDED, ILLEGAL, ONGOING, Game, Param
from games.rng import random_below

PILE, TO_PLAY, LAST, PREVIOUS, STATUS, PLAYERS = range(6)


@njit(cache=True)
def to_play(state):
    return state[TO_PLAY]


@njit(cache=True)
def status(state):
    return state[STATUS]


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    n = min(3, state[PILE])
    for a in range(n):
        out[a] = a
    return n


@njit(cache=True)
def apply_action(state, action):
    if state[STATUS] != ONGOING or action < 0 or action >= min(3, state[PILE]):
        return ILLEGAL
    state[PILE] -= action + 1
    state[PREVIOUS], state[LAST] = state[LAST], state[TO_PLAY]
    state[TO_PLAY] = (state[TO_PLAY] + 1) % state[PLAYERS]
    if state[PILE] == 0:
        state[STATUS] = ENDED
    return state[STATUS]


@njit(cache=True)
def returns(state, out):
    for p in range(state[PLAYERS]):
        out[p] = 0.0
    if state[PREVIOUS] >= 0:
        out[state[PREVIOUS]] = 0.5
    out[state[LAST]] = 1.0


@njit(cache=True)
def playout_action(state, rng):
    return random_below(rng, min(3, state[PILE]))


class Nim(Game):
    name = "nim3"
    kernel_module = __name__
    move_help = "1, 2 or 3 (stones to take)"
    parameters = (Param("players", int, 3, "players", low=2, high=6),
                  Param("stones", int, 10, "stones in the pile", low=1, high=1000))

    def __init__(self, players=3, stones=10):
        super().__init__(players=players, stones=stones)
        self.num_players = self.params["players"]
        self.players = tuple(f"P{i + 1}" for i in range(self.num_players))
        self.num_actions = 3
        self.max_length = self.params["stones"]

    def initial_state(self):
        return np.array([self.params["stones"], 0, -1, -1, ONGOING, self.num_players],
                        dtype=np.int64)

    def render(self, state, last_action=None):
        return f"{int(state[PILE])} stones, {self.players[int(state[TO_PLAY])]} to move"

    def parse_move(self, text, state):
        try:
            a = int(text) - 1
        except ValueError:
            raise ValueError("type 1, 2 or 3") from None
        if a < 0 or a >= min(3, int(state[PILE])):
            raise ValueError(f"take 1 to {min(3, int(state[PILE]))}")
        return a

    def format_move(self, action, state=None):
        return str(action + 1)
