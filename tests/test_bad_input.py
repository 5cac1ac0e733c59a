"""Bad input to every command: files that are not regular files, budgets beyond the limits,
output paths that cannot be written, too many threads. Each is refused (or capped) in one
line, before the work, with no traceback and no hang (every run has a timeout)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from frontends.argtypes import core_cap

ROOT = Path(__file__).parent.parent


def run(*args, stdin="", timeout=60):
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def one_line(p, status=2):
    """The one line on stderr (a first run's compile notes aside), after the exit status."""
    assert p.returncode == status, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("compiling ", "compiled in"))]
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


def see(command):
    return f" (see: python3 cli.py {command} --help)"


def test_a_fifo_nobody_writes_is_refused_not_waited_for(fifo):
    p = run("analyze", "tictactoe", "--positions", fifo, "--playouts", "10")
    assert one_line(p) == (f"error: argument --positions: cannot read {fifo}: it is a FIFO "
                           "(named pipe), not a regular file" + see("analyze"))


@pytest.mark.parametrize("path, kind", [("/dev/zero", "a character device"),
                                        ("/tmp", "a folder")])
def test_devices_and_folders_are_not_files_to_read(path, kind):
    p = run("analyze", "tictactoe", "--positions", path, "--playouts", "10")
    assert one_line(p) == (f"error: argument --positions: cannot read {path}: it is {kind}, "
                           "not a regular file" + see("analyze"))


def test_a_proc_file_is_refused_as_it_is_read():
    p = run("analyze", "tictactoe", "--positions", "/proc/self/status", "--playouts", "10")
    assert one_line(p) == ("error: cannot read /proc/self/status: a special file (its size "
                           "is unknown, as in /proc), not a regular file")


def test_weights_and_sgf_files_get_the_same_check(fifo):
    p = run("analyze", "connect4", "--moves", "4", "--playout-weights", fifo)
    assert one_line(p) == (f"error: argument --playout-weights: cannot read {fifo}: it is a "
                           "FIFO (named pipe), not a regular file" + see("analyze"))
    p = run("play", "go", "--sgf", fifo)
    assert one_line(p) == (f"error: argument --sgf: cannot read {fifo}: it is a FIFO (named "
                           "pipe), not a regular file" + see("play"))
    p = run("train", "connect4", "--resume", "--out", "/dev/null")
    assert one_line(p) == ("error: cannot write /dev/null: it is a character device, not a "
                           "regular file")


def test_a_binary_positions_file_names_its_line(tmp_path):
    f = tmp_path / "bin"
    f.write_bytes(b"4453\n44\n\x89PNG\r\n")
    p = run("analyze", "connect4", "--positions", str(f), "--playouts", "10")
    assert one_line(p) == (f"error: cannot read {f}: line 3 is not UTF-8 text (byte 8): a "
                           "binary file?")


@pytest.mark.parametrize("args, message", [
    (["play", "connect4", "--seconds", "1e10"],
     "argument --seconds: '1e10' is too large: at most 600 seconds"),
    (["analyze", "connect4", "--moves", "4", "--playouts", "100000000000000000000"],
     "argument --playouts: '100000000000000000000' is too large: at most 1,000,000,000 "
     "playouts"),
    (["analyze", "connect4", "--moves", "4", "--seconds", "nan"],
     "argument --seconds: 'nan' must be a positive number"),
    (["analyze", "connect4", "--moves", "4", "--seconds=-1"],
     "argument --seconds: '-1' must be a positive number"),
    (["play", "connect4", "--seconds", "0"], "argument --seconds: '0' must be a positive number"),
    (["gtp", "--seconds", "601"], "argument --seconds: '601' is too large: at most 600 seconds"),
    (["match", "--increment", "1e9"],
     "argument --increment: '1e9' is too large: at most 600 seconds"),
    (["arena", "connect4", "--playouts", "2000000000"],
     "argument --playouts: '2000000000' is too large: at most 1,000,000,000 playouts"),
    (["selfplay", "connect4", "--playouts", "1.5e3x"], "argument --playouts: '1.5e3x' is not a "
                                                       "whole number"),
    (["selfplay", "connect4", "--playouts", "2.5"], "argument --playouts: '2.5' is not a whole "
                                                    "number"),
    (["bench", "connect4", "--seconds", "inf"], "argument --seconds: 'inf' must be a positive "
                                                "number"),
    (["train", "connect4", "--minutes", "1e300"],
     "argument --minutes: '1e300' is too large: at most 16,666,667 minutes"),
    (["selfplay", "connect4", "--episodes", "100000000"],
     "argument --episodes: '100000000' is too large: at most 1,000,000 episodes"),
    (["train", "connect4", "--playouts", "1e10"],     # exponent notation: a whole number
     "argument --playouts: '1e10' is too large: at most 1,000,000,000 playouts"),
])
def test_every_budget_flag_has_the_same_limits(args, message):
    assert one_line(run(*args)) == f"error: {message}" + see(args[0])


