"""The compiled code shipped with the engine: a first run plays at once instead of compiling.

numba compiles for the host's CPU and caches the machine code next to the sources, so a fresh
install spends its first 15-45 s compiling. This module ships, in ``mcts/portable_cache/``, the
cache of every built-in game's search and kernels compiled for a portable CPU target (LLVM's
``x86-64-v3``: AVX2, BMI2, FMA, POPCNT, LZCNT; about every x86-64 machine since 2015), for one
CPython and numba version. numba's documentation ("Notes on Caching", "Cache sharing") is what
makes it work: an entry is used wherever the CPU name and features it was compiled for match,
and ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` state them.

A process whose game has no native compiled code yet (:func:`mcts.codegen.is_compiled`) and
whose sources are those the archive was built from (its manifest holds their digests) compiles
for the portable target instead (:func:`select`, before anything compiles), merges the
archive's cache files into numba's index files (:func:`unpack`), and starts a background
process, at the lowest priority, that compiles the native code (:func:`spawn_native`). The next
process finds the native code and uses it: the portable code's random playouts were 14-27 %
slower in Connect Four and Go on the machine where it was measured (docs/results/speed.md);
it is the same algorithm and gives the same games for a seed (no fast-math: floating point is the same on both targets).

Anything else, an edited source, another Python or numba, another architecture, a CPU without
those features, ``MCTS_PORTABLE_CACHE=0``, compiles natively as before, and says so.

Maintainers rebuild the archive after changing compiled code (``python3 -m frontends.portable_build
build``); ``tests/test_portable.py`` fails while it is stale.
"""
import hashlib
import io
import json
import lzma
import os
import pickle
import platform
import subprocess
import sys
import tarfile
from pathlib import Path

import numba
from numba.core import config

from mcts import codegen

PORTABLE_CPU = "x86-64-v3"
PORTABLE_FEATURES = ("+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,"
                     "+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,"
                     "+xsave")
PORTABLE = (PORTABLE_CPU, PORTABLE_FEATURES)
HERE = Path(__file__).resolve().parent / "portable_cache"
DISABLE = "MCTS_PORTABLE_CACHE"        # "0" (or no, off, false): never use the shipped cache
NO_NATIVE = "MCTS_NATIVE_BUILD"        # "0" (or no, off, false): no background native compile


def _off(variable) -> bool:
    return os.environ.get(variable, "").strip().lower() in ("0", "no", "off", "false")
_state = {"active": False, "manifest": None, "unpacked": set()}


def archive_name() -> str:
    """The archive for this interpreter, numba and architecture (the cache's keys hold the
    functions' bytecode and numba's version)."""
    impl = sys.implementation
    return (f"{impl.name}-{impl.version.major}{impl.version.minor}-numba-{numba.__version__}-"
            f"{platform.machine()}")


def manifest_path() -> Path:
    """The shipped manifest (JSON) for this interpreter; it may not exist."""
    return HERE / (archive_name() + ".json")


def archive_path() -> Path:
    """The shipped archive (tar.xz of numba cache files by module name) for this interpreter;
    it may not exist."""
    return HERE / (archive_name() + ".tar.xz")


def manifest() -> dict:
    """The shipped manifest for this interpreter ({} if none or unreadable): under
    ``"modules"``, :func:`digest` of each kernel module it holds."""
    if _state["manifest"] is None:
        try:
            found = json.loads(manifest_path().read_bytes()[:1 << 20])
        except (OSError, ValueError):
            found = {}
        ok = isinstance(found, dict) and isinstance(found.get("modules"), dict)
        _state["manifest"] = found if ok else {}
    return _state["manifest"]


def host_supports() -> bool:
    """True if this CPU has every feature of the portable target."""
    import llvmlite.binding as ll
    try:
        host = ll.get_host_cpu_features()
    except RuntimeError:
        return False
    need = [f[1:] for f in PORTABLE_FEATURES.split(",")]
    return all(host.get(f, False) for f in need if f != "64bit")


