"""Pig: the rules checked in lockstep against OpenSpiel's ``pig`` (through pyspiel) over 1,000
seeded random games of 2, 3 and 6 players, hand-made positions with exact outcomes, and the
notation. Our returns are OpenSpiel's mapped by ``(r * (n - 1) + 1) / n`` (games/pig.py)."""
import numpy as np
import pytest

import games
from games import pig as k
from games.contract import CHANCE, ENDED, ILLEGAL, MAX_PLAYERS, ONGOING
from games.pig import Pig
from games.rng import new_rng

# (parameters, games): 1,000 games in all. Small winscores and horizons keep games short and
# make the horizon end some of them (and a 2-faced die makes it end most of its games).
CROSS_CHECK = [
    (dict(players=2), 100),
    (dict(players=2, winscore=30), 200),
    (dict(players=2, winscore=20, diceoutcomes=2, horizon=60), 100),
    (dict(players=3), 50),
    (dict(players=3, winscore=50, diceoutcomes=4), 200),
    (dict(players=6, winscore=40, horizon=200), 250),
    (dict(players=6, winscore=100, diceoutcomes=8), 50),
    (dict(players=4, winscore=25, diceoutcomes=3, horizon=80), 50),
]


def openspiel_returns(ours_n, os_returns):
    """OpenSpiel's returns mapped into [0, 1] as games/pig.py documents."""
    return (np.array(os_returns) * (ours_n - 1) + 1) / ours_n


def test_cross_check_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(52)
    played = horizon_ends = 0
    for params, count in CROSS_CHECK:
        g, og = Pig(**params), pyspiel.load_game("pig", params)
        n = g.num_players
        legal = np.empty(g.num_actions, dtype=np.int32)
        acts = np.empty(g.num_actions, dtype=np.int32)
        probs = np.empty(g.num_actions, dtype=np.float64)
        for _ in range(count):
            s, o = g.initial_state(), og.new_initial_state()
            plies = 0
            while not o.is_terminal():
                assert k.status(s) == ONGOING
                if o.is_chance_node():
                    assert k.to_play(s) == CHANCE
                    m = k.chance_outcomes(s, acts, probs)
                    outcomes = o.chance_outcomes()
                    assert acts[:m].tolist() == [a for a, _ in outcomes]
                    assert np.abs(probs[:m] - [p for _, p in outcomes]).max() <= 1e-12
                    a = int(acts[rng.choice(m, p=probs[:m])])
                else:
                    assert k.to_play(s) == o.current_player()
                    m = k.legal_actions(s, legal)
                    assert legal[:m].tolist() == o.legal_actions()
                    a = int(legal[rng.integers(m)])
                st = k.apply_action(s, a)
                o.apply_action(a)
                plies += 1
                assert st == (ENDED if o.is_terminal() else ONGOING)
            assert k.status(s) == ENDED and plies <= g.max_length
            assert k.legal_actions(s, legal) == 0
            assert k.apply_action(s.copy(), 0) == ILLEGAL
            ours = g.returns(s)
            assert np.abs(ours - openspiel_returns(n, o.returns())).max() <= 1e-12
            horizon_ends += ours.max() < 1
            played += 1
    assert played >= 1000
    assert 50 <= horizon_ends <= played - 500      # both endings are exercised


# --- hand-made positions ---------------------------------------------------------------------
def play(g, moves):
    """The position after ``moves`` (text, e.g. "roll rolled 4 stop") from the start."""
    state, _ = g.play_record(moves)
    return state


def scores(g, s):
    return s[k.SCORES:k.SCORES + g.num_players].tolist()


def test_start():
    g = games.get("pig")
    s = g.initial_state()
    assert (g.num_players, g.num_actions, g.max_length, g.chance) == (2, 6, 1999, True)
    assert g.to_play(s) == 0 and g.legal_actions(s).tolist() == [k.ROLL, k.STOP]
    g.play(s, k.ROLL)
    assert g.to_play(s) == CHANCE
    actions, probs = g.chance_outcomes(s)
    assert actions.tolist() == [0, 1, 2, 3, 4, 5] and probs.tolist() == [1 / 6] * 6


