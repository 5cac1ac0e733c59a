"""The Python face of Chinese Checkers (:class:`ChineseCheckers`): parameters, the initial
state, the star board as text and the move notation, over :mod:`games.chinese_checkers.kernels`
(the rules, the state layout and the action encoding are in its docstring).

**Notation.** Cells are OpenSpiel's numbers 0-120, row by row from the top (the board shows
the first and last number of each row). A step is ``from->to`` (``6->14``), a hop
``from=>to`` (``3=>14``; each hop of a chain is a move of its own), and ``pass`` ends a hop
chain (or passes a blocked turn): OpenSpiel's action strings, but ``pass`` for its ``Pass``.
``format_move`` without a position cannot tell a step from a hop and writes the marble's cell
and direction, ``6-DL`` (directions UL, UR, L, R, DL, DR; OpenSpiel writes this form for an
action that is neither). ``parse_move`` reads all three forms, and ``from-to`` for either.
"""
import re

import numpy as np

from games.chinese_checkers.kernels import (BOARD, COL, DIR_NAMES, HOME, HOP_FROM, IN_TARGET,
                                            JUMP, LAST_FROM, LAST_TO, MAX_MOVES, MOVES,
                                            NEIGHBOR, NPLAYERS, NUM_ACTIONS, NUM_CELLS,
                                            NUM_DIRS, PASS, PIECES, POLICIES, ROW, TARGET,
                                            TRI, TRIANGLE, TURN, TURN_PLIES, VISITED,
                                            WINNER, new_state)
from games.contract import ILLEGAL, ONGOING, Game, Param

COLOURS = ("Red", "Blue", "Green", "Yellow", "Orange", "Purple")
LETTERS = "RBGYOP"
_MOVE = re.compile(r"^(\d+)\s*(->|=>|-)\s*(\d+|[a-z]+)$")
_INDENT = 4                       # room for the row numbers left of the star


