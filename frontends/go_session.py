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

from frontends.go_ownership import FINAL_PLAYOUTS, OwnershipJudge
from frontends.go_records import SessionError, SgfRecords  # noqa: F401 (re-exported)
from frontends.player import PlayerConfig, Resigner, needs_compiling
from frontends.timecontrol import Clock, unstable
from games import pure
from games.contract import ILLEGAL, ONGOING
from games.go import Go
from games.go.notation import fixed_handicap_vertices, max_fixed_handicap
from games.go.score import quick_moves
from mcts.search import check_config, load_kernels


class GoSession(SgfRecords):
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

    def reseed(self, seed):
        """Use ``seed`` from now on (e.g. a different one for each game of a match)."""
        self.seed = seed
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
        ``cleanup`` (kgs-genmove_cleanup): never pass while dead enemy stones are left.
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
        if cleanup and action == g.pass_action:
            action = self._cleanup_move(pos, result)
        elif action == g.pass_action and not g.pass_wins(pos, player):
            others = [c for c in result.children if c.action != g.pass_action
                      and not g.is_own_eye(pos, c.action)]
            if others:                      # passing would lose; filling our own eyes would
                action = others[0].action       # not help
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
        and call ``on_report(result, position)`` every ``interval`` seconds."""
        pos = self.position_for(player)
        if int(self.rules.status(pos)) != ONGOING:
            return
        while not self.ready.wait(0.05):        # kernels still loading: nothing to say yet
            if stopped():
                return
        next_report = time.perf_counter() + interval
        while not stopped():                    # one tree grows (MCTS.search's resume)
            result = self.search(pos, {"seconds": min(0.05, interval)}, resume=True,
                                 early_stop=False)
            if time.perf_counter() >= next_report or result.proof is not None:
                on_report(result, pos)
                next_report = time.perf_counter() + interval
                if result.proof is not None:        # nothing more to learn: wait
                    while not stopped():
                        time.sleep(0.02)

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
        """{action: prior probability}: the game's prior knowledge of the moves of ``pos``
        (Go's virtual wins of :func:`games.go.prior`, normalised), empty without it."""
        kernel = getattr(self.game.kernels, "prior", None)
        if kernel is None:
            return {}
        actions = self.game.legal_actions(pos).astype(np.int32)
        visits = np.zeros(len(actions), dtype=np.int32)
        value = np.zeros(len(actions), dtype=np.float32)
        kernel(pos, actions, visits, value)
        total = float(value.sum())
        return {int(a): float(v) / total for a, v in zip(actions, value)} if total > 0 else {}

    def _cleanup_move(self, pos, result):
        """In the cleanup phase, capture dead enemy stones before passing."""
        g = self.game
        me = g.to_play(pos) + 1
        if not any(st == "dead" and color != me for color, _, st in g.stone_status(pos)):
            return g.pass_action
        moves = [c for c in result.children if c.action != g.pass_action]
        return moves[0].action if moves else g.pass_action

    # -- ownership and the end --------------------------------------------------------------
    def ownership_of(self, result):
        """The ownership map of a search ``result``: float ``(n, n)``, row 0 on top, the mean
        owner of each point at the end of its playouts (+1 Black); zeros if it summed none."""
        n = self.game.size
        if result.ownership is None:
            return np.zeros((n, n))
        return result.ownership[:n * n].reshape(n, n)

    def ownership_map(self):
        """GoGui's ``mcts-ownership``: the ownership of the last search (:meth:`latest`),
        searching its position again with the ownership sums on if it has none; at the end
        of a game, the statistics of :meth:`final_status`."""
        self.ready.wait()
        if int(self.rules.status(self.state)) != ONGOING:
            return self.judge()(self.state, FINAL_PLAYOUTS, True)[0]
        if self.last is None or self.last[1].ownership is None:
            pos = self.state.copy() if self.last is None else self.last[0]
            self.ownership = True
            try:
                self.search(pos, self.player.budget)
            finally:
                self.ownership = False
        return self.ownership_of(self.last[1])

    def judge(self):
        """The ownership searches behind the dead stones (frontends.go_ownership), kept per
        game and seed, with their statistics per position."""
        j = self._judge
        if j is None or j.game is not self.game or j.config.seed != self.seed:
            self._judge = OwnershipJudge(self.game, self.player.search_config(self.game,
                                                                              self.seed))
        return self._judge

    def final_status(self):
        """``(colour, points, status)`` per chain, under the rules in force, judged from the
        ownership statistics of a search of the position (:meth:`judge`)."""
        self.ready.wait()
        return self.game.final_status(self.state, seed=self.seed, judge=self.judge(),
                                      playouts=FINAL_PLAYOUTS)

    def final_result(self):
        """The result under the rules in force; the Tromp-Taylor count needs no compiled code,
        the Chinese one (the dead stones of :meth:`final_status`) waits for the kernels."""
        if self.game.rules == "tromp-taylor":
            return self.rules.final_result(self.state)
        self.ready.wait()
        return self.game.final_result(self.state, seed=self.seed, judge=self.judge(),
                                      playouts=FINAL_PLAYOUTS)
