"""GTP while the kernels load: without a clock, genmove waits for the compiled search; under a
clock, a compilation in progress gets a quick move (said on stderr), cached kernels never do;
a piped ``quit`` or end of input behind a genmove still gets the search's answer first. The
loader is stood in for (held by a gate, or never done): nothing compiles here."""
import io
import threading

import pytest

from frontends import go_session
from frontends.gtp import GtpEngine
from frontends.gtp_protocol import GtpServer
from frontends.player import PlayerConfig
from frontends.timecontrol import Clock, TimeControl


def player(**kw):
    return PlayerConfig(threads=1, seed=5, playouts=300, **kw)


def session(monkeypatch, compiling, gate=None, opens_after=None, **kw):
    """A 9x9 session whose kernels load once ``gate`` is set (if ``opens_after``: that many
    seconds after now; without a gate: never); ``compiling``: what the session takes the load
    for (a compilation, or cached kernels). Its quick moves fail the test unless allowed."""
    monkeypatch.setattr(go_session, "needs_compiling", lambda game: compiling)

    class Held(go_session.GoSession):
        def _load(self):
            if gate is not None and gate.wait(60):
                super()._load()
    s = Held({"size": 9}, player(**kw), log=io.StringIO())
    if opens_after is not None:
        threading.Timer(opens_after, gate.set).start()
    return s


def no_quick_moves(s):
    def refuse(pos):
        raise AssertionError("a quick move")
    s.quick_move = refuse


def searched_move(player_):
    """The move of a session whose kernels are loaded, from the empty board."""
    s = go_session.GoSession({"size": 9}, player_, log=None)
    s.ready.wait()
    return s.genmove(0)


def test_without_a_clock_genmove_waits_for_a_compilation_and_searches(monkeypatch):
    s = session(monkeypatch, compiling=True, gate=threading.Event(), opens_after=0.5)
    no_quick_moves(s)
    assert not s.ready.is_set()
    move = s.genmove(0)
    assert move == searched_move(player())          # the seeded search's move
    assert s.last is not None and s.last[1].playouts >= 300
    assert "quick move" not in s.log.getvalue()


def test_under_a_clock_a_compilation_gets_a_quick_move_said_on_stderr(monkeypatch):
    s = session(monkeypatch, compiling=True)              # never loads
    s.clock = Clock(TimeControl("fischer", increment=0.3))
    move = s.genmove(0)
    assert s.history[-1][1:] == (0, s.game.vertex_to_action(move))      # played
    assert s.log.getvalue() == f"compiling (first run): quick move {move} within the clock\n"
    assert s.last is None                                 # nothing searched


def test_cached_kernels_are_waited_for_even_under_a_tiny_clock(monkeypatch):
    s = session(monkeypatch, compiling=False, gate=threading.Event(), opens_after=0.3)
    no_quick_moves(s)
    s.clock = Clock(TimeControl("fischer", increment=0.05))
    move = s.genmove(0)
    assert s.last is not None and s.last[1].playouts > 0     # searched
    assert s.log.getvalue().startswith(f"genmove Black: {move} (search: ")
    assert "quick move" not in s.log.getvalue()


def serve(monkeypatch, compiling, script, **kw):
    """Run a GTP engine on ``script`` (its whole input, already there) whose kernels load 0.3 s
    after the start, taken for a compilation or not (``compiling``); (replies, engine's log)."""
    monkeypatch.setattr(go_session, "needs_compiling", lambda game: compiling)
    load = go_session.GoSession._load

    def slow(self):
        threading.Event().wait(0.3)
        load(self)
    monkeypatch.setattr(go_session.GoSession, "_load", slow)
    log, out = io.StringIO(), io.StringIO()
    e = GtpEngine({"size": 9}, player(**kw), log=log)
    runner = threading.Thread(target=e.run, args=(io.StringIO(script), out), daemon=True)
    runner.start()
    runner.join(60)
    assert not runner.is_alive(), "the engine did not end"
    return out.getvalue().split("\n\n")[:-1], log.getvalue()


@pytest.mark.parametrize("compiling", [True, False])
@pytest.mark.parametrize("script", ["genmove b\nquit\n", "genmove b\n", "1 genmove b\n2 quit\n"])
def test_a_piped_session_searches_before_it_quits(monkeypatch, script, compiling):
    replies, log = serve(monkeypatch, compiling, script)
    ident = "1" if script.startswith("1") else ""
    assert replies[0] == f"={ident} {searched_move(player())}"
    assert len(replies) == script.count("\n")
    assert "quick move" not in log
