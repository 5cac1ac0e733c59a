"""Pieces shared by the terminal front ends: consoles, game and engine construction, budgets."""
import os
import sys

from rich.console import Console

import games

DEFAULT_SECONDS = 1.0
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


class UsageError(Exception):
    """A bad flag value or game parameter: reported in one line, exit status 2."""


def make_game(args):
    params = {k: getattr(args, k) for k in ("size", "komi", "handicap", "playout_policy", "priors")
              if getattr(args, k, None) is not None}
    try:
        return games.get(args.game, **params)
    except TypeError:
        raise UsageError(f"{args.game} takes no parameter "
                         f"{', '.join('--' + k.replace('_', '-') for k in params)}") from None
    except ValueError as e:
        raise UsageError(str(e)) from None


def make_engine(game, args):
    from mcts import MCTS, SearchConfig
    config = SearchConfig(seed=args.seed)
    if args.exploration is not None:
        config.exploration = args.exploration
    if args.nodes is not None:
        config.capacity = args.nodes
    config.threads = args.threads or os.cpu_count() or 1
    config.rave = getattr(args, "rave", None)
    config.rave_k = getattr(args, "rave_k", config.rave_k)
    try:
        return MCTS(game, config, log=sys.stderr)
    except ValueError as e:
        raise UsageError(str(e)) from None


def go_options(args):
    """The Go parameters beyond size and komi given on the command line (playout policy,
    priors), as keyword arguments of :class:`games.go.Go`."""
    return {k: getattr(args, k) for k in ("playout_policy", "priors")
            if getattr(args, k, None) is not None}


def budget_of(args):
    if args.playouts is not None:
        return {"playouts": args.playouts}
    return {"seconds": args.seconds or DEFAULT_SECONDS}
