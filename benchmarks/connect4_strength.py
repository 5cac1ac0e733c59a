"""How often the search keeps the exact outcome on the solved Connect Four positions.

    python -m benchmarks.connect4_strength [--seconds 1 | --playouts N] [--threads T]
        [--playout-policy threats|uniform] [--no-transpositions] [--solve-nodes N]
        [--playout-weights FILE]

For each position of ``tests/data/connect4_positions.tsv`` (solved exactly, see its README) the
engine picks a move; the move *keeps the outcome* if its exact score has the sign of the
position's value (a win where the position is won, a draw where it is drawn; where it is lost
every move keeps it). Prints the rate per stratum (begin 6-13 plies, middle 14-27, end 28-38)
and how many positions the solver proved, and two tactical tallies over all strata: positions
with an immediate win (kept: a winning move played at once) and positions where the opponent
threatens one immediate win that can be blocked (kept: blocked).
"""
import argparse
import csv
import json
import os
import time
from pathlib import Path

import numpy as np

import games
from games.connect4.kernels import MASK, POS, winning_cells, _BOARD, _BOTTOMS, _COLUMN
from mcts import MCTS, SearchConfig
from mcts.train import load_weights

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4_positions.tsv"


def stratum(plies):
    return "begin" if plies <= 13 else ("middle" if plies <= 27 else "end")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float)
    budget.add_argument("--playouts", type=int)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--playout-policy", default="threats", choices=("threats", "uniform"))
    p.add_argument("--exploration", type=float, help="UCT constant (default: the game's)")
    p.add_argument("--transpositions", action=argparse.BooleanOptionalAction, default=True,
                   help="share the statistics of transpositions (default on)")
    p.add_argument("--solve-nodes", type=float, metavar="N",
                   help="the exact solver's budget in nodes per visit (0: off; default: the "
                        "game's)")
    p.add_argument("--playout-weights", metavar="FILE",
                   help="playouts of the learned policy of these weights (cli.py train)")
    args = p.parse_args(argv)
    spend = {"playouts": args.playouts} if args.playouts else {"seconds": args.seconds or 1.0}
    game = games.get("connect4", playout_policy=args.playout_policy)
    weights = load_weights(args.playout_weights, game) if args.playout_weights else None
    engine = MCTS(game, SearchConfig(seed=args.seed, threads=args.threads,
                                     exploration=args.exploration,
                                     transpositions=args.transpositions,
                                     solve_nodes=args.solve_nodes,
                                     playout_weights=weights), log=None)
    with open(DATA) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    tally = {s: {"kept": 0, "positions": 0, "proven": 0} for s in ("begin", "middle", "end")}
    tactics = {s: {"kept": 0, "positions": 0} for s in ("immediate win", "block")}
    t0 = time.perf_counter()
    for row in rows:
        state, _ = game.play_record(row["moves"])
        result = engine.search(state, **spend)
        score = int(row["move_scores"].split(",")[result.action])
        value = int(row["value"])
        t = tally[stratum(int(row["plies"]))]
        t["positions"] += 1
        t["kept"] += (score > 0) == (value > 0) and (score == 0) == (value == 0)
        t["proven"] += result.proof is not None
        kind = tactic(state)
        if kind:
            tactics[kind]["positions"] += 1
            cells = _COLUMN[result.action]
            target = winning_cells(*((state[POS], state[MASK]) if kind == "immediate win" else
                                     (state[POS] ^ state[MASK], state[MASK])))
            tactics[kind]["kept"] += bool(target & ((state[MASK] + _BOTTOMS) & _BOARD) & cells)
    out = {"budget": spend, "threads": args.threads, "seconds": time.perf_counter() - t0,
           "playout_policy": args.playout_policy, "transpositions": args.transpositions,
           "solve_nodes": float(engine.params().solve_nodes),
           "playout_weights": args.playout_weights, "strata": tally, "tactics": tactics}
    if args.json:
        print(json.dumps(out))
        return
    print(f"budget {spend} per position, {args.threads} threads, seed {args.seed}, "
          f"{args.playout_weights or args.playout_policy} playouts, transpositions "
          f"{'on' if args.transpositions else 'off'}, exact solver "
          f"{out['solve_nodes']:g} nodes per visit")
    for name, t in tally.items():
        print(f"{name:>7}: kept the outcome in {t['kept']}/{t['positions']} = "
              f"{100 * t['kept'] / t['positions']:.1f} %, solver proved {t['proven']}")
    for name, t in tactics.items():
        print(f"{name:>13}: {t['kept']}/{t['positions']}")


def tactic(state):
    """"immediate win" if the player to move can win at once, "block" if not but the
    opponent threatens exactly one immediate win (a cell it could fill next), else None."""
    playable = (state[MASK] + _BOTTOMS) & _BOARD
    if winning_cells(state[POS], state[MASK]) & playable:
        return "immediate win"
    threats = winning_cells(state[POS] ^ state[MASK], state[MASK]) & playable
    return "block" if threats and not (threats & (threats - np.uint64(1))) else None


if __name__ == "__main__":
    main()
