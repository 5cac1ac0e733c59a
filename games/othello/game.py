"""The Python face of Othello (:class:`Othello`): the initial state, set-up positions, the board
as text and the square notation, over the kernels of :mod:`games.othello.kernels`."""
import re

import numpy as np

from games.board_text import marked_rows
from games.contract import ONGOING, Game
from games.othello.bits import moves_of, popcount
from games.othello.kernels import (BLACK, COLUMNS, FEATURE_NAMES, PASS, SIZE, SQUARES, STATUS,
                                   TO_PLAY, WHITE, _START_BLACK, _START_WHITE, _final_status,
                                   square_name)


class Othello(Game):
    """Othello, 8x8. Players: Black (X) moves first, White (O) second."""

    name = "othello"
    kernel_module = "games.othello.kernels"
    players = ("Black", "White")
    move_help = "a square a1-h8 or pass"
    pass_action = PASS               # RAVE keeps the pass out of its AMAF statistics
    num_features = len(FEATURE_NAMES)
    feature_slots = 4

    def feature_names(self):
        return list(FEATURE_NAMES)

    def __init__(self):
        super().__init__()
        self.num_actions = SQUARES + 1
        self.max_length = 120

    def initial_state(self):
        return np.array([_START_BLACK, _START_WHITE, 0, ONGOING, 0], dtype=np.uint64)

    def position(self, rows, to_play=0):
        """A state from 8 strings of 8 characters, row 1 first: ``X`` Black, ``O`` White, ``.``
        empty (spaces ignored); ``to_play`` 0 Black, 1 White. If neither side can move, the state
        holds the final status; if only the side to move cannot, it must pass."""
        rows = ["".join(r.split()) for r in rows]
        if len(rows) != SIZE or any(len(r) != SIZE or set(r) - set("XO.") for r in rows):
            raise ValueError("a position is 8 rows of 8 characters from 'X', 'O', '.'")
        discs = [0, 0]
        for i, ch in enumerate("".join(rows)):
            if ch != ".":
                discs["XO".index(ch)] |= 1 << i
        state = np.array([discs[0], discs[1], to_play, ONGOING, 0], dtype=np.uint64)
        if not moves_of(state[0], state[1]) and not moves_of(state[1], state[0]):
            state[STATUS] = _final_status(state[BLACK], state[WHITE])
        return state

    def board(self, state):
        """int8 array (8, 8), row 1 first: 0 empty, 1 Black, 2 White."""
        b, w = int(state[BLACK]), int(state[WHITE])
        return np.array([1 if b >> i & 1 else 2 if w >> i & 1 else 0 for i in range(SQUARES)],
                        dtype=np.int8).reshape(SIZE, SIZE)

    def counts(self, state):
        """Discs of (Black, White)."""
        return int(popcount(state[BLACK])), int(popcount(state[WHITE]))

    def _moves(self, state):
        p = int(state[TO_PLAY])
        return int(moves_of(state[p], state[1 - p]))

    def render(self, state, last_action=None):
        """Board with ``X`` Black, ``O`` White, ``*`` the legal moves of the side to move, the
        last move in parentheses; then the disc counts and who moves."""
        grid = self.board(state)
        moves = self._moves(state) if int(state[STATUS]) == ONGOING else 0
        mark = None
        if last_action is not None and 0 <= int(last_action) < SQUARES:
            mark = divmod(int(last_action), SIZE)
        header = "   " + " ".join(COLUMNS)
        cells = [["*" if grid[r, c] == 0 and moves >> (r * SIZE + c) & 1 else ".XO"[grid[r, c]]
                  for c in range(SIZE)] for r in range(SIZE)]
        lines = [header] + marked_rows(cells, mark, [r + 1 for r in range(SIZE)])
        lines.append(header)
        nb, nw = self.counts(state)
        note = f"Black (X) {nb}, White (O) {nw}"
        st = int(state[STATUS])
        if last_action is not None and int(last_action) == PASS:
            note += f"; {self.players[1 - int(state[TO_PLAY])]} passed"
        if st != ONGOING:
            note += f"; game over: {self.result_text(st)}"
        else:
            who = self.players[int(state[TO_PLAY])]
            note += f"; {who} to move" + (" (* legal)" if moves else ", must pass")
        lines.append(note)
        return "\n".join(lines)

    def parse_move(self, text, state):
        t = text.strip().lower()
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        moves = self._moves(state)
        who = self.players[int(state[TO_PLAY])]
        if t == "pass":
            if moves:
                raise ValueError(f"{who} cannot pass while a move exists "
                                 f"(e.g. {square_name((moves & -moves).bit_length() - 1)})")
            return PASS
        if not re.fullmatch(r"[a-h][1-8]", t):
            raise ValueError(f"{text.strip()!r} is not a square: type a column a-h and a row "
                             f"1-8 (like d3), or pass")
        action = (int(t[1]) - 1) * SIZE + COLUMNS.index(t[0])
        if (int(state[BLACK]) | int(state[WHITE])) >> action & 1:
            raise ValueError(f"{t} is occupied")
        if not moves:
            raise ValueError(f"{who} has no move and must pass")
        if not moves >> action & 1:
            raise ValueError(f"{t} flips nothing: a move must outflank opposing discs")
        return action

    def format_move(self, action, state=None):
        return square_name(action)

    def parse_record(self, text):
        moves = []
        for token in text.split():
            i = 0
            while i < len(token):
                n = 4 if token[i:i + 4].lower() == "pass" else 2
                moves.append(token[i:i + n])
                i += n
        return moves

    def format_record(self, moves):
        return "".join(moves)

    def ai_should_pass(self, state):
        return int(state[STATUS]) == ONGOING and not self._moves(state)

    def summary(self, state):
        nb, nw = self.counts(state)
        return f"{self.result_text(self.status(state))}, {nb}-{nw}"
