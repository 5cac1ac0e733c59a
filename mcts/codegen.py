"""Per-game search modules that numba can cache to disk.

numba never loads from its disk cache a function that receives other jitted functions as
arguments (numba issue #6264), so a search written once for "any game" would recompile for
seconds in every process. Instead, for each game kernel module we write a small Python file:
``from <game module> import <kernels>`` followed by the search body in ``uct_template.py``. The
search then calls the game by global name and every function caches with ``cache=True``.

Freshness: the cache stamps of :mod:`games.jit_cache` cover every source a function reaches
(the template texts written into the file, the game module, its helpers, the RNG, the
contract), so after any edit the next process recompiles the search and the game's kernels.
:func:`is_compiled` tells beforehand (so that the caller can say "compiling"), from a record
of the digest written after the last successful load.

Files go to ``$MCTS_CACHE_DIR`` if set, else next to this package's sources
(``mcts/__pycache__/generated``, as numba keeps its own cache next to the sources, so that a
GUI that starts the engine with another ``HOME`` finds them compiled), else, if that folder
cannot be written, ``$XDG_CACHE_HOME/mcts-engine`` (default ``~/.cache/mcts-engine``); numba's
cache of a generated file is in the ``__pycache__`` beside it. A file's name carries a digest of
its text and of every source it is compiled from, not of where the checkout lives: checkouts
with the same sources share one file and its compiled code (a checkout moved or cloned anew
keeps it, and so can a cache built elsewhere: :mod:`mcts.portable`), checkouts that differ
each keep their own, and an edit writes a new file (in the default folder the superseded
files of that game and their compiled code are removed).
"""
import hashlib
import importlib
import importlib.util
import os
import re
import sys
from pathlib import Path

import numba

from games import jit_cache
from games.contract import KERNEL_NAMES, OPTIONAL_KERNELS

_HERE = Path(__file__).resolve().parent
TEMPLATE = _HERE / "uct_template.py"
PLAYOUT_TEMPLATE = _HERE / "playout_template.py"
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
_NO_KEY = '''
@njit(cache=True)
def position_key(state):
    """Generated stand-in: this game declares no transpositions."""
    return np.uint64(0)
'''
_NO_FEATURES = '''
@njit(cache=True)
def move_features(state, cand, feats):
    """Generated stand-in: this game describes no move features (no learned playouts)."""
    return 0
'''
_NO_SOLVE = '''
@njit(cache=True)
def solve(state, budget, table):
    """Generated stand-in: this game has no exact solver."""
    return np.int64(ONGOING), np.int64(0)
'''
_NO_CHANCE = '''
@njit(cache=True)
def chance_outcomes(state, actions, probs):
    """Generated stand-in: this game has no chance positions."""
    return 0
'''
_NO_OWNERSHIP = '''
@njit(cache=True)
def ownership(state, rng, out):
    """Generated stand-in: this game reports no ownership."""
    return 0
'''
_NO_LEARNED_ROLLOUT = '''
@njit(cache=True)
def learned_rollout(state, rng, table, record, seq_actions, seq_players):
    """Generated stand-in: the learned policy is the template's softmax over move_features."""
    return status(state), 0
'''
_DEFAULT_RETURNS = '''
@njit(cache=True)
def returns(state, out):
    """Generated default: the rewards of the final status (win 1, loss 0, draw 0.5)."""
    status_returns(status(state), out)
'''
# The playouts the search calls for a game with chance or a returns kernel take scratch
# buffers for chance_outcomes (``buf`` int32, ``probs`` float64, (num_actions,)). Generated
# from playout_action when the game has no rollout of its own (drawing chance outcomes by
# probability), else adapters of the game's own; ``rollout``/``rollout_record`` of a chance
# game without its own allocate their buffers per call (for callers that have none).
_CHANCE_ROLLOUT = '''
@njit(cache=True)
def chance_rollout(state, rng, buf, probs):
    """Generated default: the game's playout_action until the game ends, each chance
    outcome drawn by its probability; returns the final status."""
    st = status(state)
    while st == ONGOING:
        if to_play(state) == CHANCE:
            n = chance_outcomes(state, buf, probs)
            st = apply_action(state, draw_outcome(rng, buf, probs, n))
        else:
            st = apply_action(state, playout_action(state, rng))
    return st


@njit(cache=True)
def rollout(state, rng):
    """Generated default: :func:`chance_rollout` with buffers of its own."""
    return chance_rollout(state, rng, np.empty(OUTCOME_BUFFER, dtype=np.int32),
                          np.empty(OUTCOME_BUFFER, dtype=np.float64))
'''
_CHANCE_ROLLOUT_RECORD = '''
@njit(cache=True)
def chance_rollout_record(state, rng, seq_actions, seq_players, buf, probs):
    """Generated default: :func:`chance_rollout`, recording each move and its player (chance
    outcomes as player CHANCE) up to the buffers' length; returns (final status, moves
    recorded)."""
    n = 0
    st = status(state)
    while st == ONGOING:
        player = to_play(state)
        if player == CHANCE:
            k = chance_outcomes(state, buf, probs)
            a = draw_outcome(rng, buf, probs, k)
        else:
            a = playout_action(state, rng)
        st = apply_action(state, a)
        if n < seq_actions.shape[0]:
            seq_actions[n] = a
            seq_players[n] = player
            n += 1
    return st, n


@njit(cache=True)
def rollout_record(state, rng, seq_actions, seq_players):
    """Generated default: :func:`chance_rollout_record` with buffers of its own."""
    return chance_rollout_record(state, rng, seq_actions, seq_players,
                                 np.empty(OUTCOME_BUFFER, dtype=np.int32),
                                 np.empty(OUTCOME_BUFFER, dtype=np.float64))
'''
_ROLLOUT_ADAPTER = '''
@njit(cache=True)
def chance_rollout(state, rng, buf, probs):
    """The game's own rollout (it draws its chance outcomes itself)."""
    return rollout(state, rng)
'''
_ROLLOUT_RECORD_ADAPTER = '''
@njit(cache=True)
def chance_rollout_record(state, rng, seq_actions, seq_players, buf, probs):
    """The game's own (or the generated) rollout_record."""
    return rollout_record(state, rng, seq_actions, seq_players)
'''
_DEFAULTS = {"rollout": _DEFAULT_ROLLOUT, "ply": _NO_PLY, "rollout_record": _DEFAULT_ROLLOUT_RECORD,
             "prior": _NO_PRIOR, "position_key": _NO_KEY, "move_features": _NO_FEATURES,
             "solve": _NO_SOLVE, "chance_outcomes": _NO_CHANCE, "returns": _DEFAULT_RETURNS,
             "ownership": _NO_OWNERSHIP, "learned_rollout": _NO_LEARNED_ROLLOUT}