def _use_portable_target() -> bool:
    """Make numba compile for the portable target from now on, if nothing was compiled or
    loaded in this process yet (then its code generator holds no symbol and is replaced by one
    for the portable target); False if too late."""
    from numba.core import codegen as numba_codegen
    from numba.core.registry import cpu_target
    if not _nothing_compiled():
        return False
    config.CPU_NAME, config.CPU_FEATURES = PORTABLE
    cpu_target.target_context._internal_codegen = numba_codegen.JITCPUCodegen("numba.exec")
    return True


def _nothing_compiled() -> bool:
    """True while numba's code generator in this process holds no symbol (nothing compiled or
    loaded yet), so that its CPU target may still change."""
    from numba.core.registry import cpu_target
    return not cpu_target.target_context.codegen()._engine._defined_symbols


def digest(game_module) -> str:
    """What the manifest records of ``game_module``: numba's version, the portable target and
    the digest of the sources its search is compiled from (:func:`mcts.codegen._sources_digest`)."""
    h = hashlib.sha256(numba.__version__.encode())
    h.update(codegen._sources_digest(game_module).encode())
    h.update(codegen._target_tag(PORTABLE).encode())
    return h.hexdigest()


def matches(game_module) -> bool:
    """True if the shipped cache holds ``game_module``'s search compiled from the current
    sources."""
    entry = manifest().get("modules", {}).get(game_module)
    return entry is not None and entry == digest(game_module)


def available(game) -> bool:
    """True if loading ``game`` now would run on the shipped code (:func:`select` would
    choose it): no native code yet, the archive fits, and nothing compiled in this process
    (or it runs on the portable target already)."""
    module = game.kernel_module
    if _state["active"]:
        return matches(module)
    return _writable() and _nothing_compiled() and not (
        _off(DISABLE) or config.DISABLE_JIT or codegen.is_compiled(module) or not manifest()
        or not host_supports() or not matches(module) or not archive_path().is_file())


def select(game) -> bool:
    """Decide, before anything compiles, whether this process runs ``game`` on the shipped
    portable code: True if it does (the CPU target is set; call :func:`unpack` once the
    generated module is loaded), False to compile (or load) native code as usual."""
    if _state["active"]:
        return matches(game.kernel_module)
    if not available(game) or not _use_portable_target():
        return False
    _state["active"] = True
    spawn_native(game)
    return True


