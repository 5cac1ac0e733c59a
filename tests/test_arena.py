"""`cli.py arena`: two settings of the engine play each other, the game's rules as referee."""
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from frontends.arena import b_argv
from frontends.common import UsageError

ROOT = Path(__file__).resolve().parent.parent


def arena(*argv):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "arena", *argv],
                          capture_output=True, text=True, timeout=600)


def test_perfect_tictactoe_is_all_draws(tmp_path):
    out = tmp_path / "r.json"
    r = arena("tictactoe", "--playouts", "3000", "--games", "4", "--json", str(out),
              "--opponent-args", "--exploration 1.4 --seed 7")
    assert r.returncode == 0, r.stderr
    summary = json.loads(out.read_text())["summary"]
    assert (summary["wins"], summary["draws"], summary["losses"], summary["a_score"]) == \
        (0, 4, 0, 2.0)
    assert "A scored 2/4 = 50 %" in r.stdout and "4 draws" in r.stdout


def test_side_b_inherits_a_and_overrides_it():
    args = SimpleNamespace(argv=["arena", "connect4", "--seconds", "0.5", "--games", "9",
                                 "--json=x.json", "--opponent-args", "--playouts 100",
                                 "--seed", "3"],
                           opponent_args="--playouts 100 --no-transpositions")
    assert b_argv(args) == ["arena", "connect4", "--seed", "3", "--playouts", "100",
                            "--no-transpositions"]
    args.opponent_args = "--games 3"
    with pytest.raises(UsageError):
        b_argv(args)


@pytest.mark.parametrize("bad, words", [("--bogus", "unrecognized"),
                                        ("'open", "No closing quotation"),
                                        ("--seconds -1", "must be a positive number")])
def test_bad_opponent_flags_get_one_line(bad, words):
    r = arena("connect4", "--games", "1", "--opponent-args", bad)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("flags, words", [("--size 7", "change the board"),
                                          ("--komi 100", "change the rules")])
def test_a_side_b_that_plays_another_game_is_refused(flags, words):
    r = arena("go", "--size", "5", "--playouts", "50", "--games", "1", "--opponent-args", flags)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("compil")]
    assert len(lines) == 1 and words in lines[0]        # (a first run also says it compiles)


def test_a_json_path_that_is_a_folder_is_refused_before_play(tmp_path):
    r = arena("tictactoe", "--games", "1", "--json", str(tmp_path))
    assert r.returncode == 2 and "it is a folder" in r.stderr
    assert not Path(str(tmp_path) + ".json").exists()
