"""The game contract: what a board game supplies so that search runs entirely in compiled code.

This module, with :mod:`games.params` (:class:`Param`), :mod:`games.contract_legacy` (what
earlier versions of the contract still get), :mod:`games.rng` and :mod:`games.jit_cache`, is
the bottom layer: the games in
``games/`` and the search in ``mcts/`` import it, and it imports neither.

**Compiled side.** The game's kernel module (``Game.kernel_module``) defines these module-level
numba functions, compiled with ``@njit(cache=True)``. A *state* is a 1-D numpy array of the
game's dtype whose length is fixed once the parameters are fixed; kernels change it in place.

=============================================  ====================================================
``to_play(state) -> int``                      player to move: 0 (first player), 1, ... up to
                                               ``Game.num_players - 1``; ``CHANCE`` (-1) at a
                                               chance position (a roll of dice, a draw, a random
                                               setup) of a game with ``Game.chance = True``
``status(state) -> int``                       ``ONGOING``, ``FIRST_WINS``, ``SECOND_WINS``,
                                               ``DRAW``, or ``ENDED`` (over: ask ``returns``)
``legal_actions(state, out) -> int``           write the legal actions (ints in ``[0, num_actions)``)
                                               to ``out`` (int32, length ``num_actions``); return
                                               how many. May include moves that ``apply_action``
                                               later rejects (e.g. superko); the search prunes them.
``apply_action(state, action) -> int``         play ``action``; return the new status, or
                                               ``ILLEGAL`` and leave ``state`` unchanged
``playout_action(state, rng) -> int``          the playout policy's move (default: uniform random
                                               over legal actions); ``rng`` is ``uint64[1]``
``rollout(state, rng) -> int``  *(optional)*   play to the end with the playout policy and return
                                               the final status; it may change ``state`` in any
                                               way (the search passes a scratch copy) but must
                                               give the same result distribution as the
                                               ``playout_action`` loop generated when it is absent
                                               (which draws chance outcomes with
                                               ``games.rng.draw_outcome``). A game with a
                                               ``returns`` kernel leaves the final position in
                                               ``state``: the engine reads the rewards there
``ply(state) -> int``  *(optional)*            plies played so far (for playout-length figures);
                                               default: not reported
``rollout_record(state, rng, actions, players)``  like ``rollout``, also writing each move and its
``-> (int, int)``  *(optional)*                player to the int32 / int8 buffers; returns (status,
                                               moves written). RAVE uses it; generated from
                                               ``playout_action`` when absent (slower than a
                                               hand-written one)
``prior(state, actions, visits, value)``       prior knowledge of the moves ``actions`` (int32, the
``-> None``  *(optional)*                      children of ``state`` being created): add virtual
                                               playouts to ``visits`` (int32) and the mover's
                                               reward of those playouts to ``value`` (float32),
                                               both of ``actions``' length and zero on entry. They
                                               seed the RAVE statistics; none when absent
``position_key(state) -> uint64``              a key of the position: equal exactly when two
``*(optional)*``                               states have the same future (the same player to
                                               move, legal moves and results whatever the move
                                               order that led there). The search then shares the
                                               statistics of transpositions (mcts.transpositions).
                                               Leave it out where history matters (Go's superko)
``move_features(state, cand, feats) -> int``    the candidate moves of a learned playout policy:
``*(optional)*``                               write them to ``cand`` (int32, ``(num_actions,)``)
                                               and, in row ``i`` of ``feats`` (int32,
                                               ``(num_actions, Game.feature_slots)``), the ids
                                               (``[0, Game.num_features)``) of the binary
                                               features active for ``cand[i]``, ended by ``-1``
                                               when fewer than ``feature_slots``; return how
                                               many candidates (0: the policy falls back on
                                               ``playout_action``). Every candidate must be
                                               legal (``apply_action`` may still refuse one for
                                               superko). A softmax over the sums of the
                                               features' weights then picks the playout's move
                                               (``--playout-weights``, ``cli.py train``)
``chance_outcomes(state, actions, probs)``      at a chance position, its outcomes: write them
``-> int``  *(with chance)*                    to ``actions`` (int32, ``(num_actions,)``; an
                                               outcome is an action in ``[0, num_actions)``,
                                               applied by ``apply_action``) and their
                                               probabilities to ``probs`` (float64, same
                                               length; they sum to 1); return how many.
                                               Required when ``Game.chance``; at a chance
                                               position ``legal_actions`` is not called
``returns(state, out) -> None``                at a finished position, each player's reward:
``*(optional; required for 3+ players)*``      ``out[p]`` (float64, ``(MAX_PLAYERS,)``) for
                                               ``p < Game.num_players``, in [0, 1]: 1 a win, 0 a
                                               loss, between them a draw or a middle rank (a
                                               game of three: 1, 0.5, 0). Default: from
                                               ``status`` (win 1, loss 0, draw 0.5 each)
``solve(state, budget, table) -> (int, int)``  an exact solver: (final status under best play,
``*(optional)*``                               plies to it; the winner wins as fast and the loser
                                               loses as slowly as they can) of ``state``, or
                                               ``(ONGOING, 0)`` if ``budget`` (int64) nodes of its
                                               own search do not settle it. A solver that settles
                                               the status but not the plies within the budget may
                                               give an upper bound of a win's or a loss's plies. ``table`` (uint64,
                                               ``(Game.solve_table_size,)``, zeros at first) is
                                               its scratch, kept by the search thread across
                                               calls, emptied when its tree starts afresh. The
                                               search calls it on tree nodes with budgets that
                                               grow with their visits
                                               (``SearchConfig.solve_nodes``); its proofs join
                                               the MCTS-Solver's
``ownership(state, rng, out) -> int``          who owns what at the end of a simulation (as
``*(optional)*``                               Pachi's ownermap and Fuego's territory
                                               statistics): called on the position where a
                                               simulation ended (its playout's final position,
                                               or the tree node where it stopped: a finished
                                               game, a proven node), a scratch copy it may
                                               play on from (drawing from ``rng``, uint64
                                               ``(1,)``, a generator of its own: the search's
                                               draws are the same with it or without) until
                                               ownership is settled. It adds to row 0 of
                                               ``out`` (float64, ``(2, num_actions)``) +1 for
                                               each action (a point) the first player owns
                                               then and -1 for each the second player owns,
                                               to row 1 +1 for each owned by neither (shared,
                                               neutral), and returns 1; or returns 0, adding
                                               nothing, when it cannot tell. An action that
                                               is no point (a pass) gets nothing. The search
                                               sums these when its ``ownership`` option is on
                                               (``SearchResult.ownership``)
``learned_rollout(state, rng, table,``         the learned playout policy's own playout (for a game
``record, seq_actions, seq_players)``          whose features can be kept up to date incrementally,
``-> (int, int)``  *(optional)*                as Go's 3x3 patterns are): play ``state`` (changed)
                                               to the end with the weights baked into ``table``
                                               (float64, 1-D, made by ``Game.playout_table`` from
                                               the weights; the kernel may use its tail as scratch:
                                               each search thread has its own copy), drawing from
                                               ``rng`` (uint64 ``(1,)``; chance outcomes drawn by
                                               the kernel, as ``rollout`` does); with ``record``,
                                               each move and its mover go to ``seq_actions``
                                               (int32) / ``seq_players`` (int8) up to their length.
                                               Returns (final status, moves recorded). With playout
                                               weights, the search plays it instead of its softmax
                                               over ``move_features`` (still required:
                                               ``selfplay``'s random episodes use it)
=============================================  ====================================================

**Python side.** A subclass of :class:`Game` declares its name, kernel module and parameters
(:class:`Param`), builds the initial state and speaks the game's notation; every optional
capability is a class attribute or method of :class:`Game` with the default documented there.
Register it with :func:`games.register` (or the ``mcts_engine.games`` entry point group) and
the search, ``play``, ``analyze``, ``bench``, ``selfplay`` and ``check`` work with it unchanged,
with a command-line flag for each declared parameter.
"""
import importlib
import inspect
import sys

