"""The AI player as the command line describes it: built once, passed down to every front end.

:class:`PlayerConfig` gathers what each searching command (`play`, `analyze`, `gtp`, `match`,
`bench`) turns the command line into: the search settings (a :class:`mcts.SearchConfig`), the
budget per move, the resignation rule and pondering. :class:`Resigner` is the one resignation
rule every front end applies. :class:`PendingEngine` builds an engine in the background while
its front end shows the board.
"""
import os
import sys
import threading

import numba
from numba.core.errors import NumbaError

from frontends.common import DEFAULT_SECONDS, UsageError, compile_error
from mcts import codegen, portable
from mcts.checks import check_config
from mcts.config import BY_NAME, OPTIONS


_WEIGHTS = {}       # (path, game class) -> weights read


class PlayerConfig:
    """How the AI plays.

    search: the search options given (mcts.config.OPTIONS by name: seed, threads, rave, ...;
        those left out keep the game's or the engine's default); also readable as
        attributes (``config.seed``; None for an option not given). ``threads`` defaults to
        all cores.
    playouts / seconds: the budget per move; playouts wins when both are set.
    resign_threshold: resign when the win estimate stays below it for two moves (0: never).
    ponder: search during the opponent's turn (GTP), stopped by the next command.
    playout_weights: a weights file of `train`: playouts use its learned policy.
    ``TypeError`` for a keyword that is neither.
    """

    def __init__(self, playouts=None, seconds=DEFAULT_SECONDS, resign_threshold=0.1,
                 ponder=False, playout_weights=None, **search):
        unknown = sorted(set(search) - set(BY_NAME))
        if unknown:
            raise TypeError(f"PlayerConfig has no option {', '.join(unknown)}")
        self.search = {k: v for k, v in search.items() if v is not None}
        self.search.setdefault("threads", os.cpu_count() or 1)
        self.playouts, self.seconds = playouts, seconds
        self.resign_threshold, self.ponder = resign_threshold, ponder
        self.playout_weights = playout_weights

    def __getattr__(self, name):
        if name in BY_NAME:
            return self.search.get(name, BY_NAME[name].default if name == "seed" else None)
        raise AttributeError(name)

    def replace(self, **changes) -> "PlayerConfig":
        """A copy with ``changes`` (budget, resignation, pondering, weights or options; an
        option set to None returns to its default)."""
        kw = {"playouts": self.playouts, "seconds": self.seconds,
              "resign_threshold": self.resign_threshold, "ponder": self.ponder,
              "playout_weights": self.playout_weights, **self.search}
        kw.update(changes)
        return PlayerConfig(**kw)

    @classmethod
    def from_args(cls, args, threads=None):
        """The configuration given by parsed command-line ``args`` (missing flags keep their
        defaults); ``threads`` is the default thread count of the command (default: all
        cores)."""
        def get(name, default=None):
            value = getattr(args, name, None)
            return default if value is None else value
        search = {o.name: get(o.dest) for o in OPTIONS if o.flag is not None}
        search["threads"] = get("threads", threads or os.cpu_count() or 1)
        return cls(playouts=get("playouts"), seconds=get("seconds", DEFAULT_SECONDS),
                   resign_threshold=get("resign_threshold", 0.1), ponder=get("ponder", False),
                   playout_weights=get("playout_weights"), **search)

    @property
    def budget(self):
        """Keyword arguments of :meth:`mcts.MCTS.search` for one move."""
        return {"playouts": self.playouts} if self.playouts else {"seconds": self.seconds}

    def search_config(self, game, seed=None):
        """The :class:`mcts.SearchConfig` for ``game`` (the playout weights are read for it:
        ``UsageError`` if they do not fit)."""
        from mcts import SearchConfig
        config = SearchConfig(**self.search, playout_weights=self.weights(game))
        if seed is not None:
            config.seed = seed
        return config

    def weights(self, game):
        """The playout weights for ``game`` (float64 (num_features,)) or None; read once per
        file and game class; ``UsageError`` (one line) for a bad or unfitting file."""
        if self.playout_weights is None:
            return None
        key = (os.path.abspath(self.playout_weights), type(game))
        if key not in _WEIGHTS:
            from mcts.search import check_weights
            from mcts.train import load_weights
            from frontends.argtypes import check_input_file
            try:
                check_input_file(self.playout_weights)      # no FIFO, device or folder
            except ValueError as e:                         # ArgumentTypeError is one
                raise UsageError(f"--playout-weights: {e}") from None
            try:
                _WEIGHTS[key] = load_weights(self.playout_weights, game)
                check_weights(game, _WEIGHTS[key])
            except ValueError as e:
                raise UsageError(f"--playout-weights: {e}") from None
        return _WEIGHTS[key]

    def engine(self, game, log=sys.stderr, seed=None):
        """An :class:`mcts.MCTS` for ``game`` with these settings; ``UsageError`` (one line)
        for a tree that does not fit in memory or kernels that do not compile."""
        from mcts import MCTS
        try:
            return MCTS(game, self.search_config(game, seed), log=log)
        except ValueError as e:
            raise UsageError(str(e)) from None
        except NumbaError as e:
            raise UsageError(compile_error(game.name, e)) from None


def needs_compiling(game):
    """True if loading ``game``'s kernels means compiling them (edited sources, or a first run
    that the shipped cache of :mod:`mcts.portable` does not cover: seconds to tens of seconds);
    False if their compiled code is on disk (about half a second)."""
    return (not numba.config.DISABLE_JIT and not codegen.is_compiled(game.kernel_module)
            and not portable.available(game))


class PendingEngine:
    """``config.engine(game)``, built in a background thread when the game's kernels are
    compiled already (loading them takes about half a second: a prompt can show meanwhile),
    else at once (the compilation says so on stderr before anything else; a game whose kernels
    do not compile is refused before the game, and so is a setting that cannot search it,
    ``UsageError``). :meth:`get` waits for the engine and raises what building it raised."""

    def __init__(self, config, game):
        try:
            check_config(game, config.search_config(game))      # needs no compiled code
        except ValueError as e:
            raise UsageError(str(e)) from None
        self._engine = self._error = None
        self._done = threading.Event()
        if not needs_compiling(game):
            threading.Thread(target=self._build, args=(config, game)).start()   # exit waits
        else:
            self._build(config, game)
            self.get()

    def _build(self, config, game):
        try:
            self._engine = config.engine(game)
        except Exception as e:              # raised again by get, in the caller's thread
            self._error = e
        finally:
            self._done.set()

    @property
    def ready(self):
        """True once the engine is built (then :meth:`get` returns at once)."""
        return self._done.is_set() and self._error is None

    def get(self):
        """The engine, once built."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._engine


class Resigner:
    """The resignation rule: resign after two moves in a row whose win estimate is below
    ``threshold`` (0 never resigns), counted for each player separately."""

    def __init__(self, threshold):
        self.threshold = float(threshold)
        self.low = {}

    def should_resign(self, player, value):
        """Record the win estimate ``value`` (0..1) of ``player``'s move; True: resign."""
        if self.threshold <= 0:
            return False
        self.low[player] = self.low.get(player, 0) + 1 if value < self.threshold else 0
        return self.low[player] >= 2

    def reset(self):
        self.low.clear()
