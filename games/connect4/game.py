"""The Python face of Connect Four (:class:`Connect4`): parameters, the initial state, the board
as text and the column notation, over the kernels of :mod:`games.connect4.kernels`."""
import numpy as np

from games.connect4.kernels import (CELLS, FEATURE_NAMES, H1, HEIGHT, MASK, PLIES, POLICIES,
                                    POLICY, POS, STATUS, WIDTH, _TOP)
from games.contract import ONGOING, Game, Param


class Connect4(Game):
    """Connect Four, 7x6. Players: X moves first, O second."""

    name = "connect4"
    kernel_module = "games.connect4.kernels"
    players = ("X", "O")
    move_help = "a column 1-7"
    record_separator = ""           # records are strings of digits
    parameters = (
        Param("playout_policy", str, "threats", "playout policy: threats (win at once, block "
              "an immediate win, never play below the opponent's winning cell) or uniform "
              "(uniform random columns)", choices=tuple(POLICIES)),
    )
    # bench's figures are for uniform random playouts, like OpenSpiel's.
    bench_params = {"playout_policy": "uniform"}
    num_features = len(FEATURE_NAMES)
    feature_slots = 7
    # The exact solver (games.connect4.solver) on tree nodes, 32 of its nodes per visit: on the
    # 75 begin positions of tests/data at 1 s, 2 threads, seeds 1-5, 368/375 moves kept the
    # outcome (without it 71/75); at 0.2 s a move it plays as well as the search without it
    # (30.5/60); c = 1.4 kept 224/225 but lost in play (5.5/20). docs/results/strength.md.
    solve_table_size = 1 << 21      # 16 MiB per search thread
    search_defaults = {"solve_nodes": 32.0}   # the exact solver's budget per visit

    def __init__(self, playout_policy="threats"):
        super().__init__(playout_policy=playout_policy)
        self.policy = self.params["playout_policy"]
        self.num_actions = WIDTH
        self.max_length = CELLS

    def feature_names(self):
        return list(FEATURE_NAMES)

    def initial_state(self):
        s = np.zeros(5, dtype=np.uint64)
        s[POLICY] = POLICIES[self.policy]
        return s

    def cells(self, state):
        """Board as int8 array of shape (6, 7), row 0 at the top: 0 empty, 1 X, 2 O."""
        pos, mask = int(state[POS]), int(state[MASK])
        x_stones = pos if int(state[PLIES]) % 2 == 0 else pos ^ mask
        grid = np.zeros((HEIGHT, WIDTH), dtype=np.int8)
        for c in range(WIDTH):
            for r in range(HEIGHT):
                bit = 1 << (H1 * c + r)
                if mask & bit:
                    grid[HEIGHT - 1 - r, c] = 1 if x_stones & bit else 2
        return grid

    def render(self, state, last_action=None):
        grid = self.cells(state)
        mark_row = None
        if last_action is not None:
            filled = np.nonzero(grid[:, last_action])[0]
            mark_row = filled[0] if len(filled) else None
        lines = ["  " + "   ".join(str(c + 1) for c in range(WIDTH))]
        for r in range(HEIGHT):
            row = ""
            for c in range(WIDTH):
                ch = ".XO"[grid[r, c]]
                row += f"({ch})" if (c == last_action and r == mark_row) else f" {ch} "
                row += " "
            lines.append(" " + row.rstrip())
        return "\n".join(lines)

    def parse_move(self, text, state):
        t = text.strip()
        if int(state[STATUS]) != ONGOING:
            raise ValueError("the game is over")
        if not (t.isdigit() and len(t) == 1 and "1" <= t <= "7"):
            raise ValueError(f"{t!r} is not a column: type a number from 1 to {WIDTH}")
        col = int(t) - 1
        if int(state[MASK]) & int(_TOP[col]):
            raise ValueError(f"column {t} is full")
        return col

    def format_move(self, action, state=None):
        return str(int(action) + 1)