_loaded = {}


def cache_dir() -> Path:
    """Directory for generated modules (created on demand); see the module docstring."""
    base = os.environ.get("MCTS_CACHE_DIR")
    if base:
        path = Path(base)
        path.mkdir(parents=True, exist_ok=True)
        return path
    here = _HERE / "__pycache__" / "generated"
    try:
        here.mkdir(parents=True, exist_ok=True)
        if os.access(here, os.W_OK):
            return here
    except OSError:
        pass
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(xdg) / "mcts-engine"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _source_text(game_module) -> str:
    names = ", ".join(KERNEL_NAMES)
    text = f"from {game_module} import {names}  # noqa: F401\n"
    body = TEMPLATE.read_text() + "\n\n" + PLAYOUT_TEMPLATE.read_text()
    present = provided_kernels(game_module)
    chance = "chance_outcomes" in present
    for name in OPTIONAL_KERNELS:
        if name in present:
            text += f"from {game_module} import {name}  # noqa: F401\n"
        elif chance and name == "rollout":
            body += _CHANCE_ROLLOUT
        elif chance and name == "rollout_record":
            body += _CHANCE_ROLLOUT_RECORD
        else:
            body += _DEFAULTS[name]
    if not chance or "rollout" in present:
        body += _ROLLOUT_ADAPTER
    if not chance or "rollout_record" in present:
        body += _ROLLOUT_RECORD_ADAPTER
    # A compile-time constant: without a prior kernel, expand() compiles without the call.
    text += f"HAS_PRIOR = {'prior' in present}\n"
    # Likewise: without position_key, the search compiles without the transposition table.
    text += f"HAS_KEY = {'position_key' in present}\n"
    # And without move_features, without the learned playout policy.
    text += f"HAS_FEATURES = {'move_features' in present}\n"
    # And without solve, without the calls of the exact solver.
    text += f"HAS_SOLVE = {'solve' in present}\n"
    # Chance positions (chance nodes in the tree, outcomes drawn in playouts) and a returns
    # kernel (a reward per player): either makes the search GENERAL (max-n backup of a reward
    # vector, no MCTS-Solver); a two-player deterministic game compiles without either.
    text += f"HAS_CHANCE = {chance}\n"
    text += f"HAS_RETURNS = {'returns' in present}\n"
    text += "GENERAL = HAS_CHANCE or HAS_RETURNS\n"
    # And without ownership, without the sums of who owns what (SearchConfig.ownership).
    text += f"HAS_OWNERSHIP = {'ownership' in present}\n"
    # And the learned policy's own playout, played instead of the softmax over move_features.
    text += f"HAS_LEARNED_ROLLOUT = {'learned_rollout' in present}\n"
    return text + body


def provided_kernels(game_module) -> set:
    """Names of the contract's optional kernels (``OPTIONAL_KERNELS``) that ``game_module``
    defines; the others get the generated defaults above."""
    mod = importlib.import_module(game_module)
    return {name for name in OPTIONAL_KERNELS if name in vars(mod)}


def target() -> tuple:
    """(CPU name, CPU features) that numba compiles for in this process: the host's, unless
    ``numba.config.CPU_NAME`` / ``CPU_FEATURES`` state another (:mod:`mcts.portable`)."""
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features
    import llvmlite.binding as ll
    name = config.CPU_NAME or ll.get_host_cpu_name()
    features = config.CPU_FEATURES if config.CPU_FEATURES is not None else \
        get_host_cpu_features()
    return name, features


