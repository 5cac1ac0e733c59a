"""Deprecated alias of :mod:`mcts.conformance`, where the conformance check moved on
2026-12-01 (it runs searches, and the games layer does not import the search).

A plug-in's tests written before then (``from games.conformance import assert_conforms``)
keep working: importing this module warns once, naming the replacement, and gives the same
functions (``assert_conforms``, ``run_checks``, ``check_kernels``, ``check_random_games``,
``check_determinism``, ``check_search``, ``small_search``, ``CHECKS``). The one module of the
games layer allowed to import the search (tests/test_architecture.py lists it).
"""
import warnings

from mcts.conformance import (CHECKS, assert_conforms, check_determinism,  # noqa: F401
                              check_kernels, check_random_games, check_search, run_checks,
                              small_search)

warnings.warn("games.conformance is deprecated: import mcts.conformance instead (same "
              "functions; moved on 2026-12-01)", DeprecationWarning, stacklevel=2)
