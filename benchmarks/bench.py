"""`bench`: playouts per second, MCTS playouts per second and compile times, per game.

Figures (single thread):
- ``playouts_per_second``: whole random playouts from the initial position, counted in batches
  of about ``--seconds`` seconds; median (min, max) over ``--repeat`` repetitions, with the
  process CPU-time rate beside the wall-clock one (shared machines are noisy).
- ``mcts_playouts_per_second``: one search of ``--playouts`` playouts from the initial position.
- ``compile_seconds``: loading the kernels in a new process with empty numba caches (cold);
  ``warm_start_seconds``: the same in a new process with warm caches; ``warm_process_seconds``:
  that whole process, interpreter and imports included.
"""
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
from rich.progress import Progress
from rich.table import Table

import games
from frontends.common import UsageError, console, err
from mcts import MCTS, SearchConfig, Tree
from mcts.rng import new_rng
from mcts.search import load_kernels

ROOT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
                   MCTS_CACHE_DIR=os.path.join(tmp, "gen"))
        code = _LOAD_SNIPPET.format(root=ROOT_DIR, name=name, params=params)
        out = []
        for _ in range(2):
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                  text=True, check=True)
            out.append((float(proc.stdout.strip().splitlines()[-1]), time.perf_counter() - t0))
    return out[0][0], out[1][0], out[1][1]


def random_playout_rate(kernels, state, seconds, seed):
    """(wall rate, CPU rate) of whole random playouts from ``state`` over about ``seconds``."""
    rng, scratch, outcomes = new_rng(seed), state.copy(), np.zeros(4, dtype=np.int64)
    n = 16
    while True:                       # calibrate a batch of about `seconds`
        t0 = time.perf_counter()
        kernels.random_playouts(state, n, rng, scratch, outcomes)
        dt = time.perf_counter() - t0
        if dt > 0.05:
            break
        n *= 4
    n = max(1, int(n * seconds / dt))
    w0, c0 = time.perf_counter(), time.process_time()
    kernels.random_playouts(state, n, rng, scratch, outcomes)
    return n / (time.perf_counter() - w0), n / max(time.process_time() - c0, 1e-9)


def stats(values, key):
    return {key: statistics.median(values), key + "_min": min(values), key + "_max": max(values)}


def bench_game(name, params, args, progress, task):
    game = games.get(name, **params)
    kernels = load_kernels(game, log=sys.stderr)
    engine = MCTS(game, SearchConfig(seed=1, capacity=max(4 * args.playouts, 1000)), log=None)
    state = game.initial_state()
    wall, cpu, mcts = [], [], []
    for r in range(args.repeat):
        w, c = random_playout_rate(kernels, state, args.seconds, seed=r)
        wall.append(w)
        cpu.append(c)
        progress.advance(task)
        res = engine.search(state, playouts=args.playouts)
        mcts.append(res.playouts / res.seconds)
        progress.advance(task)
    cold, warm, warm_proc = compile_times(name, params)
    progress.advance(task)
    out = {"game": name, "params": game.params}
    out.update(stats(wall, "playouts_per_second"))
    out["cpu_playouts_per_second"] = statistics.median(cpu)
    out.update(stats(mcts, "mcts_playouts_per_second"))
    out.update({"mcts_playouts": args.playouts, "mcts_nodes": res.nodes,
                "bytes_per_node": Tree.NODE_BYTES, "compile_seconds": cold,
                "warm_start_seconds": warm, "warm_process_seconds": warm_proc,
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "repeat": args.repeat, **machine(), "command": " ".join(sys.argv)})
    return out


def targets(args):
    """(name, params) pairs to measure: the named games, or every game (Go at 9x9 and 19x19)."""
    names = args.games or games.names()
    out = []
    for name in names:
        if name not in games.names():
            raise UsageError(f"unknown game {name!r}; known games: {', '.join(games.names())}")
        if args.size is not None:
            out.append((name, {"size": args.size}))
        elif name == "go" and not args.games:
            out += [(name, {"size": 9}), (name, {"size": 19})]
        else:
            out.append((name, {}))
    return out


def fmt_rate(x):
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x / 1e3:.1f} k"


def spread(r, key):
    return f"{fmt_rate(r[key])}\n[dim]{fmt_rate(r[key + '_min'])}-{fmt_rate(r[key + '_max'])}[/dim]"


def show(results):
    table = Table(title="single-thread benchmark (median of repeats; min-max)")
    for col in ("game", "random playouts/s", "MCTS playouts/s", "compile s cold/warm"):
        table.add_column(col, justify="right")
    for r in results:
        label = r["game"] + "".join(f" {k}={v}" for k, v in r["params"].items())
        table.add_row(label,
                      spread(r, "playouts_per_second"), spread(r, "mcts_playouts_per_second"),
                      f"{r['compile_seconds']:.2f} / {r['warm_start_seconds']:.2f}")
    console.print(table)
    m = machine()
    console.print(f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, numba "
                  f"{m['numba_version']}, numpy {m['numpy_version']}; "
                  f"{Tree.NODE_BYTES} bytes per tree node")


def main(args):
    """Run the `bench` command (args from cli.py); returns the exit status."""
    todo = []
    for name, params in targets(args):
        try:
            games.get(name, **params)
        except TypeError:
            params = {}
        except ValueError as e:
            raise UsageError(str(e)) from None
        todo.append((name, params))
    results = []
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(todo) * (2 * args.repeat + 1))
        for name, params in todo:
            progress.update(task, description=f"benchmarking {name}")
            results.append(bench_game(name, params, args, progress, task))
    if args.json:
        for r in results:
            print(json.dumps(r))
    else:
        show(results)
    return 0
