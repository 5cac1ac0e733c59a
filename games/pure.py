"""Pure-Python twins of compiled kernels, for the seconds in which numba is still compiling.

A numba dispatcher keeps its Python function (``py_func``), but that function's globals name
other dispatchers, so calling it would still wait for their compilation. :func:`twin` rebuilds
the function over a copy of its module's globals in which every dispatcher (and every module
holding dispatchers, such as ``gb`` in ``gb.place_stone(...)``) is replaced by its own twin,
recursively. The result runs the very same source as interpreted Python: slow (a Go move takes
about a millisecond) but needing no compilation, and bit-for-bit the same rules, since the
conformance check already runs every kernel with ``NUMBA_DISABLE_JIT=1`` and compares.

Used by the GTP engine so that the first ``play`` and ``genmove`` commands answer at once on an
empty cache while the kernels compile in the background.
"""
import importlib
import types

import numpy as np
from numba.core.registry import CPUDispatcher

_twins = {}          # id(dispatcher or function) -> twin function
_globals = {}        # id(module globals dict) -> twin globals dict
_modules = {}        # module name -> twin namespace
_holders = {}        # id(module globals dict) -> does it hold kernels?
_classes = {}        # game class -> its twin class


def _is_kernel(value):
    return isinstance(value, CPUDispatcher)


def twin(kernel):
    """The pure-Python twin of ``kernel`` (a numba dispatcher; a plain function is returned
    as it is). Its calls to other kernels go to their twins. Arguments and results are those
    of the kernel (numpy arrays and scalars)."""
    if not _is_kernel(kernel):
        return kernel
    if id(kernel) not in _twins:
        _twins[id(kernel)] = _rebuild(kernel.py_func)
    return _twins[id(kernel)]


def _rebuild(f):
    """Function ``f`` over the twin globals of its module."""
    return types.FunctionType(f.__code__, _twin_globals(f.__globals__), f.__name__,
                              f.__defaults__, f.__closure__)


def _twin_globals(g):
    """A copy of a module's globals dict with kernels replaced by their twins, and so are the
    modules and plain functions of the module's own package (``count.area`` calling
    ``go_area.area``: rebuilt, it reaches the twins); registered before it is filled, so that
    cycles find it."""
    key = id(g)
    if key not in _globals:
        out = _globals[key] = dict(g)
        package = _package(g.get("__name__"))
        for name, value in g.items():
            out[name] = _twin_value(value, package)
    return _globals[key]


def _package(name):
    return (name or "").split(".")[0]


def _twin_value(value, package):
    """The twin of a global of a module of ``package``: a kernel's, or that of a module or a
    plain function of the same package; anything else (numpy, numba, ...) as it is."""
    if _is_kernel(value):
        return twin(value)
    if isinstance(value, types.ModuleType) and (
            _package(value.__name__) == package or _holds_kernels(value)):
        return _twin_module(value)
    if isinstance(value, types.FunctionType) and _package(value.__module__) == package:
        if id(value) not in _twins:
            _twins[id(value)] = _rebuild(value)
        return _twins[id(value)]
    return value


def _holds_kernels(module):
    return any(_is_kernel(v) for v in vars(module).values())


def _twin_module(module):
    """A namespace like ``module`` with its globals twinned as :func:`_twin_globals` does."""
    name = module.__name__
    if name not in _modules:
        ns = _modules[name] = types.SimpleNamespace(**vars(module))
        for key, value in vars(module).items():
            setattr(ns, key, _twin_value(value, _package(name)))
    return _modules[name]


def twin_class(cls):
    """A subclass of game class ``cls`` (a :class:`games.contract.Game`) whose methods, and
    the kernels they reach (``kernels`` included), all run as interpreted Python."""
    if cls not in _classes:
        ns = {"kernels": property(lambda self: _twin_module(
            importlib.import_module(self.kernel_module)))}
        for klass in reversed(cls.__mro__[:-1]):
            for name, value in vars(klass).items():
                if isinstance(value, types.FunctionType) and (
                        name == "__init__" or not name.startswith("__")):
                    ns[name] = _rebuild(value)
                elif isinstance(value, staticmethod):
                    ns[name] = staticmethod(_rebuild(value.__func__))
        _classes[cls] = type("Pure" + cls.__name__, (cls,), ns)
    return _classes[cls]


def twin_game(game):
    """A game like ``game`` (same class and parameters) running as interpreted Python; its
    states are states of ``game`` and the other way round."""
    return twin_class(type(game))(**game.params)


def quiet(func, *args):
    """Call a twin with numpy's integer-overflow warnings off (the compiled kernels wrap
    around silently, and so do the twins, but numpy scalars would warn)."""
    with np.errstate(over="ignore"):
        return func(*args)
