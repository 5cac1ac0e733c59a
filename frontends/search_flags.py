"""The command-line flags that several commands share: the game, the search's budget, and a
flag per search option of ``mcts.config.OPTIONS`` (its type, bounds, choices and help come
from the declaration). They become a :class:`mcts.SearchConfig` in
:meth:`frontends.player.PlayerConfig.search_config`; a flag left out keeps the game's default
(``Game.search_defaults``) or the engine's."""
import argparse
import os

from frontends.argtypes import (THREADS_PER_CORE, core_cap, from_declaration, input_file,
                                search_playouts, search_seconds)
from frontends.common import DEFAULT_SECONDS, err
from mcts.config import BY_NAME, OPTIONS


def add_game_arg(p):
    p.add_argument("game", help="game name (see `list`); `COMMAND GAME --help` also lists the "
                                "game's parameters")


def add_search_args(p, default_seconds=None):
    """The budget (``--playouts`` or ``--seconds``, returned as their group), a flag per
    search option, and ``--playout-weights``."""
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=search_playouts, help="playouts per search")
    budget.add_argument("--seconds", type=search_seconds,
                        help=f"seconds per search (default {default_seconds or DEFAULT_SECONDS})")
    for o in OPTIONS:
        if o.flag is None:
            continue
        if o.type is bool:
            p.add_argument(o.flag, action=argparse.BooleanOptionalAction, default=None,
                           help=f"{o.help} (default: on)" if o.default and not o.per_game
                           else o.help)
        else:
            p.add_argument(o.flag, type=from_declaration(o),
                           metavar=o.metavar or ("{" + ",".join(o.choices) + "}" if o.choices
                                                 else o.dest.upper()),
                           help=o.help)
    p.set_defaults(seed=BY_NAME["seed"].default)   # matches and arenas seed game i with seed + i
    add_weights_arg(p)
    return budget


def add_weights_arg(p):
    p.add_argument("--playout-weights", metavar="FILE.npz", type=input_file(),
                   help="playouts use the learned policy of these weights (from `train`) "
                        "instead of the game's own")


_noted = set()          # notes given once per process (arena parses A's flags twice)


def cap_threads(args):
    """``--threads``, and ``--workers`` run as local processes (not on Ray), above
    :func:`frontends.argtypes.core_cap` become that cap, with a one-line note on stderr:
    more threads than cores only cost memory (each has its own workspace) and switching."""
    cap = core_cap()
    for dest in ("threads", "workers"):
        value = getattr(args, dest, None)
        if value is None or value <= cap or (dest == "workers" and getattr(args, "ray", None)):
            continue
        note = (f"note: --{dest} {value:,} is more than {THREADS_PER_CORE} per core (this "
                f"machine has {os.cpu_count() or 1}): using {cap}")
        if note not in _noted:
            _noted.add(note)
            err.print(note)
        setattr(args, dest, cap)
