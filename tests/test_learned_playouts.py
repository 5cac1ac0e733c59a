"""The learned softmax playout policy inside the compiled search (mcts.playout_template)."""
import numpy as np
import pytest

from games.connect4 import Connect4
from games.rng import new_rng
from games.tictactoe import TicTacToe
from mcts import MCTS, SearchConfig
from mcts.tree import new_workspace


def visits(weights, seed=1, playouts=3000):
    game = Connect4(playout_policy="uniform")
    r = MCTS(game, SearchConfig(seed=seed, threads=1, playout_weights=weights),
             log=None).search(game.initial_state(), playouts=playouts)
    return [(c.action, c.visits) for c in r.children]


def test_the_same_seed_and_weights_give_the_same_search_and_other_weights_another():
    w = np.zeros(Connect4().num_features)
    w[0], w[1] = 4.0, 3.0
    assert visits(w) == visits(w.copy())
    other = w.copy()
    other[6] = 2.0                       # the centre column
    assert visits(other) != visits(w)


def test_a_weight_that_dominates_makes_the_playouts_deterministic():
    """With every weight 0 but a huge one on "wins at once", a position where the mover wins
    at once ends every playout there: the first player wins all of them."""
    game = Connect4()
    state, _ = game.play_record("445566")           # X: 4, 5, 6 on the bottom row
    w = np.zeros(game.num_features)
    w[0] = 50.0
    from mcts.search import load_kernels
    k = load_kernels(game, log=None)
    out = np.zeros(4, dtype=np.int64)
    plies = k.learned_playouts(state, 500, new_rng(2), new_workspace(game, w), out)
    assert list(out) == [0, 500, 0, 0] and plies == 500


def test_uniform_weights_play_like_the_uniform_policy():
    """All weights equal: each open column is drawn with probability 1/7 from the start, so
    X wins about as often as under uniform random playouts (OpenSpiel's: 55-56 %)."""
    game = Connect4(playout_policy="uniform")
    from mcts.search import load_kernels
    k = load_kernels(game, log=None)
    out = np.zeros(4, dtype=np.int64)
    k.learned_playouts(game.initial_state(), 40_000, new_rng(3),
                       new_workspace(game, np.zeros(game.num_features)), out)
    ref = np.zeros(4, dtype=np.int64)
    k.random_playouts(game.initial_state(), 40_000, new_rng(4), game.initial_state(), ref)
    assert abs(out[1] - ref[1]) / 40_000 < 0.015 and abs(out[2] - ref[2]) / 40_000 < 0.015


def test_weights_for_a_game_without_features_or_of_the_wrong_length_are_refused():
    with pytest.raises(ValueError, match="describes no move features"):
        MCTS(TicTacToe(), SearchConfig(playout_weights=np.zeros(3)), log=None)
    with pytest.raises(ValueError, match="must be 16 finite numbers"):
        MCTS(Connect4(), SearchConfig(playout_weights=np.zeros(3)), log=None)
