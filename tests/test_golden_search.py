"""Golden searches: seeded searches whose exact result was recorded with the engine before the
search core was rebuilt around one tree value and phase functions (commit 5f7ffe2). A change
to the search that is meant to keep its behaviour (a refactor, a speed-up) must give the same
visit counts, node counts and depths; a change that alters them on purpose updates these
figures in the same commit, saying why."""
import pytest

import games
from mcts import MCTS, SearchConfig

GOLDEN = [
    # game, parameters, moves played, playouts, best move, 8 most visited (move, visits),
    # nodes, deepest stored depth, search settings
    # Connect Four with the uniform playouts the figures were recorded with (the default is
    # now the threat-aware policy), c = 0.7 and no calls of the exact solver (the defaults
    # before games.connect4.solver), as a tree (transpositions off) ...
    ("connect4", {"playout_policy": "uniform"}, "4453", 20_000, "4",
     [("4", 9442), ("3", 8084), ("5", 1141), ("2", 409), ("7", 357), ("1", 288), ("6", 279)],
     39940, 10, {"transpositions": False, "exploration": 0.7, "solve_nodes": 0.0}),
    # ... and as the graph over transpositions, the default since mcts.transpositions.
    ("connect4", {"playout_policy": "uniform"}, "4453", 20_000, "3",
     [("3", 11382), ("4", 5313), ("5", 1398), ("2", 519), ("6", 499), ("7", 446), ("1", 443)],
     37882, 11, {"exploration": 0.7, "solve_nodes": 0.0}),
    # Go with its defaults (the ko playout policy, the priors with the board-wide assessment,
    # MoGo's first-play AMAF), recorded when the options that lost were retired (issue 50),
    # with the engine of commit 0748261, which gives the same result. The figures before them,
    # of the patterns policy and the local priors in the AMAF statistics, with AMAF counting
    # every later play: E4 138, E3 124, E2 114, C5 108, D7 106, C4 102, H5 97, C6 88; 89,986
    # nodes, depth 8.
    ("go", {"size": 9}, "E5 D4", 3_000, "D5",
     [("D5", 923), ("E4", 132), ("F7", 117), ("F2", 101), ("C5", 91), ("H6", 85), ("C3", 81),
      ("D2", 69)],
     46615, 6, {}),
]


@pytest.mark.parametrize("name, params, moves, playouts, best, top, nodes, depth, config",
                         GOLDEN, ids=["connect4-tree", "connect4-graph", "go"])
def test_a_seeded_search_gives_the_recorded_result(name, params, moves, playouts, best, top,
                                                   nodes, depth, config):
    game = games.get(name, **params)
    engine = MCTS(game, SearchConfig(seed=5, capacity=500_000, threads=1, **config), log=None)
    state, _ = game.play_record(moves)
    r = engine.search(state, playouts=playouts)
    assert r.move == best
    assert [(c.move, c.visits) for c in r.children[:8]] == top
    assert (r.nodes, r.max_depth) == (nodes, depth)
