"""Tic-tac-toe: rules and notation, and the search checked against an exhaustive minimax on every
reachable position. The reference rules here (``winner``, ``reachable``, ``minimax``) work on
tuples and share no code with games/tictactoe.py."""
import dataclasses
import functools
import itertools
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import games
import mcts
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.tictactoe import TicTacToe
from games.rng import new_rng
from mcts.search import load_kernels

if "tictactoe" not in games.names():
    games.register(TicTacToe)
G = games.get("tictactoe")

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
SEARCH_PLAYOUTS = 5_000


# --- independent reference: a board is a tuple of 9 ints, 0 empty, 1 X, 2 O -----------------
def winner(board):
    for i, j, k in LINES:
        if board[i] and board[i] == board[j] == board[k]:
            return board[i]
    return 0


def mover(board):
    return 1 if board.count(1) == board.count(2) else 2


def child(board, a):
    return board[:a] + (mover(board),) + board[a + 1:]


def terminal_value(board):
    """From the view of the player who just moved: 1 win, 0 draw; None if the game goes on."""
    if winner(board):
        return 1
    return 0 if 0 not in board else None


@functools.lru_cache(maxsize=None)
def minimax(board):
    """Exact value of a non-terminal ``board`` for the player to move: 1 win, 0 draw, -1 loss."""
    return max(move_value(board, a) for a in range(9) if board[a] == 0)


def move_value(board, a):
    """Exact value, for the player to move in ``board``, of playing cell ``a``."""
    c = child(board, a)
    v = terminal_value(c)
    return v if v is not None else -minimax(c)


def reachable():
    """Every position reachable from the empty board (terminal ones included)."""
    seen, stack = set(), [(0,) * 9]
    while stack:
        b = stack.pop()
        if b in seen:
            continue
        seen.add(b)
        if terminal_value(b) is None:
            stack.extend(child(b, a) for a in range(9) if b[a] == 0)
    return sorted(seen)


def to_state(board):
    state = G.initial_state()
    state[:9] = board
    state[9] = mover(board) - 1
    w = winner(board)
    state[10] = FIRST_WINS + w - 1 if w else (DRAW if 0 not in board else ONGOING)
    return state


ALL = reachable()
NON_TERMINAL = [b for b in ALL if terminal_value(b) is None]


