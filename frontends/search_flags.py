"""The command-line flags that several commands share: the game, the search's budget, and a
flag per search option of ``mcts.config.OPTIONS`` (its type, bounds, choices and help come
from the declaration). They become a :class:`mcts.SearchConfig` in
:meth:`frontends.player.PlayerConfig.search_config`; a flag left out keeps the game's default
(``Game.search_defaults``) or the engine's."""
import argparse

from frontends.argtypes import from_declaration, positive_float, positive_int
from frontends.common import DEFAULT_SECONDS
from mcts.config import BY_NAME, OPTIONS


def add_game_arg(p):
    p.add_argument("game", help="game name (see `list`); `COMMAND GAME --help` also lists the "
                                "game's parameters")


def add_search_args(p, default_seconds=None):
    """The budget (``--playouts`` or ``--seconds``, returned as their group), a flag per
    search option, and ``--playout-weights``."""
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=positive_int, help="playouts per search")
    budget.add_argument("--seconds", type=positive_float,
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
    p.add_argument("--playout-weights", metavar="FILE.npz",
                   help="playouts use the learned policy of these weights (from `train`) "
                        "instead of the game's own")