def test_rolling_a_one_loses_the_turn_total():
    g = Pig(players=3)
    s = play(g, "roll rolled 6 roll rolled 5")
    assert s[k.TURN_TOTAL] == 11 and g.to_play(s) == 0
    g.play(s, k.ROLL)
    assert g.play(s, 0) == ONGOING             # outcome 0: the die shows 1
    assert s[k.TURN_TOTAL] == 0 and scores(g, s) == [0, 0, 0] and g.to_play(s) == 1


def test_stop_banks_the_turn_total_and_passes_the_turn():
    g = Pig(players=3)
    s = play(g, "roll rolled 4 roll rolled 3 stop")
    assert scores(g, s) == [7, 0, 0] and s[k.TURN_TOTAL] == 0 and g.to_play(s) == 1
    s = play(g, "roll rolled 4 stop stop stop")    # stopping with 0 points is a move
    assert scores(g, s) == [4, 0, 0] and g.to_play(s) == 0 and s[k.MOVES] == 4


def test_reaching_winscore_ends_the_game_for_three_players():
    g = Pig(players=3, winscore=10)
    s = play(g, "stop roll rolled 6 roll rolled 4")   # player 2 has 10 in hand: must stop
    assert g.legal_actions(s).tolist() == [k.STOP]
    with pytest.raises(ValueError, match="stop to win"):
        g.parse_move("roll", s)
    assert k.apply_action(s.copy(), k.ROLL) == ILLEGAL
    assert g.play(s, k.STOP) == ENDED
    assert g.returns(s).tolist() == [0.0, 1.0, 0.0]
    assert g.result_text(ENDED, s) == "player 2 wins"
    assert g.legal_actions(s).tolist() == []


def test_the_horizon_counts_players_moves():
    g = Pig(players=3, horizon=3)
    s = play(g, "roll rolled 6 stop")
    assert g.status(s) == ONGOING and s[k.MOVES] == 2
    assert g.play(s, k.ROLL) == ENDED                 # the third move: the die is not rolled
    assert g.to_play(s) != CHANCE
    assert g.returns(s).tolist() == [1 / 3] * 3
    g = Pig(players=2, horizon=3)
    s = play(g, "roll rolled 2 roll rolled 2 stop")   # ended by the horizon: a draw
    assert g.status(s) == ENDED and g.returns(s).tolist() == [0.5, 0.5]
    assert g.result_text(ENDED, s) == "draw"
    g = Pig(players=3, winscore=6, horizon=2)
    s = play(g, "roll rolled 6 stop")                 # the last move wins: it counts
    assert g.status(s) == ENDED and g.returns(s).tolist() == [1.0, 0.0, 0.0]


def test_parameters():
    g = Pig(players=6, diceoutcomes=10, horizon=50)
    assert (g.num_players, len(g.players), g.num_actions, g.max_length) == (6, 6, 10, 99)
    assert len(g.initial_state()) == k.SCORES + 6 and MAX_PLAYERS == 6
    assert Pig(diceoutcomes=2).num_actions == 2
    for bad in (dict(players=1), dict(players=7), dict(diceoutcomes=1), dict(winscore=0),
                dict(horizon=0)):
        with pytest.raises(ValueError):
            Pig(**bad)
    assert type(g)(**g.params).params == g.params


def test_playout_action_holds_at_twenty():
    g, rng = Pig(winscore=30), new_rng(1)
    for record, move in [("", k.ROLL), ("roll rolled 6 roll rolled 6 roll rolled 6", k.ROLL),
                         ("roll rolled 6 roll rolled 6 roll rolled 6 roll rolled 2", k.STOP),
                         ("roll rolled 6 roll rolled 6 roll rolled 6 roll rolled 6", k.STOP),
                         ("stop roll rolled 6 roll rolled 6 roll rolled 6", k.ROLL)]:
        assert k.playout_action(play(g, record), rng) == move, record
    assert k.playout_action(play(Pig(winscore=5), "roll rolled 6"), rng) == k.STOP   # wins
    g = Pig(diceoutcomes=2)                      # two faces: a roll gains while the total < 2
    assert k.playout_action(play(g, "roll rolled 1"), rng) == k.ROLL
    assert k.playout_action(play(g, "roll rolled 2"), rng) == k.STOP


