"""RAVE / all-moves-as-first: statistics stay consistent, the generated recording playout
replays exactly, and the search with RAVE still finds forced moves."""
import numpy as np
import pytest

import games
from games.contract import ONGOING
from mcts import MCTS, SearchConfig
from games.rng import new_rng
from mcts.config import PRIOR_STATS
from mcts.search import load_kernels
from games.go.game import SMALL_BUDGET

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


def _two_children(prior):
    """Root 0 with children 1 (A) and 2 (B), both 500 visits and 1000 AMAF playouts: A's own
    mean 0.6 and AMAF mean 0.4, B's 0.5 and 0.55. A is better as soon as the AMAF weight b is
    below 0.4. ``prior``: (prior_visits, prior_value). Returns the select_child_rave
    arguments after (node, c, k, merge_prior)."""
    i8 = lambda *v: np.array(v, dtype=np.int8)      # noqa: E731
    return (np.array([1, -1, -1], dtype=np.int32), np.array([2, 0, 0], dtype=np.int32),
            i8(1, 0, 0), i8(ONGOING, ONGOING, ONGOING), i8(ONGOING, ONGOING, ONGOING),
            np.array([1000, 500, 500], dtype=np.int64),
            np.array([500.0, 300.0, 250.0]), np.array([0, 1000, 1000], dtype=np.int32),
            np.array([0.0, 400.0, 550.0], dtype=np.float32), prior[0], prior[1])


def test_rave_schedule_and_prior_placement_in_selection():
    """With k = 300 the hand-selected schedule gives b = sqrt(300 / 1800) = 0.41, so B
    (0.59 * 0.6 + 0.41 * 0.4 = 0.518 against 0.59 * 0.5 + 0.41 * 0.55 = 0.520); with k = 100,
    b = sqrt(100 / 1600) = 0.25: A (0.55 against 0.51). 500 lost prior playouts merged into
    A's own value (q = 300 / 1000) make it B again, while in the AMAF arrays (where expansion
    would have put them) they are not read here at all."""
    sel = load_kernels(GO, log=None).select_child_rave
    none = (np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.float32))
    lost = (np.array([0, 500, 0], dtype=np.int32), np.zeros(3, dtype=np.float32))
    assert sel(0, 0.0, 300.0, False, *_two_children(none)) == 2
    assert sel(0, 0.0, 100.0, False, *_two_children(none)) == 1
    assert sel(0, 0.0, 100.0, True, *_two_children(lost)) == 2
    assert sel(0, 0.0, 100.0, False, *_two_children(lost)) == 1


def test_every_move_of_the_simulation_counts_once_for_its_player():
    """A root whose three children (Black's moves 5, 6, 7) meet a playout of 4 moves: Black 6,
    White 9, Black 5, White 3, won by Black: 5 and 6 each get one AMAF playout, won; 7 was not
    played."""
    upd = load_kernels(GO, log=None).amaf_update
    acts = np.array([6, 9, 5, 3], dtype=np.int32)
    players = np.array([0, 1, 0, 1], dtype=np.int8)
    mark = np.full(2 * GO.num_actions, -1, dtype=np.int64)
    amaf_visits = np.zeros(4, dtype=np.int32)
    amaf_value = np.zeros(4, dtype=np.float32)
    upd(np.array([0], dtype=np.int64), 0, acts, players, 4, mark, 1, 1.0, -1, False,
        np.array([1, -1, -1, -1], dtype=np.int32), np.array([3, 0, 0, 0], dtype=np.int32),
        np.array([-1, 5, 6, 7], dtype=np.int32), np.array([1, 0, 0, 0], dtype=np.int8),
        amaf_visits, amaf_value)
    assert amaf_visits[1:].tolist() == [1, 1, 0]
    assert amaf_value[1:].tolist() == [1.0, 1.0, 0.0]


@pytest.mark.parametrize("first_only, weights", [(False, [1, 1, 0]), (True, [0, 1, 0])])
def test_amaf_first_play_rule(first_only, weights):
    """A playout White 5, Black 6, White 9, Black 5 (5 retaken after a capture), won by Black:
    Black's 6 counts; Black's 5 counts too unless only first plays count (White played 5
    first)."""
    upd = load_kernels(GO, log=None).amaf_update
    acts = np.array([5, 6, 9, 5], dtype=np.int32)
    players = np.array([1, 0, 1, 0], dtype=np.int8)
    mark = np.full(2 * GO.num_actions, -1, dtype=np.int64)
    amaf_visits = np.zeros(4, dtype=np.int32)
    amaf_value = np.zeros(4, dtype=np.float32)
    upd(np.array([0], dtype=np.int64), 0, acts, players, 4, mark, 1, 1.0, -1, first_only,
        np.array([1, -1, -1, -1], dtype=np.int32),
        np.array([3, 0, 0, 0], dtype=np.int32), np.array([-1, 5, 6, 7], dtype=np.int32),
        np.array([1, 0, 0, 0], dtype=np.int8), amaf_visits, amaf_value)
    assert amaf_visits[1:].tolist() == weights


