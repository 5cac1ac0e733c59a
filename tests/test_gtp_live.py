"""GTP beyond the basics: live analysis (lz-analyze, kata-analyze, genmove_analyze), GoGui's
analyze commands, pondering, the cold-start path, the rules and their score, and refused
files. Streams are driven through ``GtpEngine.run`` on a pipe, as a GUI drives them."""
import io
import os
import re
import threading
import time

import pytest

from frontends.go_session import GoSession
from frontends.gtp import GtpEngine
from frontends.player import PlayerConfig
from frontends.timecontrol import Clock, TimeControl

INFO = re.compile(r"info move ([A-HJ-T]\d+|pass) visits (\d+) winrate (\S+) prior (\S+) "
                  r"lcb (\S+) order (\d+) pv ((?:(?:[A-HJ-T]\d+|pass) ?)+)")


def engine(**kw):
    kw.setdefault("playouts", 300)
    e = GtpEngine({"size": 9}, PlayerConfig(threads=1, **kw), log=None)
    e.ready.wait()
    return e


def drive(e, script):
    """Run ``e`` on a pipe fed by ``script`` [(line, seconds to wait after it)]; the output
    split into replies (each ends with an empty line)."""
    r, w = os.pipe()
    stdin, out = os.fdopen(r, "r"), io.StringIO()

    def feed():
        with os.fdopen(w, "w") as f:
            for line, wait in script:
                f.write(line + "\n")
                f.flush()
                time.sleep(wait)
    t = threading.Thread(target=feed)
    t.start()
    e.run(stdin, out)
    t.join()
    return out.getvalue().split("\n\n")


def test_lz_analyze_streams_until_the_next_command():
    e = engine()
    replies = drive(e, [("play b E5", 0), ("lz-analyze w 10", 1.0), ("name", 0), ("quit", 0)])
    assert replies[0] == "="
    head, *lines = replies[1].split("\n")
    assert head == "=" and len(lines) >= 2
    for line in lines:
        entries = line.split(" info ")
        assert entries[0].startswith("info move ")
        for order, entry in enumerate(entries):
            m = INFO.fullmatch(("" if order == 0 else "info ") + entry)
            assert m, entry
            assert int(m[6]) == order and 0 <= int(m[3]) <= 10000 and m[7].split()[0] == m[1]
    visits = [int(INFO.match(line)[2]) for line in lines]
    assert visits == sorted(visits) and visits[-1] > visits[0]      # one tree grows
    assert replies[2] == "= mcts-engine" and replies[3] == "="
    assert e.handle("list_stones w") == "="                          # analysis plays nothing


def test_kata_analyze_with_ownership_and_genmove_analyze():
    e = engine(seconds=0.6, playouts=None)
    replies = drive(e, [("kata-analyze b 20 ownership true", 0.7), ("stop", 0),
                        ("kata-genmove_analyze b 20", 1.5), ("quit", 0)])
    lines = replies[0].split("\n")[1:]
    assert lines
    values = lines[-1].split(" ownership ")[1].split()
    assert len(values) == 81 and all(-1 <= float(v) <= 1 for v in values)
    assert 0 < float(INFO.match(lines[-1])[3]) < 1                   # win rate in [0, 1]
    assert replies[1] == "="
    head, *rest = replies[2].split("\n")
    assert head == "=" and rest[-1].startswith("play ")
    move = rest[-1].split()[1]
    assert all(line.startswith("info move ") for line in rest[:-1])
    assert e.handle("list_stones b") == f"= {move}"                 # the move was played


