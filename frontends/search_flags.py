"""The command-line flags that several commands share: the game, the search's budget and
settings, learned playout weights. They are parsed once here and become the fields of
``mcts.SearchConfig`` in :meth:`frontends.player.Player.search_config`; a flag left out keeps the
game's default (``games.contract.Game``)."""
import argparse

from frontends.argtypes import (criticality, non_negative_float, non_negative_int,
                                positive_float, positive_int, rave_distance, score_bonus)
from frontends.common import DEFAULT_SECONDS


def add_game_arg(p):
    p.add_argument("game", help="game name (see `list`); `COMMAND GAME --help` also lists the "
                                "game's parameters")


def add_search_args(p, default_seconds=None):
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=positive_int, help="playouts per search")
    budget.add_argument("--seconds", type=positive_float,
                        help=f"seconds per search (default {default_seconds or DEFAULT_SECONDS})")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--exploration", type=non_negative_float,
                   help="UCT exploration constant c (0: none, e.g. with RAVE and priors)")
    p.add_argument("--nodes", type=positive_int, help="tree capacity in nodes")
    p.add_argument("--threads", type=positive_int,
                   help="search threads (default: all cores; 1 for exactly reproducible "
                        "time-limited searches)")
    p.add_argument("--parallel", choices=("tree", "root"),
                   help="how threads share the search: one shared tree with virtual loss, or "
                        "a tree each, summed at the root (default: tree, root for a game "
                        "whose transposition table is in use, Connect Four)")
    p.add_argument("--rave", action=argparse.BooleanOptionalAction, default=None,
                   help="RAVE / all-moves-as-first statistics (default: on for Go, off for "
                        "other games)")
    p.add_argument("--rave-k", type=positive_float,
                   help="RAVE equivalence parameter k (default: the game's; 1000 unless it "
                        "says otherwise)")
    p.add_argument("--rave-schedule", choices=("hand", "mse"),
                   help="RAVE weight schedule: hand (Gelly and Silver 2007) or mse (minimum "
                        "error, Gelly and Silver 2011) (default: the game's)")
    p.add_argument("--rave-distance", type=rave_distance,
                   help="0 to 100: AMAF weight 1 + floor(D x earliness) of a move played soon "
                        "after a node, earliness in (0, 1), so D below 1 changes nothing "
                        "(Pachi's distance_rave) (default: the game's, 0)")
    p.add_argument("--rave-ref", type=non_negative_int, metavar="R",
                   help="GRAVE: a node with fewer than R simulations chooses with the AMAF "
                        "statistics of the nearest node above it that has R and where the "
                        "same player moves (Cazenave 2015) (default: the game's, 0: off)")
    p.add_argument("--rave-first-play", action=argparse.BooleanOptionalAction, default=None,
                   help="AMAF counts a move only when its player was the first to play it "
                        "(MoGo's rule) (default: the game's)")
    p.add_argument("--prior-stats", choices=("amaf", "value", "both"),
                   help="where a game's prior knowledge counts: as AMAF playouts, as the "
                        "move's own playouts, or both (default: the game's; without RAVE only "
                        "'value' and 'both' use them)")
    p.add_argument("--transpositions", action=argparse.BooleanOptionalAction, default=None,
                   help="share the statistics of positions reached by different move orders "
                        "(default: on for games with a position key, such as Connect Four)")
    p.add_argument("--early-stop", action=argparse.BooleanOptionalAction, default=None,
                   help="with a time budget, stop once the most visited move cannot be "
                        "overtaken in the time left (default: on)")
    p.add_argument("--last-good-reply", action=argparse.BooleanOptionalAction, default=None,
                   help="playouts try first the last good reply to the last moves, learned "
                        "from the simulations won and forgotten after those lost (LGRF-2, "
                        "Baier and Drake 2010) (default: the game's)")
    p.add_argument("--expand-visits", type=positive_int, metavar="N",
                   help="a tree node gets its children once it has N visits (default: the "
                        "game's; 1 unless it says otherwise)")
    p.add_argument("--criticality", type=criticality, metavar="W",
                   help="0 to 3: a move's RAVE value leans towards winning by W times the "
                        "covariance of owning its point at the end and winning, once it has "
                        "more than --criticality-visits visits (Coulom 2009; Pachi's crit_rave "
                        "1.1) (default: the game's, 0: off)")
    p.add_argument("--criticality-visits", type=non_negative_float, metavar="N",
                   help="visits a move needs before its criticality counts (default 2000, "
                        "Pachi's)")
    p.add_argument("--score-bonus", type=score_bonus, metavar="B",
                   help="0 to 0.5: a playout's reward is (1 - B) x win + B x its final margin "
                        "scaled to 0..1, so that won or lost positions still play for points "
                        "(Fuego's score modification, 0.02 there) (default: the game's, 0: "
                        "off)")
    p.add_argument("--solve-nodes", type=non_negative_float, metavar="N",
                   help="for games with an exact solver (Connect Four): its budget in nodes "
                        "per visit of a tree node (0: off; default: the game's)")
    add_weights_arg(p)
    return budget


def add_weights_arg(p):
    p.add_argument("--playout-weights", metavar="FILE.npz",
                   help="playouts use the learned policy of these weights (from `train`) "
                        "instead of the game's own")
