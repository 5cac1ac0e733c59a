"""Our MCTS against OpenSpiel's C++ MCTSBot on a game both have, OpenSpiel as the referee.

    python -m benchmarks.openspiel_match GAME [--players N] [GAME FLAGS] [--games 40]
        [--seconds 0.1] [--simulations S] [--seed 0] [--json FILE]

In game ``i`` our engine plays seat ``i mod P`` of the game's P players and MCTSBot every
other seat (two players: colours alternate). Both positions advance in lockstep: ours (our
kernels) and OpenSpiel's state, which is the referee: its legal actions must equal ours at
every ply (the action encodings are OpenSpiel's), chance outcomes are drawn from its
``chance_outcomes`` by a generator seeded with ``seed + i``, and the result is its
``returns``. Our score in a game is our seat's return scaled to [0, 1] between the lowest
and the highest return of that game (a win 1, a loss 0, a draw 0.5); the summary gives its
mean with a 95 % Wilson interval.

MCTSBot: UCT with c = 2, one random rollout per leaf (``RandomRolloutEvaluator``), no solver
(it does not prove through chance nodes), ``S`` simulations a move. By default ``S`` is set
so that its time per move is at least ours: before the games it times a search from the
first decision and takes the simulations that fill ``--seconds``; after each game, if its
mean time per move over the games so far is not between ours and ours + 25 %, it scales them
by the ratio of the two (plus 10 %). Both mean
times per move are reported.
"""
import argparse
import json
import random
import sys
import time

import numpy as np

import games
from benchmarks import openspiel_compare as spiel
from frontends.match import wilson
from mcts import MCTS, SearchConfig


def make_bot(theirs, simulations, seed):
    import pyspiel
    return pyspiel.MCTSBot(theirs, pyspiel.RandomRolloutEvaluator(1, seed), 2.0,
                           simulations, 1000, False, seed, False)


def calibrate(theirs, seconds, seed):
    """Simulations of MCTSBot that take about ``seconds`` from the first decision."""
    sims = 200
    while True:
        bot = make_bot(theirs, sims, seed)
        state = spiel.first_decision(theirs, seed)
        t0 = time.perf_counter()
        bot.step(state)
        took = time.perf_counter() - t0
        if took > 0.2 * seconds or sims >= 1 << 22:
            return max(1, int(sims * seconds / max(took, 1e-9)))
        sims *= 4


def play_one(game, engine, bot, theirs, seat, seed, seconds):
    """One game; (our score in [0, 1], plies, our seconds per move, theirs)."""
    rng = random.Random(seed)
    ours, ref = game.initial_state(), theirs.new_initial_state()
    engine.forget()
    engine.reseed(seed)
    spent, moves, plies = [0.0, 0.0], [0, 0], 0
    while not ref.is_terminal():
        if ref.is_chance_node():
            outcomes, probs = zip(*ref.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
            mine = game.chance_outcomes(ours)
            assert sorted(mine[0].tolist()) == sorted(outcomes), "chance outcomes differ"
        else:
            assert game.to_play(ours) == ref.current_player(), "players to move differ"
            assert sorted(game.legal_actions(ours).tolist()) == sorted(ref.legal_actions()), \
                f"legal moves differ at ply {plies}"
            who = 0 if ref.current_player() == seat else 1
            t0 = time.perf_counter()
            if who == 0:
                action = engine.search(ours, seconds=seconds).action
            else:
                action = bot.step(ref)
            spent[who] += time.perf_counter() - t0
            moves[who] += 1
        ref.apply_action(int(action))
        game.play(ours, int(action))
        engine.advance(int(action))
        plies += 1
    returns = ref.returns()
    low, high = min(returns), max(returns)
    score = 0.5 if high == low else (returns[seat] - low) / (high - low)
    assert game.status(ours) != 0, "OpenSpiel ended the game, ours did not"
    return score, plies, spent[0] / max(moves[0], 1), spent[1] / max(moves[1], 1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=sorted(spiel.GAME_NAMES))
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seconds", type=float, default=0.1, help="our time per move")
    p.add_argument("--simulations", type=int, help="MCTSBot's per move (default: calibrated "
                   "to at least our time)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", help="write the games and the summary here")
    args, rest = p.parse_known_args(argv)
    params = {}
    for flag, value in zip(rest[::2], rest[1::2]):
        params[flag.lstrip("-").replace("-", "_")] = value
    game = games.get(args.game, **params)
    theirs = spiel.load(args.game, game.params)
    engine = MCTS(game, SearchConfig(seed=args.seed, threads=1))
    engine.search(game.initial_state(), playouts=64)       # compiled before the clock
    sims = args.simulations or calibrate(theirs, args.seconds, args.seed)
    bot = make_bot(theirs, sims, args.seed)
    print(f"{args.game} {game.params}: ours {args.seconds} s a move against MCTSBot "
          f"{sims:,} simulations a move", flush=True)
    rows, total = [], 0.0
    for i in range(args.games):
        seat = i % game.num_players
        score, plies, ta, tb = play_one(game, engine, bot, theirs, seat, args.seed + i,
                                        args.seconds)
        total += score
        rows.append({"game": i + 1, "seat": seat, "score": score, "plies": plies,
                     "mctsbot_simulations": sims,
                     "our_seconds_per_move": ta, "their_seconds_per_move": tb})
        mine = sum(r["our_seconds_per_move"] for r in rows)
        their = sum(r["their_seconds_per_move"] for r in rows)
        if args.simulations is None and their > 0 and not mine <= their <= 1.25 * mine:
            sims = max(1, int(sims * 1.1 * mine / their))   # their mean time: ours to +25 %
            bot = make_bot(theirs, sims, args.seed + i)
        print(f"game {i + 1:>3}: seat {seat + 1}, score {score:g} in {plies} plies, "
              f"{ta:.3f} / {tb:.3f} s a move  [{total:g}/{i + 1}]", flush=True)
    n = len(rows)
    low, high = wilson(total, n)
    summary = {"game": args.game, "params": game.params, "games": n, "score": total,
               "rate": total / n, "wilson_95": [low, high], "our_seconds": args.seconds,
               "mctsbot_simulations": [rows[0]["mctsbot_simulations"], sims],
               "our_seconds_per_move": float(np.mean([r["our_seconds_per_move"] for r in rows])),
               "their_seconds_per_move": float(np.mean([r["their_seconds_per_move"]
                                                        for r in rows]))}
    print(f"ours scored {total:g}/{n} = {100 * total / n:.0f} % (95 % Wilson "
          f"{100 * low:.0f}-{100 * high:.0f} %); seconds per move: ours "
          f"{summary['our_seconds_per_move']:.3f}, MCTSBot {summary['their_seconds_per_move']:.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "games": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