def test_gogui_analyze_commands():
    e = engine()
    assert e.handle("gogui-analyze_commands") == (
        "= gfx/MCTS principal variation/mcts-pv\ngfx/MCTS visits/mcts-visits\n"
        "gfx/MCTS win rates/mcts-winrates\ndboard/MCTS ownership/mcts-ownership\n"
        "plist/Dead stones/final_status_list dead\nplist/Seki stones/final_status_list seki")
    e.handle("play b E5")
    assert re.fullmatch(r"= VAR w [A-HJ-T]\d( [bw] ([A-HJ-T]\d|pass))*", e.handle("mcts-pv"))
    visits = e.handle("mcts-visits").split("\n")
    assert visits[0].startswith("= LABEL ") and visits[1].startswith("TEXT 300 playouts")
    rows = e.handle("mcts-ownership")[2:].split("\n")
    assert len(rows) == 9 and all(len(r.split()) == 9 for r in rows)
    assert float(rows[4].split()[4]) > 0.5                           # E5 stays Black's


def test_pondering_searches_the_opponents_turn_and_keeps_the_tree():
    e = engine(ponder=True, playouts=200)
    drive(e, [("genmove b", 0.8), ("quit", 0)])
    s = e.session
    pondered = s.engine.tree.playouts
    assert pondered > 1000                       # far beyond the 200 of the move itself
    reply = e.handle("play w C3")
    assert reply == "="
    e.handle("genmove b")
    assert s.last[1].reused > 0                  # the tree below C3 was kept


