"""`train`: learn a game's playout policy with the actor-learner loop of :mod:`mcts.train`.

    python cli.py train GAME [--minutes M | --rounds N] [--workers W] [--ray auto|ADDRESS]
                             [--out weights.npz] [--resume] [--playouts P] [--episodes E]

Every round ends with a checkpoint in ``--out``; ``--resume`` goes on from it (the settings
stored in it win over the flags, so a resumed run is the run it continues). Ctrl-C keeps the
last complete checkpoint. The weights are used with ``--playout-weights FILE`` by `play`,
`analyze`, `gtp`, `match`, `arena`, `bench` and `selfplay`.
"""
import os
import time

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from frontends.argtypes import (check_input_file, episode_count, positive_float, positive_int,
                                search_playouts, wall_minutes)
from frontends.common import UsageError, console, err, make_game, output_file, ray_errors


def add_parser(add):
    """Add the `train` command with ``add(name, help=...)`` (cli.build_parser's)."""
    p = add("train", help="learn a playout policy from self-play (actor-learner, local or Ray)")
    p.add_argument("game", help="game name (see `list`); it needs move features")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--minutes", type=wall_minutes,
                        help="wall time to train (default 10; a started round is finished)")
    length.add_argument("--rounds", type=positive_int, help="rounds to train instead")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="rollout workers: processes, or Ray actors with --ray (default 1)")
    p.add_argument("--ray", metavar="ADDRESS", help="run the workers on Ray: auto or an address")
    p.add_argument("--out", default=None, metavar="FILE.npz",
                   help="checkpoint and weights file (default weights-GAME.npz)")
    p.add_argument("--resume", action="store_true", help="continue the run saved in --out")
    p.add_argument("--playouts", type=search_playouts, default=300,
                   help="MCTS playouts per self-play move, the targets' search (default 300)")
    p.add_argument("--episodes", type=episode_count, default=8,
                   help="self-play games per round, over all workers (default 8)")
    p.add_argument("--target-temperature", type=positive_float, default=1.0,
                   help="the learner's targets: visit shares ** (1 / T), renormalised "
                        "(default 1; below 1 sharper, towards the search's choice)")
    p.add_argument("--window", type=positive_int, default=4,
                   help="rounds of data the learner fits (default 4)")
    p.add_argument("--steps", type=positive_int, default=200,
                   help="learner steps (Adam) per round (default 200)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    return p


def _checkpoint(args, game, out):
    from mcts.train import Checkpoint, TrainConfig, new_checkpoint
    from games.contract import spec_of
    if args.resume:
        if not os.path.exists(out):
            raise UsageError(f"--resume: {out} does not exist")
        try:
            check_input_file(out)               # a regular file, not too large
        except ValueError as e:
            raise UsageError(f"--resume: {e}") from None
        try:
            ck = Checkpoint.load(out)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if ck.spec != spec_of(game):
            raise UsageError(f"--resume: {out} trains {ck.spec['class']} with "
                             f"{ck.spec['params']}, not this game")
        return ck
    if os.path.exists(out):
        raise UsageError(f"{out} exists: give --resume to continue it, or another --out")
    try:
        return new_checkpoint(game, TrainConfig(
            playouts=args.playouts, episodes=args.episodes, window=args.window,
            steps=args.steps, seed=args.seed, target_temperature=args.target_temperature))
    except ValueError as e:
        raise UsageError(str(e)) from None


def train(args):
    """Run the `train` command; returns the exit status."""
    from mcts.train import train as run
    game = make_game(args)
    out = output_file(args.out or f"weights-{game.name}.npz", ".npz")
    ck = _checkpoint(args, game, out)
    if args.resume:
        _resume_note(args, ck)
    minutes = None if args.rounds else (args.minutes or 10.0)
    where = f"Ray ({args.ray})" if args.ray else f"{args.workers} local worker(s)"
    cfg = ck.config
    console.print(f"training {game.name}'s playout policy ({game.num_features} features) on "
                  f"{where}: {cfg.episodes} games a round at {cfg.playouts} playouts a move; "
                  f"{'resuming after round ' + str(ck.rounds) if ck.rounds else 'from zero'}",
                  markup=False, soft_wrap=True)
    err.print("the first round may compile the kernels in each worker …")
    columns = (TextColumn("round {task.fields[round]}"), BarColumn(),
               TextColumn("{task.fields[rate]} samples/s, loss {task.fields[loss]}, "
                          "agreement {task.fields[agree]}"), TimeElapsedColumn())
    t0 = time.perf_counter()
    total = args.rounds if args.rounds else 60 * minutes
    with Progress(*columns, console=err) as progress:
        task = progress.add_task("train", total=total, round=ck.rounds, rate="-", loss="-",
                                 agree="-")

        def on_round(c):
            h = c.history[-1]
            done = (c.rounds - start) if args.rounds else time.perf_counter() - t0
            progress.update(task, completed=done, round=c.rounds,
                            rate=f"{h['samples_per_second']:,.0f}", loss=f"{h['loss_after']:.3f}",
                            agree=f"{h['agreement']:.0%}")
            if not err.is_terminal:             # a log file gets one line a round instead
                err.print(f"round {c.rounds}: {h['samples']} samples, "
                          f"{h['samples_per_second']:,.1f}/s, loss {h['loss_after']:.3f}, "
                          f"agreement {h['agreement']:.0%}, {h['seconds']:.1f} s")

        start = ck.rounds
        try:
            with ray_errors(args.ray):
                run(ck, out, minutes=minutes, rounds=args.rounds, workers=args.workers,
                    ray_address=args.ray, on_round=on_round)
        except OSError as e:
            raise UsageError(f"cannot write the checkpoint {out}: {e.strerror or e}; "
                             f"it holds round {_saved_round(out)}") from None
        except KeyboardInterrupt:
            progress.stop()
            saved = _saved_round(out)
            err.print(f"interrupted: {out} holds round {saved}" if saved else
                      "interrupted before the first round ended: nothing saved")
            return 130
    console.print(f"{ck.rounds - start} rounds in {time.perf_counter() - t0:.0f} s; "
                  f"{out} holds round {ck.rounds}", markup=False, soft_wrap=True)
    _report(game, ck)
    return 0


def _resume_note(args, ck):
    """The flags a resumed run ignores (the run keeps its own settings)."""
    cfg = ck.config
    given = {"--playouts": (args.playouts, 300, cfg.playouts),
             "--episodes": (args.episodes, 8, cfg.episodes),
             "--window": (args.window, 4, cfg.window),
             "--steps": (args.steps, 200, cfg.steps), "--seed": (args.seed, 0, cfg.seed),
             "--target-temperature": (args.target_temperature, 1.0, cfg.target_temperature)}
    ignored = [f for f, (value, default, kept) in given.items()
               if value != default and value != kept]
    if ignored:
        err.print(f"--resume keeps the run's own settings: {', '.join(ignored)} ignored")


def _saved_round(out):
    """The round of the checkpoint on disk (Ctrl-C may have come during a save)."""
    from mcts.train import Checkpoint
    try:
        return Checkpoint.load(out).rounds
    except ValueError:
        return 0


def _report(game, ck):
    """The last round's figures and the strongest weights, by magnitude."""
    if not ck.history:
        return
    h = ck.history[-1]
    console.print(f"last round: {h['samples']} samples at {h['samples_per_second']:,.1f}/s, "
                  f"loss {h['loss_before']:.3f} -> {h['loss_after']:.3f}, the policy's first "
                  f"choice was the search's in {h['agreement']:.0%} of positions", markup=False, soft_wrap=True)
    names = game.feature_names()
    order = sorted(range(len(ck.weights)), key=lambda i: -abs(ck.weights[i]))[:8]
    console.print("largest weights: " + "; ".join(f"{names[i]} {ck.weights[i]:+.2f}"
                                                   for i in order), markup=False, soft_wrap=True)