@pytest.mark.parametrize("args, message", [
    (["selfplay", "tictactoe", "--episodes", "1", "--out", "/dev/full"],
     "cannot write /dev/full: it is a character device, not a regular file"),
    (["selfplay", "tictactoe", "--episodes", "1", "--out", "sp"],
     "cannot write sp: name a .npz file (e.g. sp.npz)"),
    (["selfplay", "tictactoe", "--episodes", "1", "--out", "/tmp"],
     "cannot write /tmp: it is a folder, not a regular file"),
    (["train", "connect4", "--rounds", "1", "--out", "/dev/null"],
     "cannot write /dev/null: it is a character device, not a regular file"),
    (["bench", "tictactoe", "--json", "/proc/b.json"],
     "cannot write /proc/b.json: no file can be created in /proc (No such file or directory)"),
    (["bench", "tictactoe", "--plot", "/dev/full"],
     "cannot write /dev/full: it is a character device, not a regular file"),
    (["arena", "tictactoe", "--games", "1", "--json", "/dev/full"],
     "cannot write /dev/full: it is a character device, not a regular file"),
    (["match", "--games", "1", "--json", "/dev/full"],
     "cannot write /dev/full: it is a character device, not a regular file"),
    (["match", "--games", "1", "--sgf-dir", "/proc"],
     "cannot use the folder /proc: no file can be created in /proc (No such file or "
     "directory)"),
    (["play", "go", "--sgf-dir", "/proc"], "cannot use the folder /proc: no file can be "
                                           "created in /proc (No such file or directory)"),
    (["play", "go", "--sgf-dir", "/proc/new"], "cannot create the folder /proc/new: no file "
                                               "can be created in /proc (No such file or "
                                               "directory)"),
    (["play", "go", "--sgf-dir", "README.md"], "README.md is a file, not a folder"),
    (["play", "go", "--sgf-dir", ""], "give a folder name (got an empty one)"),
])
def test_output_paths_are_checked_before_the_work(args, message):
    p = run(*args, stdin="e5\n")
    assert one_line(p) == f"error: {message}"
    assert "to move" not in p.stdout and not os.path.exists("/dev/full.npz")


def test_too_many_threads_are_capped_with_a_note():
    p = run("analyze", "connect4", "--moves", "4", "--threads", "1000", "--playouts", "200",
            "--json")
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert p.stderr.splitlines() == [f"note: --threads 1,000 is more than 4 per core (this "
                                      f"machine has {os.cpu_count()}): using {core_cap()}"]
    assert '"playouts": 200' in p.stdout


def test_a_pasted_page_as_moves_stays_one_short_line():
    p = run("play", "go", "--moves", "D4 " + "é" * 3000)
    line = one_line(p)
    assert line.startswith("error: --moves: move 2 ('" + "é" * 20) and len(line) < 400


def test_a_chart_name_without_png_is_refused():
    assert one_line(run("bench", "connect4", "--plot", "chart")) == (
        "error: cannot write chart: name a .png file (e.g. chart.png)")


def test_ctrl_c_keeps_the_selfplay_episodes_finished(tmp_path):
    import signal
    import time
    from mcts.selfplay import load_npz
    out = tmp_path / "sp.npz"
    p = subprocess.Popen([sys.executable, "cli.py", "selfplay", "tictactoe", "--episodes",
                          "1000000", "--playouts", "20", "--out", str(out)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err
    n = len(load_npz(str(out))["lengths"])
    assert err.strip().splitlines()[-1] == (f"interrupted: the {n} episodes finished are saved "
                                            f"in {out}") and n > 0


def test_whole_numbers_take_exponent_notation():
    from frontends.argtypes import positive_int
    assert [positive_int(t) for t in ("1e3", "2_000", "1.5e3", "40")] == [1000, 2000, 1500, 40]
