"""Shared pieces of the conformance checks: limits and tolerances, problem collection."""

import numpy as np

from games.contract import (DRAW, ENDED, FIRST_WINS, ILLEGAL, ONGOING, SECOND_WINS)

STATUSES = (ONGOING, FIRST_WINS, SECOND_WINS, DRAW, ENDED)
STATUS_NAMES = {ILLEGAL: "ILLEGAL", ONGOING: "ONGOING", FIRST_WINS: "FIRST_WINS",
                SECOND_WINS: "SECOND_WINS", DRAW: "DRAW", ENDED: "ENDED"}

RANDOM_GAMES = 20             # seeded random games; the first CHECKED_GAMES try every move
CHECKED_GAMES = 5
MAX_ACTIONS_PER_PLY = 2000    # legal actions tried per ply (an even spread beyond that)
PLAYOUTS = 2000               # playouts per position when comparing rollouts
Z_TOLERANCE = 5.0             # standard errors allowed between two result rates ...
ABS_TOLERANCE = 0.02          # ... plus this absolute margin

SEARCH_PLAYOUTS = 200
SUBPROCESS_SECONDS = 1800     # the plain-Python search of a big game is slow, but not this slow
STDERR_LINES = 8              # lines of the plain-Python run's stderr shown when it fails


def _status_name(st) -> str:
    return f"{STATUS_NAMES[st]} ({st})" if st in STATUS_NAMES else str(st)


class _Problems:
    """The problems of one check, one message per kind: the words of the first occurrence,
    then "(and N more like it)" for the others (the same fault at other plies or seeds)."""

    def __init__(self):
        self._first, self._more = {}, {}

    def add(self, kind, message):
        if kind in self._first:
            self._more[kind] += 1
        else:
            self._first[kind], self._more[kind] = message, 0

    def __contains__(self, kind):
        return kind in self._first

    def __bool__(self):
        return bool(self._first)

    def messages(self) -> list:
        return [m + (f" (and {self._more[k]} more like it)" if self._more[k] else "")
                for k, m in self._first.items()]


def _spread(items, most):
    """``items`` if there are at most ``most``, else ``most`` of them evenly spread (the first
    and the last included)."""
    if len(items) <= most:
        return items
    return [items[i] for i in np.unique(np.linspace(0, len(items) - 1, most).astype(np.int64))]


def _needs_generated_loop(game) -> bool:
    """True if the search plays some playouts with the generated playout_action loop (the game
    lacks a hand-written rollout or rollout_record)."""
    from mcts.codegen import provided_kernels
    return not {"rollout", "rollout_record"} <= provided_kernels(game.kernel_module)
