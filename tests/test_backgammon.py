"""Backgammon (games.backgammon) against OpenSpiel's ``backgammon`` (pyspiel, default
parameters): 1,000 random games in lockstep, every step compared (legal action sets, chance
outcomes and probabilities, the player to move, the terminal step, the returns: ours are
(OpenSpiel's + 1) / 2, i.e. win 1, loss 0, a capped game 0.5 each); the turn cap in lockstep
with ``max_player_turns=20``; hand-made positions (bar entry, bearing off, the larger die);
the notation (every legal action formatted and parsed back) and the compiled rollout."""
import numpy as np
import pytest

import games
from games.backgammon import kernels as K
from games.backgammon import rules as R
from games.contract import CHANCE, DRAW, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS
from games.rng import draw_outcome, new_rng

G = games.get("backgammon")
LF = R.LOW_FIRST


def lockstep(spiel_game, cap, games_to_play, seed):
    """Play random games in both implementations at once, asserting agreement at every step;
    return counts of what was seen (to show the rules' corners were reached)."""
    rng = np.random.default_rng(seed)
    out = np.empty(R.NUM_ACTIONS, np.int32)
    probs = np.empty(R.NUM_ACTIONS, np.float64)
    rewards = np.zeros(6)
    seen = dict.fromkeys(["X wins", "O wins", "draw", "pass", "single high", "single low",
                          "low first", "bar", "off", "end mid-double", "O starts"], 0)
    for _ in range(games_to_play):
        ref, s = spiel_game.new_initial_state(), R.new_state(cap)
        while not ref.is_terminal():
            assert K.status(s) == ONGOING
            if ref.is_chance_node():
                assert K.to_play(s) == CHANCE
                expected = ref.chance_outcomes()
                n = K.chance_outcomes(s, out, probs)
                assert out[:n].tolist() == [a for a, _ in expected]
                assert np.abs(probs[:n] - [p for _, p in expected]).max() <= 1e-12
                assert abs(probs[:n].sum() - 1) <= 1e-12
                a = expected[rng.integers(len(expected))][0]
                seen["O starts"] += int(s[R.TURNS] < 0 and a % 2 == 1)
            else:
                assert K.to_play(s) == ref.current_player()
                legal = ref.legal_actions()
                n = K.legal_actions(s, out)
                assert sorted(out[:n].tolist()) == legal
                # apply_action refuses exactly what is not legal: a random action, the pass,
                # and the one-move actions that a legal action's first move would make
                first = legal[0] % LF % 26
                for b in (int(rng.integers(R.NUM_ACTIONS)), R.PASS, 650 + first,
                          LF + 650 + first):
                    assert (K.apply_action(s.copy(), b) != ILLEGAL) == (b in legal), b
                a = legal[rng.integers(len(legal))]
                seen["pass"] += a == R.PASS
                seen["single high"] += 650 <= a < 675
                seen["single low"] += LF + 650 <= a < R.PASS
                seen["low first"] += LF <= a < LF + 650
                seen["bar"] += a % LF % 26 == 24
            mover, half = int(s[R.TO_PLAY]), int(s[R.DOUBLE_HALF])
            off = int(s[R.SIDE * mover + R.OFF]) if mover >= 0 else 0
            assert K.apply_action(s, a) != ILLEGAL
            ref.apply_action(a)
            if mover >= 0:
                seen["off"] += int(s[R.SIDE * mover + R.OFF]) > off
                # the cap reached by the first action of a double: the turn is not over
                seen["end mid-double"] += ref.is_terminal() and half == 0 and int(s[R.DIE_LO]) > 0
        st = K.status(s)
        assert st != ONGOING
        K.returns(s, rewards)
        assert rewards[:2].tolist() == [(r + 1) / 2 for r in ref.returns()]
        seen[{FIRST_WINS: "X wins", SECOND_WINS: "O wins", DRAW: "draw"}[st]] += 1
    return seen


def test_lockstep_with_openspiel_over_1000_random_games():
    pyspiel = pytest.importorskip("pyspiel")
    seen = lockstep(pyspiel.load_game("backgammon"), 500, 1000, seed=20261207)
    for what in ("X wins", "O wins", "pass", "single high", "single low", "low first", "bar",
                 "off", "O starts"):
        assert seen[what] > 0, seen


def test_lockstep_with_openspiel_at_the_turn_cap():
    pyspiel = pytest.importorskip("pyspiel")
    seen = lockstep(pyspiel.load_game("backgammon(max_player_turns=20)"), 20, 200, seed=7)
    assert seen["draw"] > 150 and seen["end mid-double"] > 0, seen
    assert games.get("backgammon", max_player_turns=20).max_length == 63


