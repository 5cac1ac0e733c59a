"""The release number of the whole project, declared once: pyproject.toml reads it, GTP's
``version`` answers it, SGF files name it in ``AP``; :mod:`games` and :mod:`mcts` re-export
it. One minor release per issue of the project's history: 0.53 is the state after issue 53.
Part of the contract layer (nothing here names a game), so every layer may read it."""
__version__ = "0.53.0"
