"""Checks of the game's structure: kernels present, parameters that rebuild the game, caching."""
import importlib
import inspect

import numpy as np

from games.contract import KERNEL_NAMES, OPTIONAL_KERNELS, RETIRED_KERNELS, undeclared_note


def check_kernels(game):
    mod = importlib.import_module(game.kernel_module)
    problems = []
    for name in KERNEL_NAMES:
        if not hasattr(mod, name):
            problems.append(f"kernel module {game.kernel_module} lacks {name}(): define it at "
                            "module level with @njit(cache=True)")
        elif not callable(getattr(mod, name)):
            problems.append(f"{name} in {game.kernel_module} is not a function")
    state = game.initial_state()
    if not isinstance(state, np.ndarray) or state.ndim != 1:
        problems.append("initial_state() must return a 1-D numpy array, got "
                        f"{type(state).__name__} {getattr(state, 'shape', '')}")
    for attr in ("num_actions", "max_length"):
        value = getattr(game, attr, None)
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            problems.append(f"{attr} is {value!r}: set num_actions and max_length (positive "
                            "integers) in __init__")
    return problems


def _constructor_keywords(cls):
    """{name: default} of the keyword parameters of ``cls.__init__``, or None if it takes
    ``**kwargs`` (then its keywords cannot be read)."""
    out = {}
    for i, p in enumerate(inspect.signature(cls.__init__).parameters.values()):
        if i == 0:
            continue            # self
        if p.kind is p.VAR_KEYWORD:
            return None
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            out[p.name] = p.default
    return out


def check_params(game):
    """``type(game)(**game.params)`` rebuilds the same game; declared parameters match the
    constructor's keywords and defaults; the class can be found by other processes."""
    cls, problems = type(game), []
    name = cls.__name__
    try:
        rebuilt = cls(**game.params)
    except TypeError as e:
        problems.append(f"self.params {game.params!r} does not match the constructor of {name}: "
                        "pass the constructor's own keywords to super().__init__ (rebuilding "
                        f"the game with {name}(**self.params) raised TypeError: {e})")
        rebuilt = None
    except Exception as e:
        problems.append(f"{name}(**self.params) raised {type(e).__name__}: {e}: self.params "
                        f"{game.params!r} must hold values the constructor accepts (pass the "
                        "constructor's own keywords to super().__init__)")
        rebuilt = None
    if rebuilt is not None:
        diffs = []
        for attr in ("num_actions", "max_length"):
            if getattr(rebuilt, attr, None) != getattr(game, attr, None):
                diffs.append(f"{attr} {getattr(rebuilt, attr, None)!r} instead of "
                             f"{getattr(game, attr, None)!r}")
        a, b = game.initial_state(), rebuilt.initial_state()
        if a.shape != b.shape or a.dtype != b.dtype or a.tobytes() != b.tobytes():
            diffs.append("a different initial_state()")
        if diffs:
            problems.append(f"{name}(**self.params) builds a different game: "
                            f"{', '.join(diffs)}: self.params must hold every constructor "
                            "argument the game depends on (pass the constructor's own keywords "
                            "to super().__init__)")
    declared = {p.name: p for p in getattr(cls, "parameters", ()) or ()}
    keywords = _constructor_keywords(cls)
    if declared and keywords is not None:
        missing = [n for n in keywords if n not in declared]
        extra = [n for n in declared if n not in keywords]
        if missing or extra:
            what = []
            if extra:
                what.append(f"declares {', '.join(extra)}, which the constructor does not take")
            if missing:
                what.append(f"declares nothing for the constructor's {', '.join(missing)}")
            problems.append(f"{name}.parameters {' and '.join(what)}: declare one Param per "
                            "constructor keyword, with the same name")
        for n, p in declared.items():
            if n in keywords and keywords[n] is not inspect.Parameter.empty \
                    and keywords[n] != p.default:
                problems.append(f"Param {n!r} of {name} has default {p.default!r} but the "
                                f"constructor's default is {keywords[n]!r}: make them equal")
    found = None
    try:
        found = importlib.import_module(cls.__module__)
        for part in cls.__qualname__.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        found = None
    if found is not cls:
        problems.append(f"{cls.__module__}.{cls.__qualname__} does not name the class {name}: "
                        "define the game class at the top level of an importable module (other "
                        "processes rebuild the game from its module, class name and params)")
    problems.extend(_search_default_problems(game))
    return problems