def legal_texts(state):
    return sorted(G.format_move(a, state) for a in G.legal_actions(state))


def x_view(points):
    """O's checkers given on X's point numbers, as O's own numbering."""
    return {25 - r if r < 25 else 25: n for r, n in points.items()}


O_FAR = x_view({19: 5, 20: 5, 21: 5})          # O all home, far from X's home board


def test_bar_entry_comes_first():
    x = {25: 1, 24: 1, 13: 5, 8: 3, 6: 5}
    o = x_view({19: 2, 22: 2, 21: 1, 12: 5, 17: 3, 1: 2})
    s = G.setup(x, o, 0, (5, 3))              # the 5 enters on 20; 22 is closed to the 3
    assert legal_texts(s) == sorted(["bar/20 24/21*", "bar/20 13/10", "bar/20 8/5",
                                     "bar/20 6/3"])
    assert sorted(G.legal_actions(s).tolist()) == [24, 11 * 26 + 24, 16 * 26 + 24,
                                                   18 * 26 + 24]
    s = G.setup(x, o, 0, (6, 3))              # 19 and 22 closed: no entry, no move
    assert G.legal_actions(s).tolist() == [R.PASS] and legal_texts(s) == ["pass"]
    s = G.setup({**x, 25: 2, 24: 0}, o, 0, (5, 3))   # two on the bar: one enters, then stop
    assert G.legal_actions(s).tolist() == [25 * 26 + 24] and legal_texts(s) == ["bar/20"]
    G.play(s, 25 * 26 + 24)
    assert K.to_play(s) == CHANCE and s[25] == 1 and s[20] == 1


def test_bearing_off():
    s = G.setup({5: 2, 3: 1}, O_FAR, 0, (6, 3))
    assert legal_texts(s) == sorted(["5/off 5/2", "5/off 3/off", "5/2 5/off", "3/off 5/off"])
    s = G.setup({5: 2, 3: 1}, O_FAR, 0, (6, 4))   # the 4 may not bear off from 3
    assert legal_texts(s) == ["5/1 5/off", "5/off 5/1"]
    assert sorted(G.legal_actions(s).tolist()) == [19 * 26 + 19, LF + 19 * 26 + 19]
    s = G.setup({7: 1, 2: 1}, O_FAR, 0, (6, 1))   # the 1 brings the last one home first
    assert legal_texts(s) == sorted(["7/1 2/1", "7/1/off", "7/6/off", "2/1 7/1"])
    s = G.setup({1: 1}, x_view({19: 15}), 0, (2, 1))
    assert G.play(s, G.parse_move("1/off", s)) == FIRST_WINS
    s = G.setup({3: 1, 2: 1}, O_FAR, 0, (6, 5))   # both orders of the dice read alike
    assert legal_texts(s) == ["3/off[5] 2/off[6]", "3/off[6] 2/off[5]"]


def test_the_larger_die_when_only_one_can_be_played():
    o = x_view({5: 2, 19: 5, 20: 5, 21: 3})
    s = G.setup({13: 1, 1: 7, 2: 7}, o, 0, (6, 2))   # 13/7 or 13/11, never both: the 6
    assert G.legal_actions(s).tolist() == [25 * 26 + 11] and legal_texts(s) == ["13/7"]
    o = x_view({5: 2, 7: 2, 19: 5, 20: 5, 21: 1})
    s = G.setup({13: 1, 1: 7, 2: 7}, o, 0, (6, 2))   # 13/7 closed: then the 2 alone
    assert G.legal_actions(s).tolist() == [LF + 25 * 26 + 11] and legal_texts(s) == ["13/11"]
    with pytest.raises(ValueError, match="not a legal move with 6-2"):
        G.parse_move("13/11/5", s)


def test_a_double_is_two_actions_of_the_same_player():
    start = {24: 2, 13: 5, 8: 3, 6: 5}                  # each in its own numbering
    s = G.setup(start, start, 0, (6, 6))
    assert "24/18(2)" in legal_texts(s)
    G.play(s, G.parse_move("24/18(2)", s))
    assert K.to_play(s) == 0 and s[R.DOUBLE_HALF] == 1 and s[R.TURNS] == 1
    G.play(s, G.parse_move("13/7 8/2", s))
    assert K.to_play(s) == CHANCE and s[R.TURNS] == 1 and s[7] == 1 and s[2] == 1


