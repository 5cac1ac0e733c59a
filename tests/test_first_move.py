"""benchmarks/first_move.py without a real compile: its command line, the environment of a user
with empty caches, and the timestamps read from a scripted child (benchmarks/piped.py)."""
import re
import sys

import pytest

from benchmarks import first_move as fm
from benchmarks.piped import Child, MomentError, match_time


def test_match_time_gives_the_chunk_that_completes_the_match():
    chunks = [(1.0, b"board\nO to move (a col"), (2.0, b"umn 1-7): "), (3.0, b"\nAI plays 4: w"),
              (4.0, b"in\n= 2\n\n= mcts\n\n")]
    assert match_time(chunks, fm.PROMPT) == (2.0, len(b"board\nO to move (a column 1-7): "))
    assert match_time(chunks, fm.AI_PLAYS)[0] == 3.0
    assert match_time(chunks, fm.AI_PLAYS, start=40) is None     # only before that byte
    assert match_time(chunks, fm.GTP_REPLY, count=2)[0] == 4.0
    assert match_time(chunks, fm.GTP_REPLY, count=3) is None
    assert match_time([], fm.PROMPT) is None
    # Othello's board says "White to move (* legal)" on a line of its own: not a prompt
    assert match_time([(1.0, b"White to move (* legal)\n")], fm.PROMPT) is None


SCRIPT = r"""
import sys, time
print("board")
print("X to move (a cell, or quit): ", end="", flush=True)
line = sys.stdin.readline()
print("board", flush=True)
time.sleep(0.3)
print("AI plays " + line.strip(), flush=True)
print("oops", file=sys.stderr)
"""


def test_a_scripted_child_is_timed(tmp_path):
    cmd = [sys.executable, "-c", SCRIPT]
    with Child(cmd, tmp_path, None, 30, tmp_path / "log") as c:
        shown, end = c.wait_for(fm.PROMPT, "the prompt")
        sent = c.send("e5\n")
        replied, _ = c.wait_for(fm.AI_PLAYS, "the reply", start=end)
        assert c.t0 < shown <= sent < replied and replied - sent >= 0.3
        with pytest.raises(MomentError, match=r"ended \(exit 0\) before more: oops"):
            c.wait_for(re.compile(b"never"), "more")
    assert (tmp_path / "log.out").read_bytes().startswith(b"board\nX to move")
    with pytest.raises(MomentError) as e:
        with Child([sys.executable, "-c", "import time; time.sleep(30)"], tmp_path, None, 0.2,
                   tmp_path / "log") as c:
            c.wait_for(fm.AI_PLAYS, "a move")
    assert e.value.status == "timeout"
    assert c.proc.poll() is not None                # killed at once on the way out


def test_the_environment_has_no_caches_of_the_user(tmp_path):
    base = {"NUMBA_CACHE_DIR": "/x", "MCTS_CACHE_DIR": "/y", "PYTHONDONTWRITEBYTECODE": "1",
            "PATH": "/bin", "PYTHONPATH": "/mine", "HOME": "/root"}
    env = fm.fresh_env(base, tmp_path / "home", tmp_path / "cache", tmp_path / "plugin")
    assert not any(k.startswith(("NUMBA_", "MCTS_")) for k in env)
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PATH"] == "/bin"
    assert env["HOME"] == str(tmp_path / "home")
    assert env["XDG_CACHE_HOME"] == str(tmp_path / "cache")
    assert env["PYTHONPATH"].split(":") == [str(tmp_path / "plugin"), "/mine"]
    assert "PYTHONPATH" not in fm.fresh_env({}, "h", "c")


def test_the_plugin_has_the_line_the_edit_changes(tmp_path):
    module = tmp_path / "hex_plugin.py"
    module.write_text((fm.PLUGIN / "hex_plugin.py").read_text())
    fm.edit_plugin(module)
    text = module.read_text()
    assert text != (fm.PLUGIN / "hex_plugin.py").read_text() and fm.EDIT_MARK + " (edited" in text
    kernel = text[text.index("def apply_action"):text.index("def playout_action")]
    assert "(edited" in kernel                       # inside a kernel's body


@pytest.mark.parametrize("args, message", [
    (["--repeat", "0"], "argument --repeat: '0' must be at least 1"),
    (["--only", "chess"], "argument --only: invalid choice: 'chess'"),
    (["--timeout", "-1"], "argument --timeout: '-1' must be a positive number"),
    (["--ref", "no-such-ref"], "error: --ref no-such-ref: not a commit of"),
    (["--json", "/no/such/folder/x.json"], "the folder /no/such/folder does not exist"),
])
def test_bad_input_is_one_line(args, message, capsys):
    try:
        status = fm.main(args)
    except SystemExit as e:                         # argparse's errors
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_only_keeps_the_order_of_the_moments():
    args = fm.parse_args(["--only", "hex-edit", "go-reply", "--repeat", "2"])
    assert args.repeat == 2 and args.only == ["hex-edit", "go-reply"] and not args.keep
    assert [m.name for m in fm.MOMENTS if m.name in args.only] == ["go-reply", "hex-edit"]
