"""`gtp`: the Go Text Protocol, version 2, on stdin/stdout, for Go GUIs and match tools.

Follows the GTP v2 draft specification (Farnebäck): command ids (``12 genmove b`` answers
``=12 D4``), ``#`` comments, empty lines, CR LF and tabs; colours, vertices and ``pass`` in any
case; errors as ``? message`` with the spec's wording; a reply never contains an empty line.
Only GTP goes to stdout; logs go to stderr. The search kernels load (or compile, the first
time) in a background thread, so the first replies come at once; a ``genmove`` that arrives
before they are ready waits at most its time budget and then answers with a quick legal move.
"""
import math
import os
import random
import re
import sys
import threading
import time

import numpy as np

from frontends.timecontrol import Clock, TimeControl
from games import go_sgf
from games.contract import ILLEGAL, ONGOING
from games.go import Go, fixed_handicap_vertices, max_fixed_handicap
from mcts import MCTS, SearchConfig
from mcts.search import load_kernels

NAME, VERSION = "mcts-engine", "0.1.0"
MAX_LINE = 65536                 # characters of one command line read at most
MAX_SGF_BYTES = 8 << 20          # loadsgf reads at most this much
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class GtpError(Exception):
    """A command failed: the message goes back as ``? message``."""


def preprocess(line: str) -> str:
    """GTP section 3.1: drop control characters but HT and LF, tabs to spaces, comments."""
    line = _CONTROL.sub("", line).replace("\t", " ")
    return line.split("#", 1)[0].strip()


def parse_color(text):
    t = text.lower()
    if t in ("b", "black"):
        return 0
    if t in ("w", "white"):
        return 1
    raise GtpError("syntax error")