def test_every_legal_action_formats_and_parses_back():
    rng = np.random.default_rng(3)
    count = 0
    for _ in range(12):
        s = G.initial_state()
        while G.status(s) == ONGOING:
            legal = (G.chance_outcomes(s)[0] if G.is_chance(s) else G.legal_actions(s)).tolist()
            texts = [G.format_move(a, s) for a in legal]
            assert len(set(texts)) == len(texts)
            for a, t in zip(legal, texts):
                assert G.parse_move(t, s) == a and G.parse_move(str(a), s) == a
                assert G.parse_move(t.upper(), s) == a
            count += len(legal)
            G.play(s, int(rng.choice(legal)))
    assert count > 20_000


def test_notation_variants_and_errors():
    s = G.initial_state()
    assert G.format_move(0, s) == "roll 1-2 (X starts)"
    assert G.format_move(1, s) == "roll 2-1 (O starts)"
    assert G.parse_move("roll 3-1", s) == 3 and G.parse_move("3-1", s) == 3
    with pytest.raises(ValueError, match="never a double"):
        G.parse_move("roll 3-3", s)
    with pytest.raises(ValueError, match="O starts"):
        G.parse_move("roll 2-1 (X starts)", s)
    with pytest.raises(ValueError, match="not a roll"):
        G.parse_move("24/21", s)
    G.play(s, 8)                                        # 1-6: X starts with 6-1
    assert G.parse_move("13/7 8/7", s) == 16 * 26 + 11 == G.parse_move("13/7* 8/7", s)
    assert G.parse_move("8/7 13/7", s) == LF + 11 * 26 + 16       # the 1 first
    assert G.parse_move("13/7/6", s) == 17 * 26 + 11 == G.parse_move("13/7, 7/6", s)
    assert G.parse_move("#427", s) == 427 == G.parse_move("action 427", s)
    for bad, why in [("13/7 8/6", "not a legal move with 6-1"), ("roll 6-1", "already rolled"),
                     ("pass", "cannot pass"), ("13/7/6/5", "at most two"),
                     ("30/24", "no point 30"), ("hello", "not a checker move"), ("", "no move"),
                     ("5", "not legal here")]:
        with pytest.raises(ValueError, match=why):
            G.parse_move(bad, s)
    assert G.format_move(123) == "action 123"
    s = G.setup({1: 1}, x_view({19: 15}), 0, (2, 1))
    G.play(s, G.parse_move("1/off", s))
    with pytest.raises(ValueError, match="game is over"):
        G.parse_move("1/off", s)


def test_render_shows_the_board_from_the_movers_side():
    s = G.setup({25: 1, 6: 7, 1: 2}, x_view({19: 10, 24: 1}), 0, (4, 2))
    text = G.render(s)
    assert "BAR" in text and "X to play 4-2" in text and "Bar: X 1, O 0" in text
    assert "Off: X 5, O 4" in text and " 7 " in text and "10 " in text
    rows = text.splitlines()
    assert rows[0].split() == [str(r) for r in range(13, 25)]
    assert rows[14].split() == [str(r) for r in range(12, 0, -1)]
    s[R.TO_PLAY] = 1                                    # O's view: X's point 6 is O's 19
    assert "O to play 4-2" in G.render(s)


def test_compiled_rollout_plays_the_playout_action_loop():
    out = np.empty(R.NUM_ACTIONS, np.int32)
    probs = np.empty(R.NUM_ACTIONS, np.float64)
    for seed in range(40):
        a, b = G.initial_state(), G.initial_state()
        st = K.rollout(a, new_rng(seed))
        rng = new_rng(seed)
        while K.status(b) == ONGOING:
            if K.to_play(b) == CHANCE:
                K.apply_action(b, draw_outcome(rng, out, probs, K.chance_outcomes(b, out, probs)))
            else:
                K.apply_action(b, K.playout_action(b, rng))
        assert st == K.status(b) and np.array_equal(a, b)
        assert K.ply(a) <= G.max_length


def test_registered_with_its_parameter():
    g = games.get("backgammon")
    assert g.chance and g.num_actions == 1352 and g.players == ("X", "O")
    assert g.params == {"max_player_turns": 500} and g.max_length == 1503
    state, actions = g.play_record("roll 3-1, 8/5 6/5, roll 6-6, 24/18(2), 13/7(2)")
    assert actions[0] == 3 and K.to_play(state) == CHANCE and state[R.TURNS] == 2
