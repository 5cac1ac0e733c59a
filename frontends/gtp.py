"""`gtp`: a Go engine behind the Go Text Protocol, on stdin/stdout, for GUIs and match tools.

Protocol only: each command's arguments are parsed here and handed to a :class:`frontends.
go_session.GoSession`, which holds the game and the AI; the wire format and the dispatch are
:mod:`frontends.gtp_protocol`'s, the live-analysis commands :mod:`frontends.gtp_analysis`'s.
Extra arguments are ignored where GNU Go ignores them (``undo``, ``final_score``,
``final_status_list``). Only GTP goes to stdout; notes go to stderr.
"""
import math
import sys
import time

from frontends.go_session import GoSession, SessionError
from frontends.gtp_analysis import AnalysisCommands
from frontends.gtp_protocol import GtpError, GtpServer, int_arg, parse_color
from frontends.timecontrol import Clock, TimeControl, TimeValueError
from games.go.notation import max_fixed_handicap
from games.release import __version__

# GTP `name` and `version`: the project's own name and release (games.release). Lizzie
# 0.7.4 reads the second number of `version` as Leela Zero's minor version and wants 15 or
# more (Leelaz.java); the project's release numbers (0.53 ...) pass it truthfully.
NAME, VERSION = "mcts-engine", __version__
# kgs-rules names -> the rules counted (games.go.score.RULES)
KGS_RULES = {"chinese": "chinese", "aga": "aga", "japanese": "chinese",
             "new-zealand": "chinese", "tromp-taylor": "tromp-taylor"}