class GtpEngine:
    """A Go game under GTP control, with the MCTS as its player."""

    def __init__(self, size=9, komi=7.5, playouts=None, seconds=1.0, seed=0, threads=1,
                 resign_threshold=0.1, log=sys.stderr, search=None, go_options=None):
        self.log = log
        self.go_options = dict(go_options or {})     # Go parameters: playout_policy, priors
        self.budget = {"playouts": playouts} if playouts else {"seconds": seconds}
        self.default_seconds = seconds or 1.0
        self.seed, self.threads, self.resign_threshold = seed, threads, resign_threshold
        self.search_options = dict(search or {})     # SearchConfig fields: rave, exploration
        self.clock = Clock()
        self.engine = None
        self.low = [0, 0]                       # genmoves in a row below the resign threshold
        self.ready = threading.Event()
        self.new_game(size, komi)
        threading.Thread(target=self._load, daemon=True).start()

    # -- set-up ----------------------------------------------------------------------------
    def reseed(self, seed):
        """Use ``seed`` from now on (e.g. a different one for each game of a match)."""
        self.seed = seed
        if self.engine is not None:
            self.engine.reseed(seed)

    def _log(self, message):
        if self.log is not None:
            print(message, file=self.log, flush=True)

    def _load(self):
        try:
            self._warm_rules()
            load_kernels(self.game, log=self.log)
            self.game.point_ownership(self.game.initial_state(), 1)
        finally:
            self.ready.set()

    def _warm_rules(self):
        """Compile (or load) the rule kernels that every move needs before the long compile of
        the search: numba compiles one function at a time, so on a first run a ``play`` or a
        quick ``genmove`` waits for these few seconds only, not for the whole search."""
        g = Go(size=self.game.size, komi=self.game.komi, **self.go_options)
        s = g.initial_state()
        g.score(s)
        g.is_own_eye(s, 0)
        g.repeats_position(s, 0)
        g.play(s, int(g.legal_actions(s)[0]))

    def new_game(self, size, komi):
        self.game = Go(size=size, komi=komi, **self.go_options)
        self.state = self.game.initial_state()
        self.history = []                   # (state before, player, action) per move
        self.setup = []                     # handicap / setup stones (actions), all black
        self.engine_size = None

    def _engine(self):
        self.ready.wait()
        if self.engine is None or self.engine_size != self.game.size:
            if self.engine is not None:
                self.engine.close()
            config = SearchConfig(seed=self.seed, threads=self.threads, **self.search_options)
            self.engine = MCTS(self.game, config, log=None)
            self.engine_size = self.game.size
        return self.engine

    # -- the protocol ----------------------------------------------------------------------
    def handle(self, line: str):
        """The reply (without the final empty line) to one input line, or None if the line is
        empty after preprocessing. Sets ``self.quit`` on ``quit``."""
        line = preprocess(line)
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} syntax error"
        name, args = words[0].lower(), words[1:]
        method = getattr(self, "cmd_" + name.replace("-", "_"), None)
        if method is None:
            return f"?{ident} unknown command"
        try:
            result = method(*args) if _accepts(method, len(args)) else _syntax()
        except (GtpError, ValueError) as e:
            return f"?{ident} {e}"
        except Exception as e:          # a bug must not kill the engine in a GUI or a match
            self._log(f"internal error in {line!r}: {type(e).__name__}: {e}")
            return f"?{ident} internal error: {type(e).__name__}"
        return success(ident, "" if result is None else str(result))

    def run(self, stdin=sys.stdin, stdout=sys.stdout):
        """Read commands until ``quit`` or end of input. A line longer than ``MAX_LINE``
        characters is read no further than that (the rest is skipped) and answered with an
        error, so junk input never grows memory or comes back echoed whole."""
        self.quit = False
        while True:
            raw = stdin.readline(MAX_LINE + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE and not raw.endswith("\n"):
                while True:                      # skip the rest of the line, bounded reads
                    rest = stdin.readline(MAX_LINE)
                    if not rest or rest.endswith("\n"):
                        break
                reply = f"? command too long (over {MAX_LINE} characters)"
            else:
                reply = self.handle(raw)
            if reply is None:
                continue
            stdout.write(reply + "\n\n")
            stdout.flush()
            if self.quit:
                break

    # -- administrative --------------------------------------------------------------------
    def cmd_protocol_version(self):
        return "2"

    def cmd_name(self):
        return NAME

    def cmd_version(self):
        return VERSION

    def cmd_known_command(self, name):
        return "true" if name.lower() in self.commands() else "false"

    def cmd_list_commands(self):
        return "\n".join(self.commands())

    def commands(self):
        return sorted(_command_name(m[4:]) for m in dir(self) if m.startswith("cmd_"))

    def cmd_quit(self):
        self.quit = True

    def cmd_cputime(self):
        """CPU seconds this engine process has used (all threads), as GoGui's twogtp reads."""
        return f"{time.process_time():.3f}"

    def cmd_kgs_rules(self, rules, *ignored):
        """KGS names the rules of the game; the engine always scores by area (Chinese), which
        is what its search optimises, so the name is taken note of only."""
        self._log(f"kgs-rules {rules}: scoring by area")

    def cmd_kgs_game_over(self):
        """KGS says the game is over; nothing to do."""

    # -- setup -----------------------------------------------------------------------------
    def cmd_boardsize(self, size):
        try:
            n = int(size)
        except ValueError:
            raise GtpError("syntax error") from None
        if not 5 <= n <= 19:
            raise GtpError("unacceptable size")
        self.new_game(n, self.game.komi)

    def cmd_clear_board(self):
        self.new_game(self.game.size, self.game.komi)
        self.low = [0, 0]

    def cmd_komi(self, komi):
        try:
            k = float(komi)
        except ValueError:
            raise GtpError("syntax error") from None
        if not math.isfinite(k) or abs(k) > 1000 or k * 2 != round(k * 2):
            raise GtpError("komi must be a multiple of 0.5 from -1000 to 1000")
        self.game.set_komi(self.state, k)
        for before, _, _ in self.history:
            self.game.set_komi(before, k)

    def cmd_get_komi(self):
        return f"{self.game.komi:g}"

    def _empty(self):
        return not self.history and not self.setup

    def cmd_fixed_handicap(self, stones):
        n = _int(stones)
        if not self._empty():
            raise GtpError("board not empty")
        if not 2 <= n <= max_fixed_handicap(self.game.size):
            raise GtpError("invalid number of stones")
        vertices = fixed_handicap_vertices(self.game.size, n)
        self._place([self.game.vertex_to_action(v) for v in vertices])
        return " ".join(vertices)

    def cmd_place_free_handicap(self, stones):
        n = _int(stones)
        if not self._empty():
            raise GtpError("board not empty")
        size = self.game.size
        if not 2 <= n <= size * size - 1:
            raise GtpError("invalid number of stones")
        most = max_fixed_handicap(size)
        if 2 <= n <= most:
            chosen = [self.game.vertex_to_action(v) for v in fixed_handicap_vertices(size, n)]
        else:                                   # beyond the fixed points: spread them out
            chosen = [self.game.vertex_to_action(v)
                      for v in (fixed_handicap_vertices(size, most) if most else [])]
            rng = random.Random(self.seed)
            free = [a for a in range(size * size) if a not in chosen]
            rng.shuffle(free)
            chosen += free[:n - len(chosen)]
        self._place(chosen)
        return " ".join(self.game.action_to_vertex(a) for a in chosen)

    def cmd_set_free_handicap(self, *vertices):
        if not self._empty():
            raise GtpError("board not empty")
        try:
            actions = [self.game.vertex_to_action(v) for v in vertices]
        except ValueError:
            raise GtpError("bad vertex list") from None
        if len(actions) < 2 or len(set(actions)) != len(actions) or \
                self.game.pass_action in actions:
            raise GtpError("bad vertex list")
        try:
            self._place(actions)
        except ValueError:
            raise GtpError("bad vertex list") from None

    def _place(self, actions):
        self.game.place_stones(self.state, actions, "black", next_player=1)
        self.setup = list(actions)

    # -- moves -----------------------------------------------------------------------------
    def _vertex(self, text):
        try:
            return self.game.vertex_to_action(text)
        except ValueError:
            raise GtpError("syntax error") from None

    def _play(self, player, action):
        """Play ``action`` for ``player`` (any colour may move; a finished game goes on)."""
        nxt = self.state.copy()
        self.game.reopen(nxt)
        self.game.set_to_play(nxt, player)
        if self.game.kernels.apply_action(nxt, int(action)) == ILLEGAL:
            raise GtpError("illegal move")
        self.history.append((self.state, player, int(action)))
        self.state = nxt
        if self.engine is not None:
            self.engine.advance(int(action))

    def cmd_play(self, color, vertex):
        player = parse_color(color)
        action = self._vertex(vertex)
        try:
            self._play(player, action)
        except ValueError:
            raise GtpError("illegal move") from None

    def cmd_undo(self, *ignored):
        """Take back the last move. Extra arguments are ignored, as GNU Go does (qGo sends
        ``undo 0``)."""
        self._undo(1)

    def cmd_gg_undo(self, moves="1", *ignored):
        """GNU Go's ``gg-undo [N]``: take back the last N moves (default 1)."""
        n = _int(moves)
        if n < 0:
            raise GtpError("syntax error")
        self._undo(n)

    def _undo(self, n):
        if n > len(self.history) or not self.history:
            raise GtpError("cannot undo")
        for _ in range(n):
            self.state, _, _ = self.history.pop()
        if self.engine is not None:
            self.engine.forget()                # the tree no longer follows the game

    def cmd_genmove(self, color):
        return self._genmove(parse_color(color), play=True)

    def cmd_reg_genmove(self, color):
        return self._genmove(parse_color(color), play=False)

    def cmd_kgs_genmove_cleanup(self, color):
        return self._genmove(parse_color(color), play=True, cleanup=True)

    def _position_for(self, player):
        pos = self.state.copy()
        self.game.reopen(pos)
        self.game.set_to_play(pos, player)
        return pos

    def _genmove(self, player, play, cleanup=False):
        t0 = time.perf_counter()
        g = self.game
        pos = self._position_for(player)
        if g.status(pos) != ONGOING:            # the move cap: nothing but pass
            return "pass"
        empty = int((g.board(pos) == 0).sum())
        seconds = self.clock.plan(player, empty,
                                  self.budget.get("seconds") or self.default_seconds)
        budget = {"seconds": seconds} if self.clock.limited else dict(self.budget)
        if not self.ready.wait(timeout=max(0.0, seconds - 0.1)):
            action = self._quick_move(pos)      # still compiling: answer in time anyway
            self._log(f"kernels still loading: quick move {g.action_to_vertex(action)}")
        else:
            if "seconds" in budget:
                budget["seconds"] = max(0.02, budget["seconds"] - (time.perf_counter() - t0))
            action = self._search_move(player, pos, budget, cleanup)
            if action is None:
                return "resign"
        if play:
            self._play(player, action)
            self.clock.spend(player, time.perf_counter() - t0)
        return g.action_to_vertex(action)

    def _search_move(self, player, pos, budget, cleanup):
        g = self.game
        if not cleanup and g.ai_should_pass(pos) and self._pass_wins(pos, player):
            return g.pass_action
        engine = self._engine()
        if not np.array_equal(pos, self.state):
            engine.forget()                     # colour switched or game reopened
        result = engine.search(pos, **budget)
        self._log(f"genmove {g.players[player]}: {result.move}, win {100 * result.value:.1f}%, "
                  f"{result.playouts} playouts in {result.seconds:.2f} s")
        if self.resign_threshold > 0 and not cleanup:
            self.low[player] = self.low[player] + 1 if result.value < self.resign_threshold else 0
            if self.low[player] >= 2:
                return None
        action = g.final_choice(pos, result)      # never fills our own eye
        if cleanup and action == g.pass_action:
            action = self._cleanup_move(pos, result)
        elif action == g.pass_action and not self._pass_wins(pos, player):
            others = [c for c in result.children if c.action != g.pass_action
                      and not g.is_own_eye(pos, c.action)]
            if others:                      # passing would lose once dead stones are removed;
                action = others[0].action       # filling our own eyes would not help
        return action

    def _pass_wins(self, pos, player):
        """Would the game, ended now, be won by ``player`` with dead stones removed (as a
        referee such as GNU Go or a server's dead-stone agreement counts it), and not only by
        the bare Tromp-Taylor count that the search sees?"""
        score = self._score(pos)
        return score > 0 if player == 0 else score < 0

    def _cleanup_move(self, pos, result):
        """In the cleanup phase, capture dead enemy stones before passing."""
        g = self.game
        if not self._dead_stones(pos, enemy_of=g.to_play(pos)):
            return g.pass_action
        moves = [c for c in result.children if c.action != g.pass_action]
        return moves[0].action if moves else g.pass_action

    def _quick_move(self, pos):
        """A legal move chosen without compiled code: a random empty point with an empty
        neighbour (never suicide, never a ko capture) that is not next to only our stones."""
        g = self.game
        board, n = g.board(pos), g.size
        me = g.to_play(pos) + 1
        rng = random.Random(self.seed + len(self.history))
        options = []
        for r in range(n):
            for c in range(n):
                if board[r, c]:
                    continue
                nbrs = [board[rr, cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1),
                                                     (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]
                if 0 in nbrs and any(v != me for v in nbrs):
                    options.append(r * n + c)
        return rng.choice(options) if options else g.pass_action

    # -- information -----------------------------------------------------------------------
    def cmd_showboard(self):
        return "\n" + self.game.render(self.state, self._last_action())

    def _last_action(self):
        return self.history[-1][2] if self.history else None

    def cmd_is_legal(self, color, vertex):
        player, action = parse_color(color), self._vertex(vertex)
        pos = self._position_for(player)
        return "1" if action in set(self.game.legal_actions(pos).tolist()) else "0"

    def cmd_all_legal(self, color):
        pos = self._position_for(parse_color(color))
        return " ".join(self.game.action_to_vertex(a) for a in self.game.legal_actions(pos)
                        if a != self.game.pass_action)

    def cmd_list_stones(self, color):
        want = parse_color(color) + 1
        board, n = self.game.board(self.state), self.game.size
        return " ".join(self.game.action_to_vertex(r * n + c) for r in range(n)
                        for c in range(n) if board[r, c] == want)

    # -- scoring ---------------------------------------------------------------------------
    def _groups(self, board):
        """Connected groups of stones: list of (colour, [actions])."""
        n, seen, out = board.shape[0], set(), []
        for start in range(n * n):
            if start in seen or not board[divmod(start, n)]:
                continue
            color, todo, group = board[divmod(start, n)], [start], []
            seen.add(start)
            while todo:
                a = todo.pop()
                group.append(a)
                r, c = divmod(a, n)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    b = rr * n + cc
                    if 0 <= rr < n and 0 <= cc < n and b not in seen and board[rr, cc] == color:
                        seen.add(b)
                        todo.append(b)
            out.append((int(color), sorted(group)))
        return out

    def _status_of_groups(self, pos):
        """(color, actions, status) per group, status alive/dead/seki from playout ownership."""
        g = self.game
        self.ready.wait()
        own = g.point_ownership(pos, playouts=300, seed=self.seed).ravel()
        board = g.board(pos)
        regions = empty_regions(board)
        reach = region_colors(board, regions)
        out = []
        for color, group in self._groups(board):
            sign = 1 if color == 1 else -1
            mine = float(np.mean([own[a] * sign for a in group]))
            status = "dead" if mine < 0 else "alive"
            if status == "alive" and in_seki(board, regions, reach, color, group):
                status = "seki"
            out.append((color, group, status))
        return out

    def _dead_stones(self, pos, enemy_of=None):
        stones = []
        for color, group, status in self._status_of_groups(pos):
            if status == "dead" and (enemy_of is None or color - 1 != enemy_of):
                stones += group
        return stones

    def cmd_final_status_list(self, status, *ignored):
        status = status.lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("syntax error")
        g = self.game
        return "\n".join(" ".join(g.action_to_vertex(a) for a in group)
                         for _, group, st in self._status_of_groups(self.state) if st == status)

    def cmd_final_score(self, *ignored):
        return self.game.result_string(self._score(self.state))

    def _score(self, pos):
        """Black's area minus White's minus komi, with the dead stones (estimated from the
        playouts' final ownership) taken off the board."""
        g = self.game
        board = g.board(pos).copy()
        for a in self._dead_stones(pos):
            board[divmod(a, g.size)] = 0
        black, white = area_of(board)
        return black - white - g.komi

    # -- time ------------------------------------------------------------------------------
    def cmd_time_settings(self, main, period, stones):
        try:
            self.clock = Clock(TimeControl.from_gtp(float(main), float(period), int(stones)))
        except ValueError:
            raise GtpError("syntax error") from None

    def cmd_kgs_time_settings(self, system, *values):
        system = system.lower()
        try:
            v = [float(x) for x in values]
            if system == "none" and not v:
                control = TimeControl("none")
            elif system == "absolute" and len(v) == 1:
                control = TimeControl("absolute", v[0])
            elif system == "byoyomi" and len(v) == 3:
                control = TimeControl("byoyomi", v[0], v[1], int(v[2]))
            elif system == "canadian" and len(v) == 3:
                control = TimeControl("canadian", v[0], v[1], int(v[2]))
            else:
                raise ValueError
        except ValueError:
            raise GtpError("syntax error") from None
        self.clock = Clock(control)

    def cmd_time_left(self, color, seconds, stones):
        player = parse_color(color)
        try:
            self.clock.update(player, float(seconds), int(stones))
        except ValueError:
            raise GtpError("syntax error") from None

    # -- SGF -------------------------------------------------------------------------------
    def sgf_bytes(self):
        moves = [(p, a) for _, p, a in self.history]
        result = None
        if self.game.status(self.state) != ONGOING:
            result = self.game.result_string(self.state)
        return go_sgf.to_sgf(self.game, moves, setup_black=self.setup, result=result,
                             first_player=1 if self.setup else 0)

    def cmd_printsgf(self, filename=None):
        data = self.sgf_bytes()
        if filename:
            try:
                go_sgf.save(filename, data)
            except OSError:
                raise GtpError("cannot save file") from None
            return ""
        return data.decode("utf-8").strip()

    def cmd_loadsgf(self, filename, move_number=None):
        try:
            with open(filename, "rb") as f:
                data = f.read(MAX_SGF_BYTES + 1)     # /dev/zero or a huge file: bounded
            if len(data) > MAX_SGF_BYTES:
                raise ValueError("too large")
            record = go_sgf.from_sgf(data)
        except (OSError, ValueError):
            raise GtpError("cannot load file") from None
        if not 5 <= record["size"] <= 19:
            raise GtpError("cannot load file")
        limit = None if move_number is None else max(0, _int(move_number) - 1)
        saved = (self.game, self.state, self.history, self.setup)
        try:
            self.new_game(record["size"], record["komi"])
            if record["setup_black"] or record["setup_white"]:
                self.game.set_up(self.state, record["setup_black"], record["setup_white"],
                                 next_player=record["first_player"])
                self.setup = list(record["setup_black"])
            for player, action in record["moves"][:limit]:
                self._play(player, action)
        except (GtpError, ValueError):
            self.game, self.state, self.history, self.setup = saved
            raise GtpError("cannot load file") from None
        nxt = record["moves"][limit][0] if limit is not None and limit < len(
            record["moves"]) else None
        if nxt is not None:
            self.game.set_to_play(self.state, nxt)
        return "black" if self.game.to_play(self.state) == 0 else "white"


def success(ident, result):
    """A success reply formatted as GNU Go formats it: the first line of ``result`` on the
    ``=`` line (``= aa_confirm_safety``), the others after it; an empty first line (a board
    diagram) leaves ``= `` alone on its line. Other empty lines are dropped, since an empty
    line ends a GTP reply."""
    first, *rest = result.split("\n")
    rest = [x for x in rest if x.strip()]
    if not rest:
        return f"={ident} {first}".rstrip()
    return "\n".join([f"={ident} {first}"] + rest)


def in_seki(board, regions, reach, color, group):
    """Alive ``group`` without an empty region of its own (an eye or territory) but touching
    an empty region that also touches enemy stones: shared liberties, as in seki.
    ``regions``/``reach`` come from :func:`empty_regions` and :func:`region_colors`."""
    n = board.shape[0]
    touching = set()
    for a in group:
        r, c = divmod(a, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and board[rr, cc] == 0:
                touching.add(regions[rr, cc])
    own_region = any(reach[k] == {color} for k in touching)
    shared = any(reach[k] == {1, 2} for k in touching)
    return shared and not own_region


def empty_regions(board):
    """Label the empty regions of an int8 (n, n) board: int array, -1 on stones."""
    n = board.shape[0]
    labels = np.full(board.shape, -1, dtype=np.int64)
    k = 0
    for r in range(n):
        for c in range(n):
            if board[r, c] or labels[r, c] >= 0:
                continue
            labels[r, c] = k
            todo = [(r, c)]
            while todo:
                x, y = todo.pop()
                for xx, yy in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if 0 <= xx < n and 0 <= yy < n and not board[xx, yy] and labels[xx, yy] < 0:
                        labels[xx, yy] = k
                        todo.append((xx, yy))
            k += 1
    return labels


def region_colors(board, labels):
    """For each region label, the set of stone colours (1, 2) it touches."""
    n = board.shape[0]
    reach = {}
    for r in range(n):
        for c in range(n):
            k = labels[r, c]
            if k < 0:
                continue
            seen = reach.setdefault(k, set())
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n and board[rr, cc]:
                    seen.add(int(board[rr, cc]))
    return reach


def area_of(board):
    """Tromp-Taylor area (black, white) of an int8 (n, n) board (0 empty, 1 black, 2 white):
    stones plus the empty regions that reach only that colour."""
    labels = empty_regions(board)
    reach = region_colors(board, labels)
    black, white = int((board == 1).sum()), int((board == 2).sum())
    for k, colours in reach.items():
        size = int((labels == k).sum())
        if colours == {1}:
            black += size
        elif colours == {2}:
            white += size
    return black, white


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise GtpError("syntax error") from None


def _syntax():
    raise GtpError("syntax error")


def _command_name(method):
    """GTP name of a ``cmd_`` method: ``kgs_genmove_cleanup`` is ``kgs-genmove_cleanup``,
    ``gg_undo`` is ``gg-undo``; the others keep their underscores."""
    for prefix in ("kgs_", "gg_"):
        if method.startswith(prefix):
            return prefix[:-1] + "-" + method[len(prefix):]
    return method


def _accepts(method, count):
    """True if ``method`` takes ``count`` positional arguments."""
    code = method.__func__.__code__
    required = code.co_argcount - 1 - len(method.__func__.__defaults__ or ())
    if code.co_flags & 0x04:                  # *args
        return count >= required
    return required <= count <= code.co_argcount - 1


def search_options(args):
    """SearchConfig fields given on the command line (exploration, nodes, RAVE)."""
    out = {"rave": args.rave, "rave_k": args.rave_k}
    if args.exploration is not None:
        out["exploration"] = args.exploration
    if args.nodes is not None:
        out["capacity"] = args.nodes
    return out


def gtp(args):
    """Run the `gtp` command: serve GTP on stdin/stdout until quit or end of input."""
    params = dict(args.game_params)          # Go's parameters given on the command line
    size, komi = params.pop("size", 9), params.pop("komi", 7.5)
    try:
        engine = GtpEngine(size=size, komi=komi,
                           playouts=args.playouts, seconds=args.seconds or 1.0, seed=args.seed,
                           threads=args.threads or os.cpu_count() or 1,
                           resign_threshold=args.resign_threshold, search=search_options(args),
                           go_options=params)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        engine.run()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        pass
    return 0
