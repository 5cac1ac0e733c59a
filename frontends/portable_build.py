"""Build the shipped portable cache (:mod:`mcts.portable`): ``python3 -m frontends.portable_build build``.

A child process compiles every built-in game's search and kernels for the portable CPU target
into empty cache folders, runs what the commands run (a search, tree reuse, two threads, Go's
scoring), and packs numba's cache files of the engine's modules, by module name, into
``mcts/portable_cache/<python>-numba-<version>-<arch>.tar.xz`` with a manifest of the sources'
digests. Run it after changing compiled code; ``tests/test_portable.py`` says when it is due.
"""
import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILTIN_GAMES = ("connect4", "othello", "tictactoe", "go", "pig", "backgammon",
                 "chinese_checkers")


def _exercise(game):
    """What play, analyze, GTP and bench run on ``game`` (so that all of it is in the cache)."""
    from mcts import MCTS, SearchConfig
    from mcts.loading import load_kernels
    load_kernels(game, log=None)
    state = game.initial_state()
    for threads in (1, 2):
        engine = MCTS(game, SearchConfig(threads=threads, capacity=20_000, seed=1), log=None)
        result = engine.search(state, playouts=300)
        engine.advance(result.action)
        after = state.copy()
        game.play(after, result.action)
        if game.status(after) == 0:
            engine.search(after, playouts=300)
        engine.close()
    if hasattr(game, "settle"):
        game.settle(state, 8)


def _child(names, out_dir):
    """Compile ``names`` (registry names) here, then pack the cache (the process's environment
    sets the portable target and empty cache folders)."""
    import games
    from mcts import codegen, portable
    seconds, modules = {}, {}
    for name in names:
        t0 = time.perf_counter()
        game = games.get(name)
        _exercise(game)
        seconds[game.kernel_module] = round(time.perf_counter() - t0, 1)
        modules[game.kernel_module] = portable.digest(game.kernel_module)
    members = {}
    for module_name, module in sorted(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        ours = module_name.split(".")[0] in ("games", "mcts") or \
            module_name.startswith("mcts_generated_")
        if not (ours and path.endswith(".py")):
            continue
        folder = portable._cache_folder(path)
        stem = Path(path).stem
        for f in sorted(folder.glob(f"{stem}.*")) if folder.is_dir() else ():
            if f.suffix in (".nbi", ".nbc"):
                members[f"{module_name}/{f.name}"] = f.read_bytes()
    archive = Path(out_dir) / (portable.archive_name() + ".tar.xz")
    with tarfile.open(archive, "w:xz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    manifest = {"cpu": portable.PORTABLE_CPU, "features": portable.PORTABLE_FEATURES,
                "sha256": hashlib.sha256(archive.read_bytes()).hexdigest(),
                "modules": modules, "compile_seconds": seconds,
                "built_on": codegen.target()[0], "files": len(members)}
    (Path(out_dir) / (portable.archive_name() + ".json")).write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return archive


def build(names, out_dir):
    """Build the archive and manifest for ``names`` into ``out_dir`` in a child process;
    returns the child's exit status."""
    from mcts import portable
    with tempfile.TemporaryDirectory(prefix="mcts-portable-") as tmp:
        env = dict(os.environ, NUMBA_CPU_NAME=portable.PORTABLE_CPU,
                   NUMBA_CPU_FEATURES=portable.PORTABLE_FEATURES,
                   NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                   MCTS_CACHE_DIR=os.path.join(tmp, "generated"),
                   **{portable.DISABLE: "0", portable.NO_NATIVE: "0"},
                   PYTHONPATH=str(ROOT))
        return subprocess.call([sys.executable, "-m", "frontends.portable_build", "_child",
                                out_dir, *names], env=env, cwd=str(ROOT))


def main(argv):
    from mcts import portable
    parser = argparse.ArgumentParser(prog="python3 -m frontends.portable_build",
                                     description="build the shipped portable cache")
    parser.add_argument("command", choices=["build"])
    parser.add_argument("games", nargs="*", default=list(BUILTIN_GAMES))
    args = parser.parse_args(argv)
    portable.HERE.mkdir(exist_ok=True)
    for old in portable.HERE.glob(portable.archive_name() + ".*"):
        old.unlink()
    t0 = time.perf_counter()
    status = build(args.games, str(portable.HERE))
    if status == 0:
        size = portable.archive_path().stat().st_size
        print(f"{portable.archive_path()}: {size / 2**20:.1f} MiB, built in "
              f"{time.perf_counter() - t0:.0f} s")
    return status


if __name__ == "__main__":
    if sys.argv[1:2] == ["_child"]:
        _child(sys.argv[3:], sys.argv[2])
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))
