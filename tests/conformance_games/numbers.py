"""Numbers: for ``length`` plies the players alternately pick a number from 0 to ``actions - 1``
and add it to a running total; then the total decides: remainder 0 or 1 (mod 4), the first
player wins; 2, the second; 3, a draw. Under uniform random play (with ``actions`` a multiple of
4) that is 50% / 25% / 25% from any unfinished position, so a rollout that swaps the winners is
plain to see. The state is small whatever the number of actions: int64 ``[actions, plies,
length, total, status]``."""
import numpy as np
from numba import njit

from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS, Game, Param
from games.rng import random_below

ACTIONS, PLIES, LENGTH, TOTAL, STATUS = 0, 1, 2, 3, 4


@njit(cache=True)
def outcome(total):
    r = total % 4
    if r <= 1:
        return FIRST_WINS
    if r == 2:
        return SECOND_WINS
    return DRAW


@njit(cache=True)
def to_play(state):
    return state[PLIES] % 2


@njit(cache=True)
def status(state):
    return state[STATUS]


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    n = state[ACTIONS]
    for a in range(n):
        out[a] = a
    return n


@njit(cache=True)
def apply_action(state, action):
    if state[STATUS] != ONGOING or action < 0 or action >= state[ACTIONS]:
        return ILLEGAL
    state[TOTAL] += action
    state[PLIES] += 1
    if state[PLIES] == state[LENGTH]:
        state[STATUS] = outcome(state[TOTAL])
    return state[STATUS]


@njit(cache=True)
def playout_action(state, rng):
    return random_below(rng, state[ACTIONS])


class Numbers(Game):
    name = "numbers"
    kernel_module = __name__
    move_help = "a number"
    parameters = (Param("actions", int, 8, "numbers to pick from", low=1, high=10_000_000),
                  Param("length", int, 3, "plies in a game", low=1, high=1000))

    def __init__(self, actions=8, length=3):
        super().__init__(actions=actions, length=length)
        self.num_actions = self.params["actions"]
        self.max_length = self.params["length"]

    def initial_state(self):
        return np.array([self.num_actions, 0, self.max_length, 0, ONGOING], dtype=np.int64)

    def render(self, state, last_action=None):
        return f"total {int(state[TOTAL])} after {int(state[PLIES])} of {self.max_length} plies"

    def parse_move(self, text, state):
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        try:
            a = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
        if not 0 <= a < self.num_actions:
            raise ValueError(f"pick a number from 0 to {self.num_actions - 1}")
        return a

    def format_move(self, action, state=None):
        return str(int(action))
