"""The command line, driven as a user would: through stdin, pipes and signals."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import games
from games.contract import Game, Param
from games.go.sgf import from_sgf
from test_plugins import Subtraction

ROOT = Path(__file__).parent.parent
G = games.get("connect4")


def run(*args, stdin="", timeout=120):
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def record_of(stdout):
    line = next(x for x in stdout.splitlines() if x.startswith("game record:"))
    return line.split(":", 1)[1].strip()


def test_whole_scripted_game_on_stdin():
    # Garbage, an out-of-range column, a hint and an undo, then columns until the game ends.
    script = "hello\n9\n\nhint\n4\nundo\n" + "4\n3\n5\n2\n6\n1\n7\n" * 12
    p = run("play", "connect4", "--playouts", "2000", "--seed", "3", stdin=script)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stdout + p.stderr
    assert "'hello' is not a column" in p.stdout
    assert "'9' is not a column" in p.stdout
    assert "hint: " in p.stdout and "AI plays" in p.stdout
    record = record_of(p.stdout)
    state, _ = G.play_record(record)          # the printed record is a legal game
    result = next(x for x in p.stdout.splitlines() if x.startswith("result:"))
    if G.status(state) != 0:
        assert G.result_text(G.status(state)) in result
    else:
        assert "end of input" in p.stdout
    assert record[0] == "4"                   # the undone first move was played again


def test_same_seed_same_game():
    script = "4\n3\n5\n2\n6\n1\n7\n" * 6
    a = run("play", "connect4", "--playouts", "3000", "--seed", "9", stdin=script)
    b = run("play", "connect4", "--playouts", "3000", "--seed", "9", stdin=script)
    assert record_of(a.stdout) == record_of(b.stdout)


def test_a_closed_output_still_saves_the_game(tmp_path):
    """`play go ... | head`: once our standard output is closed, the game so far is saved
    (SIGPIPE's exit status, nothing on stderr) instead of the process dying unsaved."""
    p = subprocess.Popen([sys.executable, "cli.py", "play", "go", "--playouts", "300",
                          "--sgf-dir", str(tmp_path)], cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(b"e5\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith(b"AI plays"):
            break
    p.stdout.close()                    # the engine now waits for our next move ...
    p.stdin.write(b"d4\n")              # ... and its answer to it meets a closed pipe
    p.stdin.close()
    assert p.wait(timeout=120) == 128 + signal.SIGPIPE
    assert p.stderr.read() == b""
    [sgf] = tmp_path.glob("*.sgf")
    moves = from_sgf(sgf.read_bytes())["moves"]
    assert f"AP[mcts-engine:{games.__version__}]" in sgf.read_text()
    assert moves[0] == (0, 40) and moves[1][0] == 1           # B E5, then the AI's reply


def test_ai_first_and_end_of_input():
    p = run("play", "connect4", "--first", "ai", "--playouts", "1000", stdin="")
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert "end of input" in p.stdout
    assert len(record_of(p.stdout)) == 1      # the AI's opening move is kept in the record


def test_quit_prints_record():
    p = run("play", "connect4", "--playouts", "1000", stdin="4\nquit\n")
    assert p.returncode == 0
    assert len(record_of(p.stdout)) == 2


def test_ctrl_c_at_the_prompt_ends_cleanly():
    # SIGINT as a terminal delivers it, even when the suite runs in a background job (whose
    # children inherit SIGINT ignored: the engine then never saw the Ctrl-C).
    proc = subprocess.Popen([sys.executable, "cli.py", "play", "connect4", "--playouts", "1000"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    chunks, errs = [], []                    # both pipes read as they come: neither fills up
    reader = threading.Thread(target=lambda: chunks.extend(iter(proc.stdout.readline, "")))
    reader.start()
    err_reader = threading.Thread(target=lambda: errs.extend(iter(proc.stderr.readline, "")))
    err_reader.start()
    proc.stdin.write("4\n")
    proc.stdin.flush()
    deadline = time.time() + 300             # a first run compiles, on a loaded machine slowly
    while not any("AI plays" in c for c in chunks) and time.time() < deadline:
        time.sleep(0.05)
    assert any("AI plays" in c for c in chunks), "the AI never moved"
    time.sleep(0.5)                          # now waiting at the prompt
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("no exit 30 s after Ctrl-C; stdout ends " + repr("".join(chunks)[-500:])
                    + "; stderr ends " + repr("".join(errs)[-1500:]))
    reader.join(timeout=10)
    err_reader.join(timeout=10)
    out, err = "".join(chunks), "".join(errs)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert "interrupted" in out and len(record_of(out)) == 2


def test_analyze_json_keys_and_determinism():
    p = run("analyze", "connect4", "--moves", "4453", "--playouts", "5000", "--json")
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    assert set(obj) >= {"moves", "best", "value", "playouts", "seconds", "children", "pv"}
    assert obj["moves"] == "4453" and obj["playouts"] == 5000
    assert sum(c["visits"] for c in obj["children"]) == 5000
    assert obj["best"] == obj["children"][0]["move"] == obj["pv"][0]
    q = run("analyze", "connect4", "--moves", "4453", "--playouts", "5000", "--json")
    assert json.loads(q.stdout)["children"] == obj["children"]


def test_analyze_lists_the_top_moves_in_whole_lines():
    # Connect Four's start: 7 moves searched; the table shows the --top most visited.
    p = run("analyze", "connect4", "--moves", "", "--playouts", "3000", "--top", "2")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    rows = [x.split() for x in lines[2:] if x.split() and x.split()[0].isdigit()]
    assert len(rows) == 2 and "(5 more moves searched: --top 0 lists them)" in p.stdout
    p = run("analyze", "connect4", "--moves", "", "--playouts", "3000", "--top", "0")
    rows = [x.split() for x in p.stdout.splitlines()[2:] if x.split() and x.split()[0].isdigit()]
    assert sorted(r[0] for r in rows) == list("1234567") and "more moves" not in p.stdout
    p = run("analyze", "go", "--size", "9", "--moves", "E5 F6 D4 C6", "--playouts", "500",
            "--threads", "1", "--top", "1")
    first = p.stdout.splitlines()[0]          # one line, though rich wraps pipes at 80
    assert len(first) > 80 and first.endswith("nodes)"), p.stdout


def test_analyze_positions_file_and_bad_lines(tmp_path):
    tsv = tmp_path / "p.tsv"
    tsv.write_text("moves\tplies\n4453\t4\n1212121\t7\n44x\t3\n\n")
    p = run("analyze", "connect4", "--positions", str(tsv), "--playouts", "2000", "--json")
    assert p.returncode == 1                  # two lines could not be analyzed
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["moves"] for x in lines] == ["4453"]
    assert "game is over" in p.stderr and "move 3" in p.stderr
    assert "Traceback" not in p.stderr


def test_analyze_the_shared_data_file_format():
    data = ROOT / "tests" / "data" / "connect4_positions.tsv"
    lines = data.read_text().splitlines()[:4]
    small = ROOT / "tests" / "data" / ".tmp_head.tsv"
    try:
        small.write_text("\n".join(lines) + "\n")
        p = run("analyze", "connect4", "--positions", str(small), "--playouts", "1000", "--json")
    finally:
        small.unlink()
    assert p.returncode == 0
    assert [json.loads(x)["moves"] for x in p.stdout.splitlines()] == \
        [x.split("\t")[0] for x in lines[1:]]


@pytest.mark.parametrize("args, message", [
    (["play", "chess"], "unknown game"),
    (["play", "connect4", "--playouts", "0"], "must be at least 1"),
    (["play", "connect4", "--seconds", "abc"], "not a number"),
    (["play", "connect4", "--size", "9"], "takes no parameter"),
    (["analyze", "connect4"], "one of the arguments"),
    (["analyze", "connect4", "--positions", "/nonexistent"], "cannot read"),
    (["frobnicate"], "invalid choice"),
    (["analyze", "connect4", "--moves", "4", "--nodes", "1"], "too small"),
    (["play", "connect4", "--playout-policy", "patterns"],
     "argument --playout-policy: playout_policy must be one of uniform, threats, got "
     "'patterns'"),
    (["play", "tictactoe", "--playout-policy", "uniform"], "takes no parameter --playout-policy"),
    (["play", "go", "--playout-policy", "heavy"],
     "argument --playout-policy: playout_policy must be one of ko, uniform, got 'heavy'"),
    (["play", "go", "--handicap", "1"], "handicap must be 0 or at least 2 stones"),
    (["bench", "tictactoe", "--playout-policy", "patterns"],
     "tictactoe takes no parameter --playout-policy"),
    (["bench", "connect4", "--no-priors"], "connect4 takes no parameter --no-priors"),
    (["bench", "connect4", "--size", "9"], "connect4 takes no parameter --size"),
    (["bench", "connect4", "tictactoe", "--size", "9"],
     "connect4, tictactoe take no parameter --size"),
    (["gtp", "--handicap", "2"], "gtp takes no --handicap"),
    (["play", "chess", "--size", "9"], "unknown game 'chess'"),
    (["bench", "tictactoe", "--json", "/nonexistent/b.json"], "does not exist"),
    (["selfplay", "tictactoe", "--out", "/nonexistent/d.npz"], "does not exist"),
    (["match", "--opponent", "false", "--games", "1"], "cannot play against 'false'"),
    (["match", "--increment", "1", "--playouts", "100"],
     "argument --playouts: not allowed with argument --increment"),
    (["analyze", "go", "--moves", "[/]"], "'[/]' is not a vertex"),
    (["play", "chess[/]"], "unknown game 'chess[/]'"),
])
def test_bad_flags_get_one_line_errors(args, message):
    p = run(*args)
    assert p.returncode in (1, 2)
    assert message in p.stderr and "Traceback" not in p.stderr
    lines = [x for x in p.stderr.strip().splitlines()     # a first run also says it compiles
             if not x.startswith(("compiling ", "compiled in"))]
    assert len(lines) == 1, p.stderr


def test_bench_json_keys_and_positive_figures():
    p = run("bench", "connect4", "--json", "--repeat", "1", "--seconds", "0.05",
            "--playouts", "2000", timeout=300)
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    for key in ("playouts_per_second", "mcts_playouts_per_second", "compile_seconds",
                "warm_start_seconds"):
        assert obj[key] > 0, key
    assert obj["game"] == "connect4" and obj["numba_version"] and obj["cpu"]
    assert obj["mean_playout_plies"] > 7 and obj["bytes_per_node"] > 0


def test_bench_compare_with_openspiel_writes_json_and_chart(tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel not installed (the compare extra)")
    pytest.importorskip("matplotlib", reason="matplotlib not installed (the plot extra)")
    out, png = tmp_path / "b.json", tmp_path / "b.png"
    p = run("bench", "connect4", "--compare", "openspiel", "--repeat", "1", "--seconds", "0.05",
            "--playouts", "2000", "--json", str(out), "--plot", str(png), timeout=300)
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text())
    assert data["cpu"] and data["numba_version"] and data["command"]
    (r,) = data["results"]
    for key in ("playouts_per_second", "mcts_playouts_per_second", "cpu_playouts_per_second",
                "compile_seconds", "warm_start_seconds", "peak_rss_mb", "bytes_per_node",
                "ratio_playouts_per_second", "ratio_mcts_playouts_per_second"):
        assert r[key] > 0, key
    for key in ("playouts_per_second", "mcts_playouts_per_second", "mean_playout_plies"):
        assert r["openspiel"][key] > 0, key
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_undecodable_input_is_a_bad_move_not_a_crash():
    p = subprocess.run([sys.executable, "cli.py", "play", "connect4", "--playouts", "500"],
                       cwd=ROOT, input=b"\xff\xfe\n4\n", capture_output=True, timeout=120)
    assert p.returncode == 0 and b"Traceback" not in p.stderr
    assert b"is not a column" in p.stdout and b"game record: 4" in p.stdout


def test_go_knowledge_flags_reach_the_game():
    """--playout-policy and --no-priors change the search: the same seed and budget give other
    visit counts (and the same flags the same ones)."""
    outs = {}
    for flags in ((), ("--playout-policy", "uniform"), ("--no-priors",)):
        p = run("analyze", "go", "--size", "7", "--moves", "D4", "--playouts", "3000",
                "--threads", "1", "--json", *flags)
        assert p.returncode == 0, p.stderr
        outs[flags] = json.loads(p.stdout)
    children = {flags: [(c["move"], c["visits"]) for c in o["children"]]
                for flags, o in outs.items()}
    assert len({json.dumps(c) for c in children.values()}) == 3
    again = run("analyze", "go", "--size", "7", "--moves", "D4", "--playouts", "3000",
                "--threads", "1", "--json", "--no-priors")
    assert [(c["move"], c["visits"]) for c in json.loads(again.stdout)["children"]] == \
        children[("--no-priors",)]


def test_input_that_looks_like_markup_is_plain_text(tmp_path):
    """Moves are shown as typed: "[/]" or ":x:" are neither rich markup nor emoji codes."""
    p = run("play", "go", "--size", "5", "--playouts", "50", "--sgf-dir", str(tmp_path),
            stdin="[/]\n:x: [bold]\nquit\n")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert "'[/]' is not a vertex" in p.stdout and "':x: [bold]' is not a vertex" in p.stdout
    assert list(tmp_path.glob("*.sgf")) == []         # no move played: nothing saved


# -- Game parameters: each game's declared parameters are flags of the commands that build it.

def test_help_lists_the_flags_of_the_game_named():
    go = run("play", "go", "--help")
    assert go.returncode == 0, go.stderr
    for flag in ("--size", "--komi", "--handicap", "--playout-policy", "--priors, --no-priors"):
        assert flag in go.stdout, flag
    assert "{ko,uniform}" in go.stdout
    assert "board size: an integer from 5 to 19 (default 9)" in go.stdout
    flat = " ".join(go.stdout.split())
    assert "seeds the RAVE statistics with" in flat and "amaf) (default on)" in flat
    c4 = run("play", "connect4", "--help")
    assert c4.returncode == 0, c4.stderr
    for flag in ("--size", "--komi", "--handicap", "--priors"):
        assert flag not in c4.stdout, flag
    assert "{uniform,threats}" in c4.stdout
    later = run("analyze", "--komi", "6", "go", "--help")    # a flag before the game name
    assert later.returncode == 0 and "--playout-policy" in later.stdout, later.stderr
    gtp = run("gtp", "--help")                  # Go's flags, but handicaps are GTP commands
    assert "--komi" in gtp.stdout and "--handicap" not in gtp.stdout
    bench = run("bench", "go", "--help")
    assert "(go; default uniform)" in " ".join(bench.stdout.split())   # Go's bench_params


def test_a_bad_parameter_value_is_one_line_naming_the_flag():
    p = run("play", "go", "--size", "30")
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        "error: argument --size: size must be an integer from 5 to 19, got '30' "
        "(see: python3 cli.py play --help)"]


def test_size_and_komi_reach_the_game(tmp_path):
    p = run("analyze", "go", "--size", "7", "--komi", "5.5", "--moves", "D4", "--json",
            "--playouts", "200", "--threads", "1")
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    vertices = {f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)}
    moves = {c["move"] for c in obj["children"]}
    assert moves == (vertices - {"D4"}) | {"pass"}      # every legal move of 7x7 after D4
    assert obj["best"] in vertices - {"D4"}
    q = run("play", "go", "--size", "7", "--komi", "5.5", "--no-priors", "--playouts", "50",
            "--sgf-dir", str(tmp_path), stdin="score\nquit\n")
    assert q.returncode == 0, q.stderr
    assert "Chinese count (0 dead stones removed): Black 0, White 0, komi 5.5: W+5.5" in q.stdout
    assert " 7 . . . . . . . 7" in q.stdout and " 8 " not in q.stdout


def test_a_game_without_a_score_says_so():
    p = run("play", "connect4", "--playouts", "100", stdin="score\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "this game keeps no score" in p.stdout
    assert "score" not in p.stdout.split("(", 1)[1].split(")", 1)[0]   # not offered


# A game registered at run time with a parameter of its own: the subtraction game of
# test_plugins.py (take 1, 2 or 3 from a pile of ``pile`` objects; whoever takes the last one
# wins, so the side to move wins exactly when the pile is not a multiple of 4, by taking
# pile % 4), here named "pile". ``Seeded`` declares a parameter whose flag clashes with one of
# the commands' own.
class Pile(Subtraction):
    name = "pile"


class Seeded(Subtraction):
    name = "seeded"
    parameters = (Param("seed", int, 0, "a parameter named like a flag of the commands"),)

    def __init__(self, seed=0):
        Game.__init__(self, seed=seed)
        self.pile, self.num_actions, self.max_length = 7, 3, 7


REGISTER_AND_RUN = """
import sys
import cli
import games
from test_cli import Pile, Seeded
games.register(Pile)
games.register(Seeded)
sys.exit(cli.main(sys.argv[1:]))
"""


def run_pile(*args, stdin=""):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]))
    return subprocess.run([sys.executable, "-c", REGISTER_AND_RUN, *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=300)


def test_a_game_registered_at_run_time_gets_flags_for_its_parameters():
    h = run_pile("play", "pile", "--help")
    assert h.returncode == 0, h.stderr
    assert "--pile PILE" in h.stdout
    assert "objects on the pile: an integer from 1 to 99 (default 21)" in " ".join(h.stdout.split())
    assert "--size" not in h.stdout
    p = run_pile("play", "pile", "--pile", "4", "--playouts", "100", stdin="quit\n")
    assert p.returncode == 0, p.stderr
    assert "pile: ||||\n" in p.stdout
    a = run_pile("analyze", "pile", "--pile", "7", "--moves", "", "--json", "--playouts",
                 "3000", "--threads", "1")
    assert a.returncode == 0, a.stderr
    obj = json.loads(a.stdout)
    assert obj["best"] == "3" and obj["proven"] == "win"        # leave 4: a lost pile
    bad = run_pile("analyze", "pile", "--pile", "100", "--moves", "")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "error: argument --pile: pile must be an integer from 1 to 99, got '100' "
        "(see: mcts-engine analyze --help)"]
    clash = run_pile("play", "seeded")
    assert clash.returncode == 2
    assert clash.stderr.strip().splitlines() == [
        "error: game seeded: the flag --seed of its parameter 'seed' clashes with a flag of "
        "play; the game must rename the parameter"]


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe4453\n", "not UTF-8 text (byte 0)"),
    (b"", "no positions in"),
    (b"# only a comment\n", "no positions in"),
])
def test_a_bad_positions_file_is_one_line(tmp_path, content, message):
    f = tmp_path / "positions.txt"
    f.write_bytes(content)
    p = run("analyze", "connect4", "--positions", str(f), "--playouts", "100")
    lines = [ln for ln in p.stderr.splitlines() if not ln.startswith("compil")]
    assert p.returncode == 2 and len(lines) == 1 and message in lines[0], p.stderr