def _search_default_problems(game):
    """Problems of ``search_defaults``: a name that is not a search option a game may set,
    or a value its declaration refuses (mcts.config.OPTIONS)."""
    from mcts.config import OPTIONS
    settable = {o.name: o for o in OPTIONS if o.per_game}
    problems = []
    defaults = getattr(game, "search_defaults", {})
    if not isinstance(defaults, dict):
        return [f"{type(game).__name__}.search_defaults must be a dict of search option names "
                f"to values, not {type(defaults).__name__}"]
    for key, value in defaults.items():
        if key not in settable:
            problems.append(f"search_defaults names {key!r}, which is not a search option a "
                            f"game may set: use one of {', '.join(settable)}")
            continue
        try:
            settable[key].parse(value)
        except ValueError as e:
            problems.append(f"search_defaults: {e}")
    return problems


def contract_notes(game):
    """Notes for the game's author that do not fail the check: old names still honoured
    (``Game.contract_notes``: the deprecated ``*_default`` attributes), and optional kernels
    of retired search options that the kernel module still defines (unused)."""
    notes = list(getattr(type(game), "contract_notes", ()))
    undeclared = undeclared_note(type(game))
    if undeclared:
        notes.append(undeclared)
    module = importlib.import_module(game.kernel_module)
    for kernel, option in RETIRED_KERNELS.items():
        if kernel in vars(module):
            notes.append(f"the kernel {kernel} is no longer used ({option} was retired, see "
                         "docs/experiments.md): you may remove it")
    return notes


def _is_dispatcher(f) -> bool:
    """A numba-compiled function (``CPUDispatcher``), as opposed to a plain Python one."""
    from numba.core.registry import CPUDispatcher
    return isinstance(f, CPUDispatcher) or hasattr(f, "py_func")


def _caches_to_disk(dispatcher) -> bool:
    """Whether ``dispatcher`` was decorated with ``cache=True``. numba keeps a jitted function's
    disk cache in the private attribute ``_cache``: a ``FunctionCache`` with ``cache=True``, a
    ``NullCache`` (which saves and loads nothing) without. Anything else (a future numba) counts
    as cached, so that this check never raises a false alarm."""
    from numba.core.caching import NullCache
    return not isinstance(getattr(dispatcher, "_cache", None), NullCache)


def check_caching(game):
    import numba
    if numba.config.DISABLE_JIT:       # kernels are plain functions: nothing to check
        return []
    from mcts.codegen import provided_kernels
    mod = importlib.import_module(game.kernel_module)
    present = provided_kernels(game.kernel_module)
    names = [n for n in KERNEL_NAMES if hasattr(mod, n)] + \
            [n for n in OPTIONAL_KERNELS if n in present]
    plain = [n for n in names if not _is_dispatcher(getattr(mod, n))]
    uncached = [n for n in names if n not in plain and not _caches_to_disk(getattr(mod, n))]
    problems = []
    if plain:
        problems.append(f"{', '.join(plain)} in {game.kernel_module} "
                        f"{'is' if len(plain) == 1 else 'are'} not compiled by numba: decorate "
                        "every kernel with @njit(cache=True)")
    if uncached:
        problems.append(f"{', '.join(uncached)} in {game.kernel_module} "
                        f"{'is' if len(uncached) == 1 else 'are'} compiled without cache=True: "
                        "every process compiles them again (seconds at each start); decorate "
                        "every kernel with @njit(cache=True)")
    return problems
