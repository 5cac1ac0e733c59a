"""`bench`: playouts per second, MCTS playouts per second, compile times and memory, per game,
optionally side by side with OpenSpiel (`--compare openspiel`, see ``openspiel_compare.py``).

Figures (single thread, median with min and max over ``--repeat`` repetitions, CPU-time rate
beside the wall-clock one because shared machines are noisy):
- ``playouts_per_second``: whole random playouts from the initial position, in one compiled
  batch of about ``--seconds`` seconds; ``mean_playout_plies``: their average length.
- ``mcts_playouts_per_second``: one search of ``mcts_playouts`` playouts from the initial
  position (``--playouts``, default per game in ``SEARCH_SIZE``), without the calls of a
  game's exact solver unless ``--solve-nodes`` is given.
- ``compile_seconds``: loading the kernels in a new process with empty numba caches (cold);
  ``warm_start_seconds``: the same with warm caches; ``warm_process_seconds``: that whole
  process, interpreter and imports included.
- ``bytes_per_node`` of the tree, ``peak_rss_mb`` of this process.
With OpenSpiel, its figures are measured in the same run, interleaved with ours, and each
``ratio_*`` is ours / theirs.
"""
import dataclasses
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from rich.progress import Progress
from rich.table import Table

import games
from benchmarks import openspiel_compare as spiel
from frontends.common import UsageError, console, err, output_file
from frontends.player import PlayerConfig
from mcts import MCTS, Tree
from games.rng import new_rng, split_seed
from mcts.codegen import provided_kernels
from mcts.search import load_kernels
from mcts.tree import new_workspace

ROOT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEARCH_SIZE = {("go", 9): 20_000, ("go", 19): 2_000, ("othello", None): 10_000}
DEFAULT_SEARCH = 200_000
DEFAULT_SIZES = {"go": (9, 19)}         # board sizes measured unless --size is given
_LOAD_SNIPPET = """
import sys, time
sys.path.insert(0, {root!r})
import games
from mcts.search import load_kernels
g = games.get({name!r}, **{params!r})
t = time.perf_counter()
load_kernels(g, log=None)
print(time.perf_counter() - t)
"""


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine():
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
            "numba_version": numba.__version__, "numpy_version": np.__version__}