def _target_tag(cpu=None) -> str:
    name, features = cpu or target()
    return f"{name}-{hashlib.sha256(features.encode()).hexdigest()[:8]}"


def _template_modules() -> list:
    """The engine modules the search template imports (their edits change the search)."""
    text = TEMPLATE.read_text() + PLAYOUT_TEMPLATE.read_text()
    return sorted(set(re.findall(r"^from (mcts\.\w+|games\.\w+) import", text, re.M)))


def _sources_digest(game_module) -> str:
    """Digest of the generated text and of every source it is compiled from (the game's
    closure and the engine modules of the template), independent of where they live."""
    h = hashlib.sha256(_file_text(game_module).encode())
    for name in [game_module, *_template_modules()]:
        importlib.import_module(name)
        h.update(name.encode() + jit_cache.digest(name).encode())
    return h.hexdigest()


def generated_path(game_module) -> Path:
    """Path of the generated search module for ``game_module`` (not necessarily written yet)."""
    stem = game_module.replace(".", "_")
    return cache_dir() / f"search_{stem}_{_sources_digest(game_module)[:12]}.py"


def _record_path(game_module, cpu=None) -> Path:
    return generated_path(game_module).with_suffix(f".{_target_tag(cpu)}.compiled")


def _expected_digest(game_module, cpu=None) -> str:
    """Digest of everything the compiled search for ``game_module`` depends on: numba's
    version, the sources, the CPU target and, when set, ``NUMBA_CACHE_DIR``."""
    h = hashlib.sha256(numba.__version__.encode())
    h.update(_sources_digest(game_module).encode())
    h.update(_target_tag(cpu).encode())
    h.update(os.environ.get("NUMBA_CACHE_DIR", "").encode())
    return h.hexdigest()


def _file_text(game_module) -> str:
    return '"""Generated by mcts.codegen; do not edit."""\n' + _source_text(game_module)


def is_compiled(game_module, cpu=None) -> bool:
    """True if the compiled search and game kernels on disk are those of the current sources
    for this process's CPU target (or ``cpu``, a :func:`target` pair): recorded by
    :func:`mark_compiled` for the same digest, and numba's index files still there (next to
    the sources, or under ``NUMBA_CACHE_DIR`` when it is set)."""
    try:
        if _record_path(game_module, cpu).read_text() != _expected_digest(game_module, cpu):
            return False
    except OSError:
        return False
    path = generated_path(game_module)
    module = importlib.import_module(game_module)
    source = Path(module.__file__)
    moved = os.environ.get("NUMBA_CACHE_DIR")

    def cached(where, pattern):
        if moved:
            return any(Path(moved).rglob(pattern))
        return where.is_dir() and any(where.glob(pattern))
    return (cached(path.parent / "__pycache__", f"{path.stem}.run_playouts-*.nbi")
            and cached(_numba_folder(module), f"{source.stem}.*.nbi"))


def _numba_folder(module) -> Path:
    """The folder numba's locators chose for the cache of ``module``'s jitted functions: next
    to the file, or numba's user-wide cache when that folder cannot be written (a read-only
    installation)."""
    for value in list(vars(module).values()):
        if getattr(getattr(value, "py_func", None), "__module__", None) != module.__name__:
            continue                    # imported from elsewhere (games.rng's random_below)
        where = getattr(getattr(value, "_cache", None), "_cache_path", None)
        if isinstance(where, str):
            return Path(where)
    return Path(module.__file__).parent / "__pycache__"


def mark_compiled(game_module):
    """Record that the kernels of ``game_module`` are compiled for the current sources and
    this process's CPU target."""
    _atomic_write(_record_path(game_module), _expected_digest(game_module))


def _atomic_write(path, data):
    """Write ``data`` (str or bytes) to ``path`` through a temporary file and a rename, so that
    a reader in another process sees the old file or the new one, never half of one."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(data)
    os.replace(tmp, path)


def load(game_module):
    """Import (writing or rewriting it first if needed) the generated search module of
    ``game_module``."""
    if game_module in _loaded:
        return _loaded[game_module]
    path, text = generated_path(game_module), _file_text(game_module)
    try:
        current = path.read_text()
    except OSError:
        current = None
    if current != text:
        _atomic_write(path, text)
        _prune(game_module, path)
    name = f"mcts_generated_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _loaded[game_module] = module
    return module


def _prune(game_module, keep):
    """In the default folder (one checkout's), remove the superseded generated modules of
    ``game_module``, their records and their compiled code; a folder that other checkouts may
    share (``MCTS_CACHE_DIR``, the user's cache) keeps them."""
    folder = keep.parent
    if os.environ.get("MCTS_CACHE_DIR") or folder != _HERE / "__pycache__" / "generated":
        return
    prefix = f"search_{game_module.replace('.', '_')}_"
    for old in [*folder.glob(prefix + "*"), *(folder / "__pycache__").glob(prefix + "*")]:
        if not old.name.startswith(keep.stem):
            try:
                old.unlink()
            except OSError:
                pass
