"""Time management: the seconds planned for a move under each time system, and the clock
counting down between GTP time_left updates."""
import pytest

from frontends.timecontrol import (ENDGAME, FUSEKI_END, MAX_MOVE_SECONDS, MAX_SECONDS, OVERHEAD,
                                   SAFETY, WEIGHT_END, WEIGHT_MIDDLE, WEIGHT_OPENING, YOSE_START,
                                   EXTEND, Clock, TimeControl, TimeValueError, phase_share,
                                   phase_weight)
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


def test_the_phase_weights_follow_the_opening_middle_game_and_endgame():
    assert phase_weight(0.0) == WEIGHT_OPENING
    assert phase_weight(FUSEKI_END / 2) == pytest.approx((WEIGHT_OPENING + WEIGHT_MIDDLE) / 2)
    assert phase_weight(FUSEKI_END) == phase_weight(YOSE_START - 0.01) == WEIGHT_MIDDLE
    assert phase_weight(ENDGAME) == phase_weight(1.0) == WEIGHT_END
    # the shares of the moves still to come: weights over their sum
    assert phase_share(0, 81, 40) == 1 / 40
    weights = [phase_weight(min(1.0, 2 * k / 81)) for k in range(40)]
    assert phase_share(81, 81, 40) == pytest.approx(weights[0] / sum(weights))


def test_fischer_time_banks_what_a_move_saves_and_stays_within_the_increment():
    clock = Clock(TimeControl.from_kata("fischer", ["0", "1"]))
    assert clock.limited and clock.left[0] == [0.0, 0]
    first = clock.plan(0, 81, 5.0, points=81)
    weights = [phase_weight(min(1.0, 2 * k / 81)) for k in range(40)]
    assert first == pytest.approx(40 * weights[0] / sum(weights))     # 40 increments to come
    clock.spend(0, 0.2)                                    # an early stop: 0.8 s saved
    assert clock.left[0][0] == pytest.approx(0.8)
    plans, spent = [first], 0.2
    for ply in range(2, 70, 2):                            # spend every plan to the end
        plans.append(clock.plan(0, 81 - ply, 5.0, points=81))
        clock.spend(0, plans[-1])
        spent += plans[-1]
        assert clock.left[0][0] >= 0.0
    assert spent <= 35 * 1.0                               # never more than the increments
    assert max(plans[8:18]) > 1.0 > plans[0]               # the middle game gets the most
    # with nothing banked, a move may use its own increment, less the margin
    clock.update(0, 0.0, 0)
    assert clock.plan(0, 81, 5.0) == pytest.approx(min(1.0, 1.0 - OVERHEAD))


def test_fischer_capped_caps_the_time_left_and_the_move():
    clock = Clock(TimeControl.from_kata("fischer-capped", ["10", "5", "12", "3"]))
    assert clock.plan(0, 81, 1.0) == pytest.approx(3.0 - OVERHEAD)     # the move cap
    clock.spend(0, 1.0)
    assert clock.left[0][0] == 12.0                        # 10 - 1 + 5, capped at 12
    free = TimeControl.from_kata("fischer-capped", ["10", "5", "-1", "-1"])
    assert (free.cap, free.move_cap) == (0.0, 0.0)          # negative: no cap
    for bad in (("fischer", ["10"]), ("fischer-capped", ["1", "2", "3"]), ("fischer", ["a", "1"])):
        with pytest.raises(ValueError):
            TimeControl.from_kata(*bad)
    with pytest.raises(TimeValueError):
        TimeControl.from_kata("fischer", ["10", "-1"])
    assert TimeControl.from_kata("byoyomi", ["60", "10", "3"]) == TimeControl("byoyomi", 60, 10, 3)


def test_an_unstable_search_may_go_on_for_half_its_plan_within_the_time_left():
    clock = Clock(TimeControl.from_kata("fischer", ["10", "1"]))
    assert clock.extension(0, planned=1.0, used=1.0) == pytest.approx(EXTEND * 1.0)
    clock.update(0, 0.0, 0)                         # nothing banked: only the increment
    assert clock.extension(0, planned=1.0, used=0.7) == pytest.approx(1.0 - OVERHEAD - 0.7)
    assert clock.extension(0, planned=1.0, used=0.9) == 0.0
    assert Clock().extension(0, 1.0, 1.0) == 0.0                        # no time limit
    byoyomi = Clock(TimeControl("byoyomi", 0, 10, 3))
    assert byoyomi.extension(0, 5.0, 5.0) == 0.0                         # in a period
    absolute = Clock(TimeControl.from_gtp(60, 0, 0))
    assert absolute.extension(0, 2.0, 2.0) == pytest.approx(1.0)


def test_a_search_is_unstable_when_its_runner_up_is_valued_above_its_leader():
    from frontends.timecontrol import unstable
    from mcts.results import ChildStats, SearchResult

    def result(*children):
        kids = [ChildStats(i, str(i), visits, value) for i, (visits, value) in
                enumerate(children)]
        return SearchResult(0, "0", kids[0].value, kids).children
    assert unstable(result((900, 0.55), (800, 0.58)))
    assert not unstable(result((900, 0.55), (800, 0.52), (10, 0.9)))   # the third: noise
    assert not unstable(result((900, 0.55)))
