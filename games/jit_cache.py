"""numba's disk cache, made aware of every source a compiled kernel depends on.

numba validates a cached function only against the file that defines it (numba docs,
"Caching Limitations"): a game kernel in ``games/go/kernels.py`` that calls a helper in
``games/go/board.py`` keeps the helper's old machine code after the helper is edited, and so
does a generated search module that calls the game. Renaming files does not help the callee.

This module installs, in front of numba's own cache locators, two locators that put the cache
files where numba would (next to the source, or under ``NUMBA_CACHE_DIR``) but stamp them with
a digest of the function's file **and of every project module it can reach**: the modules,
functions, classes and jitted functions in its module's globals and the modules its source
imports at the top level (a module of constants), followed recursively (the RNG, the game
contract and helper modules are reached this way), plus the files a game declares in
``Game.kernel_dependencies`` (data baked into kernels). When any of them changes, numba finds
the stamp stale and recompiles. The digest is computed when numba first reads or writes the
function's index (its first call), after the module has finished importing, so its globals
are complete; lazy imports inside functions do not count, so the digest is the same in every
process whatever else it imported.

Functions of installed third-party libraries that do not use this engine keep numba's stamps.
"""
import ast
import hashlib
import os
import sys
import types

from numba.core import caching

OUR_PACKAGES = ("games", "mcts")
CONTRACT_LAYER = {"games.contract", "games.rng", "games.jit_cache", "games.compiled", "games.base"}
_SKIP = {"numpy", "numba", "llvmlite", "builtins"} | set(getattr(sys, "stdlib_module_names", ()))
_declared = {}          # module name -> extra source files (Game.kernel_dependencies)
_file_hashes = {}       # (path, mtime_ns, size) -> sha256 digest; ("imports", ...) -> names


def declare_dependencies(module_name, paths, relative_to=None):
    """Add ``paths`` (files; relative ones are taken from the folder of ``relative_to``, a
    file) to the sources of every cached kernel of module ``module_name`` and of the helper
    modules it has imported so far (their compiled code is inlined into its kernels). Called
    by :class:`games.contract.Game` for its subclasses' ``kernel_dependencies``."""
    if not paths:
        return
    base = os.path.dirname(os.path.abspath(relative_to)) if relative_to else os.getcwd()
    files = {os.path.abspath(os.path.join(base, p)) for p in paths}
    for name in {module_name, *closure(module_name)} - CONTRACT_LAYER:
        _declared.setdefault(name, set()).update(files)


def _file_digest(path):
    try:
        st = os.stat(path)
    except OSError:
        return b"missing:" + path.encode()
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _file_hashes:
        with open(path, "rb") as f:
            _file_hashes[key] = hashlib.sha256(f.read()).digest()
    return _file_hashes[key]


def _module_of(value):
    """The name of the module ``value`` is or comes from, if it is worth following."""
    name = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__",
                                                                              None)
    if not isinstance(name, str) or name.split(".")[0] in _SKIP:
        return None
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    return name if path and path.endswith(".py") else None


def _top_level(statements):
    """The statements run when a module is imported (not those inside functions or classes:
    a lazy import there may or may not have happened, and stamps must not depend on it)."""
    for node in statements:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield from _top_level(getattr(node, field, ()))


def _imported(module):
    """Names of the modules that ``module``'s source imports at its top level (``from consts
    import N`` leaves only a number in its globals, but the number is compiled into kernels)."""
    path = getattr(module, "__file__", None)
    try:
        st = os.stat(path)
    except (OSError, TypeError):
        return ()
    key = ("imports", path, st.st_mtime_ns, st.st_size)
    if key not in _file_hashes:
        names = set()
        package = module.__name__ if path.endswith("__init__.py") else \
            module.__name__.rpartition(".")[0]
        try:
            tree = ast.parse(open(path, "rb").read())
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        for node in _top_level(tree.body):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - node.level + 1] if node.level > 1 else parts
                    base = ".".join(p for p in parts + [base] if p)
                subs = {f"{base}.{a.name}" for a in node.names}
                names |= subs
                if not subs <= set(sys.modules):       # it imports names, not just modules
                    names.add(base)
        _file_hashes[key] = tuple(sorted(names))
    return _file_hashes[key]