class ColdSession(GoSession):
    """A session whose kernels never finish compiling: the cold-start path."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.compiling = True

    def _load(self):
        pass


def test_cold_start_plays_and_answers_with_pure_python_rules():
    s = ColdSession({"size": 9}, PlayerConfig(threads=1, seconds=0.3), log=None)
    s.play(0, s.game.vertex_to_action("E5"))
    with pytest.raises(Exception, match="illegal move"):
        s.play(1, s.game.vertex_to_action("E5"))
    s.clock = Clock(TimeControl("fischer", increment=0.5))
    move = s.genmove(1)                           # waits its plan, then a quick move
    assert move != "E5" and s.history[-1][1] == 1
    assert not s.ready.is_set()


class SlowLoadSession(GoSession):
    """A session whose kernels take 0.6 s to load (as cached ones take about a second)."""

    def _load(self):
        time.sleep(0.6)
        super()._load()


def test_first_genmove_without_a_clock_searches_its_whole_budget_after_loading():
    # Without time_settings the load is start-up time, not the move's: a match tool that
    # starts the engine for every game must not get a move of a few playouts each time.
    s = SlowLoadSession({"size": 9}, PlayerConfig(threads=1, seconds=0.4, early_stop=False),
                        log=None)
    s.genmove(0)
    assert s.last is not None and s.last[1].seconds >= 0.35


def test_rules_and_handicap_through_gtp():
    e = engine()
    rows = [".OOX.X.X.", "X.OXXXXXX", "XXXOOOOOO", "OOOOOOOOO"]
    script = ["komi 7.5", "set_free_handicap D9 F9"]
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            v = f"{'ABCDEFGHJ'[j]}{9 - i}"
            if ch in "XO" and v not in ("D9", "F9"):
                script.append(f"play {'b' if ch == 'X' else 'w'} {v}")
    for line in script:
        assert e.handle(line) == "=", line
    assert e.handle("final_score") == "= W+56.5"          # GNU Go --chinese-rules's count
    assert e.handle("final_status_list seki") == "= B9 C9 C8\nA8 A7 B7 C7"
    assert "RU[Chinese]" in e.handle("printsgf")
    assert e.handle("kgs-rules aga") == "="
    assert e.handle("final_score") == "= W+55.5"          # a point a stone after the first
    assert "RU[AGA]" in e.handle("printsgf")
    assert e.handle("kgs-rules tromp-taylor") == "="
    assert e.handle("final_score") == "= W+54.5"          # no compensation
    assert e.handle("final_status_list seki") == "="      # every stone counts: alive


def test_loadsgf_refuses_folders_fifos_and_huge_files(tmp_path):
    e = engine()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.sgf"
    big.write_bytes(b"(;SZ[9]" + b" " * (9 << 20) + b")")
    for path in (tmp_path, fifo, big):
        assert e.handle(f"loadsgf {path}") == "? cannot load file"
    assert e.handle("play b E5") == "="                   # the game goes on


def test_malformed_analysis_and_rules_are_refused_and_play_nothing():
    e = engine()
    for line in ("lz-analyze x y z", "lz-analyze b x", "kata-analyze b 20 ownership maybe",
                 "kata-analyze b 20 foo 1", "lz-genmove_analyze b x", "lz-analyze b -5",
                 "kata-analyze b 20 ownership", "kgs-rules foo", "loadsgf x.sgf -3"):
        assert e.handle(line) == "? syntax error" if "rules" not in line else \
            e.handle(line) == "? unknown rules", line
    assert e.handle("list_stones b") == "="
    replies = drive(e, [("kata-analyze b interval 10", 0.5), ("quit", 0)])
    assert len(replies[0].split("\n")) >= 3                       # reports every 0.1 s


def test_a_tree_too_small_is_refused_at_start():
    with pytest.raises(ValueError, match="too small for go with 2 thread"):
        GtpEngine({"size": 9}, PlayerConfig(threads=2, capacity=100), log=None)


def test_a_stream_stopped_before_its_first_interval_still_reports_its_work():
    """Interval 10 s, stopped after half a second: one info line for the playouts run (Leela
    Zero and KataGo print the work done when a command stops the analysis)."""
    e = engine()
    replies = drive(e, [("lz-analyze b 1000", 0.5), ("name", 0), ("quit", 0)])
    head, *lines = replies[0].split("\n")
    assert head == "=" and len(lines) == 1 and INFO.match(lines[0])
    assert replies[1] == "= mcts-engine"


def _priors(line):
    return {m[1]: int(m[4]) for m in INFO.finditer(line)}


def test_lz_analyze_priors_are_the_prior_kernels_odds_normalised():
    """Empty 5x5 board, Black to move: the prior kernel gives every point 20 virtual
    playouts, 10 won; an empty first line 20 more lost, an empty second line 10 more lost
    (games/go/prior.py). Odds w / (n - w): corner and edge 10/30, second line 10/20, C3 10/10;
    16 first-line points, 8 second-line, 1 centre sum to 31/3, so the shares are 1/31, 3/62
    and 3/31 (in Leela Zero's units 323, 484, 968)."""
    e = GtpEngine({"size": 5}, PlayerConfig(threads=1, playouts=300), log=None)
    e.ready.wait()
    replies = drive(e, [("lz-analyze b 1000", 0.5), ("quit", 0)])
    priors = _priors(replies[0].split("\n")[1])
    assert len(priors) >= 10
    assert priors.pop("pass", 0) == 0                         # pass has no prior
    for move, prior in priors.items():
        col, row = "ABCDE".index(move[0]), int(move[1:]) - 1
        line = min(col, row, 4 - col, 4 - row)
        assert prior == {0: 323, 1: 484, 2: 968}[line], move
    shares = e.session.priors(e.state)
    assert len(shares) == 26 and shares[25] == 0.0            # pass: no prior
    assert abs(sum(shares.values()) - 1) < 1e-12
    assert sorted({round(v * 62, 9) for v in shares.values()}) == [0, 2, 3, 6]


def test_priors_spread_over_many_values_in_a_fight():
    """9x9 after E5 C3 D3 D4 C4 E4, Black to move in a fight: the prior has a real spread
    (patterns, the last move's neighbourhood, edges): more than 6 distinct shares, summing
    to 1 (8 here: the empty board has 4, and the old virtual-wins share 2 or 3)."""
    e = engine()
    for line in ("play b E5", "play w C3", "play b D3", "play w D4", "play b C4", "play w E4"):
        assert e.handle(line) == "="
    shares = e.session.priors(e.session.position_for(0))
    assert abs(sum(shares.values()) - 1) < 1e-9
    assert len({round(v, 9) for v in shares.values()}) > 6