class ChineseCheckers(Game):
    """Chinese Checkers on the 121-cell star for 2, 3, 4 or 6 players (OpenSpiel's rules)."""

    name = "chinese_checkers"
    kernel_module = "games.chinese_checkers.kernels"
    players = COLOURS[:2]
    move_help = "e.g. 6->14 (a step), 3=>14 (a hop), pass"
    notation = ("from->to for a step (6->14), from=>to for a hop (3=>14; hop on the same way "
                "or type pass to end the chain); cells are numbered 0-120 row by row, the "
                "first and last of each row shown beside it")
    parameters = (
        Param("players", int, 2, "players: 2 (north and south points), 3 (north, south-east, "
              "south-west), 4 (north, north-east, south, south-west) or 6",
              choices=(2, 3, 4, 6)),
        Param("max_moves", int, 1000, "turns (all players' together; a hop chain is one "
              "turn) after which the game ends with no winner", low=1, high=100_000),
        Param("playout_policy", str, "greedy", "playout policy: greedy (each move drawn with "
              "weight 4 ** the steps it brings its marble nearer the target's point; a pass "
              "gains 0) or uniform (uniform random moves)", choices=tuple(POLICIES)),
        Param("priors", bool, True, "prior knowledge for new tree nodes: virtual playouts "
              "that favour the moves bringing a marble nearer its target"),
    )
    # bench's figures are for uniform random playouts, like OpenSpiel's.
    bench_params = {"playout_policy": "uniform"}
    search_defaults = {"prior_stats": "value"}      # the priors count as the moves' playouts

    def __init__(self, players=2, max_moves=1000, playout_policy="greedy", priors=True):
        super().__init__(players=players, max_moves=max_moves, playout_policy=playout_policy,
                         priors=priors)
        self.num_players = self.params["players"]
        self.players = COLOURS[:self.num_players]
        self.max_moves = self.params["max_moves"]
        self.policy, self.priors = self.params["playout_policy"], self.params["priors"]
        self.num_actions = NUM_ACTIONS
        self.max_length = TURN_PLIES * self.max_moves

    def initial_state(self):
        return new_state(self.num_players, self.max_moves, self.policy, self.priors)

    def position(self, marbles, to_play=0, moves=0):
        """A state with ``marbles`` (a mapping cell -> player, ten cells for each player),
        ``to_play`` to move at the start of a turn after ``moves`` completed turns (for tests
        and puzzles); ``ValueError`` if a player has not ten marbles."""
        n = self.num_players
        s = new_state(n, self.max_moves, self.policy, self.priors)
        s[BOARD:BOARD + NUM_CELLS] = 0
        cells = [[] for _ in range(n)]
        for cell, p in marbles.items():
            if not (0 <= cell < NUM_CELLS and 0 <= p < n):
                raise ValueError(f"bad marble {p} on cell {cell}")
            cells[p].append(cell)
            s[BOARD + cell] = p + 1
        for p in range(n):
            if len(cells[p]) != TRIANGLE:
                raise ValueError(f"{self.players[p]} has {len(cells[p])} marbles, not 10")
            s[PIECES + TRIANGLE * p: PIECES + TRIANGLE * (p + 1)] = sorted(cells[p])
            s[IN_TARGET + p] = sum(TRI[c] == TARGET[n, p] for c in cells[p])
        s[TURN], s[MOVES] = to_play, moves
        return s

    def board(self, state):
        """The cells as int8 ``(121,)``: -1 empty, else the player whose marble is there."""
        return (state[BOARD:BOARD + NUM_CELLS] - 1).astype(np.int8)

    def render(self, state, last_action=None):
        n = self.num_players
        width = _INDENT + 27 + 5
        lines = [[" "] * width for _ in range(17)]
        mark_to = mark_from = -1
        if last_action is not None and last_action != PASS and state[LAST_FROM] >= 0:
            mark_from, mark_to = int(state[LAST_FROM]), int(state[LAST_TO])
        for cell in range(NUM_CELLS):
            line, x = lines[ROW[cell]], _INDENT + 1 + COL[cell]
            v = int(state[BOARD + cell])
            line[x] = LETTERS[v - 1] if v else "*" if cell == mark_from else "."
            if cell == mark_to:
                line[x - 1], line[x + 1] = "(", ")"
        text = []
        for r in range(17):
            row_cells = np.nonzero(ROW == r)[0]
            first, last = int(row_cells[0]), int(row_cells[-1])
            line = lines[r]
            left = str(first)
            x0 = _INDENT + 1 + COL[first] - 2 - len(left)       # room for a "(" between
            line[x0:x0 + len(left)] = left
            x1 = _INDENT + 1 + COL[last] + 3
            line[x1:x1 + len(str(last))] = str(last)
            text.append("".join(line).rstrip())
        legend = "  ".join(f"{LETTERS[p]} {self.players[p]}" for p in range(n))
        return "\n".join(text + [legend, self._situation(state)])

    def _situation(self, state):
        turns = f"turn {int(state[MOVES]) + 1} of {self.max_moves}"
        if self.status(state) != ONGOING:
            w = int(state[WINNER])
            return (f"{self.players[w]} wins" if w >= 0 else
                    f"no winner after {self.max_moves} turns")
        who = self.players[int(state[TURN])]
        if state[HOP_FROM] >= 0:
            return f"{who} hopping from {int(state[HOP_FROM])}: hop on or pass ({turns})"
        return f"{who} to move ({turns})"

    def format_move(self, action, state=None):
        a = int(action)
        if a == PASS:
            return "pass"
        cell, d = divmod(a, NUM_DIRS)
        if state is not None:
            nb, land = NEIGHBOR[cell, d], JUMP[cell, d]
            if nb >= 0 and state[BOARD + nb] == 0:
                return f"{cell}->{nb}"
            if land >= 0:
                return f"{cell}=>{land}"
        return f"{cell}-{DIR_NAMES[d]}"

    def parse_move(self, text, state):
        t = text.strip().lower()
        if self.status(state) != ONGOING:
            raise ValueError("the game is over")
        hop_from = int(state[HOP_FROM])
        who = self.players[int(state[TURN])]
        if t == "pass":
            if hop_from < 0 and self.legal_actions(state).tolist() != [PASS]:
                raise ValueError(f"{who} has a move: pass only ends a hop chain (or a turn "
                                 "with no move at all)")
            return PASS
        m = _MOVE.match(t)
        if not m:
            raise ValueError(f"{text.strip()!r} is not a move: write {self.notation}")
        cell, kind, dest = int(m.group(1)), m.group(2), m.group(3)
        if cell >= NUM_CELLS:
            raise ValueError(f"there is no cell {cell}: cells are 0-120")
        if hop_from >= 0 and cell != hop_from:
            raise ValueError(f"{who} is hopping with the marble on {hop_from}: hop on from "
                             f"{hop_from}, or pass")
        if state[BOARD + cell] != int(state[TURN]) + 1:
            raise ValueError(f"cell {cell} holds no marble of {who}")
        if dest.isdigit():
            to = int(dest)
            dirs = [d for d in range(NUM_DIRS) if to in (NEIGHBOR[cell, d], JUMP[cell, d])]
            if not dirs:
                raise ValueError(f"{to} is neither next to {cell} nor one hop away in line")
            d = dirs[0]
            is_step = NEIGHBOR[cell, d] == to
            if kind == "=>" and is_step:
                raise ValueError(f"{cell}=>{to} is not a hop: {to} is next to {cell}")
            if kind == "->" and not is_step:
                raise ValueError(f"{cell}->{to} is not a step: {to} is two cells away")
            self._check_target(state, cell, d, to, is_step, hop_from)
        elif dest.upper() in DIR_NAMES:
            d = DIR_NAMES.index(dest.upper())
            if NEIGHBOR[cell, d] < 0:
                raise ValueError(f"there is no cell {dest.upper()} of {cell}")
        else:
            raise ValueError(f"{dest!r} is neither a cell nor a direction "
                             f"({', '.join(DIR_NAMES)})")
        action = cell * NUM_DIRS + d
        if self.kernels.apply_action(state.copy(), np.int64(action)) == ILLEGAL:
            raise ValueError(f"{self.format_move(action, state)} is not a legal move here")
        return action

    def _check_target(self, state, cell, d, to, is_step, hop_from):
        """ValueError saying why the step or hop from ``cell`` to ``to`` is illegal, if it is."""
        nb = int(NEIGHBOR[cell, d])
        if is_step:
            if hop_from >= 0:
                raise ValueError(f"in a hop chain the marble only hops: {cell}->{to} is a "
                                 "step (pass to end the chain)")
            if state[BOARD + to]:
                land = JUMP[cell, d]
                hint = f": hop with {cell}=>{land}" if land >= 0 and not state[BOARD + land] else ""
                raise ValueError(f"cell {to} is taken{hint}")
            return
        if state[BOARD + to]:
            raise ValueError(f"cell {to} is taken")
        if not state[BOARD + nb]:
            raise ValueError(f"no marble on {nb} to hop over")
        if hop_from >= 0 and state[VISITED + to] == state[MOVES] + 1:
            raise ValueError(f"this marble has already been on {to} this turn")

    def summary(self, state):
        w = int(state[WINNER])
        if w >= 0:
            return f"{self.players[w]} wins after {int(state[MOVES])} turns"
        return f"no winner after {int(state[MAX_MOVES])} turns"

    def home_triangle(self, player):
        """Player ``player``'s home triangle (0 north, 1 north-east, ... 5 north-west)."""
        return int(HOME[self.num_players, player])
