"""Loading the compiled search of a game: compile it when its sources changed (saying so), else
load it from numba's disk cache, and run every kernel once so that nothing compiles later."""
import sys
import time

import numba
import numpy as np

from games.rng import new_rng
from mcts import codegen, portable
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
    if first and log is not None:
        print(f"compiling the search and the kernels of {module} (first run, or their sources "
              "changed) …", file=log, flush=True)
    t0 = time.perf_counter()
    k = codegen.load(module)
    if shipped:
        portable.unpack(k, game)
    _warm_up(k, game)
    game.warm_up()                          # the game's other compiled helpers (scoring, ...)
    if first or shipped:
        codegen.mark_compiled(module)
    if first and log is not None:
        print(f"compiled in {time.perf_counter() - t0:.1f} s", file=log, flush=True)
    return k


def _warm_up(k, game):
    """Run every kernel once on tiny inputs so that compiling or cache loading happens now."""
    w = _Worker(game, 2)
    state = game.initial_state()
    w.tree.reset(int(k.status(state)), 1 - int(k.to_play(state)))
    params = Params(**dict.fromkeys(Params._fields, 0.0))._replace(
        exploration=1.0, solver=1.0, rave_k=1000.0, solve_from=1.0, no_amaf=float(NO_ACTION),
        solve_cap=4.0e18)
    for learned in ((0.0, 1.0) if k.HAS_FEATURES else (0.0,)):
        for rave in (1.0, 0.0):
            params = params._replace(learned=learned, rave=rave)
            w.tree.reset(int(k.status(state)), 1 - int(k.to_play(state)))
            k.run_playouts(state, 1, params, new_rng(0), w.tree.arrays, w.work)
    k.random_playouts(state, 1, new_rng(0), state.copy(), np.zeros(4, dtype=np.int64))
    if k.HAS_FEATURES:
        k.learned_playouts(state, 1, new_rng(0), w.work, np.zeros(4, dtype=np.int64))
    w.tree.reroot(ROOT)                     # compiles re-rooting (mcts.tree) for tree reuse
    if k.HAS_KEY:
        keyed = _Worker(game, 4, keyed=True).tree
        keyed.reset(int(k.status(state)), 1 - int(k.to_play(state)))
        keyed.reroot(ROOT)                  # compiles the table's renumbering
    k.legal_actions(state, w.work.buf)
    k.apply_action(state.copy(), int(w.work.buf[0]))
