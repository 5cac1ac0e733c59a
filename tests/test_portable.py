"""The shipped portable cache (mcts.portable): current, used by a fresh checkout without a
compile, giving the same searches as native code, and set aside after an edit."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import games
from frontends.portable_build import BUILTIN_GAMES
from mcts import MCTS, SearchConfig, portable

ROOT = Path(__file__).parent.parent
COMPILING = "compiling the search and the kernels"
SHIPPED = pytest.mark.skipif(not portable.archive_path().is_file(),
                             reason=f"no shipped cache for {portable.archive_name()}")

PROBE = """
import json
import games
from mcts import MCTS, SearchConfig, portable
from numba.core.registry import cpu_target
game = games.get({name!r})
r = MCTS(game, SearchConfig(seed=3, threads=1, capacity=100_000)).search(
    game.initial_state(), playouts=3000)
print(json.dumps({{"cpu": cpu_target.target_context.codegen().magic_tuple()[1],
                  "visits": sorted((c.move, c.visits) for c in r.children)}}))
"""


def search(name):
    game = games.get(name)
    r = MCTS(game, SearchConfig(seed=3, threads=1, capacity=100_000), log=None).search(
        game.initial_state(), playouts=3000)
    return sorted([c.move, c.visits] for c in r.children)


def fresh_copy(dest):
    for folder in ("games", "mcts"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=shutil.ignore_patterns(
            "__pycache__"))
    shutil.copy(ROOT / "cli.py", dest / "cli.py")


def probe(checkout, name):
    env = dict(os.environ, PYTHONPATH=str(checkout), MCTS_NATIVE_BUILD="0")
    for var in ("MCTS_CACHE_DIR", "NUMBA_CACHE_DIR", "MCTS_PORTABLE_CACHE", "NUMBA_CPU_NAME",
                "NUMBA_CPU_FEATURES"):
        env.pop(var, None)
    p = subprocess.run([sys.executable, "-c", PROBE.format(name=name)], cwd=checkout, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), COMPILING in p.stderr


@SHIPPED
@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_the_shipped_cache_is_built_from_the_current_sources(name):
    module = games.get(name).kernel_module
    assert portable.manifest()["modules"].get(module) == portable.digest(module), (
        f"the shipped cache of {module} is stale: rebuild it with "
        "`python3 -m frontends.portable_build build` and commit mcts/portable_cache/")


@SHIPPED
@pytest.mark.skipif(not portable.host_supports(), reason="this CPU lacks x86-64-v3")
def test_a_fresh_checkout_plays_on_shipped_code_the_native_search(tmp_path):
    fresh_copy(tmp_path)
    shipped, compiled = probe(tmp_path, "tictactoe")
    assert not compiled and shipped["cpu"] == portable.PORTABLE_CPU
    assert shipped["visits"] == search("tictactoe")        # seeded: the same search
    # an edit of the game's sources sets the shipped code aside: native compile, announced
    rules = tmp_path / "games" / "tictactoe.py"
    rules.write_text(rules.read_text() + "\n# edited\n")
    edited, compiled = probe(tmp_path, "tictactoe")
    assert compiled and edited["cpu"] != portable.PORTABLE_CPU
    assert edited["visits"] == shipped["visits"]


def test_the_native_compile_runs_once_at_a_time(tmp_path, monkeypatch):
    import fcntl
    from mcts import codegen
    monkeypatch.setenv("MCTS_CACHE_DIR", str(tmp_path))
    lock = codegen.cache_dir() / "native-games.tictactoe.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        spec = json.dumps({"module": "games.tictactoe", "class": "TicTacToe", "params": {}})
        assert portable._native(spec) == 0                 # returns at once: locked
    assert portable.spawn_native(games.get("tictactoe")) is None    # MCTS_NATIVE_BUILD=0


@SHIPPED
@pytest.mark.skipif(not portable.host_supports(), reason="this CPU lacks x86-64-v3")
def test_a_fresh_checkouts_gtp_engine_searches_its_first_genmove_on_shipped_code(tmp_path):
    fresh_copy(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), MCTS_NATIVE_BUILD="0")
    for var in ("MCTS_CACHE_DIR", "NUMBA_CACHE_DIR", "MCTS_PORTABLE_CACHE"):
        env.pop(var, None)
    p = subprocess.run([sys.executable, "cli.py", "gtp", "--playouts", "500", "--threads", "1"],
                       input="boardsize 9\ngenmove b\nquit\n", cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n\n")[1].startswith("= ")
    assert COMPILING not in p.stderr and "quick move" not in p.stderr
    assert "500 playouts" in p.stderr          # the search's own note of its move


@SHIPPED
@pytest.mark.skipif(not portable.host_supports(), reason="this CPU lacks x86-64-v3")
@pytest.mark.parametrize("name, move", [("connect4", "4"), ("go", "E5")])
def test_a_fresh_checkouts_play_answers_on_shipped_code(tmp_path, name, move):
    """Nothing `play` does before the engine loads (the start, the seats) compiles a kernel:
    one compiled first would keep the shipped code out (issue 53's trial: 70 s for Go)."""
    fresh_copy(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), MCTS_NATIVE_BUILD="0")
    for var in ("MCTS_CACHE_DIR", "NUMBA_CACHE_DIR", "MCTS_PORTABLE_CACHE"):
        env.pop(var, None)
    p = subprocess.run([sys.executable, "cli.py", "play", name, "--playouts", "300",
                        "--threads", "1", "--sgf-dir", str(tmp_path)],
                       input=f"{move}\nquit\n", cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "AI plays" in p.stdout and COMPILING not in p.stderr, p.stderr


@SHIPPED
@pytest.mark.skipif(not portable.host_supports(), reason="this CPU lacks x86-64-v3")
def test_a_damaged_archive_is_said_in_one_line_and_the_code_compiles(tmp_path):
    fresh_copy(tmp_path)
    archive = tmp_path / "mcts" / "portable_cache" / portable.archive_path().name
    archive.write_bytes(archive.read_bytes() + b"\0")      # still xz, not the manifest's
    env = dict(os.environ, PYTHONPATH=str(tmp_path), MCTS_NATIVE_BUILD="0")
    for var in ("MCTS_CACHE_DIR", "NUMBA_CACHE_DIR", "MCTS_PORTABLE_CACHE"):
        env.pop(var, None)
    p = subprocess.run([sys.executable, "cli.py", "analyze", "tictactoe", "--moves", "5",
                        "--playouts", "3000", "--threads", "1", "--json", "--seed", "3"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert "its checksum is not the manifest's); compiling instead" in p.stderr
    assert COMPILING in p.stderr
    # against X in the centre only a corner holds the draw (an edge loses): a known answer
    assert json.loads(p.stdout)["best"] in {"1", "3", "7", "9"}
