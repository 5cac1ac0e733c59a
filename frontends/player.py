"""The AI player as the command line describes it: built once, passed down to every front end.

:class:`PlayerConfig` gathers what each searching command (`play`, `analyze`, `gtp`, `match`,
`bench`) turns the command line into: the search settings (a :class:`mcts.SearchConfig`), the
budget per move, the resignation rule and pondering. :class:`Resigner` is the one resignation
rule every front end applies.
"""
import dataclasses
import os
import sys

from numba.core.errors import NumbaError

from frontends.common import DEFAULT_SECONDS, UsageError, compile_error


_WEIGHTS = {}       # (path, game class) -> weights read


@dataclasses.dataclass(frozen=True)
class PlayerConfig:
    """How the AI plays.

    seed: seeds the search (and a match's games: seed + game index).
    threads: search threads; default all cores.
    parallel, exploration, capacity (tree nodes), rave, rave_k, rave_schedule, rave_distance,
    rave_first_play, rave_ref, prior_stats,
    transpositions, solve_nodes, early_stop, expand_visits, criticality, criticality_visits,
    score_bonus, last_good_reply (SearchConfig.replies):
        :class:`mcts.SearchConfig`
        fields; None keeps the search's or the game's default.
    playouts / seconds: the budget per move; playouts wins when both are set.
    resign_threshold: resign when the win estimate stays below it for two moves (0: never).
    ponder: search during the opponent's turn (GTP), stopped by the next command.
    playout_weights: a weights file of `train`: playouts use its learned policy.
    """
    seed: int = 0
    threads: int = dataclasses.field(default_factory=lambda: os.cpu_count() or 1)
    parallel: str = None
    exploration: float = None
    capacity: int = None
    rave: bool = None
    rave_k: float = None
    rave_schedule: str = None
    rave_distance: float = None
    rave_first_play: bool = None
    rave_ref: int = None
    prior_stats: str = None
    transpositions: bool = None
    solve_nodes: float = None
    early_stop: bool = None
    last_good_reply: bool = None
    expand_visits: int = None
    criticality: float = None
    criticality_visits: float = None
    score_bonus: float = None
    playouts: int = None
    seconds: float = DEFAULT_SECONDS
    resign_threshold: float = 0.1
    ponder: bool = False
    playout_weights: str = None

    @classmethod
    def from_args(cls, args, threads=None):
        """The configuration given by parsed command-line ``args`` (missing flags keep their
        defaults); ``threads`` is the default thread count of the command (default: all
        cores)."""
        def get(name, default=None):
            value = getattr(args, name, None)
            return default if value is None else value
        return cls(seed=get("seed", 0),
                   threads=get("threads", threads or os.cpu_count() or 1),
                   parallel=get("parallel"),
                   exploration=get("exploration"), capacity=get("nodes"), rave=get("rave"),
                   rave_k=get("rave_k"), rave_schedule=get("rave_schedule"),
                   rave_distance=get("rave_distance"), rave_first_play=get("rave_first_play"),
                   rave_ref=get("rave_ref"),
                   prior_stats=get("prior_stats"), transpositions=get("transpositions"),
                   solve_nodes=get("solve_nodes"), early_stop=get("early_stop"),
                   last_good_reply=get("last_good_reply"), expand_visits=get("expand_visits"),
                   criticality=get("criticality"),
                   criticality_visits=get("criticality_visits"),
                   score_bonus=get("score_bonus"),
                   playouts=get("playouts"),
                   seconds=get("seconds", DEFAULT_SECONDS),
                   resign_threshold=get("resign_threshold", 0.1), ponder=get("ponder", False),
                   playout_weights=get("playout_weights"))

    @property
    def budget(self):
        """Keyword arguments of :meth:`mcts.MCTS.search` for one move."""
        return {"playouts": self.playouts} if self.playouts else {"seconds": self.seconds}

    def search_config(self, game, seed=None):
        """The :class:`mcts.SearchConfig` for ``game`` (the playout weights are read for it:
        ``UsageError`` if they do not fit)."""
        from mcts import SearchConfig
        config = SearchConfig(seed=self.seed if seed is None else seed, threads=self.threads,
                              parallel=self.parallel, rave=self.rave, rave_k=self.rave_k,
                              rave_schedule=self.rave_schedule,
                              rave_distance=self.rave_distance,
                              rave_first_play=self.rave_first_play, rave_ref=self.rave_ref,
                              prior_stats=self.prior_stats,
                              solve_nodes=self.solve_nodes, replies=self.last_good_reply,
                              criticality=self.criticality, score_bonus=self.score_bonus,
                              playout_weights=self.weights(game))
        if self.exploration is not None:
            config.exploration = self.exploration
        if self.capacity is not None:
            config.capacity = self.capacity
        if self.transpositions is not None:
            config.transpositions = self.transpositions
        if self.early_stop is not None:
            config.early_stop = self.early_stop
        if self.expand_visits is not None:
            config.expand_visits = self.expand_visits
        if self.criticality_visits is not None:
            config.criticality_visits = self.criticality_visits
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
            if not os.path.isfile(self.playout_weights):
                raise UsageError(f"--playout-weights: {self.playout_weights} is not a file")
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