def _writable() -> bool:
    """True if numba's cache of the engine's modules can be written where :func:`unpack`
    puts it (a read-only installation compiles into numba's user-wide cache instead)."""
    import games.contract
    folder = _cache_folder(games.contract.__file__)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _cache_folder(py_file) -> Path:
    """Where numba keeps the cache files of a module defined in ``py_file`` (as its locators
    do: under NUMBA_CACHE_DIR if set, else next to the file)."""
    if config.CACHE_DIR:
        from numba.core.caching import _CacheLocator
        return Path(config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(py_file)
    return Path(py_file).parent / "__pycache__"


def unpack(kernels, game, log=sys.stderr):
    """Merge into numba's cache the shipped entries of every module that the loaded search
    module ``kernels`` or ``game``'s class reaches and whose sources are those of the archive
    (the others are left alone and compile). Existing entries (native code, say) stay. An
    archive that cannot be read (damaged, say) is said in one line on ``log``, and the code
    compiles. Returns False then, else True."""
    try:
        _unpack(kernels, game)
        return True
    except (OSError, EOFError, ValueError, tarfile.TarError, lzma.LZMAError,
            pickle.UnpicklingError) as e:
        if log is not None:
            print(f"the shipped compiled code could not be read ({archive_path().name}: {e}); "
                  "compiling instead", file=log, flush=True)
        return False


def _unpack(kernels, game):
    from games import jit_cache
    if codegen.is_compiled(game.kernel_module):
        return                              # merged by an earlier process (its record)
    reached = set(jit_cache.closure(kernels.__name__)) | set(
        jit_cache.closure(type(game).__module__))
    names = sorted(n for n in reached if n not in _state["unpacked"])
    if not names:
        return
    data = archive_path().read_bytes()
    if hashlib.sha256(data).hexdigest() != manifest().get("sha256"):
        raise ValueError("its checksum is not the manifest's")
    files = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:xz") as tar:
        for member in tar.getmembers():
            module, _, name = member.name.partition("/")
            if module in names and member.isfile():
                files.setdefault(module, {})[name] = tar.extractfile(member).read()
    for module in names:
        _state["unpacked"].add(module)
        archived = files.get(module)
        py_file = getattr(sys.modules.get(module), "__file__", None)
        if not archived or not py_file:
            continue
        stamp = ("mcts-engine closure", jit_cache.digest(module))
        folder = _cache_folder(py_file)
        for name, data in archived.items():
            if name.endswith(".nbi"):
                _merge_index(folder, name, data, archived, stamp)


def _read_index(data):
    buf = io.BytesIO(data)
    version = pickle.load(buf)
    if version != numba.__version__:
        return None, {}
    stamp, overloads = pickle.loads(buf.read())
    return stamp, overloads


def _merge_index(folder, index_name, data, archived, stamp):
    """Add the archived entries of one index (``data``) to the local index ``index_name`` in
    ``folder`` if the archived stamp is the current one; a local index of other sources is
    replaced, a current one keeps its entries."""
    shipped_stamp, shipped = _read_index(data)
    if shipped_stamp != stamp or not shipped:
        return
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / index_name
    try:
        local_stamp, local = _read_index(path.read_bytes())
    except (OSError, EOFError, pickle.UnpicklingError, ValueError):
        local_stamp, local = None, {}
    merged = dict(local) if local_stamp == stamp else {}
    base = index_name[:-len(".nbi")]
    taken = set(merged.values())
    for key, data_name in shipped.items():
        if key in merged:
            continue
        number = 1
        while f"{base}.{number}.nbc" in taken:
            number += 1
        name = f"{base}.{number}.nbc"
        payload = archived.get(data_name)
        if payload is None:
            continue
        codegen._atomic_write(folder / name, payload)
        merged[key] = name
        taken.add(name)
    buf = io.BytesIO()
    pickle.dump(numba.__version__, buf, protocol=-1)
    buf.write(pickle.dumps((stamp, merged), protocol=-1))
    codegen._atomic_write(path, buf.getvalue())


def spawn_native(game):
    """Start a detached process, at the lowest CPU priority, that compiles ``game``'s search
    natively (one at a time per game module: a lock file; nothing if ``MCTS_NATIVE_BUILD=0``).
    The next process uses its code."""
    if _off(NO_NATIVE):
        return None
    from games.contract import spec_of
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]))
    env.pop("NUMBA_CPU_NAME", None)
    env.pop("NUMBA_CPU_FEATURES", None)
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "mcts.native_build", json.dumps(spec_of(game))],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env=env, cwd=root, preexec_fn=_lowest_priority)
    except OSError:
        return None


def _lowest_priority():
    """In the child: nice 19, and so is its session's scheduling group (Linux's autogroup
    shares the CPU between sessions whatever their processes' nice values)."""
    os.nice(19)
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")
    except OSError:
        pass


def _native(spec_text):
    """The background native compile of :func:`spawn_native`."""
    import fcntl
    from games.contract import game_from_spec
    from mcts.loading import load_kernels
    game = game_from_spec(json.loads(spec_text))
    lock = codegen.cache_dir() / f"native-{game.kernel_module}.lock"
    with open(lock, "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0                      # another process compiles it
        if not codegen.is_compiled(game.kernel_module):
            os.environ[DISABLE] = "0"
            load_kernels(game, log=None)
    return 0

