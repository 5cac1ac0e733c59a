"""The conformance check (mcts.conformance): every registered game passes, games with many
actions pass, and each broken game is caught once, by the right check, in words naming the
kernel or method at fault. The broken games with broken kernels are in tests/conformance_games/
(one module each: kernels are module-level and the generated search is per kernel module);
those broken only on the Python side are below."""
import pytest

import games
from conformance_games.bad_features import BadFeatures
from conformance_games.bad_key import BadKey
from conformance_games.bad_record_players import BadRecordPlayers
from conformance_games.bad_solver import BadSolver
from conformance_games.dirty_refusal import DirtyRefusal
from conformance_games.draw_rollout import DrawRollout
from conformance_games.jit_only import JitOnly
from conformance_games.numbers import Numbers
from conformance_games.numbers_features import NumbersWithFeatures
from conformance_games.numbers_keyed import NumbersKeyed
from conformance_games.numbers_rollouts import NumbersWithRollouts
from conformance_games.numbers_solved import NumbersSolved
from conformance_games.reversed_record import ReversedRecord
from conformance_games.spaced_moves import SpacedMoves
from conformance_games.swapped_quiet_rollout import SwappedQuietRollout
from conformance_games.swapped_record import SwappedRecord
from conformance_games.swapped_rollout import SwappedRollout
from conformance_games.uncached import Uncached
from conformance_games.writing_policy import WritingPolicy
from games.contract import Param
from mcts.conformance import (CACHING, CHECK_NAMES, FEATURES, KERNELS, KEYS, PARAMS, RANDOM,
                              REFUSALS, ROLLOUTS, SEARCH, SOLVER, assert_conforms, run_checks)


def only_problem(game, check, *phrases):
    """The one problem ``check`` reports for ``game`` (asserting there is exactly one, that it
    holds every phrase, and that every other check that ran passed)."""
    report = run_checks(game)
    failed = {name: problems for name, problems in report if problems}
    assert list(failed) == [check], report
    (problem,) = failed[check]
    for phrase in phrases:
        assert phrase in problem, problem
    return problem, dict(report)


# -- Correct games ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", games.names())
def test_every_registered_game_conforms(name):
    assert_conforms(games.get(name, **({"size": 5} if name == "go" else {})))


@pytest.mark.parametrize("game", [Numbers(), NumbersWithRollouts(), NumbersKeyed(),
                                  NumbersWithFeatures(), NumbersSolved()],
                         ids=lambda g: g.name)
def test_small_correct_games_conform(game):
    report = run_checks(game)
    assert [name for name, _ in report] == list(CHECK_NAMES)
    assert all(not problems for _, problems in report), report


@pytest.mark.parametrize("game", [Numbers(actions=200, length=3),
                                  NumbersWithRollouts(actions=200, length=3),
                                  Numbers(actions=40_000, length=2),
                                  NumbersWithRollouts(actions=40_000, length=2)],
                         ids=lambda g: f"{g.name}-{g.num_actions}")
def test_games_with_many_actions_conform(game):
    # Past int8 (127) and int16 (32,767) action numbers, compiled and NUMBA_DISABLE_JIT=1.
    report = run_checks(game)
    assert [name for name, _ in report] == list(CHECK_NAMES)     # the search ran, both ways
    assert all(not problems for _, problems in report), report


# -- 1. Hand-written rollouts that report the wrong result -------------------------------------
def test_a_rollout_that_swaps_the_winner_and_says_so_in_its_state():
    problem, _ = only_problem(SwappedRollout(), ROLLOUTS, "rollout returned SECOND_WINS (2)",
                              "left a state whose status() is FIRST_WINS (1)",
                              "must return the final status")
    assert "more like it" in problem          # the other positions: the same problem


def test_a_rollout_that_swaps_the_winner_is_caught_by_its_rates():
    only_problem(SwappedQuietRollout(), ROLLOUTS,
                 "rollout: the first player wins 2", "the playout_action loop gives 50.0%",
                 "2000 playouts each from the initial position", "tolerance 5 standard errors + 2%",
                 "must follow the same policy")


def test_a_position_key_shared_by_different_positions():
    only_problem(BadKey(), KEYS, "position_key gave key", "give every position its own key")


def test_move_features_with_ids_out_of_range():
    only_problem(BadFeatures(), FEATURES, "move_features row 2", "holds [2]",
                 "distinct ids in [0, 2)")


def test_an_exact_solver_that_is_wrong():
    only_problem(BadSolver(), SOLVER, "solve said SECOND_WINS (2) in 1 plies",
                 "a full minimax finds FIRST_WINS (1) in 1", "its answers must be exact")


def test_a_rollout_that_always_says_draw():
    only_problem(DrawRollout(), ROLLOUTS, "rollout: 100.0% of playouts are draws",
                 "the playout_action loop gives 25")


