"""Live analysis for Go GUIs: the GTP commands (a mixin of :class:`frontends.gtp.GtpEngine`)
and the text of their replies, from search results; no game logic, no search.

* Leela Zero's ``lz-analyze`` (also ``analyze``), read by Lizzie and Sabaki: one line per
  report, ``info move D4 visits 120 winrate 5432 prior 812 lcb 5100 order 0 pv D4 Q16 ...``
  for each candidate, the win rate, prior and lower confidence bound in 1/10000 of the side to
  move (Leela Zero's GTP extensions, ``lz-analyze``).
* KataGo's ``kata-analyze``: the same keys with ``winrate``, ``prior`` and ``lcb`` in [0, 1],
  and ``ownership`` (one value in [-1, 1] per point, row by row from the top-left, from the
  side to move's view) at the end of the line when asked for (KataGo's GTP extensions,
  ``docs/GTP_Extensions.md``).
* GoGui's analyze commands (``gogui-analyze_commands``): ``gfx`` replies in GoGui's graphics
  language (``VAR b D4 w E5``, ``LABEL D4 120``, ``TEXT ...``), ``dboard`` replies (numbers row
  by row from the top) and ``plist`` replies (a point list).

Inputs: ``result``, an :class:`mcts.results.SearchResult`; ``priors``, {action: probability};
``to_move`` 0 (Black) or 1 (White); ``ownership`` float ``(n, n)``, +1 Black, row 0 on top:
the search's own (``SearchResult.ownership``, summed over the playouts of the tree reported
on, so refreshed on every line; :meth:`frontends.go_session.GoSession.ownership_of`).
"""
import math

from frontends.gtp_protocol import GtpError, Stream, number_arg, parse_color

# Keywords of lz-analyze / kata-analyze (Leela Zero's and KataGo's GTP extensions).
ANALYZE_KEYWORDS = ("interval", "ownership", "maxmoves", "minmoves", "avoid", "allow",
                    "ownershipstdev", "pvvisits", "rootinfo", "movesownership")

GOGUI_COMMANDS = (
    "gfx/MCTS principal variation/mcts-pv",
    "gfx/MCTS visits/mcts-visits",
    "gfx/MCTS win rates/mcts-winrates",
    "dboard/MCTS ownership/mcts-ownership",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
)


def lcb(value, visits, z=1.96):
    """Lower bound of the 95 % Wilson score interval of a win rate ``value`` over ``visits``
    playouts (Wilson 1927); 0 without visits."""
    if visits <= 0:
        return 0.0
    n, p = visits, min(max(value, 0.0), 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half)


def candidates(result, limit=None):
    """The moves to report: visited children, most visited first (the search's order)."""
    kids = [c for c in result.children if c.visits > 0]
    return kids[:limit] if limit else kids


def info_line(result, pvs, priors, style="lz", ownership=None, to_move=0, limit=None):
    """One report line of ``lz-analyze`` (``style="lz"``) or ``kata-analyze`` (``"kata"``).
    ``pvs``: {action: [vertices]} principal variation from each candidate."""
    parts = []
    for order, c in enumerate(candidates(result, limit)):
        p, bound = priors.get(c.action, 0.0), lcb(c.value, c.visits)
        if style == "kata":
            fields = (f"winrate {c.value:.6f} prior {p:.6f} lcb {bound:.6f}")
        else:
            fields = (f"winrate {round(10000 * c.value)} prior {round(10000 * p)} "
                      f"lcb {round(10000 * bound)}")
        pv = " ".join(pvs.get(c.action) or [c.move])
        parts.append(f"info move {c.move} visits {c.visits} {fields} order {order} pv {pv}")
    line = " ".join(parts)
    if ownership is not None:
        sign = 1.0 if to_move == 0 else -1.0
        line += " ownership " + " ".join(f"{sign * v:.4f}" for v in ownership.ravel())
    return line


def gfx_pv(pv, to_move):
    """GoGui ``VAR`` of a principal variation (vertices) starting with ``to_move``."""
    out, colour = [], to_move
    for move in pv:
        out.append(f"{'bw'[colour]} {move}")
        colour = 1 - colour
    return "VAR " + " ".join(out) if out else "TEXT no principal variation yet"


