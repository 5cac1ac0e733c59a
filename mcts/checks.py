"""Checks of a search's settings that need no compiled code (front ends call them before the
kernels load): the tree fits in memory, the threads are sensible, the playout weights fit."""
import os

import numpy as np

from mcts import codegen
from mcts.config import PRIOR_STATS
from mcts.tree import Tree


def check_config(game, config):
    """``ValueError`` (one line) if ``config`` cannot search ``game``: fewer than one thread,
    an unknown RAVE schedule, prior placement or way of sharing the threads, a RAVE k that is not positive and finite, a
    RAVE distance weight outside 0-100 (AMAF counts are int32),
    a solver budget that is negative, not finite, or for a game without an exact solver,
    an expansion threshold below one visit,
    last good replies for a game without a ``rollout_replies`` kernel,
    a tree too small for one expansion per thread, or one larger than 90 % of this machine's
    RAM (saying how much it would need). Needs no compiled code: front ends call it before
    the kernels load."""
    t = config.threads
    if t < 1:
        raise ValueError("threads must be at least 1")
    if config.capacity // t < game.num_actions + 1:
        raise ValueError(f"a tree capacity of {config.capacity} nodes is too small for "
                         f"{game.name} with {t} thread(s): give at least "
                         f"{(game.num_actions + 1) * t} nodes")
    check_weights(game, config.playout_weights)
    kernels = codegen.provided_kernels(game.kernel_module)
    if config.rave_schedule not in (None, "hand", "mse"):
        raise ValueError(f"rave_schedule must be 'hand' or 'mse', not {config.rave_schedule!r}")
    if config.parallel not in (None, "tree", "root"):
        raise ValueError(f"parallel must be 'tree' or 'root', not {config.parallel!r}")
    if config.prior_stats not in (None, *PRIOR_STATS):
        raise ValueError(f"prior_stats must be 'amaf', 'value' or 'both', not "
                         f"{config.prior_stats!r}")
    if config.rave_distance is not None and not 0 <= config.rave_distance <= 100:
        raise ValueError(f"rave_distance must be a number from 0 to 100, not "
                         f"{config.rave_distance}")
    if config.rave_ref is not None and (int(config.rave_ref) != config.rave_ref
                                        or config.rave_ref < 0):
        raise ValueError(f"rave_ref must be a whole number from 0 up, not {config.rave_ref}")
    if config.rave_k is not None and not 0 < config.rave_k < float("inf"):
        raise ValueError(f"rave_k must be a positive number, not {config.rave_k}")
    if config.solve_nodes is not None and not 0 <= config.solve_nodes < float("inf"):
        raise ValueError(f"solve_nodes must be a number from 0 up, not {config.solve_nodes}")
    if config.solve_nodes and "solve" not in kernels:
        raise ValueError(f"{game.name} has no exact solver: a solver budget (solve_nodes, "
                         "--solve-nodes) applies to games with a solve kernel only")
    if config.replies and "rollout_replies" not in kernels:
        raise ValueError(f"{game.name} has no playouts with last good replies (a "
                         "rollout_replies kernel): --last-good-reply does not apply")
    if config.expand_visits is not None and (int(config.expand_visits) != config.expand_visits
                                             or config.expand_visits < 1):
        raise ValueError(f"expand_visits must be a whole number from 1 up, not "
                         f"{config.expand_visits}")
    if config.criticality is not None and not 0 <= config.criticality <= 3:
        raise ValueError(f"criticality must be a number from 0 to 3, not {config.criticality}")
    if config.criticality and "owner" not in kernels:
        raise ValueError(f"{game.name} names no owner of a point (an owner kernel): "
                         "--criticality does not apply")
    if config.score_bonus is not None and not 0 <= config.score_bonus <= 0.5:
        raise ValueError(f"score_bonus must be a number from 0 to 0.5, not {config.score_bonus}")
    if config.score_bonus and "score" not in kernels:
        raise ValueError(f"{game.name} gives no final score (a score kernel): --score-bonus "
                         "does not apply")
    if not 0 <= config.criticality_visits < float("inf"):
        raise ValueError(f"criticality_visits must be a number from 0 up, not "
                         f"{config.criticality_visits}")
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
