"""Generic Monte Carlo Tree Search with compiled playouts. Nothing here names a concrete game.

Start with :class:`mcts.search.MCTS`; the compiled loop is in ``uct_template.py`` and
:mod:`mcts.codegen` explains how it is specialised per game and cached.
"""
from mcts.search import (DEFAULT_CAPACITY, DEFAULT_EXPLORATION, MCTS, GameOverError,  # noqa: F401
                         SearchConfig, SearchResult, Tree)
