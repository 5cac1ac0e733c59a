"""Checks of a search's settings that need no compiled code (front ends call them before the
kernels load): the tree fits in memory, the threads are sensible, the playout weights fit."""
import os

import numpy as np

from mcts import codegen
from mcts.config import OPTIONS
from mcts.tree import Tree


def check_config(game, config):
    """``ValueError`` (one line) if ``config`` cannot search ``game``: an option outside its
    declared type, bounds or choices (mcts.config.OPTIONS, :meth:`Option.parse`), a solver
    budget for a game without an exact solver, playout weights that do not fit, a tree too
    small for one expansion per thread, or one larger than 90 % of this machine's RAM (saying
    how much it would need). Needs no compiled code: front ends call it before the kernels
    load."""
    for o in OPTIONS:
        value = getattr(config, o.name, None)
        if value is not None:
            o.parse(value)
    t = config.threads
    if config.capacity // t < game.num_actions + 1:
        raise ValueError(f"a tree capacity of {config.capacity} nodes is too small for "
                         f"{game.name} with {t} thread(s): give at least "
                         f"{(game.num_actions + 1) * t} nodes")
    check_weights(game, config.playout_weights)
    kernels = codegen.provided_kernels(game.kernel_module)
    if config.solve_nodes and "solve" not in kernels:
        raise ValueError(f"{game.name} has no exact solver: a solver budget (solve_nodes, "
                         "--solve-nodes) applies to games with a solve kernel only")
    keyed = "position_key" in kernels
    need, have = config.capacity * Tree.bytes_per_node(keyed), _physical_memory()
    if have and need > 0.9 * have:
        raise ValueError(f"a tree of {config.capacity:,} nodes needs {need / 2**30:.1f} "
                         f"GiB, more than this machine's {have / 2**30:.1f} GiB: give "
                         "fewer nodes")


def check_weights(game, weights):
    """``ValueError`` (one line) unless ``weights`` is None or a finite float vector of
    ``game.num_features`` entries for a game with a ``move_features`` kernel."""
    if weights is None:
        return
    if "move_features" not in codegen.provided_kernels(game.kernel_module) or not game.num_features:
        raise ValueError(f"{game.name} describes no move features: it has no learned playouts")
    w = np.asarray(weights)
    if w.shape != (game.num_features,) or not np.all(np.isfinite(w)):
        raise ValueError(f"playout weights for {game.name} must be {game.num_features} finite "
                         f"numbers, got shape {w.shape}")


def _physical_memory() -> int:
    """Bytes of RAM on this machine, or 0 if the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0