def compile_times(name, params):
    """(cold, warm, warm whole-process) seconds, each in a fresh process with its own caches."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                   MCTS_CACHE_DIR=os.path.join(tmp, "gen"),
                   MCTS_PORTABLE_CACHE="0")     # cold: a native compile, not the shipped code
        code = _LOAD_SNIPPET.format(root=ROOT_DIR, name=name, params=params)
        out = []
        for _ in range(2):
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                  text=True, check=True)
            out.append((float(proc.stdout.strip().splitlines()[-1]), time.perf_counter() - t0))
    return out[0][0], out[1][0], out[1][1]


def random_playout_rate(kernels, state, seconds, seed, threads=1, workspace=None):
    """(wall rate, CPU rate, mean plies or None) of random playouts over about ``seconds``,
    on ``threads`` threads at once (the compiled loop releases the GIL). The playouts run in
    compiled batches of about 50 ms, so Ctrl-C is seen at once. With ``workspace`` (a
    function giving a fresh mcts.tree.Workspace with the weights), the playouts are those of
    the learned policy."""
    playouts = kernels.random_playouts if workspace is None else kernels.learned_playouts

    def scratch_of():
        return state.copy() if workspace is None else workspace()
    rng, scratch, outcomes = new_rng(seed), scratch_of(), np.zeros(5, dtype=np.int64)
    n = 16
    while True:                       # calibrate a batch of about 50 ms
        t0 = time.perf_counter()
        playouts(state, n, rng, scratch, outcomes)
        dt = time.perf_counter() - t0
        if dt > 0.05:
            break
        n *= 4
    batch = max(1, int(n * 0.05 / dt))
    batches = max(1, round(seconds / 0.05))
    stop = threading.Event()

    def run(job):
        plies = 0
        for _ in range(batches):
            if stop.is_set():
                break
            plies += playouts(state, batch, *job)
        return plies

    jobs = [(new_rng(split_seed(seed, i)), scratch_of(), np.zeros(5, dtype=np.int64))
            for i in range(threads)]
    w0, c0 = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(run, j) for j in jobs]
        try:
            plies = [f.result() for f in futures]
        except BaseException:
            stop.set()
            raise
    wall, cpu = time.perf_counter() - w0, max(time.process_time() - c0, 1e-9)
    total = batch * batches * threads
    return total / wall, total / cpu, (sum(plies) / total if min(plies) >= 0 else None)


def summary(values, key):
    return {key: statistics.median(values), key + "_min": min(values), key + "_max": max(values)}


def search_size(name, params, args):
    if args.playouts:
        return args.playouts
    return SEARCH_SIZE.get((name, params.get("size")), DEFAULT_SEARCH)


def bench_game(name, params, args, progress, task):
    game = games.get(name, **params)
    os.environ["MCTS_PORTABLE_CACHE"] = "0"    # the host's code, never the portable shipped one
    kernels = load_kernels(game, log=sys.stderr)
    size = search_size(name, params, args)
    player = PlayerConfig.from_args(args, threads=1)
    weights = player.weights(game)
    config = player.replace(solve_nodes=None).search_config(game, seed=1)
    if "solve" in provided_kernels(game.kernel_module):
        config.solve_nodes = args.solve_nodes
    config.capacity = max(20 * size, 1000)      # the measured search fits: no full-tree effects
    config.playout_weights = None
    engine = MCTS(game, config, log=None)
    learned = None
    if weights is not None:                     # the learned policy, beside the game's own
        learned = MCTS(game, dataclasses.replace(config, playout_weights=weights), log=None)
    theirs = spiel.load(name, params) if args.compare else None
    state = game.initial_state()
    rows = {k: [] for k in ("wall", "cpu", "mcts", "mcts_cpu", "os_wall", "os_cpu",
                            "os_mcts", "os_mcts_cpu", "learned", "learned_mcts")}
    plies = None
    for r in range(args.repeat):          # ours and theirs interleaved in each repetition
        w, c, plies = random_playout_rate(kernels, state, args.seconds, seed=r,
                                          threads=args.threads)
        rows["wall"].append(w)
        rows["cpu"].append(c)
        c0 = time.process_time()
        res = engine.search(state, playouts=size)
        rows["mcts"].append(res.playouts / res.seconds)
        rows["mcts_cpu"].append(res.playouts / max(time.process_time() - c0, 1e-9))
        if learned is not None:
            rows["learned"].append(random_playout_rate(
                kernels, state, args.seconds, seed=r, threads=args.threads,
                workspace=lambda: new_workspace(game, weights))[0])
            lres = learned.search(state, playouts=size)
            rows["learned_mcts"].append(lres.playouts / lres.seconds)
        progress.advance(task)
        if theirs is not None:
            w, c = spiel.rollout_rate(theirs, args.seconds, seed=r + 1)
            rows["os_wall"].append(w)
            rows["os_cpu"].append(c)
            w, c = spiel.mcts_rate(theirs, size, seed=r + 1)
            rows["os_mcts"].append(w)
            rows["os_mcts_cpu"].append(c)
        progress.advance(task)
    cold, warm, warm_proc = compile_times(name, params)
    progress.advance(task)
    out = {"game": name, "params": game.params}
    out.update(summary(rows["wall"], "playouts_per_second"))
    out["cpu_playouts_per_second"] = statistics.median(rows["cpu"])
    out["mean_playout_plies"] = plies
    out.update(summary(rows["mcts"], "mcts_playouts_per_second"))
    out["cpu_mcts_playouts_per_second"] = statistics.median(rows["mcts_cpu"])
    out.update({"mcts_playouts": size, "mcts_nodes": res.nodes,
                "bytes_per_node": Tree.NODE_BYTES, "compile_seconds": cold,
                "warm_start_seconds": warm, "warm_process_seconds": warm_proc,
                "threads": args.threads, "rave": engine.rave,
                "solve_nodes": config.solve_nodes})
    if learned is not None:
        out.update(summary(rows["learned"], "learned_playouts_per_second"))
        out.update(summary(rows["learned_mcts"], "learned_mcts_playouts_per_second"))
        out["playout_weights"] = args.playout_weights
    if theirs is not None:
        os_out = summary(rows["os_wall"], "playouts_per_second")
        os_out["cpu_playouts_per_second"] = statistics.median(rows["os_cpu"])
        os_out.update(summary(rows["os_mcts"], "mcts_playouts_per_second"))
        os_out["cpu_mcts_playouts_per_second"] = statistics.median(rows["os_mcts_cpu"])
        os_out["mean_playout_plies"] = spiel.mean_playout_length(
            theirs, games=20 if params.get("size", 0) > 13 else 100)
        os_out["game"] = str(theirs)
        out["openspiel"] = os_out
        for key in ("playouts_per_second", "cpu_playouts_per_second",
                    "mcts_playouts_per_second", "cpu_mcts_playouts_per_second"):
            out["ratio_" + key] = out[key] / os_out[key]
    out.update({"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "repeat": args.repeat, **machine(), "command": " ".join(sys.argv)})
    return out


def targets(args):
    """(name, params) pairs to measure: the named games, or every game. Each game gets the
    parameter values given on the command line (``args.game_params``) that it declares and
    its ``bench_params`` for the others; Go is measured at 9x9 and 19x19 unless --size is
    given (``DEFAULT_SIZES``)."""
    known = games.names()
    given = dict(args.game_params)
    unused = set(given)
    checked = []
    for name in args.games or known:
        if name not in known:
            raise UsageError(f"unknown game {name!r}; known games: {', '.join(known)}")
        declared = {p.name for p in games.parameters(name)}
        # a factory registered instead of a Game subclass declares nothing
        params = {**getattr(games.game_class(name), "bench_params", {}),
                  **{k: v for k, v in given.items() if k in declared}}
        unused -= declared
        sizes = DEFAULT_SIZES.get(name, ()) if "size" not in given else ()
        for p in [{**params, "size": n} for n in sizes] or [params]:
            try:
                games.get(name, **p)
            except ValueError as e:
                raise UsageError(str(e)) from None
            if (name, p) not in checked:
                checked.append((name, p))
    if unused:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(unused))
        raise UsageError(f"none of {', '.join(args.games or known)} takes {flags}")
    return checked


def fmt_rate(x):
    return f"{x / 1e6:.2f}M" if x >= 1e6 else f"{x / 1e3:.1f}k"


def spread(r, key):
    scale, unit = (1e6, "M") if r[key] >= 1e6 else (1e3, "k")
    lo, hi = r[key + "_min"] / scale, r[key + "_max"] / scale
    return f"{fmt_rate(r[key])}\n[dim]{lo:.3g}-{hi:.3g}{unit}[/dim]"


def label(r):
    solver = f" solver {r['solve_nodes']:g}" if r.get("solve_nodes") else ""
    return r["game"] + "".join(f" {v}" for k, v in r["params"].items()
                               if k in ("size", "playout_policy")) + solver


def show(results):
    threads = results[0]["threads"]
    table = Table(title=f"playouts per second, {threads} thread{'s' * (threads > 1)}: median "
                        "and min-max over repeats")
    cols = ["game", "random/s", "MCTS/s", "plies", "compile s"]
    compare = any("openspiel" in r for r in results)
    if compare:
        cols[3:3] = ["OpenSpiel random/s", "OpenSpiel MCTS/s"]
    with_learned = any("learned_playouts_per_second" in r for r in results)
    if with_learned:
        cols[3:3] = ["learned/s", "learned MCTS/s"]
    for col in cols:
        table.add_column(col, justify="right")
    for r in results:
        row = [label(r), spread(r, "playouts_per_second"), spread(r, "mcts_playouts_per_second")]
        if with_learned:
            row += [spread(r, k) if k in r else "-" for k in
                    ("learned_playouts_per_second", "learned_mcts_playouts_per_second")]
        if compare:
            o = r.get("openspiel")
            row += [f"{fmt_rate(o['playouts_per_second'])}\n"
                    f"[bold]x{r['ratio_playouts_per_second']:.1f}[/bold]" if o else "-",
                    f"{fmt_rate(o['mcts_playouts_per_second'])}\n"
                    f"[bold]x{r['ratio_mcts_playouts_per_second']:.1f}[/bold]" if o else "-"]
        plies = r["mean_playout_plies"]
        row += [f"{plies:.1f}" if plies is not None else "-",
                f"{r['compile_seconds']:.1f} cold\n{r['warm_start_seconds']:.2f} warm"]
        table.add_row(*row)
    console.print(table)
    m = machine()
    console.print(f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, numba "
                  f"{m['numba_version']}, numpy {m['numpy_version']}; {Tree.NODE_BYTES} bytes "
                  f"per tree node; peak memory {results[-1]['peak_rss_mb']:.0f} MB")


def plot(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install -e '.[plot]'") from None
    labels = [label(r) for r in results]
    x = np.arange(len(results))
    fig, axes = plt.subplots(1, 2, figsize=(2.4 * len(results) + 5, 4.8))
    for ax, key, title in ((axes[0], "playouts_per_second", "random playouts per second"),
                           (axes[1], "mcts_playouts_per_second", "MCTS playouts per second")):
        ours = [r[key] for r in results]
        theirs = [r.get("openspiel", {}).get(key, 0) for r in results]
        ax.bar(x - 0.2, ours, 0.4, label="mcts-engine (numba)")
        if any(theirs):
            ax.bar(x + 0.2, theirs, 0.4, label="OpenSpiel (C++)")
        for i, r in enumerate(results):
            if "ratio_" + key in r:
                ax.text(x[i] - 0.2, ours[i] * 1.1, f"x{r['ratio_' + key]:.1f}", ha="center",
                        fontweight="bold")
        ax.set_yscale("log")
        ax.set_ylim(min(v for v in ours + theirs if v > 0) / 5, max(ours) * 3)
        ax.set_xticks(x, labels)
        ax.set_title(title + " (log scale)")
        ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"One thread, {cpu_model()}; ratio = ours / OpenSpiel's")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(args):
    """Run the `bench` command (args from cli.py); returns the exit status."""
    todo = targets(args)
    for attr, suffix in (("json", ""), ("plot", ".png")):   # a bad output path fails now,
        if getattr(args, attr) not in (None, "-"):           # not after the work (matplotlib
            output_file(getattr(args, attr), suffix)         # adds .png to other names)
    if args.compare and not spiel.available():
        err.print(spiel.INSTALL_HINT)
        args.compare = None
    results = []
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(todo) * (2 * args.repeat + 1))
        for name, params in todo:
            progress.update(task, description=f"benchmarking {name} {params or ''}")
            results.append(bench_game(name, params, args, progress, task))
    if args.json == "-":
        for r in results:
            print(json.dumps(r))
    else:
        show(results)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"results": results, **machine(), "command": " ".join(sys.argv)}, f,
                          indent=1)
            console.print(f"results written to {args.json}", markup=False)
    if args.plot:
        plot(results, args.plot)
        console.print(f"chart written to {args.plot}", markup=False)
    return 0
