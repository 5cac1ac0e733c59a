"""Fit Go's move-feature weights to teacher moves by Coulom's MM (mcts.mm).

    python3 -m benchmarks.train_go_mm --out games/weights/go_mm.npz
        [--data benchmarks/data/go_teacher/9 ...] [--seed 1] [--holdout 0.1] [--prior 1]
        [--max-iterations 1000] [--tol 1e-4] [--fixed 5,8,9] [--compare games/weights/go.npz ...]
        [--temperature 2]

Reads every ``*.sgf`` of the ``--data`` folders (sorted by path; as written by
benchmarks/go_teacher.py), replays each game's main line with the project's Go
(``games.get("go", size=SZ)``) and, before every teacher move that is not a pass and not a
random opening move (comment ``C[random opening]``), takes the position's candidates and
their feature ids from the compiled ``move_features`` kernel (games.go.features) and the
index of the teacher's move among them. A teacher move that is no candidate (the mover's
own eye filled, mostly) is counted and left out.

The games are split by ``--seed``: a numpy Generator shuffles them and the first
``--holdout`` share (rounded up, at least one game when there are two or more) is held out.
MM fits the others: features in groups of mutually exclusive ones (the 3x3 classes, the
lines, the distances, the two self-ataris; the rest alone), ``--prior`` virtual wins and
losses per feature, ``--fixed`` features left at 0 (default 5, 8, 9: the fast playout,
games.go.learned, does not use them). The held-out positions give the top-1 accuracy (ties
count 1/m) and the mean log-likelihood of the fitted weights and of each ``--compare``
checkpoint (as it is, and with the ``--fixed`` features at 0 as the fast playout reads it).

The output is a checkpoint in the format of mcts.train.Checkpoint (``weights``, ``meta``;
load it with ``--playout-weights``); ``meta["mm"]`` holds the command, the data, the seed,
the iterations, the objective per iteration, the final log-likelihood and the held-out
figures. ``--temperature T`` writes the fitted weights divided by T (the held-out figures
are the fit's own): a flatter playout policy. The best move predictor is not the best playout
policy (Silver and Tesauro 2009, "Monte-Carlo simulation balancing"): at T = 2 the playouts
did as well as the defaults against Pachi where T = 1 lost nearly every game
(docs/learned-go.md). The same data and flags give the same weights, bit for bit.
"""
import argparse
import glob
import json
import math
import os
import shlex
import sys
import time
from dataclasses import asdict

import numpy as np
from sgfmill import sgf

import games
from frontends.argtypes import MAX_SGF_BYTES
from frontends.common import UsageError, exit_code, output_file, read_bounded
from games.contract import ONGOING, spec_of
from mcts import mm
from mcts.train import Checkpoint, TrainConfig

RANDOM_COMMENT = "random opening"


def go_groups(num_features):
    """MM's groups for games.go.features: ids that no candidate can have two of together."""
    from games.go.features import F_DISTANCE, F_LINE, F_PATTERN
    return [[0], [1], [2], [3, 4], [5], list(range(F_DISTANCE, F_LINE)),
            list(range(F_LINE, F_PATTERN)), list(range(F_PATTERN, num_features))]


class Replayer:
    """Positions of teacher moves from SGF files, one Go game object per board size."""

    def __init__(self):
        self.games = {}
        self.skipped = 0        # teacher moves that are no candidate
        self.moves = 0          # teacher moves seen (not passes, not random)
        self.last_size = None   # the board size of the last file read

    def game(self, size):
        if size not in self.games:
            g = games.get("go", size=size)
            self.games[size] = (g, np.empty(g.num_actions, np.int32),
                                np.full((g.num_actions, g.feature_slots), -1, np.int32))
        return self.games[size]

    def positions(self, path):
        """mm.Positions of the teacher moves of the SGF file ``path``; ``UsageError`` (one
        line) for a file that cannot be read, parsed or replayed."""
        try:
            record = sgf.Sgf_game.from_bytes(read_bounded(path, MAX_SGF_BYTES))
        except (OSError, ValueError) as e:
            raise UsageError(f"{path}: {getattr(e, 'strerror', None) or e}") from None
        size = record.get_size()
        if size not in (9, 13, 19) and not 2 <= size <= 19:
            raise UsageError(f"{path}: board size {size}")
        game, cand, feats = self.game(size)
        self.last_size = size
        kernels = game.kernels
        state = game.initial_state()
        items = []
        for k, node in enumerate(record.get_main_sequence()[1:], 1):
            colour, point = node.get_move()
            if colour is None:
                continue
            if node.has_setup_stones() or "bw".index(colour) != game.to_play(state):
                raise UsageError(f"{path}: node {k}: setup stones or a move out of turn")
            action = game.pass_action if point is None else \
                (size - 1 - point[0]) * size + point[1]
            teacher = point is not None and not (
                node.has_property("C") and node.get("C").strip() == RANDOM_COMMENT)
            if teacher:
                self.moves += 1
                n = int(kernels.move_features(state, cand, feats))
                hit = np.flatnonzero(cand[:n] == action)
                if len(hit):
                    ids = feats[:n].copy()
                    ids[np.cumsum(ids < 0, axis=1) > 0] = -1    # stale ids after a -1
                    items.append((ids, int(hit[0])))
                else:
                    self.skipped += 1
            try:
                status = game.play(state, action)
            except ValueError:
                raise UsageError(f"{path}: node {k}: illegal move") from None
            if status != ONGOING:
                break
        return mm.Positions.from_list(items, slots=feats.shape[1])