import numpy as np
from numba import njit

from games import jit_cache
from games.contract_legacy import (LEGACY_DEFAULTS, RETIRED_DEFAULTS,  # noqa: F401
                                   RETIRED_KERNELS, _adopt_legacy_defaults, _legacy_reader,
                                   constructor_parameters, undeclared_note)
from games.params import Param  # noqa: F401  (part of the contract)

CONTRACT_VERSION = 2    # 1: two players, no chance (to 2026-12-06); 2: chance, 2 to 6 players
ILLEGAL, ONGOING, FIRST_WINS, SECOND_WINS, DRAW, ENDED = -1, 0, 1, 2, 3, 4
RESULTS = (FIRST_WINS, SECOND_WINS, DRAW, ENDED)
CHANCE = -1             # to_play of a chance position
MAX_PLAYERS = 6         # players a game may have (returns' buffer has this length)
KERNEL_NAMES = ("to_play", "status", "legal_actions", "apply_action", "playout_action")
OPTIONAL_KERNELS = ("rollout", "ply", "rollout_record", "prior", "position_key", "move_features",
                    "solve", "chance_outcomes", "returns", "ownership", "learned_rollout")


@njit(cache=True)
def feature_softmax(feats, n, weights, out):
    """The linear softmax over the first ``n`` rows of ``move_features``'s ``feats`` (int32
    ``(rows, slots)``, ids ``-1``-terminated) with ``weights`` (float64 ``(num_features,)``):
    writes ``exp(logit_i - max logit)`` to ``out[i]`` (float64) and returns their sum, so that
    ``out[i] / sum`` is candidate i's probability (Coulom 2007's generalised Bradley-Terry
    model; the learned playouts of mcts and Go's learned prior share it)."""
    top = -np.inf
    slots = feats.shape[1]
    for i in range(n):
        t = 0.0
        for j in range(slots):
            f = feats[i, j]
            if f < 0:
                break
            t += weights[f]
        out[i] = t
        top = max(top, t)
    total = 0.0
    for i in range(n):
        out[i] = np.exp(out[i] - top)
        total += out[i]
    return total