class GtpEngine(AnalysisCommands, GtpServer):
    """A Go game under GTP control (``params``: Go's parameters; ``player``: a
    :class:`frontends.player.PlayerConfig`; ``log``: notes, None for silence)."""

    errors = (SessionError,)

    def __init__(self, params=None, player=None, log=sys.stderr):
        self.session = GoSession(params, player, log)

    def note(self, message):
        self.session.note(message)

    def ponder(self, stopped):
        self.session.ponder(stopped)

    game = property(lambda self: self.session.game)
    state = property(lambda self: self.session.state)
    ready = property(lambda self: self.session.ready)

    # -- administrative --------------------------------------------------------------------
    def cmd_name(self):
        return NAME

    def cmd_version(self):
        return VERSION

    def cmd_cputime(self):
        """CPU seconds this engine process has used (all threads), as GoGui's twogtp reads."""
        return f"{time.process_time():.3f}"

    def cmd_kgs_rules(self, rules, *ignored):
        """KGS's rules: ``chinese`` and ``aga`` are counted as such (by area, dead stones
        removed, White's handicap compensation one point a stone, or one a stone after the
        first); ``japanese`` (territory) and ``new_zealand`` are accepted, since kgs-gtp plays
        no game unless this succeeds, and counted by area as ``chinese``, which the log always
        says (KGS counts the game itself); ``tromp-taylor`` keeps the bare count."""
        name = rules.lower().replace("_", "-")
        if name not in KGS_RULES:
            raise GtpError("unknown rules")
        self.session.set_rules(KGS_RULES[name])
        if name in ("japanese", "new-zealand"):
            print(f"kgs-rules {rules}: not scored as such here; counting by area with dead "
                  f"stones removed (chinese rules)", file=sys.stderr, flush=True)
        else:
            self.session.note(f"kgs-rules {rules}: scoring by {self.game.rules} rules")

    def cmd_kgs_game_over(self):
        """KGS says the game is over; nothing to do."""

    # -- setup -----------------------------------------------------------------------------
    def cmd_boardsize(self, size):
        n = int_arg(size)
        if not 5 <= n <= 19:
            raise GtpError("unacceptable size")
        self.session.new_game(size=n)

    def cmd_clear_board(self):
        self.session.new_game()

    def cmd_komi(self, komi):
        """Any finite komi from -1000 to 1000, as GNU Go takes a float: a fraction such as 6.3
        is kept for ``get_komi``, ``final_score`` and SGF, and searched as the half point
        that decides alike (:func:`games.go.game.komi2`)."""
        try:
            k = float(komi)
        except ValueError:
            raise GtpError("syntax error") from None
        if not math.isfinite(k):
            raise GtpError("syntax error")
        if abs(k) > 1000:
            raise GtpError("komi must be from -1000 to 1000")
        self.session.set_komi(k)

    def cmd_get_komi(self):
        return f"{self.game.komi:g}"

    def cmd_fixed_handicap(self, stones):
        n = int_arg(stones)
        if not self.session.empty():
            raise GtpError("board not empty")
        if not 2 <= n <= max_fixed_handicap(self.game.size):
            raise GtpError("invalid number of stones")
        vertices = self.session.fixed_handicap(n)
        self.session.place_handicap([self.game.vertex_to_action(v) for v in vertices])
        return " ".join(vertices)

    def cmd_place_free_handicap(self, stones):
        n = int_arg(stones)
        if not self.session.empty():
            raise GtpError("board not empty")
        if not 2 <= n <= self.game.size ** 2 - 1:
            raise GtpError("invalid number of stones")
        chosen = self.session.free_handicap(n)
        self.session.place_handicap(chosen)
        return " ".join(self.game.action_to_vertex(a) for a in chosen)

    def cmd_set_free_handicap(self, *vertices):
        if not self.session.empty():
            raise GtpError("board not empty")
        try:
            actions = [self.game.vertex_to_action(v) for v in vertices]
            if len(actions) < 2 or len(set(actions)) != len(actions) or \
                    self.game.pass_action in actions:
                raise ValueError
            self.session.place_handicap(actions)
        except ValueError:
            raise GtpError("bad vertex list") from None

    # -- moves -----------------------------------------------------------------------------
    def _vertex(self, text):
        try:
            return self.game.vertex_to_action(text)
        except ValueError:
            raise GtpError("syntax error") from None

    def _move(self, color, vertex):
        """``(player, action)`` of ``play`` and ``is_legal``; a bad colour or vertex gets GNU
        Go's answer ``invalid color or coordinate``."""
        try:
            return parse_color(color), self._vertex(vertex)
        except GtpError:
            raise GtpError("invalid color or coordinate") from None

    def cmd_play(self, color, vertex):
        player, action = self._move(color, vertex)
        try:
            self.session.play(player, action)
        except ValueError:
            raise GtpError("illegal move") from None

    def cmd_undo(self, *ignored):
        """Take back the last move; extra arguments ignored, as GNU Go (qGo sends ``undo 0``)."""
        self.session.undo(1)

    def cmd_gg_undo(self, moves="1", *ignored):
        """GNU Go's ``gg-undo [N]``: take back the last N moves (default 1)."""
        n = int_arg(moves)
        if n < 0:
            raise GtpError("syntax error")
        self.session.undo(n)

    def cmd_genmove(self, color):
        move = self.session.genmove(parse_color(color))
        self.pondering = self.session.player.ponder
        return move

    def cmd_reg_genmove(self, color):
        return self.session.genmove(parse_color(color), play=False)

    def cmd_kgs_genmove_cleanup(self, color):
        return self.session.genmove(parse_color(color), cleanup=True)

    # -- information -----------------------------------------------------------------------
    def cmd_showboard(self):
        return "\n" + self.session.rules.render(self.state, self.session.last_action())

    def cmd_is_legal(self, color, vertex):
        player, action = self._move(color, vertex)
        pos = self.session.position_for(player)
        return "1" if action in set(self.session.rules.legal_actions(pos).tolist()) else "0"

    def cmd_all_legal(self, color):
        pos = self.session.position_for(parse_color(color))
        return " ".join(self.game.action_to_vertex(a) for a in
                        self.session.rules.legal_actions(pos) if a != self.game.pass_action)

    def cmd_list_stones(self, color):
        want = parse_color(color) + 1
        board, n = self.session.rules.board(self.state), self.game.size
        return " ".join(self.game.action_to_vertex(r * n + c) for r in range(n)
                        for c in range(n) if board[r, c] == want)

    # -- scoring ---------------------------------------------------------------------------
    def cmd_final_status_list(self, status, *ignored):
        status = status.lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("syntax error")
        g = self.game
        return "\n".join(" ".join(g.action_to_vertex(a) for a in points)
                         for _, points, st in self.session.final_status() if st == status)

    def cmd_final_score(self, *ignored):
        return self.session.final_result()

    # -- time ------------------------------------------------------------------------------
    def cmd_time_settings(self, main, period, stones):
        """GTP's ``time_settings``; a negative count of byo-yomi stones is refused whatever
        the byo-yomi time (``0 0 -1`` as ``0 1 -1``)."""
        values = _numbers((main, float), (period, float), (stones, int))
        if values[2] < 0:
            raise GtpError(f"time values must be finite and not negative, got {values[2]}")
        self.session.clock = _time_value(lambda: Clock(TimeControl.from_gtp(*values)))

    def cmd_kgs_time_settings(self, system, *values):
        self.session.clock = _time_value(lambda: Clock(TimeControl.from_kgs(system, values)))

    def cmd_kata_time_settings(self, system, *values):
        self.session.clock = _time_value(lambda: Clock(TimeControl.from_kata(system, values)))

    def cmd_time_left(self, color, seconds, stones):
        player = parse_color(color)
        values = _numbers((seconds, float), (stones, int))
        _time_value(lambda: self.session.clock.update(player, *values))

    # -- SGF -------------------------------------------------------------------------------
    def cmd_printsgf(self, filename=None):
        from games.go import sgf as go_sgf
        data = self.session.sgf_bytes()
        if filename:
            try:
                go_sgf.save(filename, data)
            except OSError:
                raise GtpError("cannot save file") from None
            return ""
        return data.decode("utf-8").strip()

    def cmd_loadsgf(self, filename, move_number=None):
        n = None if move_number is None else int_arg(move_number)
        if n is not None and n < 1:
            raise GtpError("syntax error")
        return "black" if self.session.load_sgf(filename, n) == 0 else "white"


def _numbers(*fields):
    """The GTP arguments ``(text, type)`` converted; ``GtpError("syntax error")`` if one is not
    a number of its type."""
    try:
        return [kind(text) for text, kind in fields]
    except ValueError:
        raise GtpError("syntax error") from None


def _time_value(make):
    """``make()``'s result; a time value out of range is refused with its reason, any other
    malformed time setting as a syntax error."""
    try:
        return make()
    except TimeValueError as e:
        raise GtpError(str(e)) from None
    except ValueError:
        raise GtpError("syntax error") from None


def gtp(args):
    """Run the `gtp` command: serve GTP on stdin/stdout until quit or end of input."""
    from frontends.player import PlayerConfig
    try:
        engine = GtpEngine(args.game_params, PlayerConfig.from_args(args))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        engine.run()
    except KeyboardInterrupt:               # a controller's Ctrl-C: said on stderr, not stdout
        print("interrupted", file=sys.stderr, flush=True)
        return 130
    except BrokenPipeError:
        pass
    return 0
