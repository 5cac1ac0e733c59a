"""RAVE / all-moves-as-first: statistics stay consistent, the generated recording playout
replays exactly, and the search with RAVE still finds forced moves."""
import numpy as np
import pytest

import games
from games.contract import ONGOING
from mcts import MCTS, SearchConfig
from games.rng import new_rng
from mcts.search import load_kernels

GO = games.get("go", size=9, komi=7.5)
C4 = games.get("connect4")


def test_rave_is_on_by_default_for_go_only():
    assert MCTS(GO, log=None).rave and not MCTS(C4, log=None).rave
    assert not MCTS(GO, SearchConfig(rave=False), log=None).rave


@pytest.mark.parametrize("game", [GO, C4], ids=["go", "connect4"])
def test_recorded_playout_replays_to_the_same_end(game):
    """rollout_record (Go's own, Connect Four's generated default) writes moves that, replayed
    with apply_action, reach the same final status."""
    k = load_kernels(game, log=None)
    for seed in range(20):
        state = game.initial_state()
        acts = np.empty(game.max_length + 1, dtype=np.int32)
        players = np.empty(game.max_length + 1, dtype=np.int8)
        st, n = k.rollout_record(state.copy(), new_rng(seed), acts, players)
        replay = state.copy()
        for a, p in zip(acts[:n], players[:n]):
            assert game.to_play(replay) == p
            assert k.apply_action(replay, int(a)) >= ONGOING
        assert game.status(replay) == st


def test_amaf_statistics_are_bounded_by_the_playouts():
    engine = MCTS(GO, SearchConfig(seed=1, rave=True, threads=1), log=None)
    state, _ = GO.play_record("E5 D6")
    r = engine.search(state, playouts=5_000)
    t = engine.tree
    kids = t.children(0)
    amaf = t.amaf_visits[kids.start:kids.stop]
    assert amaf.max() <= r.playouts and amaf.sum() > r.playouts      # many moves per playout
    assert (t.amaf_value[kids.start:kids.stop] <= amaf + 1e-3).all()
    assert (t.amaf_value >= 0).all()


def test_rave_search_is_reproducible():
    a = MCTS(GO, SearchConfig(seed=4, rave=True), log=None).search(GO.initial_state(),
                                                                    playouts=3_000)
    b = MCTS(GO, SearchConfig(seed=4, rave=True), log=None).search(GO.initial_state(),
                                                                    playouts=3_000)
    assert a.children == b.children


def test_rave_search_captures_a_group_in_atari():
    # 5x5: the white stones C3 D3 have one liberty, E3: Black to move captures them.
    game = games.get("go", size=5, komi=0.5)
    state = game.initial_state()
    game.set_up(state, black=["B3", "C2", "D2", "C4", "D4"], white=["C3", "D3"],
                next_player="black")
    engine = MCTS(game, SearchConfig(seed=1, rave=True), log=None)
    assert engine.search(state, playouts=20_000).move == "E3"
