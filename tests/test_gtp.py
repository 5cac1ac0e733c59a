"""GTP v2: a scripted session with exact replies, protocol details, undo across captures and
ko, genmove after two passes, printsgf/loadsgf, and a short match against GNU Go."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from frontends.gtp import GtpEngine
from frontends.match import wilson
from frontends.player import PlayerConfig
from frontends.timecontrol import MAX_MOVE_SECONDS
from games.go.score import area_of

ROOT = Path(__file__).parent.parent
GNUGO = "/usr/games/gnugo"


def engine(params=None, **kw):
    """A GTP engine on one thread, 500 playouts a move unless ``kw`` says otherwise."""
    kw.setdefault("playouts", 500)
    e = GtpEngine(params, PlayerConfig(threads=1, **kw), log=None)
    e.ready.wait()
    return e


def session(e, lines):
    return [e.handle(line) for line in lines]


def stones(e, color):
    """The vertices of list_stones as a set (the order is the engine's)."""
    reply = e.handle(f"list_stones {color}")
    assert reply.startswith("=")
    return set(reply[1:].split())


def test_scripted_session_exact_replies():
    e = engine()
    script = [
        ("1 protocol_version", "=1 2"),
        ("name", "= mcts-engine"),
        ("version", "= 0.53.0"),
        ("known_command genmove", "= true"),
        ("known_command kgs-genmove_cleanup", "= true"),
        ("known_command frobnicate", "= false"),
        ("boardsize 7", "="),
        ("clear_board", "="),
        ("komi 0.5", "="),
        ("get_komi", "= 0.5"),
        ("play B c3", "="),
        ("play w C3", "? illegal move"),          # occupied
        ("play w I3", "? invalid color or coordinate"),   # the letter I is skipped
        ("play w H3", "? invalid color or coordinate"),   # off a 7x7 board (GNU Go's words)
        ("play purple d4", "? invalid color or coordinate"),
        ("is_legal b Z9", "? invalid color or coordinate"),
        ("time_settings 0 0 -1", "? time values must be finite and not negative, got -1"),
        ("time_settings 0 1 -1", "? time values must be finite and not negative, got -1"),
        ("play white D4", "="),
        ("play b PASS", "="),
        ("play b e5", "="),                       # two black moves in a row are fine
        ("list_stones WHITE", "= D4"),
        ("is_legal w c3", "= 0"),
        ("is_legal w a1", "= 1"),
        ("undo", "="),
        ("list_stones b", "= C3"),
        ("undo", "="),
        ("list_stones b", "= C3"),
        ("7 undo", "=7"),
        ("list_stones w", "="),
        ("undo", "="),
        ("undo", "? cannot undo"),
        ("boardsize 4", "? unacceptable size"),
        ("boardsize 20", "? unacceptable size"),
        ("boardsize nine", "? syntax error"),
        ("frobnicate 3", "? unknown command"),
        ("42 frobnicate", "?42 unknown command"),
        ("play b", "? syntax error"),
        ("komi seven", "? syntax error"),
        ("quit", "="),
    ]
    for line, expected in script:
        assert e.handle(line) == expected, line
    assert e.quit


def test_protocol_details_comments_blank_lines_tabs_crlf():
    e = engine()
    assert e.handle("") is None
    assert e.handle("   # only a comment") is None
    assert e.handle("\t3\tname\t# trailing comment\r\n") == "=3 mcts-engine"
    assert e.handle("boardsize\t9\r\n") == "="
    assert e.handle("play B D4\x07") == "="               # control characters are dropped
    assert stones(e, "b") == {"D4"}


def test_list_commands_and_replies_have_no_empty_lines():
    e = engine()
    reply = e.handle("list_commands")
    names = reply[2:].split("\n")
    for required in ("protocol_version", "name", "version", "known_command", "list_commands",
                     "quit", "boardsize", "clear_board", "komi", "play", "genmove", "undo",
                     "showboard", "final_score", "final_status_list", "time_settings",
                     "time_left", "kgs-time_settings", "kata-time_settings", "fixed_handicap", "place_free_handicap",
                     "set_free_handicap", "loadsgf", "printsgf", "reg_genmove", "is_legal",
                     "all_legal", "list_stones", "get_komi", "kgs-genmove_cleanup"):
        assert required in names
    for cmd in ("showboard", "list_commands", "printsgf", "final_status_list alive"):
        assert "\n\n" not in e.handle(cmd)


def test_undo_across_a_capture_restores_the_stones():
    e = engine()
    session(e, ["boardsize 5", "clear_board", "play b b3", "play w c3", "play b c4",
                "play w d4", "play b c2", "play w a1", "play b d3"])   # captures C3
    assert stones(e, "white") == {"A1", "D4"}
    assert stones(e, "black") == {"B3", "C4", "C2", "D3"}
    assert e.handle("undo") == "="
    assert stones(e, "white") == {"A1", "C3", "D4"}
    assert stones(e, "black") == {"C4", "B3", "C2"}


def test_ko_is_enforced_and_undo_restores_the_ko_state():
    e = engine()
    # White takes a ko at C3 by capturing the black stone on D3; Black may not retake at once.
    session(e, ["boardsize 7", "clear_board",
                "play b c4", "play w d4", "play b b3", "play w e3", "play b c2", "play w d2",
                "play b d3", "play w c3"])          # C3 captures D3: a ko
    assert stones(e, "black") == {"C4", "B3", "C2"}
    assert e.handle("play b d3") == "? illegal move"
    assert e.handle("is_legal b d3") == "= 0"
    session(e, ["play b g7", "play w g6"])           # a threat and its answer
    assert e.handle("is_legal b d3") == "= 1"
    assert e.handle("play b d3") == "="            # the retake, one move later
    assert stones(e, "white") == {"D4", "E3", "D2", "G6"}
    assert e.handle("undo") == "="                  # back before the retake: legal again
    assert e.handle("is_legal b d3") == "= 1"
    session(e, ["undo", "undo"])                    # back to right after White's capture
    assert e.handle("is_legal b d3") == "= 0"
    assert stones(e, "white") == {"D4", "C3", "E3", "D2"}


def test_all_legal_lists_every_empty_point_on_an_open_board():
    e = engine()
    session(e, ["boardsize 5", "clear_board", "play b c3"])
    reply = e.handle("all_legal w")[2:].split()
    assert len(reply) == 24 and "C3" not in reply


def test_genmove_after_two_passes_answers_and_keeps_the_game():
    e = engine()
    session(e, ["boardsize 5", "clear_board", "play b c3", "play w pass", "play b pass"])
    reply = e.handle("genmove w")
    assert reply.startswith("= ")
    move = reply[2:]
    assert move == "pass" or e.game.vertex_to_action(move) < 25
    assert e.handle("10 reg_genmove b").startswith("=10 ")


def test_genmove_plays_a_legal_move_and_is_reproducible():
    replies = []
    for _ in range(2):
        e = engine(seed=3)
        session(e, ["boardsize 9", "clear_board", "play b e5"])
        replies.append(e.handle("genmove w"))
        assert stones(e, "white") == {replies[-1][2:]}
    assert replies[0] == replies[1]


def test_a_lost_game_is_passed_out_rather_than_filling_our_own_eyes():
    """5x5, komi 0.5: Black (left, eyes A4 and B2) is ahead by 5 points - 0.5; White's only
    moves that are not pass fill its own eyes E5, E3, E1. After Black passes, White passes
    too instead of destroying its group."""
    e = engine(playouts=2000)
    setup = ["boardsize 5", "komi 0.5", "clear_board"]
    for v in ("a5", "b5", "c5", "b4", "c4", "a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"):
        setup.append(f"play b {v}")
    for v in ("d5", "d4", "e4", "d3", "d2", "e2", "d1"):
        setup.append(f"play w {v}")
    session(e, setup + ["play b pass"])
    assert e.handle("genmove w") == "= pass"


def test_handicap_commands():
    e = engine()
    assert e.handle("boardsize 9") == "="
    assert set(e.handle("fixed_handicap 5")[2:].split()) == {"C3", "G7", "G3", "C7", "E5"}
    assert e.handle("fixed_handicap 2") == "? board not empty"
    e.handle("clear_board")
    assert e.handle("fixed_handicap 1") == "? invalid number of stones"
    assert e.handle("fixed_handicap 10") == "? invalid number of stones"
    assert e.handle("set_free_handicap a1 b2 c3") == "="
    assert stones(e, "b") == {"A1", "B2", "C3"}
    e.handle("clear_board")
    assert e.handle("set_free_handicap a1 a1") == "? bad vertex list"
    assert e.handle("set_free_handicap a1 z9") == "? bad vertex list"
    assert len(set(e.handle("place_free_handicap 3")[2:].split())) == 3
    assert e.handle("genmove w").startswith("= ")


def test_printsgf_then_loadsgf_gives_the_same_position(tmp_path):
    e = engine()
    session(e, ["boardsize 9", "komi 6.5", "clear_board", "fixed_handicap 2", "play w e5",
                "play b d5", "play w pass", "play b e6"])
    path = tmp_path / "game.sgf"
    assert e.handle(f"printsgf {path}") == "="
    text = path.read_text()
    assert "SZ[9]" in text and "KM[6.5]" in text and "HA[2]" in text and "AB[" in text
    assert e.handle("printsgf")[2:].startswith("(;")
    stones = (e.handle("list_stones b"), e.handle("list_stones w"))
    f = engine()
    assert f.handle(f"loadsgf {path}") == "= white"
    assert (f.handle("list_stones b"), f.handle("list_stones w")) == stones
    assert f.handle("get_komi") == "= 6.5"
    assert f.state.tolist() == e.state.tolist()              # the whole state, history included
    assert f.handle(f"loadsgf {path} 3") == "= white"        # before move 3 (White's pass)
    assert f.handle("list_stones w") == "= E5"
    assert f.handle("loadsgf /nonexistent.sgf") == "? cannot load file"


def test_loadsgf_takes_setup_stones_from_the_nodes_before_the_first_move(tmp_path):
    # as in GNU Go's regression files: the root holds the game info, the next node the stones
    path = tmp_path / "setup.sgf"
    path.write_text("(;GM[1]FF[3]SZ[9]KM[5.5];AB[aa][bb][cc]AW[dd][ee]AE[cc]PL[W];W[ff];B[gg])")
    e = engine()
    assert e.handle(f"loadsgf {path}") == "= white"
    assert e.handle("list_stones black") == "= A9 B8 G3"
    assert e.handle("list_stones white") == "= D6 E5 F4"
    assert e.handle(f"loadsgf {path} 2") == "= black"           # before move 2 (B at G3)
    assert e.handle("list_stones white") == "= D6 E5 F4"
    saved = tmp_path / "saved.sgf"
    assert e.handle(f"loadsgf {path}") == "= white"
    assert e.handle(f"printsgf {saved}") == "="
    f = engine()
    assert f.handle(f"loadsgf {saved}") == "= white"
    assert f.handle("list_stones white") == "= D6 E5 F4"        # White's setup stones kept
    late = tmp_path / "late.sgf"
    late.write_text("(;GM[1]SZ[9];B[aa];AW[bb])")
    assert e.handle(f"loadsgf {late}") == "? cannot load file"
    assert e.handle("list_stones white") == "= D6 E5 F4"           # the game is kept


SETTLED_5X5 = ["boardsize 5", "komi 0", "clear_board"] + \
    [f"play b {v}" for v in ("b1", "b2", "b3", "b4", "b5", "c1", "c5")] + \
    [f"play w {v}" for v in ("d1", "d2", "d3", "d4", "d5", "c2", "c4", "e2", "e4")]


def test_final_score_and_status_follow_the_rules_in_force():
    # 5x5: Black owns the A column (7 stones + 5 points), White the right (9 stones + E1, E3,
    # E5); C3 touches both: dame. 12-12 with komi 0.
    e = engine()
    session(e, SETTLED_5X5)
    assert area_of(e.game.board(e.state)) == (12, 12)
    for rules in ("tromp-taylor", "chinese"):
        e.handle(f"kgs-rules {rules}")
        assert e.handle("final_status_list dead") == "="
        assert e.handle("final_status_list seki") == "="
        assert e.handle("final_score") == "= 0"
    e.handle("play w a3")                  # a lone white stone in Black's area
    e.handle("kgs-rules tromp-taylor")     # every stone counts: A1-A2 and A4-A5 touch A3
    assert e.handle("final_status_list dead") == "="          # counted, so alive
    assert "A3" in e.handle("final_status_list alive").split()
    assert e.handle("final_score") == "= W+6"           # Black 7, White 13
    e.handle("kgs-rules chinese")          # A3 is dead and comes off
    assert e.handle("final_status_list dead") == "= A3"
    assert e.handle("final_score") == "= 0"


def test_bad_komi_and_time_values_are_refused_and_change_nothing():
    e = engine()
    for line in ("komi 1e20", "komi nan", "komi inf", "komi 1001", "time_settings -1 0 0",
                 "time_left w nan 0", "time_left w 5 -1", "kgs-time_settings byoyomi 10 5 -1"):
        assert e.handle(line).startswith("? "), line
    assert e.handle("time_settings 1e12 0 0") == \
        "? time values must be at most 1e+09 seconds, got 1e+12"
    assert e.handle("time_left b 1e300 0") == \
        "? time values must be at most 1e+09 seconds, got 1e+300"
    assert e.handle("kgs-time_settings absolute 1e300").startswith("? time values must be")
    assert e.handle("get_komi") == "= 7.5"
    assert e.handle("komi -6.5") == "=" and e.handle("get_komi") == "= -6.5"


def test_time_settings_and_time_left_are_accepted():
    e = engine()
    assert e.handle("time_settings 60 10 5") == "="
    assert e.handle("time_left b 30 0") == "="
    assert e.handle("kgs-time_settings byoyomi 60 10 3") == "="
    assert e.handle("kgs-time_settings absolute 120") == "="
    assert e.handle("kgs-time_settings none") == "="
    assert e.handle("kgs-time_settings sideways 1") == "? syntax error"
    assert e.handle("time_left b x 0") == "? syntax error"
    assert e.handle("time_left w -5 0") == "="          # an overrun: no time left
    assert e.session.clock.left[1] == [0.0, 0]
    assert e.handle("kata-time_settings fischer 60 2") == "="
    assert e.session.clock.control.increment == 2.0 and e.session.clock.left[0] == [60.0, 0]
    assert e.handle("kata-time_settings fischer-capped 60 2 90 -1") == "="
    assert e.session.clock.control.cap == 90.0
    assert e.handle("kata-time_settings byoyomi 60 10 3") == "="
    for bad in ("kata-time_settings fischer 60", "kata-time_settings fischer x 1",
                "kata-time_settings hourglass 60"):
        assert e.handle(bad) == "? syntax error", bad
    assert e.handle("kata-time_settings fischer 60 -2") == \
        "? time values must be finite and not negative, got -2"
    assert e.session.clock.control.system == "byoyomi"      # a refused setting changes nothing


def test_a_huge_time_setting_plans_at_most_the_move_cap():
    """The largest main time accepted gives a move MAX_MOVE_SECONDS, not years (genmove
    would never return)."""
    e = engine()
    assert e.handle("time_settings 1e9 0 0") == "="
    assert e.session.clock.plan(0, 81, 1.0) == MAX_MOVE_SECONDS


def test_wilson_interval():
    low, high = wilson(14, 20)
    assert (round(low, 3), round(high, 3)) == (0.481, 0.855)


def test_gtp_process_over_a_pipe_exits_cleanly_at_end_of_input():
    p = subprocess.run([sys.executable, "cli.py", "gtp", "--playouts", "300"], cwd=ROOT,
                       input="1 name\nboardsize 9\nplay b d4\n2 genmove w\nshowboard\n",
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    blocks = p.stdout.split("\n\n")
    assert blocks[0] == "=1 mcts-engine" and blocks[1] == "=" and blocks[2] == "="
    assert blocks[3].startswith("=2 ")
    assert blocks[4].startswith("= \n   A B")          # the board below "= ", as GNU Go
    assert p.stdout.endswith("\n\n")


@pytest.mark.skipif(not os.path.exists(GNUGO), reason="GNU Go not installed (.ci/run installs it)")
def test_two_game_match_against_gnugo_is_completed_and_scored(tmp_path):
    out = tmp_path / "m.json"
    p = subprocess.run([sys.executable, "cli.py", "match", "--opponent",
                        f"{GNUGO} --mode gtp --level 1 --chinese-rules", "--games", "2",
                        "--playouts", "1000", "--threads", "1", "--sgf-dir", str(tmp_path),
                        "--json", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text())
    assert data["summary"]["games"] == 2
    assert [g["ours"] for g in data["games"]] == ["b", "w"]
    for g in data["games"]:
        assert g["result"][:2] in ("B+", "W+") or g["result"] == "0"
        assert Path(g["sgf"]).read_text().startswith("(;")
    assert "Wilson" in p.stdout


def test_gtp_survives_garbage_bytes_and_unknown_input():
    p = subprocess.run([sys.executable, "cli.py", "gtp", "--playouts", "200"], cwd=ROOT,
                       input=b"name\n\xff\xfe junk\nplay b \xc3\x28\n\x00\x01\nlist_stones b\n",
                       capture_output=True, timeout=300)
    assert p.returncode == 0 and b"Traceback" not in p.stderr
    assert p.stdout.split(b"\n\n")[:4] == [b"= mcts-engine", b"? unknown command",
                                            b"? invalid color or coordinate", b"="]


def test_an_overlong_line_is_refused_unread_and_the_session_goes_on():
    import io
    e = engine(playouts=50)
    out = io.StringIO()
    e.run(io.StringIO("play b " + "x" * 1_000_000 + "\nname\nquit\n"), out)
    assert out.getvalue() == ("? command too long (over 65536 characters)\n\n"
                              "= mcts-engine\n\n=\n\n")


def test_loadsgf_of_an_endless_file_is_refused():
    e = engine(playouts=50)
    assert e.handle("loadsgf /dev/zero") == "? cannot load file"
    assert e.handle("loadsgf /") == "? cannot load file"
    assert e.handle("name") == "= mcts-engine"


def test_multi_line_replies_start_on_the_reply_line_as_gnu_go_formats_them():
    # GNU Go: "= aa_confirm_safety\nallow_suicide\n..." (Quarry refuses "=\nall_legal\n...")
    e = engine(playouts=50)
    reply = e.handle("list_commands")
    assert reply.startswith("= all_legal\nanalyze\nboardsize\n")
    assert e.handle("7 list_commands").startswith("=7 all_legal\n")


def test_undo_final_score_and_status_list_ignore_extra_arguments_like_gnu_go():
    # qGo sends "undo 0"; GNU Go accepts and ignores the extra words (checked on gnugo 3.8)
    e = engine(playouts=50)
    assert session(e, ["play b E5", "play w D4", "play b C3", "undo 0", "list_stones black"]) == \
        ["=", "=", "=", "=", "= E5"]
    assert session(e, ["gg-undo 2", "list_stones white", "gg-undo 1", "undo"]) == \
        ["=", "=", "? cannot undo", "? cannot undo"]
    assert e.handle("final_score extra words") == "= W+7.5"
    assert e.handle("final_status_list dead x") == "="


def test_cputime_and_kgs_notifications():
    e = engine(playouts=50)
    t = e.handle("cputime")
    assert t.startswith("= ") and float(t[2:]) > 0
    assert session(e, ["kgs-rules chinese", "kgs-game_over"]) == ["=", "="]
    assert "cputime" in e.commands() and "kgs-game_over" in e.commands() and \
        "gg-undo" in e.commands()


def test_genmove_on_a_fischer_clock_spends_from_the_time_left_and_its_increment():
    e = engine(playouts=50)
    assert e.handle("kata-time_settings fischer 0 0.3") == "="
    assert e.handle("genmove b").startswith("= ")
    left = e.session.clock.left[0][0]
    assert 0.0 <= left < 0.3                    # the increment, less what the move took
    assert e.session.clock.left[1] == [0.0, 0]  # White has not moved
