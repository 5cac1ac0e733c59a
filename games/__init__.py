"""Board games behind one contract (see :mod:`games.contract`) and the registry that names them.

Built-in games are imported lazily (their modules hold numba kernels). Other packages add games
through the ``mcts_engine.games`` entry point group: ``name = "package.module:GameClass"``.
"""
import importlib
from importlib import metadata

from games.contract import constructor_parameters
from games.contract import (CHANCE, CONTRACT_VERSION, DRAW, ENDED, FIRST_WINS,  # noqa: F401
                            ILLEGAL, MAX_PLAYERS, ONGOING, SECOND_WINS, Game,
                            game_from_spec, spec_of)
from games.release import __version__  # noqa: F401 (the project's release)

ENTRY_POINT_GROUP = "mcts_engine.games"
_BUILTIN = {
    "backgammon": "games.backgammon:Backgammon",
    "chinese_checkers": "games.chinese_checkers:ChineseCheckers",
    "connect4": "games.connect4:Connect4",
    "go": "games.go:Go",
    "othello": "games.othello:Othello",
    "pig": "games.pig:Pig",
    "tictactoe": "games.tictactoe:TicTacToe",
}
_registry = {}   # name -> (factory, origin)


def register(game_class, name=None, origin="registered at run time"):
    """Register ``game_class`` (a :class:`Game` subclass or factory) under ``name``."""
    _registry[name or game_class.name] = (game_class, origin)


def _load(spec):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def _discover():
    for name, spec in _BUILTIN.items():
        _registry.setdefault(name, (spec, "built-in"))
    try:
        eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # pragma: no cover - broken metadata must not stop the engine
        eps = []
    for ep in eps:
        _registry.setdefault(ep.name, (ep.value, f"entry point {ep.value}"))


def names():
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_registry)


def origin(name):
    """Where game ``name`` came from (built-in, an entry point, or run-time registration)."""
    _discover()
    return _registry[name][1]


def game_class(name):
    """The class (or factory) registered as ``name``; ``ValueError`` for an unknown name."""
    _discover()
    if name not in _registry:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(names())}")
    factory, where = _registry[name]
    if isinstance(factory, str):
        factory = _load(factory)
        _registry[name] = (factory, where)
    return factory


def parameters(name):
    """The :class:`games.contract.Param` declarations of game ``name`` (empty if none); for
    a class that declares none, the plain keywords of its constructor
    (:func:`games.contract.constructor_parameters`: an older plug-in keeps its flags)."""
    cls = game_class(name)
    return tuple(getattr(cls, "parameters", ())) or constructor_parameters(cls)


def get(name, **params):
    """A game instance: ``get("connect4")``, ``get("go", size=9, komi=7.5)``.

    Raises ``ValueError`` for an unknown name or bad parameters."""
    return game_class(name)(**params)