def test_a_tree_larger_than_the_memory_is_one_line():
    p = run("analyze", "connect4", "--moves", "", "--nodes", "99999999999999", "--playouts", "10")
    lines = [ln for ln in p.stderr.splitlines() if not ln.startswith("compil")]
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert "a tree of 99,999,999,999,999 nodes needs" in lines[0] and "give fewer nodes" in lines[0]


def test_ctrl_c_stops_a_long_bench_at_once():
    # the random-playout measurement runs in ~50 ms compiled batches, not one batch of 60 s
    p = subprocess.Popen([sys.executable, "cli.py", "bench", "connect4", "--seconds", "60",
                          "--repeat", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8)
    t0 = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and time.perf_counter() - t0 < 15
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err


def test_play_checks_the_sgf_folder_before_the_game(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    p = run("play", "go", "--size", "5", "--sgf-dir", str(blocker / "games"), "--playouts", "50",
            stdin="C3\nquit\n")
    lines = [ln for ln in p.stderr.splitlines() if not ln.startswith("compil")]
    assert p.returncode == 2 and lines == [
        f"error: cannot create the folder {blocker / 'games'}: {blocker} is a file"]
    assert "to move" not in p.stdout                  # no game was started, so none is lost


def test_early_stop_flag_reaches_the_search_config():
    """`--no-early-stop` spends the whole time budget; the default keeps the early stop."""
    from cli import parse_args
    from frontends.player import PlayerConfig
    import games
    game = games.get("go")
    off = PlayerConfig.from_args(parse_args(["play", "go", "--no-early-stop"])).search_config(game)
    on = PlayerConfig.from_args(parse_args(["play", "go"])).search_config(game)
    assert off.early_stop is False
    assert on.early_stop is True
