"""Per-game search modules that numba can cache to disk.

numba never loads from its disk cache a function that receives other jitted functions as
arguments (numba issue #6264), so a search written once for "any game" would recompile for
seconds in every process. Instead, for each game kernel module we write a small Python file:
``from <game module> import <kernels>`` followed by the search body in ``uct_template.py``. The
search then calls the game by global name and every function caches with ``cache=True``.

The file name carries a digest of every source it depends on (the template, the RNG, the
game's kernel module and its ``KERNEL_DEPENDENCIES``, numba's version), so editing any of them
gives a new file and a fresh compile: numba alone would not notice edits in other files.

Files go to ``$MCTS_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/mcts-engine`` (default
``~/.cache/mcts-engine``), with numba's cache in its ``__pycache__``.
"""
import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path

import numba

from games.base import KERNEL_NAMES

_HERE = Path(__file__).resolve().parent
TEMPLATE = _HERE / "uct_template.py"
_DEFAULT_ROLLOUT = '''
@njit(cache=True)
def rollout(state, rng):
    """Generated default playout: the game's playout_action until the game ends."""
    st = status(state)
    while st == ONGOING:
        st = apply_action(state, playout_action(state, rng))
    return st
'''
_DEFAULT_ROLLOUT_RECORD = '''
@njit(cache=True)
def rollout_record(state, rng, seq_actions, seq_players):
    """Generated default: the game's playout_action until the game ends, recording the moves
    (up to the buffers' length); returns (final status, moves recorded)."""
    n = 0
    st = status(state)
    while st == ONGOING:
        player = to_play(state)
        a = playout_action(state, rng)
        st = apply_action(state, a)
        if n < seq_actions.shape[0]:
            seq_actions[n] = a
            seq_players[n] = player
            n += 1
    return st, n
'''
_NO_PLY = '''
@njit(cache=True)
def ply(state):
    """Generated stand-in: this game does not report plies."""
    return -1
'''
_NO_PRIOR = '''
@njit(cache=True)
def prior(state, actions, visits, value):
    """Generated stand-in: this game has no prior knowledge."""
    return None
'''
_loaded = {}


def cache_dir() -> Path:
    """Directory for generated modules (created on demand)."""
    base = os.environ.get("MCTS_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "mcts-engine")
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _source_text(game_module) -> str:
    mod = importlib.import_module(game_module)
    names = ", ".join(KERNEL_NAMES)
    text = f"from {game_module} import {names}  # noqa: F401\n"
    body = TEMPLATE.read_text()
    for name, default in (("rollout", _DEFAULT_ROLLOUT), ("ply", _NO_PLY),
                          ("rollout_record", _DEFAULT_ROLLOUT_RECORD), ("prior", _NO_PRIOR)):
        if hasattr(mod, name):
            text += f"from {game_module} import {name}  # noqa: F401\n"
        else:
            body += default
    # A compile-time constant: without a prior kernel, expand() compiles without the call.
    text += f"HAS_PRIOR = {hasattr(mod, 'prior')}\n"
    return text + body


def _digest(game_module) -> str:
    mod = importlib.import_module(game_module)
    files = [TEMPLATE, _HERE / "rng.py", Path(mod.__file__)]
    files += [Path(f) for f in getattr(mod, "KERNEL_DEPENDENCIES", ())]
    h = hashlib.sha256(numba.__version__.encode())
    for f in files:
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:16]


def generated_path(game_module) -> Path:
    """Path of the generated search module for ``game_module`` (not necessarily written yet)."""
    stem = game_module.replace(".", "_")
    return cache_dir() / f"search_{stem}_{_digest(game_module)}.py"


def is_compiled(game_module) -> bool:
    """True if numba's disk cache already holds the search kernels for ``game_module`` and the
    game's own kernels (next to their sources, or under ``NUMBA_CACHE_DIR`` when it is set)."""
    path = generated_path(game_module)
    source = Path(importlib.import_module(game_module).__file__)
    moved = os.environ.get("NUMBA_CACHE_DIR")

    def cached(file, pattern):
        if moved:
            return any(Path(moved).rglob(pattern))
        where = file.parent / "__pycache__"
        return where.is_dir() and any(where.glob(pattern))
    return (cached(path, f"{path.stem}.run_playouts-*.nbi")
            and cached(source, f"{source.stem}.*.nbi"))


def load(game_module):
    """Import (writing it first if needed) the generated search module of ``game_module``."""
    if game_module in _loaded:
        return _loaded[game_module]
    path = generated_path(game_module)
    if not path.exists():
        stem = game_module.replace(".", "_")
        for old in path.parent.glob(f"search_{stem}_*.py"):   # sources changed: drop stale
            old.unlink(missing_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(f'"""Generated by mcts.codegen; do not edit."""\n' + _source_text(game_module))
        os.replace(tmp, path)
    name = f"mcts_generated_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _loaded[game_module] = module
    return module