@njit(cache=True)
def status_returns(st, out):
    """The rewards of a two-player game's final status ``st`` into ``out`` (float64): win 1,
    loss 0, draw 0.5 each (the default ``returns``)."""
    if st == FIRST_WINS:
        out[0], out[1] = 1.0, 0.0
    elif st == SECOND_WINS:
        out[0], out[1] = 0.0, 1.0
    else:
        out[0], out[1] = 0.5, 0.5


class Game:
    """Python face of a game. Subclasses set the class attributes and implement the methods
    marked *required*; every other attribute and method is optional, with the default below."""

    name = ""               # required: registry name, e.g. "connect4"
    kernel_module = ""      # required: dotted module path holding the compiled kernels
    parameters = ()         # Param declarations, one per constructor keyword (default: none)
    players = ("first", "second")   # display names of players 0, 1, ... (num_players of them)
    num_players = 2                 # 1 to MAX_PLAYERS; a game whose number depends on a
                                    # parameter sets self.num_players (and self.players) in
                                    # __init__
    chance = False                  # has chance positions (to_play == CHANCE; then the
                                    # chance_outcomes kernel is required)
    move_help = "a move"            # how to type a move, for prompts
    record_separator = " "          # between moves of a game record; "" = one character each
    pass_action = None              # the pass move, if the game has one: RAVE keeps it out of
                                    # its all-moves-as-first statistics (default: no pass)
    resign_allowed = False          # may the AI resign in `play`?
    search_defaults = {}            # the game's defaults of search options, by name (see
                                    # mcts.config.OPTIONS: those marked per_game), e.g. Go's
                                    # {"rave": True, "exploration": 0.2}; unnamed ones keep the
                                    # engine's
    bench_params = {}               # parameter values `bench` uses unless the user sets them
    saves_games = False             # does save_game write a file (so `play` checks its folder
                                    # before the game)?
    kernel_dependencies = ()        # files the kernels depend on that no module imports (data
                                    # baked into kernels; paths relative to the file defining
                                    # the class): an edit recompiles
    num_features = 0                # with a move_features kernel: the size of the weight
                                    # vector of the learned playout policy (feature ids are
                                    # 0 .. num_features - 1)
    feature_slots = 0               # ... and the most features active for one move
    solve_table_size = 0            # with a solve kernel: entries of its scratch table
                                    # (its budget per visit: search_defaults["solve_nodes"])

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _adopt_legacy_defaults(cls)
        if cls.kernel_module and cls.kernel_dependencies:
            defined_in = getattr(sys.modules.get(cls.__module__), "__file__", None)
            jit_cache.declare_dependencies(cls.kernel_module, cls.kernel_dependencies,
                                           relative_to=defined_in)

    def __init__(self, **params):
        """Store ``self.params``: the declared parameters (defaults filled in, values checked
        and normalised by :meth:`Param.parse`); ``ValueError`` for a bad value or a keyword
        that is not declared. A game without declarations keeps ``params`` as given. Every
        subclass passes its constructor's own keywords, so that ``type(game)(**game.params)``
        rebuilds the same game (other processes and the conformance check rely on it)."""
        declared = {p.name: p for p in self.parameters}
        if declared:
            unknown = sorted(set(params) - set(declared))
            if unknown:
                raise ValueError(f"{self.name} has no parameter {', '.join(unknown)}; its "
                                 f"parameters are {', '.join(declared)}")
            params = {n: p.parse(params[n]) if n in params else p.default
                      for n, p in declared.items()}
        self.params = params          # e.g. {"size": 9, "komi": 7.5}; shown by `cli.py list`
        self.num_actions = 0          # required: size of the action space
        self.max_length = 0           # required: longest possible game in plies

    def initial_state(self) -> np.ndarray:
        """Required: a fresh state array (fixed shape and dtype for these parameters)."""
        raise NotImplementedError

    def render(self, state, last_action=None) -> str:
        """Required: the position as text for a terminal, with ``last_action`` marked."""
        raise NotImplementedError

    def parse_move(self, text: str, state) -> int:
        """Required: action for ``text`` in the game's notation; ``ValueError`` saying why if
        it is not a legal move of ``state``."""
        raise NotImplementedError

    def format_move(self, action: int, state=None) -> str:
        """Required: the game's notation for ``action`` (any action in ``[0, num_actions)``)."""
        raise NotImplementedError

    def parse_record(self, text: str) -> list:
        """Move strings of a game record, split by ``record_separator`` (whitespace for " ";
        a separator such as ``", "`` splits on its non-blank part) or, when it is "", one
        character per move (Connect Four's ``4453``). A game whose moves contain the
        separator (Pig's ``rolled 4`` with " ") overrides this; ``check`` tests that records
        round-trip."""
        if not self.record_separator:
            return [ch for ch in text if not ch.isspace()]
        if self.record_separator.strip():           # e.g. "," or ", ": split on it
            return [m.strip() for m in text.split(self.record_separator.strip()) if m.strip()]
        return text.split()

    def format_record(self, moves) -> str:
        """A game record for a list of move strings."""
        return self.record_separator.join(moves)

    def prior_stats_for(self, playouts):
        """Where a ``prior`` kernel's virtual playouts count ("amaf", "value" or "both"; see
        mcts.config.OPTIONS) in a search expected to run ``playouts`` playouts (None: not
        known yet), unless the user says: by default ``search_defaults["prior_stats"]``, or
        None for the engine's default; a game may choose by budget (Go does)."""
        return self.search_defaults.get("prior_stats")

    def ai_should_pass(self, state) -> bool:
        """True when the AI should pass instead of searching (default: never)."""
        return False

    def final_choice(self, state, result) -> int:
        """The move the AI plays from a search ``result`` (an :class:`mcts.SearchResult`);
        by default the search's choice. Games may veto moves the search cannot tell apart
        from good ones in a decided position (Go: filling one's own eye)."""
        return result.action

    def warm_up(self):
        """Compile (or load from the cache) the compiled helpers of the Python face that the
        kernels do not cover, so that a first game runs at full speed (`cli.py warmup`);
        default: nothing."""

    def playout_table(self, weights) -> np.ndarray:
        """With a ``learned_rollout`` kernel, required: the kernel's ``table`` for the playout
        ``weights`` (float64 ``(num_features,)``): a float64 1-D array whose length depends on
        the game's parameters only (not on the weights). Default: ``None`` (no such kernel).
        ``ValueError`` if the weights do not fit."""
        return None

    def feature_names(self) -> list:
        """Names of the move features (``num_features`` strings, for reports of learned
        weights); default: ``feature 0``, ``feature 1``, ..."""
        return [f"feature {i}" for i in range(self.num_features)]

    def observation(self, state) -> np.ndarray:
        """The position as stored in self-play data (a 1-D array of fixed shape); default: a
        copy of the state itself."""
        return np.array(state, copy=True)

    def score_text(self, state):
        """A running score for `play`'s ``score`` command, or None (the default) when the
        game has none."""
        return None

    def summary(self, state) -> str:
        """Final report of a finished game (e.g. an area count); by default the result."""
        st = self.status(state)
        try:        # an override of the contract before 2026-12-06 takes the status only
            inspect.signature(self.result_text).bind(st, state)
        except TypeError:
            return self.result_text(st)
        return self.result_text(st, state)

    def save_game(self, moves, state, resigned=None, directory: str = "."):
        """Write a game to a file (e.g. SGF) and return its path, or None (the default) if the
        game keeps no files. ``moves``: [(player, action)]; ``state``: the last position;
        ``resigned``: the player who resigned, if one did."""
        return None

    def result_text(self, status: int, state=None) -> str:
        """A human description of a finished game's status (with ``state``, the final
        position, for a game whose ``returns`` say more: the winner, or the ranks)."""
        if state is not None and (status == ENDED or self.num_players != 2):
            r = self.returns(state)
            top = r.max()
            winners = [self.players[p] for p in range(self.num_players) if r[p] == top]
            if len(winners) == self.num_players:
                return "draw"
            if len(winners) == 1:
                return f"{winners[0]} wins"
            return " and ".join(winners) + " share the win"
        if status == DRAW:
            return "draw"
        if status == ENDED:
            return "game over"
        return f"{self.players[status - FIRST_WINS]} wins"

    # Helpers for Python callers, built on the kernels.
    @property
    def kernels(self):
        return importlib.import_module(self.kernel_module)

    def legal_actions(self, state) -> np.ndarray:
        """Exactly the legal actions of ``state``: int32 array of shape ``(n,)``, in kernel order."""
        k = self.kernels
        out = np.empty(self.num_actions, dtype=np.int32)
        n = k.legal_actions(state, out)
        return np.array([a for a in out[:n] if k.apply_action(state.copy(), a) != ILLEGAL],
                        dtype=np.int32)

    def to_play(self, state) -> int:
        """The player to move (0 .. num_players - 1), or ``CHANCE`` at a chance position."""
        return int(self.kernels.to_play(state))

    def is_chance(self, state) -> bool:
        return self.chance and int(self.kernels.to_play(state)) == CHANCE

    def chance_outcomes(self, state):
        """``(actions, probs)`` of a chance position: int32 and float64 arrays of shape
        ``(n,)``, in kernel order; ``ValueError`` if ``state`` is not a chance position."""
        if not self.is_chance(state):
            raise ValueError("not a chance position")
        actions = np.empty(self.num_actions, dtype=np.int32)
        probs = np.empty(self.num_actions, dtype=np.float64)
        n = self.kernels.chance_outcomes(state, actions, probs)
        return actions[:n].copy(), probs[:n].copy()

    def returns(self, state) -> np.ndarray:
        """Each player's reward at the finished position ``state``: float64
        ``(num_players,)`` in [0, 1] (the ``returns`` kernel, else win 1, loss 0, draw 0.5)."""
        out = np.zeros(MAX_PLAYERS, dtype=np.float64)
        k = self.kernels
        if hasattr(k, "returns"):
            k.returns(state, out)
        else:
            status_returns(np.int64(k.status(state)), out)
        return out[:self.num_players].copy()

    def status(self, state) -> int:
        return int(self.kernels.status(state))

    def play(self, state, action: int) -> int:
        """Apply ``action`` to ``state`` in place; return the new status. ``ValueError`` if illegal."""
        st = int(self.kernels.apply_action(state, np.int64(action)))
        if st == ILLEGAL:
            raise ValueError(f"{self.format_move(action, state)} is not a legal move here")
        return st

    def play_record(self, text: str):
        """Replay a game record from the initial state; return ``(state, actions)``.

        Raises ``ValueError`` naming the first move that is malformed or illegal."""
        state, actions = self.initial_state(), []
        for i, token in enumerate(self.parse_record(text), start=1):
            try:
                action = self.parse_move(token, state)
            except ValueError as e:
                raise ValueError(f"move {i} ({token!r}) of {text!r}: {e}") from None
            self.play(state, action)
            actions.append(action)
        return state, actions


def spec_of(game) -> dict:
    """A picklable description of ``game`` (its class and parameters) for other processes."""
    cls = type(game)
    return {"module": cls.__module__, "class": cls.__qualname__, "params": dict(game.params)}


def game_from_spec(spec: dict):
    """Rebuild a game from :func:`spec_of` (its module must be importable there)."""
    cls = getattr(importlib.import_module(spec["module"]), spec["class"])
    return cls(**spec["params"])


for _old, _new in LEGACY_DEFAULTS.items():
    setattr(Game, _old, _legacy_reader(_old, _new))