def closure(module_name):
    """Names of the project modules that ``module_name`` reaches through its globals and its
    imports (itself included), sorted."""
    seen, todo = {module_name}, [module_name]
    while todo:
        module = sys.modules.get(todo.pop())
        if module is None:
            continue
        package = getattr(module, "__path__", None) is not None
        # a package's submodules appear among its attributes once anything imports them:
        # follow only those its own source imports
        reached = [_module_of(v) for v in list(vars(module).values())
                   if not (package and isinstance(v, types.ModuleType))]
        reached += [n for n in _imported(module) if n in sys.modules and _module_of(sys.modules[n])]
        for name in reached:
            if name and name not in seen:
                seen.add(name)
                todo.append(name)
    return sorted(seen)


def sources(module_name):
    """Every file the compiled code of ``module_name`` depends on: its module closure and the
    declared dependencies of the modules in it."""
    return sorted(path for _, path in _labelled_sources(module_name))


def _labelled_sources(module_name):
    """(label, path) of each of :func:`sources`: a module's name, or ``declared:`` and the file
    name of a declared dependency. Labels, not paths, enter the digest, so that a checkout
    moved or cloned elsewhere keeps its compiled code (and a cache built on one machine can
    serve another)."""
    pairs = set()
    for name in closure(module_name):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            pairs.add((name, os.path.abspath(module.__file__)))
        pairs |= {("declared:" + os.path.basename(f), f) for f in _declared.get(name, ())}
    return sorted(pairs)


def digest(module_name):
    """Hex digest of the contents of :func:`sources`, each labelled by its module name (or a
    declared file's name), not its path (``module_name`` must be imported)."""
    h = hashlib.sha256()
    for label, path in _labelled_sources(module_name):
        h.update(label.encode() + b"\0" + _file_digest(path))
    return h.hexdigest()


class _DeferredStamp:
    """A source stamp computed on first use, once the module's globals are complete. It
    pickles as the plain tuple it stands for, and compares equal to that tuple."""

    def __init__(self, module_name):
        self.module_name, self._value = module_name, None

    def value(self):
        if self._value is None:
            self._value = ("mcts-engine closure", digest(self.module_name))
        return self._value

    def __eq__(self, other):
        return self.value() == (other.value() if isinstance(other, _DeferredStamp) else other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __reduce__(self):
        return tuple, (self.value(),)


def _uses_engine(py_func):
    """Should ``py_func`` get closure stamps? Yes for this engine's modules, for modules outside
    any site-packages folder (your own code, plug-ins installed with ``pip install -e``) and
    for installed modules that import from the engine."""
    module = sys.modules.get(py_func.__module__)
    if module is None:
        return False
    path = getattr(module, "__file__", None) or ""
    if py_func.__module__.split(".")[0] in OUR_PACKAGES or (
            path and not any(part in ("site-packages", "dist-packages")
                             for part in os.path.normpath(path).split(os.sep))):
        return True
    for value in list(vars(module).values()):
        name = _module_of(value)
        if name and name.split(".")[0] in OUR_PACKAGES:
            return True
    return False


def _stamped(base):
    class Locator(base):
        __doc__ = f"{base.__name__} whose source stamp covers the function's whole closure."

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _uses_engine(py_func):
                return None
            self = super().from_function(py_func, py_file)
            if self is not None:
                self._module_name = py_func.__module__
            return self

        def get_source_stamp(self):
            return _DeferredStamp(self._module_name)
    Locator.__name__ = Locator.__qualname__ = "Closure" + base.__name__.lstrip("_")
    return Locator


def install():
    """Put the closure-stamped locators first in numba's list (idempotent)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    if getattr(impl, "_mcts_engine_stamps", False):
        return
    bases = [getattr(caching, n, None) or getattr(caching, "_" + n)
             for n in ("UserProvidedCacheLocator", "InTreeCacheLocator")]
    impl._locator_classes = [_stamped(b) for b in bases] + list(impl._locator_classes)
    impl._mcts_engine_stamps = True


install()