def gfx_labels(result, what):
    """GoGui ``LABEL``s on the candidate moves: their visits (``what="visits"``) or win rates
    in percent (``"winrates"``), and a ``TEXT`` line with the playouts."""
    labels = []
    for c in candidates(result):
        if c.move.lower() == "pass":
            continue
        text = str(c.visits) if what == "visits" else f"{100 * c.value:.0f}%"
        labels.append(f"{c.move} {text}")
    lines = ["LABEL " + " ".join(labels)] if labels else []
    lines.append(f"TEXT {result.playouts} playouts, best {result.move} "
                 f"{100 * result.value:.1f}%")
    return "\n".join(lines)


def dboard(values):
    """A GoGui ``dboard`` reply: the rows of float ``(n, n)`` ``values``, top row first."""
    return "\n".join(" ".join(f"{v:.2f}" for v in row) for row in values)


class AnalysisCommands:
    """The analysis commands of a GTP engine whose ``session`` is a
    :class:`frontends.go_session.GoSession` (``self.ident``: the id of the command)."""

    def cmd_lz_analyze(self, *args):
        return self._analyze(args, "lz", genmove=False)

    cmd_analyze = cmd_lz_analyze

    def cmd_kata_analyze(self, *args):
        return self._analyze(args, "kata", genmove=False)

    def cmd_lz_genmove_analyze(self, *args):
        return self._analyze(args, "lz", genmove=True)

    cmd_genmove_analyze = cmd_lz_genmove_analyze

    def cmd_kata_genmove_analyze(self, *args):
        return self._analyze(args, "kata", genmove=True)

    def cmd_stop(self, *ignored):
        """Ends a running analysis (as any command does); nothing else to do."""

    def _analyze(self, args, style, genmove):
        """Parse ``[colour] [interval] [keyword value ...]`` as Leela Zero and KataGo do:
        the interval in centiseconds (also as ``interval N``); keywords ``ownership
        true|false``, ``maxmoves N``, ``minmoves N``, and KataGo's others (taken, not used).
        Anything else is a syntax error, so a malformed command never starts a search."""
        args = list(args)
        player = self.game.to_play(self.state)
        if args and args[0].lower() in ("b", "w", "black", "white"):
            player = parse_color(args.pop(0))
        elif genmove:
            raise GtpError("syntax error")
        options = {}
        if args and args[0].lower() not in ANALYZE_KEYWORDS:
            options["interval"] = args.pop(0)
        if len(args) % 2:
            raise GtpError("syntax error")
        for key, value in zip(args[0::2], args[1::2]):
            if key.lower() not in ANALYZE_KEYWORDS:
                raise GtpError("syntax error")
            options[key.lower()] = value
        interval = max(0.05, number_arg(options.get("interval", "100")) / 100)
        ownership = options.get("ownership", "false").lower()
        if ownership not in ("true", "false"):
            raise GtpError("syntax error")
        ownership = ownership == "true"
        limit = int(number_arg(options["maxmoves"])) if "maxmoves" in options else None
        if "minmoves" in options:
            number_arg(options["minmoves"])
        session = self.session

        def report(result, pos):
            ownership_map = session.ownership_of(result) if ownership else None
            return info_line(result, session.pvs(pos, result, limit),
                                 session.priors(pos), style, ownership_map,
                                 session.game.to_play(pos), limit)

        def run(write, stopped):
            session.ownership = ownership           # the searches of this stream sum it
            try:
                if genmove:
                    move = session.genmove(player, on_progress=lambda r: write(
                        report(r, session.last[0])), interval=interval)
                    write(f"play {move}")
                else:
                    session.analyze(player, interval, stopped,
                                    lambda r, pos: write(report(r, pos)))
            finally:
                session.ownership = False
        return Stream(self.ident, run)

    def cmd_gogui_analyze_commands(self):
        return "\n".join(GOGUI_COMMANDS)

    def cmd_mcts_pv(self):
        pos, result = self.session.latest()
        return gfx_pv(result.pv, self.game.to_play(pos))

    def cmd_mcts_visits(self):
        return gfx_labels(self.session.latest()[1], "visits")

    def cmd_mcts_winrates(self):
        return gfx_labels(self.session.latest()[1], "winrates")

    def cmd_mcts_ownership(self):
        return dboard(self.session.ownership_map())


