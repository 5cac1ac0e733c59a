"""Loading the compiled search of a game: compile it when its sources changed (saying so), else
load it from numba's disk cache, and run every kernel once so that nothing compiles later."""
import json
import sys
import threading
import time

import numba
import numpy as np

from games.rng import new_rng
from mcts import codegen, portable
from mcts.chance import root_mover
from mcts.config import Params
from mcts.tree import NO_ACTION, ROOT, Tree, new_workspace


class _Worker:
    """A search thread's tree (its own, or ``tree`` shared with other threads), scratch
    buffers and generator."""

    def __init__(self, game, capacity, keyed=False, weights=None, tree=None):
        self.tree = tree if tree is not None else Tree(capacity, keyed)
        self.work = new_workspace(game, weights)
        self.rng = new_rng(0)


def load_kernels(game, log=sys.stderr):
    """The compiled search module for ``game``, compiling (and announcing it on ``log``) when
    no compiled code matches the current sources: a first run, or an edit of the game, its
    helpers, the contract, the RNG or the search template. The game's own compiled helpers
    beyond the kernels (``Game.warm_up``: Go's scoring, say) are compiled or loaded here too,
    so that no first move pays for them."""
    module = game.kernel_module
    shipped = portable.select(game)         # the shipped portable code, if it fits
    first = not shipped and not codegen.is_compiled(module) and not numba.config.DISABLE_JIT
    t0 = time.perf_counter()
    k = codegen.load(module)                # the generated module: imports, no compile yet
    if shipped and not portable.unpack(k, game, log):
        shipped, first = False, not numba.config.DISABLE_JIT    # compiles after all
    with _Announcement(module, log if first else None):
        _warm_up(k, game)
        game.warm_up()                      # the game's other compiled helpers (scoring, ...)
    if first or shipped:
        codegen.mark_compiled(module)       # (on the portable target after a failed unpack)
    if first:
        _remember_seconds(module, time.perf_counter() - t0)
    return k


def _seconds_file():
    return codegen.cache_dir() / "compile-seconds.json"


def _remember_seconds(module, seconds):
    """Keep how long ``module``'s compile took on this machine (the next estimate)."""
    try:
        known = json.loads(_seconds_file().read_text())
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    known[module] = round(seconds, 1)
    try:
        codegen._atomic_write(_seconds_file(), json.dumps(known, sort_keys=True))
    except OSError:
        pass


def estimate_seconds(module):
    """Seconds a compile of ``module``'s search should take here: the last one on this
    machine, else the shipped cache's build (:mod:`mcts.portable`), else None."""
    for source in (_seconds_file, portable.manifest_path):
        try:
            found = json.loads(source().read_bytes()[:1 << 20])
            seconds = found.get(module) if source is _seconds_file else \
                found["compile_seconds"].get(module)
        except (OSError, ValueError, AttributeError, KeyError, TypeError):
            continue
        if isinstance(seconds, (int, float)) and 0 < seconds < 3600:
            return float(seconds)
    return None


class _Announcement:
    """Says on ``log`` (None: silent) that ``module`` compiles, about how long it takes and,
    on a terminal, shows the time elapsed against that estimate (rich's progress bar); then
    how long it took."""

    def __init__(self, module, log):
        self.module, self.log, self.stop = module, log, threading.Event()

    def __enter__(self):
        if self.log is None:
            return self
        self.t0 = time.perf_counter()
        guess = estimate_seconds(self.module)
        self.guess = guess
        about = f"about {guess:.0f} s" if guess else "a first compile takes 5-60 s"
        print(f"compiling the search and the kernels of {self.module} (first run, or their "
              f"sources changed; {about}) …", file=self.log, flush=True)
        if guess and getattr(self.log, "isatty", lambda: False)():
            self.thread = threading.Thread(target=self._show, daemon=True)
            self.thread.start()
        return self

    def _show(self):
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
        columns = (TextColumn("compiling"), BarColumn(), TimeElapsedColumn(),
                   TextColumn(f"of about {self.guess:.0f} s"))
        with Progress(*columns, console=Console(file=self.log), transient=True) as bar:
            task = bar.add_task("compile", total=self.guess)
            while not self.stop.wait(0.25):
                bar.update(task, completed=min(time.perf_counter() - self.t0,
                                               0.99 * self.guess))

    def __exit__(self, kind, value, tb):
        if self.log is None:
            return False
        self.stop.set()
        if getattr(self, "thread", None) is not None:
            self.thread.join()
        if kind is None:
            print(f"compiled in {time.perf_counter() - self.t0:.1f} s", file=self.log,
                  flush=True)
        return False


def _warm_up(k, game):
    """Run every kernel once on tiny inputs so that compiling or cache loading happens now."""
    w = _Worker(game, 2, weights=np.zeros(game.num_features) if k.HAS_FEATURES else None)
    state = game.initial_state()
    mover = root_mover(game, int(k.to_play(state)))
    w.tree.reset(int(k.status(state)), mover)
    params = Params(**dict.fromkeys(Params._fields, 0.0))._replace(
        exploration=1.0, solver=1.0, rave_k=1000.0, solve_from=1.0, no_amaf=float(NO_ACTION),
        solve_cap=4.0e18)
    for learned in ((0.0, 1.0) if k.HAS_FEATURES else (0.0,)):
        for rave in (1.0, 0.0):
            params = params._replace(learned=learned, rave=rave)
            w.tree.reset(int(k.status(state)), mover)
            k.run_playouts(state, 1, params, new_rng(0), w.tree.arrays, w.work)
    k.random_playouts(state, 1, new_rng(0), state.copy(), np.zeros(5, dtype=np.int64))
    if k.HAS_FEATURES:
        k.learned_playouts(state, 1, new_rng(0), w.work, np.zeros(5, dtype=np.int64))
    w.tree.reroot(ROOT)                     # compiles re-rooting (mcts.tree) for tree reuse
    if k.HAS_KEY:
        keyed = _Worker(game, 4, keyed=True).tree
        keyed.reset(int(k.status(state)), mover)
        keyed.reroot(ROOT)                  # compiles the table's renumbering
    k.legal_actions(state, w.work.buf)
    k.apply_action(state.copy(), int(w.work.buf[0]))
