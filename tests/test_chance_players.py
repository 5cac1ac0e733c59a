"""The search's general path: chance nodes (expected values over outcomes drawn by
probability) and max-n for more than two players, with exact references: the hand-computed
expectation of a small chance game, a brute-force max-n of three-player Nim, and Pig through
the front ends (same seed, same game, dice included)."""
import json
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import games
from conformance_games.coin import FOLD, HEADS, PAYOFF, Coin
from conformance_games.nim3 import Nim
from games.contract import CHANCE, ONGOING
from mcts.conformance import run_checks
from mcts.search import MCTS, SearchConfig
from mcts.selfplay import SelfPlayConfig, collect, summary

ROOT = Path(__file__).parent.parent


def engine(game, **options):
    return MCTS(game, SearchConfig(seed=1, threads=1, **options), log=None)


def test_a_chance_node_is_worth_the_expectation_of_its_outcomes():
    """Coin: a bet is worth 0.7 * 0.8 + 0.3 * 0.0 = 0.56 under best play, folding 0.4."""
    bet = HEADS * PAYOFF[1].min() + (1 - HEADS) * PAYOFF[0].min()
    assert bet == pytest.approx(0.56) and bet > FOLD
    g = Coin()
    r = engine(g).search(g.initial_state(), playouts=40_000)
    assert r.move == "1"
    assert r.value == pytest.approx(bet, abs=0.02)
    assert r.player_values[0] == pytest.approx(bet, abs=0.02)
    fold = next(c for c in r.children if c.move == "0")
    assert fold.value == pytest.approx(FOLD)


def test_a_chance_root_reports_outcomes_sampled_by_probability():
    g = Coin()
    s = g.initial_state()
    g.play(s, 1)                                # bet: the coin is in the air
    assert g.to_play(s) == CHANCE
    r = engine(g).search(s, playouts=20_000)
    assert r.chance
    by_move = {c.move: c for c in r.children}
    assert by_move["heads"].probability == pytest.approx(HEADS)
    assert by_move["tails"].probability == pytest.approx(1 - HEADS)
    assert by_move["heads"].visits / r.playouts == pytest.approx(HEADS, abs=0.02)
    # Player 1 then holds player 0 to the lower payoff of each side of the coin.
    assert by_move["heads"].value == pytest.approx(PAYOFF[1].min(), abs=0.03)
    assert by_move["tails"].value == pytest.approx(PAYOFF[0].min(), abs=0.03)
    assert json.loads(json.dumps(r.to_dict()))["chance"] is True


@lru_cache(None)
def max_n(pile, to_play, last, previous, players):
    """Brute-force max-n of Nim (conformance_games.nim3): (value vector, best moves)."""
    if pile == 0:
        r = [0.0] * players
        if previous >= 0:
            r[previous] = 0.5
        r[last] = 1.0
        return tuple(r), ()
    kids = [(a, max_n(pile - a - 1, (to_play + 1) % players, to_play, last, players)[0])
            for a in range(min(3, pile))]
    best = max(v[to_play] for _, v in kids)
    moves = tuple(a for a, v in kids if v[to_play] == best)
    return next(v for a, v in kids if a == moves[0]), moves


@pytest.mark.parametrize("rave", [False, True])
@pytest.mark.parametrize("pile", [6, 8, 9, 10])
def test_three_player_search_finds_the_max_n_move(pile, rave):
    """Positions whose max-n move is unique: the search plays it, and each player's value
    at the root is that player's max-n value."""
    values, moves = max_n(pile, 0, -1, -1, 3)
    assert len(moves) == 1
    g = Nim(players=3, stones=pile)
    r = engine(g, rave=rave).search(g.initial_state(), playouts=30_000)
    assert r.action == moves[0]
    np.testing.assert_allclose(r.player_values, values, atol=0.02)


def test_general_games_conform_and_say_what_is_off():
    from mcts.config import off_for
    for game in (Coin(), Nim(players=4, stones=7)):
        failed = [(name, p) for name, p in run_checks(game) if p]
        assert not failed, failed
    assert set(off_for(Coin())) == {"solver", "transpositions"}
    assert set(off_for(Nim(players=3))) == {"solver"}
    assert off_for(games.get("connect4")) == {}


