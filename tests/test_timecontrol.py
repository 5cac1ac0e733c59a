"""Time management: the seconds planned for a move under each time system, and the clock
counting down between GTP time_left updates."""
import pytest

from frontends.timecontrol import (MAX_MOVE_SECONDS, MAX_SECONDS, OVERHEAD, SAFETY, Clock,
                                   TimeControl, TimeValueError)
from mcts.search import decided
from mcts.tree import S_PLAYOUTS, Tree


def planned(budget):
    return budget * SAFETY - OVERHEAD


def test_no_time_limit_uses_the_default():
    assert Clock().plan(0, 81, default=1.5) == 1.5
    assert not Clock(TimeControl.from_gtp(0, 1, 0)).limited       # GTP: "no time limit"


def test_absolute_time_spreads_over_the_moves_expected():
    clock = Clock(TimeControl.from_gtp(60, 0, 0))
    assert clock.plan(0, 81, 1.0) == pytest.approx(planned(60 / 40))
    assert clock.plan(0, 10, 1.0) == pytest.approx(planned(60 / 10))     # at least 10 moves
    clock.update(0, 5.0, 0)
    assert clock.plan(0, 81, 1.0) == pytest.approx(max(0.05, planned(5.0 / 40)))


def test_canadian_byo_yomi_in_main_time_and_in_a_period():
    clock = Clock(TimeControl.from_gtp(0, 30, 10))         # no main time: straight to periods
    assert clock.plan(1, 81, 1.0) == pytest.approx(planned(30 / 10))
    clock = Clock(TimeControl.from_gtp(20, 30, 10))
    assert clock.plan(1, 81, 1.0) == pytest.approx(planned(20 / 40 + 30 / 10))
    clock.update(1, 12, 4)                                  # 12 s for the next 4 stones
    assert clock.plan(1, 81, 1.0) == pytest.approx(planned(3.0))


def test_japanese_byo_yomi():
    clock = Clock(TimeControl("byoyomi", 0, 10, 3))
    assert clock.plan(0, 81, 1.0) == pytest.approx(planned(10))
    clock = Clock(TimeControl("byoyomi", 100, 10, 3))
    assert clock.plan(0, 81, 1.0) == pytest.approx(planned(100 / 40 + 10))


def test_out_of_range_time_is_refused_and_a_negative_time_left_is_none_left():
    with pytest.raises(TimeValueError):
        TimeControl.from_gtp(MAX_SECONDS * 10, 0, 0)
    clock = Clock(TimeControl.from_gtp(MAX_SECONDS, 0, 0))
    assert clock.plan(0, 81, 1.0) == MAX_MOVE_SECONDS           # not 25,000,000 s
    with pytest.raises(TimeValueError):
        clock.update(0, float("inf"), 0)
    clock.update(0, -3.0, 0)
    assert clock.left[0] == [0.0, 0]
    assert clock.plan(0, 81, 1.0) == 0.05                       # MIN_SECONDS


def test_the_clock_counts_down_our_own_moves():
    clock = Clock(TimeControl.from_gtp(10, 6, 2))
    clock.spend(0, 4.0)
    assert clock.left[0] == [6.0, 0]
    clock.spend(0, 7.0)                                     # main time runs out: a period
    assert clock.left[0] == [5.0, 2]
    clock.spend(0, 1.0)
    assert clock.left[0] == [4.0, 1]
    clock.spend(0, 1.0)                                     # the period's stones are done
    assert clock.left[0] == [6.0, 2]
    assert clock.left[1] == [10.0, 0]                       # the other side's is untouched


def test_a_move_is_decided_when_it_cannot_be_overtaken():
    tree = Tree(10)
    tree.reset(0, 1)
    tree.first_child[0], tree.num_children[0] = 1, 3
    tree.visits[1:4] = (700, 200, 100)
    tree.stats[S_PLAYOUTS] = 1000
    assert decided(tree, playouts_left=400)
    assert not decided(tree, playouts_left=600)