def test_a_rollout_record_that_swaps_the_winner():
    only_problem(SwappedRecord(), ROLLOUTS, "rollout_record:",
                 "the playout_action loop gives")


def test_a_rollout_record_with_players_that_are_not_0_or_1():
    only_problem(BadRecordPlayers(), ROLLOUTS, "rollout_record recorded player 2",
                 "0 to num_players - 1")


def test_a_record_that_does_not_read_back():
    only_problem(SpacedMoves(), RANDOM, "does not read back", "take",
                 "override parse_record")


def test_a_rollout_record_in_any_order_conforms():
    """The moves of a playout may be recorded in any order (a board filled at once): only
    the players and actions matter to all-moves-as-first statistics."""
    assert all(not problems for _, problems in run_checks(ReversedRecord())
               if _ == ROLLOUTS)


# -- 2. apply_action that changes the state before refusing a move -----------------------------
def test_apply_action_that_changes_the_state_before_refusing():
    problem, _ = only_problem(DirtyRefusal(), REFUSALS, "apply_action(",
                              "refused the move but changed the state", "index 3",
                              "must leave the state unchanged")
    assert "more like it" in problem


def test_playout_action_that_changes_the_state():
    only_problem(WritingPolicy(), RANDOM, "playout_action changed the state",
                 "must only choose a move")


# -- 3. Kernels compiled without cache=True -----------------------------------------------------
def test_kernels_without_cache_true():
    problem, report = only_problem(Uncached(), CACHING, "to_play, status in "
                                   "conformance_games.uncached are compiled without cache=True",
                                   "@njit(cache=True)")
    assert SEARCH in report          # independent: the other checks still run (and pass)


# -- 4. self.params and parameters that do not match the constructor ---------------------------
class RenamedKeyword(Numbers):
    """Broken: its constructor takes ``count`` but passes ``actions`` to the base class."""
    name = "renamed-keyword"
    parameters = ()

    def __init__(self, count=8):
        super().__init__(actions=count)


class WrongDefault(Numbers):
    """Broken: the declared default of ``actions`` is not the constructor's."""
    name = "wrong-default"
    parameters = (Param("actions", int, 12, "numbers to pick from", low=1),
                  Param("length", int, 3, "plies in a game", low=1))


class UndeclaredKeyword(Numbers):
    """Broken: declares a parameter that the constructor does not take."""
    name = "undeclared-keyword"
    parameters = Numbers.parameters + (Param("colour", str, "red", "a colour"),)


def test_params_that_do_not_match_the_constructor():
    problem, report = only_problem(RenamedKeyword(), PARAMS, "self.params {'actions': 8, "
                                   "'length': 3} does not match the constructor of "
                                   "RenamedKeyword: pass the constructor's own keywords to "
                                   "super().__init__")
    assert SEARCH not in report      # skipped: it rebuilds the game from its params
    assert not any("plain Python" in p for _, ps in report.items() for p in ps)


def test_a_declared_default_that_is_not_the_constructors():
    only_problem(WrongDefault(), PARAMS, "Param 'actions' of WrongDefault has default 12 but "
                 "the constructor's default is 8")


def test_a_declared_parameter_that_the_constructor_does_not_take():
    report = dict(run_checks(UndeclaredKeyword()))
    assert any("declares colour, which the constructor does not take" in p
               for p in report[PARAMS])


# -- 5. format_move that raises -----------------------------------------------------------------
class RaisingFormat(Numbers):
    """Broken: its table of notation lacks the number 5."""
    name = "raising-format"
    NAMES = {a: str(a) for a in range(8) if a != 5}

    def format_move(self, action, state=None):
        return self.NAMES[int(action)]


def test_format_move_that_raises_is_blamed_once():
    problem, report = only_problem(RaisingFormat(), RANDOM, "format_move(5) raised KeyError",
                                   "notation of every action", "more like it")
    assert "parse_move" not in problem


# -- 6. A check that raises is a problem of that check, not a traceback ------------------------
class NoInitialState(Numbers):
    name = "no-initial-state"

    def initial_state(self):
        raise RuntimeError("no board yet")


def test_a_check_that_raises_is_reported_by_name():
    report = dict(run_checks(NoInitialState()))
    (problem,) = report[KERNELS]
    assert "could not run: RuntimeError: no board yet (in initial_state" in problem
    assert RANDOM not in report      # skipped: it needs the kernels and state


# -- 8. Kernels that fail as plain Python --------------------------------------------------------
def test_kernels_that_fail_under_numba_disable_jit_show_the_stderr():
    only_problem(JitOnly(), SEARCH, "the kernels fail as plain Python",
                 "ImportError: jit_only needs the JIT")