def test_plain_uct_counts_priors_as_virtual_visits_only_when_merged():
    """UCB1 without RAVE (c = 0.2), root 0 with children 1-3. (a) each 10 visits at mean 0.5;
    20 won prior playouts on child 3 make its merged mean 25 / 30 and win the selection, while
    unmerged the three tie and the first is kept. (b) child 2 unvisited but with 20 lost prior
    playouts: merged, it is not tried first (mean 0 over 20); unmerged, it is."""
    sel = load_kernels(GO, log=None).select_child
    i8 = lambda *v: np.array(v, dtype=np.int8)      # noqa: E731
    tree = (np.array([1, -1, -1, -1], dtype=np.int32), np.array([3, 0, 0, 0], dtype=np.int32),
            i8(1, 0, 0, 0), i8(ONGOING, ONGOING, ONGOING, ONGOING),
            i8(ONGOING, ONGOING, ONGOING, ONGOING))
    won = (np.array([0, 0, 0, 20], dtype=np.int32), np.array([0, 0, 0, 20], dtype=np.float32))
    even = (np.array([30, 10, 10, 10], dtype=np.int64), np.array([15.0, 5.0, 5.0, 5.0]))
    assert sel(0, 0.2, True, *tree, *even, *won) == 3
    assert sel(0, 0.2, False, *tree, *even, *won) == 1
    lost = (np.array([0, 0, 20, 0], dtype=np.int32), np.zeros(4, dtype=np.float32))
    unvisited = (np.array([20, 10, 0, 10], dtype=np.int64), np.array([10.0, 5.0, 0.0, 6.0]))
    assert sel(0, 0.2, True, *tree, *unvisited, *lost) == 3
    assert sel(0, 0.2, False, *tree, *unvisited, *lost) == 2


@pytest.mark.parametrize("stats, seeded", [("amaf", True), ("value", False), ("both", True)])
def test_prior_stats_decide_whether_the_priors_seed_the_amaf_statistics(stats, seeded):
    """Go's priors of the answers to E5 (Go.prior, deterministic) seed the children's AMAF
    statistics under 'amaf' and 'both', and stay out of them under 'value'."""
    engine = MCTS(GO, SearchConfig(seed=3, rave=True, threads=1, prior_stats=stats), log=None)
    state, _ = GO.play_record("E5")
    r = engine.search(state, playouts=20)
    t = engine.tree
    kids = t.children(0)
    prior = t.prior_visits[kids.start:kids.stop].astype(np.int64)
    amaf = t.amaf_visits[kids.start:kids.stop].astype(np.int64)
    acts = t.action[kids.start:kids.stop]
    assert prior[acts != GO.pass_action].min() >= 20 and prior.max() > 20   # 20 even at least
    own = amaf - prior if seeded else amaf                  # what the playouts added
    assert own.min() >= 0 and own.max() <= r.playouts


def test_an_unknown_prior_placement_is_refused():
    with pytest.raises(ValueError, match="prior_stats must be one of amaf, value, both, got 'nope'"):
        MCTS(GO, SearchConfig(prior_stats="nope"), log=None)


@pytest.mark.parametrize("size, stats", [(9, "value"), (13, "value"), (15, "both"), (19, "both")])
def test_go_places_its_priors_by_board_size_and_budget(size, stats):
    """Go's default placement of its priors: its own statistics below 15x15, both from 15x15
    on; and both on every board for a search expected to run fewer than SMALL_BUDGET
    playouts. A search without --prior-stats seeds AMAF exactly then."""
    game = games.get("go", size=size, komi=7.5)
    assert game.prior_stats_by_size == stats
    assert game.prior_stats_for(None) == game.prior_stats_for(SMALL_BUDGET) == stats
    assert game.prior_stats_for(SMALL_BUDGET - 1) == "both"

    def seeded_after(**budget):
        engine.search(game.play_record("D4")[0], **budget)
        kids = engine.tree.children(0)
        prior = engine.tree.prior_visits[kids.start:kids.stop].astype(np.int64)
        amaf = engine.tree.amaf_visits[kids.start:kids.stop].astype(np.int64)
        assert prior.max() > 0
        return bool((amaf >= prior).all() and amaf.sum() >= prior.sum())

    engine = MCTS(game, SearchConfig(seed=3, rave=True, threads=1), log=None)
    assert seeded_after(playouts=1)                       # a small budget: both, any board
    engine.search(game.play_record("D4")[0], playouts=SMALL_BUDGET)
    assert engine.params().prior_stats == PRIOR_STATS.index(stats)


def test_a_timed_search_places_the_priors_by_the_playouts_it_expects():
    # The first timed search cannot know its playouts: the board's default (9x9: value);
    # the next ones expect the last search's rate times their seconds.
    engine = MCTS(GO, SearchConfig(seed=3, rave=True, threads=1), log=None)
    state, _ = GO.play_record("E5")
    value, both = PRIOR_STATS.index("value"), PRIOR_STATS.index("both")
    engine.search(state, seconds=0.3)
    assert engine.params().prior_stats == value
    rate = engine._rate
    assert rate > 0
    engine.search(state, seconds=0.5 * SMALL_BUDGET / rate)       # about 1,000 playouts
    assert engine.params().prior_stats == both
    engine.search(state, seconds=3.0 * SMALL_BUDGET / engine._rate)
    assert engine.params().prior_stats == value
