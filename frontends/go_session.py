"""A Go game under outside control (a GTP controller): the position, its history and setup
stones, the clock, and the AI's moves. No protocol here: :mod:`frontends.gtp` parses the
commands and formats the replies; the rules and the score are :class:`games.go.game.Go`'s.

Cold start: the compiled kernels load (or compile, on an empty cache) in a background thread.
Until they are ready, moves are checked and played by the kernels' pure-Python twins
(:mod:`games.pure`: the same rules, interpreted). A ``genmove`` waits for the kernels, and
searches: cached ones load in about half a second, and without a controller's clock a
compilation is start-up time too. Only a compilation under a clock (or one the controller
quits during) gets a quick move that needs no compiled code (:func:`games.go.score.quick_moves`),
said on the log.
"""
import math
import random
import sys
import threading
import time

import numpy as np

from frontends.go_ownership import SessionOwnership
from frontends.go_records import SessionError, SgfRecords  # noqa: F401 (re-exported)
from frontends.gtp_cleanup import cleanup_move, dead_enemy_liberties, dies_after_their_pass
from frontends.player import PlayerConfig, Resigner, needs_compiling
from frontends.timecontrol import Clock, unstable
from games import pure
from games.contract import ILLEGAL, ONGOING
from games.go import Go
from games.go.board import F_PASSES
from games.go.notation import fixed_handicap_vertices, max_fixed_handicap
from games.go.score import quick_moves
from mcts.search import check_config, load_kernels


def prior_shares(kernel, pos, actions):
    """{action: share} for ``actions`` (int32) of ``pos`` from a prior ``kernel`` (the
    contract's: virtual playouts and wins per move): each move's odds ``w / (n - w)``
    normalised to sum to 1 (see :meth:`GoSession.priors`); empty if no move has a prior."""
    visits = np.zeros(len(actions), dtype=np.int32)
    wins = np.zeros(len(actions), dtype=np.float32)
    kernel(pos, actions, visits, wins)
    lost = visits - wins.astype(np.float64)
    odds = np.where((visits > 0) & (lost > 0), wins / np.maximum(lost, 1e-12), 0.0)
    odds = np.where((visits > 0) & (lost <= 0) & (wins > 0), np.inf, odds)
    if np.isinf(odds).any():                    # every playout won: those moves share it all
        odds = np.isinf(odds).astype(np.float64)
    total = float(odds.sum())
    return {int(a): float(o) / total for a, o in zip(actions, odds)} if total > 0 else {}


