"""Generic Monte Carlo Tree Search with compiled playouts. Nothing here names a concrete game.

Start with :class:`mcts.search.MCTS` and its settings, declared once in :mod:`mcts.config`;
the compiled loop is in ``uct_template.py`` (its phases: descend, evaluate, backpropagate,
amaf_update; evaluate is in ``playout_template.py``), the tree it runs over in :mod:`mcts.tree`, the
typed results in :mod:`mcts.results`, and :mod:`mcts.codegen` explains how the loop is
specialised per game and cached. The game contract it searches is :mod:`games.contract`.
Playouts outside the tree and the learned softmax playout policy are in
``playout_template.py``; its weights are learned by :mod:`mcts.learn` (the learner) inside
the actor-learner loop of :mod:`mcts.train`, whose rollout workers are those of
:mod:`mcts.selfplay` (local processes) and :mod:`mcts.ray_workers` (Ray actors).
"""
from games.release import __version__  # noqa: F401 (the project's release)

from mcts.results import ChildStats, Proof, SearchResult  # noqa: F401
from mcts.search import (DEFAULT_CAPACITY, DEFAULT_EXPLORATION, MCTS, GameOverError,  # noqa: F401
                         SearchConfig, Tree)