# --- rules -----------------------------------------------------------------------------------
def line_record(line, player):
    """A record in which ``player`` (1 X, 2 O) completes ``line`` on its third move and the other
    player never has three in a row."""
    rest = [c for c in range(9) if c not in line]
    n_other = 2 if player == 1 else 3
    for other in itertools.combinations(rest, n_other):
        if not any(set(ln) <= set(other) for ln in LINES):
            break
    mine = list(line)
    order = [mine, list(other)] if player == 1 else [list(other), mine]
    moves = [order[i % 2][i // 2] for i in range(5 if player == 1 else 6)]
    return "".join(str(a + 1) for a in moves)


@pytest.mark.parametrize("player", [1, 2])
@pytest.mark.parametrize("line", LINES)
def test_every_row_column_and_diagonal_wins(line, player):
    record = line_record(line, player)
    state, actions = G.play_record(record[:-1])
    assert G.status(state) == ONGOING
    assert G.play(state, int(record[-1]) - 1) == (FIRST_WINS if player == 1 else SECOND_WINS)
    assert G.status(state) == FIRST_WINS + player - 1
    assert len(G.legal_actions(state)) == 0


def test_full_board_draw():
    record = "123546879"          # X O X / X O O / O X X
    state, _ = G.play_record(record[:-1])
    assert G.status(state) == ONGOING and list(G.legal_actions(state)) == [8]
    assert G.play(state, 8) == DRAW
    assert len(G.legal_actions(state)) == 0
    assert G.result_text(G.status(state)) == "draw"


def test_players_alternate_and_state_layout():
    state = G.initial_state()
    assert state.shape == (11,) and state.dtype == np.int8 and not state.any()
    assert G.to_play(state) == 0 and list(G.legal_actions(state)) == list(range(9))
    G.play(state, 4)
    assert G.to_play(state) == 1 and state[4] == 1
    G.play(state, 0)
    assert G.to_play(state) == 0 and state[0] == 2
    assert list(G.legal_actions(state)) == [1, 2, 3, 5, 6, 7, 8]


def test_kernels_agree_with_the_reference_on_every_reachable_position():
    assert len(ALL) == 5478 and len(NON_TERMINAL) == 4520
    k = G.kernels
    for b in ALL:
        state = to_state(b)
        assert k.status(state) == state[10]
        expected = [a for a in range(9) if b[a] == 0] if terminal_value(b) is None else []
        assert list(G.legal_actions(state)) == expected
        for a in expected:
            s = state.copy()
            st = k.apply_action(s, a)
            assert list(s) == list(to_state(child(b, a))) and st == s[10]


@pytest.mark.parametrize("text", ["x", "0", "10", "", "55", "-1", "a1"])
def test_not_a_cell(text):
    message = f"{text!r} is not a cell: type a number from 1 to 9"
    with pytest.raises(ValueError, match=re.escape(message)):
        G.parse_move(text, G.initial_state())


def test_taken_and_game_over():
    state, _ = G.play_record("5")
    with pytest.raises(ValueError, match="cell 5 is taken"):
        G.parse_move("5", state)
    assert G.parse_move(" 7 ", state) == 6
    state, _ = G.play_record("14253")
    with pytest.raises(ValueError, match="the game is over"):
        G.parse_move("9", state)
    with pytest.raises(ValueError, match="move 6 .*the game is over"):
        G.play_record("142539")
    with pytest.raises(ValueError, match="move 2 .*cell 1 is taken"):
        G.play_record("11")


def test_apply_action_rejects_illegal_moves_and_leaves_the_state():
    k = G.kernels
    state, _ = G.play_record("5")
    for a in (4, -1, 9, 100):
        s = state.copy()
        assert k.apply_action(s, a) == ILLEGAL and (s == state).all()
    over, _ = G.play_record("14253")
    s = over.copy()
    assert k.apply_action(s, 8) == ILLEGAL and (s == over).all()


def test_notation_and_records():
    state = G.initial_state()
    for a in range(9):
        assert G.parse_move(G.format_move(a), state) == a
    assert G.parse_record("5193") == ["5", "1", "9", "3"] == G.parse_record(" 5 1\n93 ")
    assert G.format_record(["5", "1", "9", "3"]) == "5193"
    _, actions = G.play_record("5193")
    assert actions == [4, 0, 8, 2]


def test_render_marks_the_last_move():
    state, actions = G.play_record("5193")
    assert G.render(state, actions[-1]) == "\n".join([
        " O | 2 |(O)", "---+---+---", " 4 | X | 6", "---+---+---", " 7 | 8 | X"])
    assert "(" not in G.render(state)


# --- playouts and search ---------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def random_play(board):
    """Exact probabilities (X wins, O wins, draw) of uniformly random play from ``board``."""
    w = winner(board)
    if w or 0 not in board:
        return (w == 1, w == 2, not w)
    empty = [a for a in range(9) if board[a] == 0]
    outcomes = [random_play(child(board, a)) for a in empty]
    return tuple(sum(o[i] for o in outcomes) / len(empty) for i in range(3))


def test_random_playouts_follow_the_exact_distribution():
    k = load_kernels(G, log=None)
    n = 200_000
    outcomes = np.zeros(4, dtype=np.int64)
    state = G.initial_state()
    k.random_playouts(state, n, new_rng(3), state.copy(), outcomes)
    exact = random_play((0,) * 9)            # about 0.585, 0.288, 0.127
    for st, p in zip((FIRST_WINS, SECOND_WINS, DRAW), exact):
        assert abs(outcomes[st] / n - p) < 5 * np.sqrt(p * (1 - p) / n)


# The default search and, where the engine has an MCTS-Solver switch, plain UCT without it.
SEARCH_OPTIONS = [{}] + ([{"solver": False}] if "solver" in
                         {f.name for f in dataclasses.fields(mcts.SearchConfig)} else [])


@pytest.mark.parametrize("options", SEARCH_OPTIONS, ids=lambda o: "solver-off" if o else "default")
def test_search_never_spoils_the_outcome_of_any_reachable_position(options):
    """From every reachable non-terminal position (empty board included), the searched move
    keeps the minimax value: a won position stays won, a drawn one is not lost."""
    engine = mcts.MCTS(G, mcts.SearchConfig(seed=1, **options), log=None)
    bad = []
    for b in NON_TERMINAL:
        action = engine.search(to_state(b), playouts=SEARCH_PLAYOUTS).action
        if move_value(b, action) < minimax(b):
            bad.append((b, action + 1, minimax(b), move_value(b, action)))
    assert minimax((0,) * 9) == 0
    assert not bad, f"{len(bad)} of {len(NON_TERMINAL)} positions spoiled, e.g. {bad[:5]}"


def test_kernels_without_jit_give_the_same_results():
    """NUMBA_DISABLE_JIT=1 runs the kernels as plain Python: the same games come out."""
    code = (
        "import numpy as np, games\n"
        "from games.tictactoe import TicTacToe\n"
        "from games.rng import new_rng\n"
        "from mcts.search import load_kernels\n"
        "games.register(TicTacToe)\n"
        "g = games.get('tictactoe'); k = load_kernels(g, log=None)\n"
        "rng, out, s = new_rng(11), np.zeros(4, np.int64), g.initial_state()\n"
        "k.random_playouts(s, 300, rng, s.copy(), out)\n"
        "print([int(v) for v in out], int(rng[0]))\n")
    runs = []
    for jit_off in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit_off)
        runs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                   text=True, check=True).stdout)
    assert runs[0] == runs[1]
