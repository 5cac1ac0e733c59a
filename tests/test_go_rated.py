"""The traits of the ``rated`` playout policy (games.go_policy): the local rules at Moggy's
rates, and 3x3 patterns around the last move and the mover's previous stone at once.

Diagrams are drawn with row 1 at the bottom: ``X`` black, ``O`` white."""
import collections

import numpy as np

from games import go, go_board as gb, go_policy as gp
from games.go_game import Go
from games.rng import new_rng
from tests.test_go_policy import SNARE, picks
from tests.test_go_rules import position


def test_the_rated_policy_has_every_trait():
    assert go.POLICIES["rated"] == (gb.POLICY_PATTERNS | gb.POLICY_KO | gb.POLICY_BOTH
                                    | gb.POLICY_RATES)
    assert go.POLICIES["rated-tactics"] == (go.POLICIES["rated"] | gb.POLICY_TWOLIB
                                            | gb.POLICY_NAKADE)
    assert go.POLICIES["both"] == gb.POLICY_PATTERNS | gb.POLICY_BOTH
    assert go.POLICIES["rates"] == gb.POLICY_PATTERNS | gb.POLICY_RATES


def test_both_draws_the_patterns_of_the_last_two_moves_together():
    """Black C5 faces White D5 between C5 and E5 (hanes around C5: C4, C6, D4, D6, see
    test_patterns2_answers_around_the_movers_previous_stone); White then hanes at G7 under
    Black's G8, which has the patterns of its own around G7. ``patterns`` and ``patterns2``
    answer G7 only; ``both`` draws from the two sets together."""
    picked = {}
    for policy in ("patterns", "patterns2", "both"):
        g = Go(9)
        s = g.initial_state()
        g.place_stones(s, ["E5", "G8"], "black")
        g.place_stones(s, ["D5"], "white")
        for move in ("C5", "G7"):
            g.play(s, g.parse_move(move, s))
        s[gb.F_POLICY] = go.POLICIES[policy]
        picked[policy] = picks(g, s, draws=400)
    around_g7 = picked["patterns"]
    assert around_g7 and all(abs(ord(v[0]) - ord("G")) <= 1 and abs(int(v[1:]) - 7) <= 1
                             for v in around_g7)
    assert picked["patterns2"] == around_g7
    assert picked["both"] == around_g7 | {"C4", "C6", "D4", "D6"}


def test_rates_let_the_capture_skip_a_tenth_of_the_moves():
    """White D4 in atari (its liberty D3): the patterns policy always takes it; with the
    rates it takes it in about LOCAL_RATE of 100 draws (binomial: 2,000 draws, 1,800
    expected, standard deviation 13.4; the seeded count is fixed) and otherwise falls through
    to the 3x3 patterns around D4: the hanes on its diagonals C3, C5, E3 and E5."""
    counts = {}
    for policy in ("patterns", "rates"):
        g = Go(7)
        s = position(g, SNARE, to_play=1)
        g.play(s, g.parse_move("D4", s))
        s[gb.F_POLICY] = go.POLICIES[policy]
        rng = new_rng(11)
        counts[policy] = collections.Counter(
            g.format_move(int(go.playout_action(s, rng))) for _ in range(2000))
    assert counts["patterns"] == {"D3": 2000}
    assert gp.LOCAL_RATE == 90
    assert 1740 <= counts["rates"]["D3"] <= 1860
    assert set(counts["rates"]) == {"D3", "C3", "C5", "E3", "E5"}


def test_rated_playouts_end_and_keep_the_state_rules():
    """Whole playouts of every new policy from the empty 9x9 board end with a result and
    leave the seeded generator reproducible: the same seed gives the same outcomes."""
    for policy in ("both", "rates", "rated", "rated-tactics"):
        g = Go(9)
        start = g.initial_state()
        start[gb.F_POLICY] = go.POLICIES[policy]
        outs = []
        for _ in range(2):
            rng = new_rng(5)
            outs.append([int(go.rollout(start.copy(), rng)) for _ in range(30)])
        assert outs[0] == outs[1]
        assert set(outs[0]) <= {1, 2}
        assert np.std(outs[0]) > 0