class GoSession(SessionOwnership, SgfRecords):
    """One Go game and the AI that plays it.

    ``params``: Go's parameters (:class:`games.go.game.Go`; size, komi, rules, playout_policy,
    priors); ``player``: a :class:`frontends.player.PlayerConfig`; ``log``: a text stream
    for the engine's notes (None: silent)."""

    def __init__(self, params=None, player=None, log=sys.stderr):
        self.params = dict(params or {})
        self.params.pop("handicap", None)       # handicap comes by command
        self.player = player or PlayerConfig()
        self.log = log
        self.seed = self.player.seed
        self.clock = Clock()
        self.resigner = Resigner(self.player.resign_threshold)
        self.engine = None
        self.last = None                        # (position, SearchResult) of the last search
        self.ownership = False                  # do the searches sum ownership (kata-analyze)?
        self._judge = None                      # the ownership searches of final_status_list
        self.ready = threading.Event()
        self.game = None
        self.new_game()
        check_config(self.game, self.player.search_config(self.game))    # ValueError before any work
        self.compiling = needs_compiling(self.game)     # else the load takes half a second
        threading.Thread(target=self._load, daemon=True).start()

    # -- set-up ----------------------------------------------------------------------------
    def note(self, message):
        if self.log is not None:
            print(message, file=self.log, flush=True)

    def _load(self):
        try:
            load_kernels(self.game, log=self.log)
            self.game.settle(self.game.initial_state(), 1)
        finally:
            self.ready.set()

    @property
    def rules(self):
        """The game object that checks and plays moves now: the compiled one once the kernels
        are loaded, before that its pure-Python twin (same rules, no compilation)."""
        return self.game if self.ready.is_set() else self._twin

    def new_game(self, size=None, komi=None):
        """An empty board of ``size`` with ``komi`` (default: as now), the same rules."""
        p = dict(self.params)
        if size is not None:
            p["size"] = size
        if komi is not None:
            p["komi"] = komi
        game = Go(**p)                          # ValueError for a bad value, nothing changed
        self.game, self.params = game, p
        self._twin = pure.twin_game(game)
        self.state = self.rules.initial_state()
        self.history = []                       # (state before, player, action) per move
        self.setup = []                         # handicap / setup stones (actions), all black
        self.setup_white = []                   # White's setup stones of a loaded SGF
        self.resigner.reset()
        self.last = None
        if self.engine is not None and self.engine.game.size != game.size:
            self.engine.close()
            self.engine = None
        elif self.engine is not None:
            self.engine.game = game
            self.engine.forget()
        self.judge()                            # the game's counts go by the search's

    def reseed(self, seed):
        """Use ``seed`` from now on (e.g. a different one for each game of a match)."""
        self.seed = seed
        self.judge()
        if self.engine is not None:
            self.engine.reseed(seed)

    def _engine(self):
        self.ready.wait()
        if self.engine is None:
            self.engine = self.player.engine(self.game, log=None, seed=self.seed)
        return self.engine

    def set_komi(self, komi):
        self.game.set_komi(self.state, komi)
        self.params["komi"] = self.game.komi
        for before, _, _ in self.history:
            self.game.set_komi(before, komi)

    def set_rules(self, rules):
        self.game.set_rules(self.state, rules)
        self.params["rules"] = rules
        self._twin = pure.twin_game(self.game)
        for before, _, _ in self.history:
            self.game.set_rules(before, rules)

    def empty(self):
        return not self.history and not self.setup

    def place_handicap(self, actions):
        """Put black handicap stones on ``actions`` of an empty board; White moves next and,
        under Chinese rules, gets a point per stone. ``ValueError`` if they cannot go there."""
        if not self.empty():
            raise SessionError("board not empty")
        self.rules.place_stones(self.state, actions, "black", next_player=1)
        self.game.set_handicap(self.state, len(actions))
        self.setup = list(actions)

    def fixed_handicap(self, n):
        return fixed_handicap_vertices(self.game.size, n)

    def free_handicap(self, n):
        """GTP place_free_handicap: the fixed points where they exist, then random points."""
        size = self.game.size
        most = max_fixed_handicap(size)
        chosen = [self.game.vertex_to_action(v)
                  for v in fixed_handicap_vertices(size, min(n, most) if most >= 2 else 0)] \
            if n >= 2 and most >= 2 else []
        free = [a for a in range(size * size) if a not in chosen]
        random.Random(self.seed).shuffle(free)
        return chosen + free[:n - len(chosen)]

    # -- moves -----------------------------------------------------------------------------
    def position_for(self, player):
        """The current position with ``player`` to move (a finished game reopened)."""
        pos = self.state.copy()
        self.rules.reopen(pos)
        self.rules.set_to_play(pos, player)
        return pos

    def play(self, player, action):
        """Play ``action`` for ``player`` (any colour may move; a finished game goes on).
        ``SessionError("illegal move")`` leaves everything as it was."""
        nxt = self.position_for(player)
        if int(pure.quiet(self.rules.kernels.apply_action, nxt, np.int64(action))) == ILLEGAL:
            raise SessionError("illegal move")
        self.history.append((self.state, player, int(action)))
        self.state = nxt
        self.last = None
        if self.engine is not None:
            self.engine.advance(int(action))

    def undo(self, n=1):
        if n > len(self.history) or not self.history:
            raise SessionError("cannot undo")
        for _ in range(n):
            self.state, _, _ = self.history.pop()
        self.last = None
        if self.engine is not None:
            self.engine.forget()                # the tree no longer follows the game

    def last_action(self):
        return self.history[-1][2] if self.history else None

    # -- the AI's move ---------------------------------------------------------------------
    def genmove(self, player, play=True, cleanup=False, on_progress=None, interval=1.0):
        """The AI's move for ``player`` as a vertex, or ``"resign"``; played if ``play``.
        ``cleanup`` (kgs-genmove_cleanup): capture the dead enemy stones, then pass
        (:mod:`frontends.gtp_cleanup`).
        ``on_progress(result)``, if given, is called every ``interval`` seconds of the search
        (live analysis)."""
        t0 = time.perf_counter()
        g = self.game
        pos = self.position_for(player)
        if int(self.rules.status(pos)) != ONGOING:          # the move cap: nothing but pass
            return "pass"
        empty = int((g.board(pos) == 0).sum())
        seconds = self.clock.plan(player, empty, self.player.seconds, points=g.size * g.size)
        budget = {"seconds": seconds} if self.clock.limited else dict(self.player.budget)
        action = self._wait_for_kernels(pos, seconds)
        if action is None:
            if "seconds" in budget and self.clock.limited:     # the controller's clock runs
                budget["seconds"] = max(0.02, budget["seconds"] - (time.perf_counter() - t0))
            action = self._search_move(player, pos, budget, cleanup, on_progress, interval)
            if action is None:
                return "resign"
        if play:
            searched, self.last = self.last, None
            self.play(player, action)
            self.last = searched                # GoGui's commands show the move's search
            self.clock.spend(player, time.perf_counter() - t0)
        return g.action_to_vertex(action)

    def _wait_for_kernels(self, pos, seconds):
        """None once the kernels are ready; waits for them however long they take, unless they
        are compiling under the controller's clock and the move cannot wait past ``seconds``
        less a margin: then a quick move, said on the log. (A piped ``quit`` or the end of
        input waiting behind the ``genmove`` does not cut the wait short: its answer is a
        search's, as a regression script expects; Ctrl-C does.)"""
        limit = max(0.0, seconds - 0.1) if self.compiling and self.clock.limited else math.inf
        start = time.perf_counter()
        while not self.ready.wait(min(0.05, max(0.0, limit - (time.perf_counter() - start)))):
            if time.perf_counter() - start >= limit:
                action = self.quick_move(pos)
                self.note(f"compiling (first run): quick move "
                          f"{self.game.action_to_vertex(action)} within the clock")
                return action
        return None

    def quick_move(self, pos):
        """A legal move chosen and checked without compiled code (pass if none)."""
        rules = self.rules
        for a in quick_moves(rules.board(pos), self.seed + len(self.history)):
            if int(pure.quiet(rules.kernels.apply_action, pos.copy(), np.int64(a))) != ILLEGAL:
                return a
        return self.game.pass_action

    def search(self, pos, budget, resume=False, early_stop=None):
        """Search ``pos``; the result is kept as :attr:`last` for the analysis commands."""
        engine = self._engine()
        engine.config.ownership = self.ownership
        result = engine.search(pos, resume=resume, early_stop=early_stop, **budget)
        self.last = (pos.copy(), result)
        return result

    def _search_move(self, player, pos, budget, cleanup, on_progress, interval):
        g = self.game
        if not cleanup and g.ai_should_pass(pos):
            return g.pass_action
        if cleanup:                             # only the dead enemy stones' liberties
            cleanup = dead_enemy_liberties(g, pos, self.dead_stones(pos))
            if not cleanup:
                self.note(f"genmove {g.players[player]} (cleanup): pass, no dead enemy stones")
                return g.pass_action
        given = pos
        if int(pos[F_PASSES]) and not cleanup:  # passing loses (ai_should_pass): in the tree
            pos = pos.copy()                    # our pass must not end the game, counted
            pos[F_PASSES] = 0                   # there as the board stands
        if not np.array_equal(pos, self.state):
            self._engine().forget()             # colour switched or game reopened
        if on_progress is None:                 # after pondering, its tree goes on growing
            result = self.search(pos, budget, resume=self.player.ponder)
            if self.clock.limited and unstable(result.children) and result.seconds >= 0.9 * budget[
                    "seconds"]:                 # ran its whole plan, and still undecided
                extra = self.clock.extension(player, budget["seconds"], result.seconds)
                if extra > 0.02:
                    result = self.search(pos, {"seconds": extra}, resume=True)
        else:
            result = self._search_in_steps(pos, budget, on_progress, interval)
        if not cleanup and self.resigner.should_resign(player, result.value):
            self.note(f"genmove {g.players[player]}: resign, win {100 * result.value:.1f}%")
            return None
        action = g.final_choice(pos, result)      # never fills our own eye
        if cleanup:
            action = cleanup_move(g, pos, cleanup, {c.action: c.visits for c in result.children})
        elif action == g.pass_action and not g.pass_wins(pos, player):
            others = [c for c in result.children if c.action != g.pass_action
                      and not g.is_own_eye(pos, c.action)]
            if others:                      # passing would lose; filling our own eyes would
                action = others[0].action       # not help
        if not cleanup and dies_after_their_pass(g, given, action, self.dead_stones):
            self.note(f"genmove {g.players[player]}: pass, the opponent passed and a stone "
                      f"on {g.action_to_vertex(action)} would die")
            action = g.pass_action
        self.note(f"genmove {g.players[player]}: {g.action_to_vertex(action)} (search: "
                  f"{result.move}), win {100 * result.value:.1f}%, {result.playouts} playouts")
        return action

    def _search_in_steps(self, pos, budget, on_progress, interval):
        """The search of one move in slices of ``interval`` seconds, reporting after each; it
        spends the whole budget (no early stop), as Leela Zero's genmove_analyze does."""
        deadline = time.perf_counter() + budget.get("seconds", float("inf"))
        target = budget.get("playouts")
        result = None
        while True:
            left = deadline - time.perf_counter()
            part = {"seconds": max(0.01, min(interval, left))}
            if target is not None:
                part["playouts"] = max(1, target - (result.playouts if result else 0))
            result = self.search(pos, part, resume=result is not None, early_stop=False)
            on_progress(result)
            if result.proof is not None or left <= interval or (
                    target is not None and result.playouts >= target):
                return result

    # -- live analysis and pondering -------------------------------------------------------
    def analyze(self, player, interval, stopped, on_report):
        """Search the position with ``player`` to move until ``stopped()``, growing one tree,
        and call ``on_report(result, position)`` every ``interval`` seconds, and once more
        when stopped if playouts ran since the last report (so a stream stopped before its
        first interval still reports the work done, as Leela Zero and KataGo do)."""
        pos = self.position_for(player)
        if int(self.rules.status(pos)) != ONGOING:
            return
        while not self.ready.wait(0.05):        # kernels still loading: nothing to say yet
            if stopped():
                return
        next_report = time.perf_counter() + interval
        result, fresh = None, False            # fresh: searched since the last report
        while not stopped():                    # one tree grows (MCTS.search's resume)
            result = self.search(pos, {"seconds": min(0.05, interval)}, resume=True,
                                 early_stop=False)
            fresh = True
            if time.perf_counter() >= next_report or result.proof is not None:
                on_report(result, pos)
                fresh = False
                next_report = time.perf_counter() + interval
                if result.proof is not None:        # nothing more to learn: wait
                    while not stopped():
                        time.sleep(0.02)
        if fresh and result.playouts > 0:
            on_report(result, pos)

    def ponder(self, stopped):
        """Search the current position (the opponent to move) until ``stopped()``; the tree
        is kept, and the opponent's move then keeps its subtree (tree reuse)."""
        if int(self.rules.status(self.state)) != ONGOING or not self.ready.is_set():
            return
        self.analyze(self.rules.to_play(self.state), 0.2, stopped, lambda r, p: None)

    def latest(self):
        """``(position, result)`` of the last search: of the current position, or of the one
        before the AI's last move; if there is none, the current position is searched now for
        the move budget (GoGui's analyze commands)."""
        if self.last is None:
            if int(self.rules.status(self.state)) != ONGOING:
                raise SessionError("the game is over")
            self.search(self.state.copy(), self.player.budget)
        return self.last

    def pvs(self, pos, result, limit=None):
        """{action: principal variation (vertices)} from each visited move of ``result``."""
        engine = self._engine()
        kids = [c for c in result.children if c.visits > 0][:limit or 10]
        return {c.action: engine.principal_variation(pos, c.action)[:20] for c in kids}

    def priors(self, pos):
        """{action: prior probability} of the moves of ``pos`` from the game's prior knowledge
        (Go: :func:`games.go.kernels.prior`), empty without it. A new child starts the tree
        with ``n`` virtual playouts of which ``w`` won; its prior share is the odds of that
        record, ``w / (n - w)``, normalised over the moves: so a move is preferred to a
        neutral one (half won) with probability ``w / n``, its prior win rate. Moves without
        a prior (pass) get 0. Formula and reasons: docs/gtp.md, "Live analysis"."""
        kernel = getattr(self.game.kernels, "prior", None)
        if kernel is None:
            return {}
        return prior_shares(kernel, pos, self.game.legal_actions(pos).astype(np.int32))
