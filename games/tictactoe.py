"""Tic-tac-toe: the smallest complete game of the contract in :mod:`games.contract`.

Read this file as a template for a new game. It defines only the five required kernels; with no
``rollout`` here, the engine generates the default one (``playout_action`` then ``apply_action``
until the game ends).

Board: cells ``1``-``9`` in reading order (1 top-left, 9 bottom-right); action = cell - 1.
State: ``int8[11]`` = 9 cells (0 empty, 1 X, 2 O), then the player to move (0 X, 1 O), then the
status (``ONGOING``, ``FIRST_WINS``, ``SECOND_WINS``, ``DRAW``). X moves first. Three in a row, a
column or a diagonal wins; a full board without one is a draw. A game record is the string of
cells played, e.g. ``5193``.
"""
import numpy as np
from numba import njit

from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, Game
from games.rng import random_below

CELLS = 9
TO_PLAY, STATUS = 9, 10                 # state[TO_PLAY], state[STATUS]; cells are state[0:9]
EMPTY = 0
LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8],      # rows
                  [0, 3, 6], [1, 4, 7], [2, 5, 8],      # columns
                  [0, 4, 8], [2, 4, 6]], dtype=np.int64)  # diagonals


@njit(cache=True)
def to_play(state):
    return np.int64(state[TO_PLAY])


@njit(cache=True)
def status(state):
    return np.int64(state[STATUS])


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    n = 0
    for a in range(CELLS):
        if state[a] == EMPTY:
            out[n] = a
            n += 1
    return n


@njit(cache=True)
def apply_action(state, action):
    """Put the mover's mark on cell ``action``; then look for three in a row, then a full board."""
    if action < 0 or action >= CELLS or state[STATUS] != ONGOING or state[action] != EMPTY:
        return ILLEGAL
    player = np.int64(state[TO_PLAY])
    disc = player + 1
    state[action] = disc
    st = ONGOING
    for i in range(LINES.shape[0]):
        if state[LINES[i, 0]] == disc and state[LINES[i, 1]] == disc and state[LINES[i, 2]] == disc:
            st = FIRST_WINS + player
    if st == ONGOING:
        st = DRAW
        for a in range(CELLS):
            if state[a] == EMPTY:
                st = ONGOING
    state[TO_PLAY] = 1 - player
    state[STATUS] = st
    return st


@njit(cache=True)
def playout_action(state, rng):
    """A uniformly random empty cell (by rejection: while the game goes on, one is empty)."""
    while True:
        a = random_below(rng, CELLS)
        if state[a] == EMPTY:
            return a


class TicTacToe(Game):
    """Tic-tac-toe on a 3x3 board. Players: X moves first, O second."""

    name = "tictactoe"
    kernel_module = "games.tictactoe"
    players = ("X", "O")
    move_help = "a cell 1-9"
    record_separator = ""           # records are strings of digits

    def __init__(self):
        super().__init__()
        self.num_actions = CELLS
        self.max_length = CELLS

    def initial_state(self):
        return np.zeros(CELLS + 2, dtype=np.int8)

    def render(self, state, last_action=None):
        """The board with empty cells showing their number and the last move in parentheses."""
        rows = []
        for r in range(3):
            cells = []
            for a in range(3 * r, 3 * r + 3):
                ch = (str(a + 1), "X", "O")[int(state[a])]
                cells.append(f"({ch})" if a == last_action else f" {ch} ")
            rows.append("|".join(cells).rstrip())
        return "\n---+---+---\n".join(rows)

    def parse_move(self, text, state):
        t = text.strip()
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        if not (len(t) == 1 and "1" <= t <= "9"):
            raise ValueError(f"{t!r} is not a cell: type a number from 1 to 9")
        if int(state[int(t) - 1]) != EMPTY:
            raise ValueError(f"cell {t} is taken")
        return int(t) - 1

    def format_move(self, action, state=None):
        return str(int(action) + 1)
