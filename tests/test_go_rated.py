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


def hane_picks(policy):
    """The moves ``policy`` picks (400 draws) after Black C5 against White D5 (between C5 and
    Black E5) and White's hane G7 under Black's G8, Black to play."""
    g = Go(9)
    s = g.initial_state()
    g.place_stones(s, ["E5", "G8"], "black")
    g.place_stones(s, ["D5"], "white")
    for move in ("C5", "G7"):
        g.play(s, g.parse_move(move, s))
    s[gb.F_POLICY] = go.POLICIES[policy]
    return picks(g, s, draws=400)


def test_both_draws_the_patterns_of_the_last_two_moves_together():
    """Black C5 faces White D5 between C5 and E5 (hanes around C5: C4, C6, D4, D6, see
    test_patterns2_answers_around_the_movers_previous_stone); White then hanes at G7 under
    Black's G8, which has the patterns of its own around G7. ``patterns`` and ``patterns2``
    answer G7 only; ``both`` draws from the two sets together."""
    picked = {policy: hane_picks(policy) for policy in ("patterns", "patterns2", "both")}
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
    for policy in ("both", "rates", "gammas", "rated", "rated-tactics"):
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


def code_of(rows, x_colour=gb.BLACK):
    """The neighbourhood code of a 3x3 diagram (games.go_policy's code order)."""
    chars = {".": gb.EMPTY, "#": gb.BORDER, "X": x_colour, "O": 3 - x_colour}
    cells = [rows[1 + dr][1 + dc] for dr, dc in gp._NEIGHBOURS]
    return sum(chars[ch] << (2 * i) for i, ch in enumerate(cells))


def test_gamma_table_weighs_exactly_the_pattern_points():
    """Non-zero exactly where a pattern matches; an enclosing hane with nothing else around
    weighs Pachi's 0.52, a keima cut 0.82, with either colour as X; no pattern, 0."""
    assert np.array_equal(gp.GAMMA_TABLE > 0, gp.PATTERN_TABLE > 0)
    for x in (gb.BLACK, gb.WHITE):
        assert gp.GAMMA_TABLE[code_of(("XOX", "...", "..."), x)] == 52
        assert gp.GAMMA_TABLE[code_of(("OX.", "..O", "..."), x)] == 82
    assert gp.GAMMA_TABLE[code_of(("...", "...", "..."))] == 0


def test_gammas_draw_from_the_same_pattern_moves():
    """The weights change the odds, not the candidates: after White's hane at G7 (as above)
    the gammas policy picks from exactly the patterns policy's moves."""
    picked = {policy: hane_picks(policy) for policy in ("patterns", "gammas")}
    assert picked["gammas"] == picked["patterns"] and len(picked["patterns"]) > 1
