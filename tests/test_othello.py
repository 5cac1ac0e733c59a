"""Othello: the start, perft counts, passes, the end of the game, notation, records, playouts.

``ref_flips`` below is an independent square-by-square implementation of the rules (lists, no
bitboards) that the kernels are checked against along seeded random games."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import games
import mcts
from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.othello import Othello
from games.othello.kernels import PASS, perft
from games.rng import new_rng
from mcts.search import load_kernels

if "othello" not in games.names():
    games.register(Othello)
G = games.get("othello")
K = G.kernels
EMPTY_ROWS = ["........"] * 8
# A seeded random game (seed 7 of playout_action) with a forced pass near the end.
RECORD_WITH_PASS = ("d3c3c4c5c6e6b4f3b6e3e2c2g4b3e7a5a2f6b5d6c1f2f5a4a3d7b7a6g7a8a7e1b8a1g1b2"
                    "c8f7b1h3f8h8g5d1d2g8g3d8e8g6h5h7f4f1h6h1c7g2h4passh2")


def sq(name):
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def names(actions):
    return sorted(G.format_move(a) for a in actions)


# --- independent reference rules ----------------------------------------------------------
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def ref_flips(grid, r, c, me):
    """Squares flipped when ``me`` (1 Black, 2 White) plays at row ``r``, column ``c``."""
    if grid[r][c]:
        return []
    out = []
    for dr, dc in DIRECTIONS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == 3 - me:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == me:
            out += line
    return out


def ref_moves(grid, me):
    return [8 * r + c for r in range(8) for c in range(8) if ref_flips(grid, r, c, me)]


# --- the start and perft ------------------------------------------------------------------
def test_start_position_and_first_moves():
    state = G.initial_state()
    assert state.dtype == np.uint64 and state.shape == (5,) and K.ply(state) == 0
    grid = G.board(state)
    assert grid[3, 3] == 2 and grid[4, 4] == 2          # d4, e5 White
    assert grid[4, 3] == 1 and grid[3, 4] == 1          # d5, e4 Black
    assert grid.astype(bool).sum() == 4
    assert G.to_play(state) == 0 and G.status(state) == ONGOING
    assert names(G.legal_actions(state)) == ["c4", "d3", "e6", "f5"]
    assert G.counts(state) == (2, 2)


def test_square_numbering():
    assert [G.format_move(a) for a in (0, 7, 56, 63, PASS)] == ["a1", "h1", "a8", "h8", "pass"]
    state = G.initial_state()
    assert G.parse_move("d3", state) == 19 == sq("d3")
    assert G.parse_move(" F5 ", state) == 37


@pytest.mark.parametrize("depth, count", [
    (1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092),
    (8, 390216), (9, 3005288), (10, 24571284)])
def test_perft(depth, count):
    """The standard counts (a forced pass is a ply, an ended game one leaf). Games first end at
    ply 9, so depth 10 also checks the end of the game."""
    assert perft(G.initial_state(), depth) == count


# --- passes and the end of the game -------------------------------------------------------
def test_hand_checked_forced_pass():
    """Black a1, White b1, White to move. White's only disc would have to outflank a1 from
    beyond the corner: White has no move and must pass. Black's only move is c1 (over b1);
    after it White has no discs left, so the game ends 3-0."""
    state = G.position(["XO......"] + EMPTY_ROWS[1:], to_play=1)
    assert G.status(state) == ONGOING
    assert list(G.legal_actions(state)) == [PASS]
    assert G.ai_should_pass(state)
    with pytest.raises(ValueError, match="White has no move and must pass"):
        G.parse_move("c1", state)
    assert K.apply_action(state.copy(), sq("c1")) == ILLEGAL
    assert G.parse_move("PASS", state) == PASS
    assert G.play(state, PASS) == ONGOING
    assert G.to_play(state) == 0 and names(G.legal_actions(state)) == ["c1"]
    assert not G.ai_should_pass(state)
    with pytest.raises(ValueError, match="Black cannot pass while a move exists"):
        G.parse_move("pass", state)
    assert K.apply_action(state.copy(), PASS) == ILLEGAL
    assert G.play(state, sq("c1")) == FIRST_WINS
    assert G.counts(state) == (3, 0) and G.summary(state) == "Black wins, 3-0"
    assert len(G.legal_actions(state)) == 0
    with pytest.raises(ValueError, match="the game is over"):
        G.parse_move("d1", state)


def test_the_search_passes_when_it_must():
    state = G.position(["XO......"] + EMPTY_ROWS[1:], to_play=1)
    engine = mcts.MCTS(G, mcts.SearchConfig(seed=1, capacity=10_000), log=None)
    assert engine.search(state, playouts=100).move == "pass"


@pytest.mark.parametrize("row8, expected, counts", [
    ("........", FIRST_WINS, (3, 0)),
    ("O.......", FIRST_WINS, (3, 1)),
    ("OOO.....", DRAW, (3, 3)),
    ("OOOOO...", SECOND_WINS, (3, 5)),
])
def test_game_ends_when_neither_side_can_move(row8, expected, counts):
    """Black plays c1 over b1; the White discs on row 8 touch nothing, so neither side can move
    after it and the disc count decides, even with empty squares left."""
    state = G.position(["XO......"] + EMPTY_ROWS[1:7] + [row8], to_play=0)
    assert names(G.legal_actions(state)) == ["c1"]
    assert G.play(state, sq("c1")) == expected
    assert G.status(state) == expected and G.counts(state) == counts
    assert len(G.legal_actions(state)) == 0
    assert K.apply_action(state.copy(), PASS) == ILLEGAL


def test_a_position_where_nobody_can_move_is_over():
    state = G.position(["X......."] + EMPTY_ROWS[1:7] + [".......O"])
    assert G.status(state) == DRAW


def test_shortest_game_wipes_out_white():
    state, _ = G.play_record("d3c3b3d2e1d6d7e3f4")
    assert G.status(state) == FIRST_WINS and G.counts(state) == (13, 0)


def test_a_recorded_game_with_a_pass():
    moves = G.parse_record(RECORD_WITH_PASS)
    i = moves.index("pass")
    before, _ = G.play_record("".join(moves[:i]))
    assert list(G.legal_actions(before)) == [PASS]
    with pytest.raises(ValueError, match=f"move {i + 1} .*must pass"):
        G.play_record("".join(moves[:i] + moves[i + 1:]))
    state, actions = G.play_record(RECORD_WITH_PASS)
    assert len(actions) == 61 == K.ply(state) and actions.count(PASS) == 1
    assert G.status(state) == SECOND_WINS and G.counts(state) == (30, 34)


# --- notation -----------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["z9", "a0", "a9", "i1", "", "d", "d33", "1a", "pas"])
def test_not_a_square(text):
    with pytest.raises(ValueError, match=re.escape(f"{text!r} is not a square")):
        G.parse_move(text, G.initial_state())


def test_move_errors():
    state = G.initial_state()
    with pytest.raises(ValueError, match="d4 is occupied"):
        G.parse_move("D4", state)
    with pytest.raises(ValueError, match="a1 flips nothing"):
        G.parse_move("a1", state)
    with pytest.raises(ValueError, match=r"cannot pass while a move exists \(e.g. d3\)"):
        G.parse_move("pass", state)
    with pytest.raises(ValueError, match="move 2 .*cannot pass"):
        G.play_record("f5 pass")
    for a in (-1, 65, 27, 0):            # out of range, occupied, flips nothing
        s = state.copy()
        assert K.apply_action(s, a) == ILLEGAL and (s == state).all()


def test_records_split_and_join():
    assert G.parse_record("f5d6c3") == ["f5", "d6", "c3"] == G.parse_record(" f5 d6\nc3 ")
    assert G.parse_record("F5d6PASSc3 e6 pass") == ["F5", "d6", "PASS", "c3", "e6", "pass"]
    assert G.parse_record("f5d6c") == ["f5", "d6", "c"]          # left for parse_move to reject
    with pytest.raises(ValueError, match="move 3 .*'c' is not a square"):
        G.play_record("f5d6c")
    state, actions = G.play_record("F5 d6C3")
    assert names(actions) == ["c3", "d6", "f5"]
    assert G.format_record([G.format_move(a) for a in actions]) == "f5d6c3"
    for a in range(PASS + 1):
        assert G.format_move(a) == G.parse_record(G.format_move(a))[0]


def test_render():
    state, actions = G.play_record("f5d6")
    text = G.render(state, actions[-1])
    lines = text.splitlines()
    assert lines[0] == lines[9] == "   a b c d e f g h"
    assert lines[1] == " 1 . . . . . . . . 1"
    # White's d6 flipped d5; Black's moves are c3-c7 (checked by hand)
    assert lines[4:8] == [" 4 . . * O X . . . 4",
                          " 5 . . * O X X . . 5",
                          " 6 . . *(O). . . . 6",
                          " 7 . . * . . . . . 7"]
    assert lines[-1] == "Black (X) 3, White (O) 3; Black to move (* legal)"
    state = G.position(["XO......"] + EMPTY_ROWS[1:], to_play=1)
    assert G.render(state).endswith("White to move, must pass")
    G.play(state, PASS)
    assert "White passed" in G.render(state, PASS)


# --- agreement with the reference, playouts -----------------------------------------------
def test_random_games_agree_with_the_reference_rules():
    rng = new_rng(5)
    for _ in range(40):
        state = G.initial_state()
        while G.status(state) == ONGOING:
            grid = G.board(state).tolist()
            me = G.to_play(state) + 1
            mine, theirs = ref_moves(grid, me), ref_moves(grid, 3 - me)
            assert mine or theirs
            assert list(G.legal_actions(state)) == (mine or [PASS])
            a = int(K.playout_action(state, rng))
            G.play(state, a)
            if a != PASS:
                for r, c in ref_flips(grid, a // 8, a % 8, me) + [(a // 8, a % 8)]:
                    grid[r][c] = me
            assert G.board(state).tolist() == grid
            if not ref_moves(grid, 1) and not ref_moves(grid, 2):
                nb, nw = sum(row.count(1) for row in grid), sum(row.count(2) for row in grid)
                assert G.status(state) == (FIRST_WINS if nb > nw else
                                           SECOND_WINS if nw > nb else DRAW)
            else:
                assert G.status(state) == ONGOING and G.to_play(state) == 2 - me


def random_game(seed):
    state, rng, actions = G.initial_state(), new_rng(seed), []
    while G.status(state) == ONGOING and len(actions) <= G.max_length:
        a = int(K.playout_action(state, rng))
        G.play(state, a)
        actions.append(a)
    return actions, state


def test_seeded_random_games_end_and_repeat():
    records = set()
    for seed in range(200):
        actions, state = random_game(seed)
        assert G.status(state) != ONGOING and len(actions) <= G.max_length
        assert K.ply(state) == len(actions)
        again, _ = random_game(seed)
        assert again == actions
        records.add(tuple(actions))
    assert len(records) == 200


def test_rollout_plays_the_same_game_as_playout_action():
    """The fast rollout draws the same random numbers as playout_action + apply_action."""
    for seed in range(50):
        actions, by_moves = random_game(seed)
        state, rng = G.initial_state(), new_rng(seed)
        assert K.rollout(state, rng) == G.status(by_moves)
        assert (state == by_moves).all()
        mid, _ = G.play_record(G.format_record([G.format_move(a) for a in actions[:30]]))
        rng_a, rng_b = new_rng(seed + 1000), new_rng(seed + 1000)
        a_state, b_state = mid.copy(), mid.copy()
        K.rollout(a_state, rng_a)
        while G.status(b_state) == ONGOING:
            K.apply_action(b_state, K.playout_action(b_state, rng_b))
        assert (a_state == b_state).all() and rng_a[0] == rng_b[0]


def test_random_playouts_and_search_run():
    k = load_kernels(G, log=None)
    outcomes = np.zeros(4, dtype=np.int64)
    state = G.initial_state()
    plies = k.random_playouts(state, 2000, new_rng(1), state.copy(), outcomes)
    assert outcomes.sum() == 2000 and outcomes[ONGOING] == 0
    assert 58 * 2000 < plies <= 120 * 2000
    assert min(outcomes[FIRST_WINS], outcomes[SECOND_WINS]) > 700 and outcomes[DRAW] > 20
    result = mcts.MCTS(G, mcts.SearchConfig(seed=1), log=None).search(state, playouts=2000)
    assert result.move in ("d3", "c4", "f5", "e6")


def test_kernels_without_jit_give_the_same_results():
    """NUMBA_DISABLE_JIT=1 runs the kernels as plain Python: the same games and counts."""
    code = (
        "import numpy as np, games\n"
        "from games.othello import Othello\nfrom games.othello.kernels import perft\n"
        "from games.rng import new_rng\n"
        "from mcts.search import load_kernels\n"
        "g = Othello(); k = load_kernels(g, log=None)\n"
        "rng, out, s = new_rng(11), np.zeros(4, np.int64), g.initial_state()\n"
        "k.random_playouts(s, 20, rng, s.copy(), out)\n"
        "t = s.copy(); k.rollout(t, rng)\n"
        "print([int(v) for v in out], int(rng[0]), [int(v) for v in t], int(perft(s, 4)))\n")
    runs = []
    for jit_off in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit_off)
        runs.append(subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                                   capture_output=True, text=True, check=True).stdout)
    assert runs[0] == runs[1] and runs[0].strip().endswith(" 244")
