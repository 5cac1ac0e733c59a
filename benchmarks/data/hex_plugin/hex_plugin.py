"""Hex as an outside package adds a game to mcts-engine: two players take turns placing a
stone of their colour on an empty cell of an ``n`` x ``n`` rhombus of hexagons; Black (first)
wins by joining the top and bottom rows with a chain of black stones, White the left and
right columns. A full board always has a winner, so there are no draws (no swap rule here).
Written from the rules and docs/adding-a-game.md, registered through the
``mcts_engine.games`` entry point ``hex = "hex_plugin:Hex"``.

Parameter ``size``: 3 to 19 (default 11), e.g. ``--size 9``. Action ``row * n + column``;
notation column letter and row number from the top-left corner, e.g. ``c3``, ``f6``. The
board layout and the union-find are in the helper module ``hex_board``.

The playout is uniform random over the empty cells. The hand-written ``rollout`` uses the Hex
theorem: playing uniformly random moves until someone wins and then filling the rest of the
board gives the same winner as the filled board, and a random order of moves is a random
shuffle of the empty cells, the player to move taking the first, third, ... of them. So it
shuffles, fills and runs one flood fill, instead of one union-find step per move.
"""
import numpy as np
from numba import njit

from games.contract import FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS, Game, Param
from games.rng import random_below
from hex_board import (BLACK, CELLS, EMPTY, PLY, SIZE, STATUS, TO_PLAY, WHITE,
                       black_joins_full_board, place, state_length)

COLUMNS = "abcdefghijklmnopqrs"
MIN_SIZE, MAX_SIZE = 3, 19


@njit(cache=True)
def to_play(state):
    return np.int64(state[TO_PLAY])


@njit(cache=True)
def status(state):
    return np.int64(state[STATUS])


@njit(cache=True)
def ply(state):
    return np.int64(state[PLY])


@njit(cache=True)
def legal_actions(state, out):
    """Every empty cell, in order; none once the game is over."""
    if state[STATUS] != ONGOING:
        return 0
    m = np.int64(state[SIZE]) * np.int64(state[SIZE])
    n = 0
    for i in range(m):
        if state[CELLS + i] == EMPTY:
            out[n] = i
            n += 1
    return n


@njit(cache=True)
def apply_action(state, action):
    """Place the mover's stone on the empty cell ``action``; the new status, or ``ILLEGAL``
    (state untouched) for a finished game, a cell off the board or an occupied one."""
    m = np.int64(state[SIZE]) * np.int64(state[SIZE])
    if state[STATUS] != ONGOING or action < 0 or action >= m or state[CELLS + action] != EMPTY:
        return np.int64(ILLEGAL)
    player = np.int64(state[TO_PLAY])
    # the checks are done: from here on the state changes
    if place(state, np.int64(action), BLACK + player):
        state[STATUS] = FIRST_WINS + player
    state[PLY] += 1
    state[TO_PLAY] = 1 - player
    return np.int64(state[STATUS])


@njit(cache=True)
def playout_action(state, rng):
    """A uniformly random empty cell, found without building the list: the k-th empty one."""
    m = np.int64(state[SIZE]) * np.int64(state[SIZE])
    k = random_below(rng, m - np.int64(state[PLY]))
    for i in range(m):
        if state[CELLS + i] == EMPTY:
            if k == 0:
                return np.int64(i)
            k -= 1
    return np.int64(-1)


@njit(cache=True)
def rollout(state, rng):
    """A whole random playout on a scratch copy: shuffle the empty cells (Fisher-Yates, in the
    union-find's part of the state, which the fill makes useless), give them alternately to
    the player to move and the other, and let one flood fill name the winner."""
    st = np.int64(state[STATUS])
    if st != ONGOING:
        return st
    m = np.int64(state[SIZE]) * np.int64(state[SIZE])
    scratch = CELLS + m
    e = 0
    for i in range(m):
        if state[CELLS + i] == EMPTY:
            state[scratch + e] = i
            e += 1
    stone = BLACK + np.int64(state[TO_PLAY])
    for i in range(e):
        j = i + random_below(rng, e - i)
        cell = state[scratch + j]
        state[scratch + j] = state[scratch + i]
        state[CELLS + cell] = stone
        stone = BLACK + WHITE - stone
    if black_joins_full_board(state, scratch):
        return np.int64(FIRST_WINS)
    return np.int64(SECOND_WINS)


class Hex(Game):
    """Hex on an ``size`` x ``size`` board, Black (first) joining top and bottom."""

    name = "hex"
    kernel_module = "hex_plugin"
    parameters = (Param("size", int, 11, "board size: an n x n rhombus", low=MIN_SIZE,
                        high=MAX_SIZE),)
    players = ("Black", "White")

    def __init__(self, size=11):
        super().__init__(size=size)
        self.size = self.params["size"]
        self.num_actions = self.size * self.size
        self.max_length = self.size * self.size
        self.move_help = f"a cell like c3 (column a-{COLUMNS[self.size - 1]}, row 1-{self.size})"

    def initial_state(self):
        n = self.size
        state = np.zeros(state_length(n), dtype=np.int32)
        state[SIZE], state[STATUS] = n, ONGOING
        state[CELLS + n * n:] = np.arange(n * n + 4)     # every node its own set
        return state

    def render(self, state, last_action=None):
        """The rhombus, each row shifted half a cell right of the one above, ``X`` Black,
        ``O`` White, the last stone in lower case; then whose turn it is or the result."""
        n = self.size
        header = "   " + " ".join(COLUMNS[:n])
        lines = [header]
        for r in range(n):
            cells = []
            for c in range(n):
                i = r * n + c
                mark = ".XO"[int(state[CELLS + i])]
                cells.append(mark.lower() if i == last_action else mark)
            lines.append(f"{' ' * r}{r + 1:>2} {' '.join(cells)} {r + 1}")
        lines.append(" " * (n - 1) + header)
        st = int(state[STATUS])
        note = "Black (X) joins top and bottom, White (O) left and right"
        if last_action is not None:
            note += f"; last move {self.format_move(int(last_action))}"
        if st != ONGOING:
            note += f"; game over: {self.result_text(st)}"
        else:
            note += f"; {self.players[int(state[TO_PLAY])]} to move"
        lines.append(note)
        return "\n".join(lines)

    def parse_move(self, text, state):
        word = text.strip().lower()
        col, row = word[:1], word[1:]
        if not (col and col in COLUMNS[:self.size] and row.isdigit()
                and 1 <= int(row) <= self.size):
            raise ValueError(f"{text.strip()!r} is not a cell: write a column "
                             f"a-{COLUMNS[self.size - 1]} and a row 1-{self.size}, e.g. c3")
        action = (int(row) - 1) * self.size + COLUMNS.index(col)
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        if int(state[CELLS + action]) != EMPTY:
            raise ValueError(f"{word} is taken")
        return action

    def format_move(self, action, state=None):
        r, c = divmod(int(action), self.size)
        return f"{COLUMNS[c]}{r + 1}"
