"""Coin: a two-player game with one chance position and known expected values.

Player 0 folds (action 0: rewards 0.4 / 0.6) or bets (action 1); a bet tosses a coin (a chance
position: outcome 0 tails, probability 0.3; outcome 1 heads, 0.7); then player 1 picks
action 0 or 1, ending the game with player 0's reward ``PAYOFF[coin, pick]`` (player 1 gets
the rest of 1). Under best play player 1 picks the lower payoff for player 0 (0.8 after
heads, 0.0 after tails), so a bet is worth 0.7 * 0.8 + 0.3 * 0.0 = 0.56 to player 0, more
than folding's 0.4: the search must bet, with a root value near 0.56. State: int64
``[phase, coin, pick, status, plies]`` (phase 0: player 0 to move, 1: the toss, 2: player 1
to move, 3: over)."""
import numpy as np
from numba import njit

from games.contract import CHANCE, ENDED, ILLEGAL, ONGOING, Game
from games.rng import random_below

PHASE, COIN, PICK, STATUS, PLIES = 0, 1, 2, 3, 4
PAYOFF = np.array([[0.0, 0.1], [1.0, 0.8]])   # player 0's reward by coin (tails, heads), pick
FOLD = 0.4
HEADS = 0.7


@njit(cache=True)
def to_play(state):
    if state[PHASE] == 1:
        return CHANCE
    return 0 if state[PHASE] == 0 else 1


@njit(cache=True)
def status(state):
    return state[STATUS]


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    out[0], out[1] = 0, 1
    return 2


@njit(cache=True)
def chance_outcomes(state, actions, probs):
    actions[0], actions[1] = 0, 1
    probs[0], probs[1] = 1.0 - HEADS, HEADS
    return 2


@njit(cache=True)
def apply_action(state, action):
    if state[STATUS] != ONGOING or action < 0 or action > 1:
        return ILLEGAL
    state[PLIES] += 1
    if state[PHASE] == 0:
        if action == 0:
            state[PHASE], state[STATUS] = 3, ENDED
        else:
            state[PHASE] = 1
    elif state[PHASE] == 1:
        state[COIN], state[PHASE] = action, 2
    else:
        state[PICK], state[PHASE], state[STATUS] = action, 3, ENDED
    return state[STATUS]


@njit(cache=True)
def returns(state, out):
    r = FOLD if state[COIN] < 0 else PAYOFF[state[COIN], state[PICK]]
    out[0], out[1] = r, 1.0 - r


@njit(cache=True)
def playout_action(state, rng):
    return random_below(rng, 2)


class Coin(Game):
    name = "coin"
    kernel_module = __name__
    chance = True
    move_help = "0 or 1"

    def __init__(self):
        super().__init__()
        self.num_actions = 2
        self.max_length = 3

    def initial_state(self):
        return np.array([0, -1, -1, ONGOING, 0], dtype=np.int64)

    def render(self, state, last_action=None):
        return f"phase {int(state[PHASE])}, coin {int(state[COIN])}"

    def parse_move(self, text, state):
        word = text.strip().lower()
        if state[PHASE] == 1 and word in ("tails", "heads"):
            return ("tails", "heads").index(word)
        if word not in ("0", "1"):
            raise ValueError("type 0 or 1")
        return int(word)

    def format_move(self, action, state=None):
        if state is not None and state[PHASE] == 1:
            return ("tails", "heads")[action]
        return str(action)
