"""The expansion threshold (SearchConfig.expand_visits): a leaf gets its children exactly when
it has been visited that many times before, so the tree holds fewer nodes per playout."""
import numpy as np
import pytest

import games
from games.contract import ONGOING
from mcts import MCTS, SearchConfig
from mcts.checks import check_config
from mcts.tree import NO_CHILDREN, NOT_PROVEN, ROOT

GO = games.get("go", size=9, komi=7.5)


def searched(k, playouts=3_000):
    engine = MCTS(GO, SearchConfig(seed=2, threads=1, expand_visits=k), log=None)
    state, _ = GO.play_record("E5 D4")
    result = engine.search(state, playouts=playouts)
    return engine.tree, result


@pytest.mark.parametrize("k", [1, 4])
def test_a_node_is_expanded_exactly_at_its_visit_after_the_threshold(k):
    t, _ = searched(k)
    used = np.arange(1, t.used)
    open_ = (t.status[used] == ONGOING) & (t.proven[used] == NOT_PROVEN)
    expanded = t.first_child[used] != NO_CHILDREN
    assert t.first_child[ROOT] != NO_CHILDREN
    # one thread: the visit that finds k visits already there expands the node
    assert np.array_equal(expanded[open_], t.visits[used][open_] >= k + 1)


def test_a_higher_threshold_keeps_fewer_nodes():
    t1, r1 = searched(1)
    t4, r4 = searched(4)
    assert r1.playouts == r4.playouts == 3_000
    assert t4.used < t1.used / 2


def test_a_threshold_below_one_is_refused():
    with pytest.raises(ValueError, match="expand_visits"):
        check_config(GO, SearchConfig(expand_visits=0))


def test_expand_visits_flag_reaches_the_search_config():
    from cli import parse_args
    from frontends.player import PlayerConfig
    cfg = PlayerConfig.from_args(parse_args(["play", "go", "--expand-visits", "8"]))
    assert cfg.search_config(GO).expand_visits == 8
    assert PlayerConfig.from_args(parse_args(["play", "go"])).search_config(GO).expand_visits \
        is None
