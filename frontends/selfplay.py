"""`selfplay`: collect episodes of a game as training data (a ``.npz`` of numpy arrays).

See :mod:`mcts.selfplay` for the arrays and their keys. Ctrl-C saves the episodes finished
so far (exit status 130).
"""
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from frontends.common import UsageError, console, err, make_game
from frontends.common import output_file, ray_errors
from frontends.player import PlayerConfig
from mcts.selfplay import SelfPlayConfig, collect, merge, save_npz, summary


def selfplay(args):
    """Run the `selfplay` command; returns the exit status."""
    game = make_game(args)
    policy = args.policy or ("mcts" if args.playouts else "random")
    try:
        config = SelfPlayConfig(policy=policy, playouts=args.playouts or 1000,
                                temperature=args.temperature, dirichlet_alpha=args.dirichlet)
    except ValueError as e:
        raise UsageError(str(e)) from None
    weights = PlayerConfig(playout_weights=args.playout_weights).weights(game)
    out = output_file(args.out or f"selfplay-{game.name}.npz", ".npz")   # numpy adds .npz
    where = f"Ray ({args.ray})" if args.ray else f"{args.workers} worker process(es)"
    console.print(f"{args.episodes} {game.name} episodes, policy {policy}"
                  f"{f' ({config.playouts} playouts per move)' if policy == 'mcts' else ''}, "
                  f"on {where}, seed {args.seed}")
    t0 = time.perf_counter()
    plies = 0
    finished = []           # the parts of episodes finished: saved if Ctrl-C comes
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TextColumn("episodes, {task.fields[rate]} plies/s"),
               TimeElapsedColumn())
    with Progress(*columns, console=err) as progress:
        task = progress.add_task("self-play", total=args.episodes, rate="-")

        def on_episodes(part):
            nonlocal plies
            finished.append(part)
            plies += int(part["lengths"].sum())
            rate = plies / max(time.perf_counter() - t0, 1e-9)
            progress.update(task, advance=len(part["lengths"]), rate=f"{rate:,.0f}")

        try:
            with ray_errors(args.ray):
                data = collect(game, args.episodes, config, seed=args.seed,
                               workers=args.workers, ray_address=args.ray,
                               on_episodes=on_episodes, weights=weights)
        except KeyboardInterrupt:
            progress.stop()
            if not finished:
                err.print("interrupted before an episode ended: nothing saved")
                return 130
            save_npz(out, merge(finished))
            err.print(f"interrupted: the {sum(len(p['lengths']) for p in finished)} episodes "
                      f"finished are saved in {out}")
            return 130
    seconds = time.perf_counter() - t0
    save_npz(out, data)
    s = summary(data)
    console.print(f"{s['episodes']} episodes, {s['plies']:,} plies in {seconds:.2f} s "
                  f"({s['episodes'] / seconds:,.1f} episodes/s, {s['plies'] / seconds:,.0f} "
                  f"plies/s); "
                  + ", ".join(f"{name} won {w}" for name, w in zip(game.players, s["wins"]))
                  + f", draws {s['draws']}; mean length {s['mean_length']:.1f}")
    console.print(f"written to {out}", markup=False)
    return 0
