"""Graded rewards (``SearchConfig.score_bonus``, ``--score-bonus``; Fuego's score modification):
the reward formula, Go's ``score`` kernel against GNU Go's count, the checks, and the reward
that reaches the tree."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from games import go as go_kernels
from games.connect4 import Connect4
from games.go_game import Go
from mcts import MCTS, SearchConfig
from mcts.search import check_config, load_kernels

ROOT = Path(__file__).resolve().parent.parent
GO = Go(size=9)

# GNU Go 3.8 (--chinese-rules) scores this seki W+54.5: Black 16 (13 stones, 3 eyes), White 63,
# komi 7.5; the seki's shared liberties A9 and B8 are nobody's, as in a Tromp-Taylor count.
SEKI = """.OOX.X.X.
X.OXXXXXX
XXXOOOOOO
OOOOOOOOO
.........
.........
.........
.........
.........""".split()


def position(rows, komi=7.5, next_player=None):
    n = len(rows)
    g = Go(size=n, komi=komi)
    s = g.initial_state()
    points = {ch: [r * n + c for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch]
              for ch in "XO"}
    g.set_up(s, points["X"], points["O"], next_player=next_player)
    return g, s


@pytest.mark.parametrize("r0, score, weight, rng, expected", [
    (1.0, 10.0, 0.02, 81.0, 0.98 + 0.01 * (1 + 10 / 81)),   # a win by 10 of 81 points
    (1.0, 81.0, 0.02, 81.0, 1.0),                           # the largest win: the whole reward
    (0.0, -3.5, 0.1, 81.0, 0.05 * (1 - 3.5 / 81)),          # a loss by 3.5
    (0.0, -200.0, 0.02, 81.0, 0.0),                         # beyond the range: clipped
    (0.5, 0.0, 0.3, 25.0, 0.5),                             # a draw stays a half
    (1.0, 0.5, 0.5, 25.0, 0.5 + 0.25 * 1.02),               # a win by half a point
])
def test_score_reward(r0, score, weight, rng, expected):
    assert load_kernels(GO, log=None).score_reward(r0, score, weight, rng) == pytest.approx(
        expected, abs=1e-12)


def test_go_score_kernel_matches_gnugos_count():
    g, s = position(SEKI)
    assert go_kernels.score(s.copy()) == -54.5
    assert tuple(g.area(s)) == (16, 63)
    empty = Go(size=9, komi=6.5).initial_state()
    assert go_kernels.score(empty) == -6.5          # an empty board is nobody's
    one = Go(size=5, komi=0.5).initial_state()
    Go(size=5, komi=0.5).set_up(one, ["C3"])
    assert go_kernels.score(one) == 24.5            # one stone owns the whole board


def test_checks():
    check_config(GO, SearchConfig(score_bonus=0.02))
    with pytest.raises(ValueError, match="from 0 to 0.5"):
        check_config(GO, SearchConfig(score_bonus=0.6))
    with pytest.raises(ValueError, match="no final score"):
        check_config(Connect4(), SearchConfig(score_bonus=0.02))


def test_flag_out_of_range_is_one_line():
    p = subprocess.run([sys.executable, "cli.py", "analyze", "go", "--score-bonus", "0.7"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "'0.7' must be a number from 0 to 0.5" in p.stderr
    assert "Traceback" not in p.stderr


# 5x5, White to move: Black owns every point, with nine one-point eyes (A1, C1, E1, A3, ...).
# White's only legal move is the pass; every playout ends with Black's 25 points, 24.5 after
# komi, and however far the tree lets Black fill its own eyes the count stays 25.
EYES = ["".join("." if r % 2 == 0 and c % 2 == 0 else "X" for c in range(5)) for r in range(5)]


@pytest.mark.parametrize("bonus, white_value", [(0.0, 0.0), (0.02, 0.0002), (0.5, 0.005)])
def test_reward_reaches_the_tree(bonus, white_value):
    """Black's reward of every simulation is (1 - b) + b (1 + 24.5 / 25) / 2 = 1 - 0.01 b,
    so White's pass, the root's one move, has the mean value 0.01 b for White. Without the
    solver, so that the proven end does not stop the search."""
    g, s = position(EYES, komi=0.5, next_player="white")
    engine = MCTS(g, SearchConfig(score_bonus=bonus, solver=False, threads=1, seed=3), log=None)
    result = engine.search(s, playouts=300)
    assert [c.move for c in result.children] == ["pass"]
    assert result.children[0].visits >= 299
    assert result.children[0].value == pytest.approx(white_value, abs=1e-9)
    assert np.isclose(result.value, white_value, atol=1e-9)