def split(paths, seed, share):
    """``(train, held)``: the paths shuffled by ``seed``, the first ceil(share * n) held."""
    order = np.random.default_rng(seed).permutation(len(paths))
    held = min(math.ceil(share * len(paths)), len(paths) - 1) if len(paths) > 1 else 0
    return [paths[i] for i in sorted(order[held:])], [paths[i] for i in sorted(order[:held])]


def evaluate(weights, data):
    """Held-out figures: top-1 accuracy and mean log-likelihood per position."""
    return {"top1": mm.top1(weights, data),
            "log_likelihood_per_move": mm.log_likelihood(weights, data) / max(len(data), 1)}


def save(path, game, weights, meta_mm, seed):
    """A checkpoint file of mcts.train.Checkpoint's format with the MM record in meta."""
    meta = {"spec": spec_of(game), "config": asdict(TrainConfig(seed=seed)), "rounds": 0,
            "history": [], "game": game.name, "mm": meta_mm}
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, weights=weights, meta=np.array(json.dumps(meta, sort_keys=True)))
    os.replace(tmp, path)


def run(args, argv):
    out = output_file(args.out, ".npz")
    fixed = [int(x) for x in args.fixed.split(",") if x.strip()] if args.fixed else []
    compare = {p: None for p in args.compare}
    paths = sorted({p for folder in args.data
                    for p in glob.glob(os.path.join(glob.escape(folder), "*.sgf"))})
    if not paths:
        raise UsageError(f"no .sgf files in {', '.join(args.data)}")
    t0 = time.perf_counter()
    rep = Replayer()
    train_paths, held_paths = split(paths, args.seed, args.holdout)
    train = mm.Positions.concat(rep.positions(p) for p in train_paths)
    held_parts = [(rep.positions(p), rep.last_size) for p in held_paths]
    held = mm.Positions.concat(part for part, _ in held_parts)
    by_size = {n: mm.Positions.concat(part for part, m in held_parts if m == n)
               for n in sorted({m for _, m in held_parts})}
    game = next(iter(rep.games.values()))[0]
    for p in compare:
        try:
            compare[p] = Checkpoint.load(p).weights
        except ValueError as e:
            raise UsageError(str(e)) from None
        if compare[p].shape != (game.num_features,):
            raise UsageError(f"{p}: {len(compare[p])} weights, Go has {game.num_features}")
    if any(not 0 <= f < game.num_features for f in fixed):
        raise UsageError(f"--fixed: ids must be in [0, {game.num_features})")
    print(f"{len(paths)} games ({len(train_paths)} to fit, {len(held_paths)} held out), "
          f"{rep.moves} teacher moves, {rep.skipped} not candidates, {len(train)} + "
          f"{len(held)} positions, {len(train.feats) / max(len(train), 1):.1f} candidates "
          f"per position; read in {time.perf_counter() - t0:.1f} s", flush=True)
    t1 = time.perf_counter()
    result = mm.fit(train, game.num_features, groups=go_groups(game.num_features), fixed=fixed,
                    prior=args.prior, tol=args.tol, max_iterations=args.max_iterations,
                    on_iteration=lambda k, o: print(f"iteration {k}: objective {o:.3f}",
                                                    flush=True) if args.verbose else None)
    seconds = time.perf_counter() - t1
    weights = {"go_mm": result.weights}
    for p, w in compare.items():
        weights[p] = w
        if fixed:           # as the fast playout would use them
            weights[f"{p} with {','.join(map(str, fixed))} at 0"] = \
                np.where(np.isin(np.arange(len(w)), fixed), 0.0, w)
    scores = {name: evaluate(w, held) for name, w in weights.items()}
    sized = {f"{n}x{n}": {name: evaluate(w, part) | {"positions": len(part)}
                          for name, w in weights.items()} for n, part in by_size.items()}
    meta_mm = {
        "command": shlex.join(["python3", "-m", "benchmarks.train_go_mm"] + list(argv)),
        "data": sorted(args.data), "games": len(paths), "train_games": len(train_paths),
        "held_out_games": [os.path.relpath(p) for p in held_paths],
        "teacher_moves": rep.moves, "not_candidates": rep.skipped,
        "train_positions": len(train), "held_out_positions": len(held), "seed": args.seed,
        "prior": args.prior, "fixed": fixed, "tol": args.tol, "iterations": result.iterations,
        "converged": result.converged, "objective": result.objective,
        "log_likelihood": result.log_likelihood, "log_likelihoods": result.log_likelihoods,
        "log_likelihood_per_move": result.log_likelihood / max(len(train), 1),
        "train_top1": mm.top1(result.weights, train), "held_out": scores,
        "held_out_by_size": sized, "temperature": args.temperature,
        "source": "Coulom 2007, Computing Elo ratings of move patterns in the game of Go"}
    save(out, game, result.weights / args.temperature, meta_mm, args.seed)
    print(f"MM: {result.iterations} iterations ({'converged' if result.converged else 'stopped'}"
          f", {seconds:.1f} s), log-likelihood {result.log_likelihood:.2f} "
          f"({meta_mm['log_likelihood_per_move']:.4f} per move), training top-1 "
          f"{meta_mm['train_top1']:.4f}", flush=True)
    for name, s in scores.items():
        print(f"held out ({len(held)} positions), {name}: top-1 {s['top1']:.4f}, "
              f"log-likelihood per move {s['log_likelihood_per_move']:.4f}", flush=True)
    for size, table in sized.items() if len(sized) > 1 else ():
        for name, s in table.items():
            print(f"  {size} ({s['positions']} positions), {name}: top-1 {s['top1']:.4f}, "
                  f"log-likelihood per move {s['log_likelihood_per_move']:.4f}", flush=True)
    print(f"wrote {out}" + (f" (the fitted weights divided by {args.temperature:g})"
                            if args.temperature != 1 else ""), flush=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python3 -m benchmarks.train_go_mm",
                                description="Go move-feature weights by MM on teacher SGFs.")
    p.add_argument("--out", required=True, help="checkpoint to write (.npz)")
    p.add_argument("--data", nargs="+", default=["benchmarks/data/go_teacher/9"])
    p.add_argument("--seed", type=int, default=1, help="seed of the held-out split")
    p.add_argument("--holdout", type=float, default=0.1, help="share of games held out")
    p.add_argument("--prior", type=float, default=1.0, help="virtual wins and losses")
    p.add_argument("--max-iterations", type=int, default=1000)
    p.add_argument("--tol", type=float, default=1e-4, help="stop when no weight moves more")
    p.add_argument("--fixed", default="5,8,9", help="feature ids left at 0 (comma-separated)")
    p.add_argument("--compare", nargs="*", default=[], help="checkpoints to score held out")
    p.add_argument("--temperature", type=float, default=1.0,
                   help="write the weights divided by this (> 1: a flatter playout policy)")
    p.add_argument("--verbose", action="store_true", help="print every iteration")
    args = p.parse_args(argv)
    if not 0 <= args.holdout < 1:
        p.error("--holdout must be in [0, 1)")
    if not (math.isfinite(args.prior) and 0 <= args.prior <= 1000):
        p.error("--prior must be a number from 0 to 1000")
    if not 1 <= args.max_iterations <= 100_000:
        p.error("--max-iterations must be a whole number from 1 to 100000")
    if not (math.isfinite(args.tol) and 0 < args.tol <= 1):
        p.error("--tol must be a number in (0, 1]")
    if not (math.isfinite(args.temperature) and 0.05 <= args.temperature <= 20):
        p.error("--temperature must be a number from 0.05 to 20")
    return exit_code(run, args, argv)


if __name__ == "__main__":
    sys.exit(main())