HAND_MADE = [   # (parameters, record) of the finished games above, replayed in OpenSpiel
    (dict(players=3, winscore=10), "stop roll rolled 6 roll rolled 4 stop"),
    (dict(players=3, horizon=3), "roll rolled 6 stop roll"),
    (dict(players=2, horizon=3), "roll rolled 2 roll rolled 2 stop"),
    (dict(players=3, winscore=6, horizon=2), "roll rolled 6 stop"),
]


@pytest.mark.parametrize("params, record", HAND_MADE)
def test_hand_made_endings_agree_with_openspiel(params, record):
    pyspiel = pytest.importorskip("pyspiel")
    g = Pig(**params)
    s, actions = g.play_record(record)
    o = pyspiel.load_game("pig", params).new_initial_state()
    for a in actions:
        o.apply_action(a)
    assert o.is_terminal() and g.status(s) == ENDED
    assert g.returns(s).tolist() == openspiel_returns(g.num_players, o.returns()).tolist()


# --- notation --------------------------------------------------------------------------------
def test_format_and_parse_round_trip():
    g = Pig(players=3, diceoutcomes=8)
    s = g.initial_state()
    for a in (k.ROLL, k.STOP):
        assert g.parse_move(g.format_move(a, s), s) == a
    assert [g.format_move(a, s) for a in (0, 1)] == ["roll", "stop"]
    assert [g.parse_move(t, s) for t in ("r", " Roll ", "s", "hold", "STOP")] == [0, 0, 1, 1, 1]
    g.play(s, k.ROLL)
    for a in range(8):
        assert g.format_move(a, s) == f"rolled {a + 1}"
        assert g.parse_move(g.format_move(a, s), s) == a
    assert g.parse_move("3", s) == 2
    assert g.format_move(5) == "rolled 6" and g.format_move(1) == "stop"


def test_parse_move_refuses_with_reasons():
    g = Pig()
    s = g.initial_state()
    for text in ("jump", "4", "rolled 4", ""):
        with pytest.raises(ValueError, match="not a move"):
            g.parse_move(text, s)
    g.play(s, k.ROLL)
    for text in ("roll", "7", "0", "rolled 9"):
        with pytest.raises(ValueError, match="1 to 6"):
            g.parse_move(text, s)
    s = play(Pig(winscore=2), "roll rolled 2 stop")
    with pytest.raises(ValueError, match="over"):
        g.parse_move("stop", s)


def test_a_random_game_record_replays():
    g = Pig(players=3, winscore=20)
    rng, s, moves = new_rng(7), g.initial_state(), []
    acts = np.empty(g.num_actions, dtype=np.int32)
    probs = np.empty(g.num_actions, dtype=np.float64)
    while g.status(s) == ONGOING:
        if g.is_chance(s):
            a = int(games.rng.draw_outcome(rng, acts, probs, k.chance_outcomes(s, acts, probs)))
        else:
            a = int(k.playout_action(s, rng))
        moves.append(g.format_move(a, s))
        g.play(s, a)
    replayed, actions = g.play_record(g.format_record(moves))
    assert np.array_equal(replayed, s) and len(actions) == len(moves)


def test_render():
    g = Pig(players=3, winscore=50)
    s = play(g, "roll rolled 5 stop roll")
    g.play(s, 0)
    text = g.render(s, 0)
    assert "player 2 rolled 1: the turn's points are lost" in text
    assert "> player 3" in text and "player 1     5" in text and "first to 50" in text
    assert "player 3 to move: roll or stop" in text
    g.play(s, k.ROLL)
    assert "player 3 rolls the die" in g.render(s, k.ROLL)
    g.play(s, 3)
    assert "player 3 rolled 4" in g.render(s, 3) and "+ 4 this turn" in g.render(s, 3)
    done = play(Pig(horizon=1), "stop")
    assert "nobody wins" in Pig(horizon=1).render(done, 1)