def test_same_seed_same_search_with_dice_and_tree_reuse_through_a_roll():
    g = games.get("pig", players=3, winscore=30)
    s = g.initial_state()
    a = engine(g).search(s, playouts=5000).to_dict()
    b = engine(g).search(s, playouts=5000).to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    e = engine(g)
    e.search(s, playouts=5000)
    for move in (0, 3):                         # roll, then the die shows 4
        g.play(s, move)
        e.advance(move)
    r = e.search(s, playouts=1000)
    assert r.reused > 1


def test_threads_share_a_tree_with_chance_nodes():
    g = games.get("pig")
    r = MCTS(g, SearchConfig(seed=1, threads=2, parallel="tree"), log=None).search(
        g.initial_state(), playouts=20_000)
    assert r.playouts == 20_000
    assert sum(r.player_values) == pytest.approx(1.0)


def test_selfplay_records_rolls_and_a_reward_per_player():
    g = games.get("pig", players=3, winscore=20)
    for policy in ("random", "mcts"):
        data = collect(g, 3, SelfPlayConfig(policy=policy, playouts=100), seed=5)
        total = int(data["lengths"].sum())
        assert data["rewards"].shape == (total, 3)
        assert data["returns"].shape == (3, 3)
        rolls = data["players"] == CHANCE
        assert rolls.any()
        np.testing.assert_allclose(data["policy_targets"][rolls].max(axis=1), 1 / 6, rtol=1e-6)
        for i in range(3):                      # replay: the same returns
            start, n = int(data["episode_starts"][i]), int(data["lengths"][i])
            state = g.initial_state()
            for t in range(start, start + n):
                assert g.to_play(state) == data["players"][t]
                g.play(state, int(data["actions"][t]))
            assert g.status(state) != ONGOING
            np.testing.assert_allclose(g.returns(state), data["returns"][i])
            np.testing.assert_allclose(data["rewards"][start + n - 1], 2 * g.returns(state) - 1)
        s = summary(data)
        assert sum(s["wins"]) + s["draws"] == 3


def test_arena_rotates_seats_and_scores_returns():
    from frontends.arena import play_game
    g = games.get("pig", players=3, winscore=15)
    sides = [(g, engine(g), {"playouts": 200}), (g, engine(g), {"playouts": 50})]
    for seat in range(3):
        score, plies, _, _ = play_game(sides, seat, seed=seat)
        assert score in (0.0, 1.0) and plies > 0


def play_pig(*flags, stdin=""):
    out = subprocess.run([sys.executable, "cli.py", "play", "pig", "--winscore", "20",
                          "--playouts", "300", *flags], cwd=ROOT, input=stdin,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_play_any_seats_the_same_seed_gives_the_same_game_dice_included():
    one = play_pig("--players", "3", "--seats", "ai,ai,ai", "--seed", "4")
    two = play_pig("--players", "3", "--seats", "ai,ai,ai", "--seed", "4")
    record = [x for x in one.splitlines() if x.startswith("game record:")]
    assert record and record == [x for x in two.splitlines() if x.startswith("game record:")]
    assert "chance: rolled" in one and "wins" in one.split("result:")[1]


def test_play_undo_gives_back_the_same_roll():
    out = play_pig("--seed", "9", "--seats", "human,ai", stdin="roll\nundo\nroll\nquit\n")
    rolls = re.findall(r"chance: rolled \d", out)
    assert len(rolls) == 2 and rolls[0] == rolls[1]


def test_play_refuses_seats_that_do_not_fit():
    out = subprocess.run([sys.executable, "cli.py", "play", "pig", "--seats", "human,ai,ai"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "--seats needs 2 words" in out.stderr and "Traceback" not in out.stderr


def test_pig_playout_policies_hold_and_uniform():
    """hold: roll while 2 t < (d - 1)(d + 2) (t the turn total; 20 with six faces), then
    stop; uniform: either, at even odds (OpenSpiel's random rollouts)."""
    from games import pig
    from games.rng import new_rng
    for policy, want in (("hold", {pig.STOP}), ("uniform", {pig.ROLL, pig.STOP})):
        g = games.get("pig", playout_policy=policy)
        s = g.initial_state()
        s[pig.TURN_TOTAL] = 20
        rng = new_rng(3)
        assert {int(pig.playout_action(s, rng)) for _ in range(64)} == want
        s[pig.TURN_TOTAL] = 19
        if policy == "hold":
            assert int(pig.playout_action(s, rng)) == pig.ROLL
