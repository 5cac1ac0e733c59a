"""Plugging in games: one defined in this file through the public API, one from an outside
package through the entry point group, and the conformance check catching broken games."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import games
from games.contract import FIRST_WINS, ILLEGAL, ONGOING, Game, Param
from mcts.conformance import assert_conforms, run_checks
from mcts import MCTS, Proof, SearchConfig
from games.rng import random_below

ROOT = Path(__file__).parent.parent
PLUGIN = ROOT / "tests" / "data" / "plugin_example"

# -- A subtraction game: take 1, 2 or 3 from a pile; whoever takes the last one wins. The side
# to move wins exactly when the pile is not a multiple of 4, by taking pile % 4.
PILE, TO_PLAY, STATUS = 0, 1, 2


@njit(cache=True)
def to_play(state):
    return state[TO_PLAY]


@njit(cache=True)
def status(state):
    return state[STATUS]


@njit(cache=True)
def legal_actions(state, out):
    if state[STATUS] != ONGOING:
        return 0
    n = min(3, state[PILE])
    for i in range(n):
        out[i] = i          # action i takes i + 1
    return n


@njit(cache=True)
def apply_action(state, action):
    if state[STATUS] != ONGOING or action < 0 or action >= min(3, state[PILE]):
        return ILLEGAL
    state[PILE] -= action + 1
    if state[PILE] == 0:
        state[STATUS] = FIRST_WINS + state[TO_PLAY]
    state[TO_PLAY] = 1 - state[TO_PLAY]
    return state[STATUS]


@njit(cache=True)
def playout_action(state, rng):
    return random_below(rng, min(3, state[PILE]))


class Subtraction(Game):
    name = "subtraction"
    kernel_module = __name__
    move_help = "take 1, 2 or 3"
    parameters = (Param("pile", int, 21, "objects on the pile", low=1, high=99),)

    def __init__(self, pile=21):
        super().__init__(pile=pile)
        self.pile = self.params["pile"]
        self.num_actions, self.max_length = 3, self.pile

    def initial_state(self):
        return np.array([self.pile, 0, ONGOING], dtype=np.int64)

    def render(self, state, last_action=None):
        return "pile: " + "|" * int(state[PILE])

    def parse_move(self, text, state):
        if text.strip() not in ("1", "2", "3") or int(text) > state[PILE]:
            raise ValueError(f"{text!r}: take 1, 2 or 3, at most the pile")
        return int(text) - 1

    def format_move(self, action, state=None):
        return str(int(action) + 1)


games.register(Subtraction)


@pytest.mark.parametrize("pile", [p for p in range(5, 26) if p % 4])
def test_search_finds_the_winning_take(pile):
    # Up to 25 plies deep at 100,000 playouts; deeper piles need more (no transpositions yet).
    game = games.get("subtraction", pile=pile)
    result = MCTS(game, SearchConfig(seed=1), log=None).search(game.initial_state(),
                                                              playouts=100_000)
    assert result.move == str(pile % 4)
    if pile < 20:                    # small enough to be solved within the budget
        assert result.proof is Proof.WIN


@pytest.mark.parametrize("pile", [8, 12, 20])
def test_search_knows_a_lost_pile(pile):
    game = games.get("subtraction", pile=pile)
    result = MCTS(game, SearchConfig(seed=1), log=None).search(game.initial_state(),
                                                              playouts=50_000)
    assert result.proof is Proof.LOSS


def test_test_file_game_conforms():
    assert_conforms(games.get("subtraction", pile=15))


# -- The conformance check must catch broken games, with words the author understands.
class OverlongSubtraction(Subtraction):
    name = "overlong"

    def __init__(self):
        super().__init__(pile=30)
        self.max_length = 5          # wrong: a game lasts up to 30 plies


class BadNotation(Subtraction):
    name = "badnotation"

    def format_move(self, action, state=None):
        return str(int(action))      # wrong: off by one against parse_move


def test_conformance_reports_a_wrong_max_length():
    report = dict(run_checks(OverlongSubtraction()))
    (problem,) = report["seeded random games"]          # once, however many games show it
    assert problem.startswith("max_length: ") and "max_length = 5 plies" in problem
    assert "more like it" in problem
    assert "search compiled vs NUMBA_DISABLE_JIT=1" not in report   # skipped after the failure


def test_conformance_reports_a_notation_that_does_not_round_trip():
    report = dict(run_checks(BadNotation()))
    (problem,) = report["seeded random games"]
    assert problem.startswith("format_move(") and "parse_move" in problem
    assert "more like it" in problem


# -- An outside package registered through the entry point group (as pip would install it).
@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    info = site / "nim_plugin-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nim-plugin\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[mcts_engine.games]\nnim = nim_plugin:Nim\n")
    path = os.pathsep.join([str(site), str(PLUGIN), str(ROOT)])
    return dict(os.environ, PYTHONPATH=path)


def cli(env, *args, stdin=""):
    return subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_entry_point_game_is_listed_with_its_origin(plugin_env):
    p = cli(plugin_env, "list")
    assert p.returncode == 0, p.stderr
    line = next(x for x in p.stdout.splitlines() if " nim " in f" {x} ")
    assert "entry point nim_plugin:Nim" in line and "heaps=3,4,5" in line
    assert "connect4" in p.stdout and "built-in" in p.stdout


def test_entry_point_game_passes_check_and_is_analyzed(plugin_env):
    p = cli(plugin_env, "check", "nim")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "FAIL" not in p.stdout
    # Heaps 3,4,5 (XOR 2): the only winning moves take 2 from heap 1 (1^4^5 = 0).
    p = cli(plugin_env, "analyze", "nim", "--moves", "", "--playouts", "300000", "--json",
            "--threads", "1")
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert result["best"] == "1:2" and result["proven"] == "win"


def test_entry_point_game_can_be_played(plugin_env):
    p = cli(plugin_env, "play", "nim", "--playouts", "2000", stdin="9:9\n1:1\n" + "3:1\n" * 20)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert "cannot take 9 from heap 9" in p.stdout
    assert "result: " in p.stdout


def test_an_older_plugin_s_constructor_keywords_stay_flags_and_check_says_how_to_declare(
        monkeypatch):
    from frontends.game_flags import declared_parameters
    from games.contract import undeclared_note

    class OldStyle(Game):                   # written before parameters were declared
        name = "oldstyle"

        def __init__(self, size=7, fast=False, label="x"):
            super().__init__(size=size, fast=fast, label=label)

    monkeypatch.setattr(games, "_registry", dict(games._registry))   # registered here only
    games.register(OldStyle)
    assert games.parameters("oldstyle") == (
        Param("size", int, 7, "size (a keyword of OldStyle's constructor)"),
        Param("fast", bool, False, "fast (a keyword of OldStyle's constructor)"),
        Param("label", str, "x", "label (a keyword of OldStyle's constructor)"))
    flags = declared_parameters("analyze", ["oldstyle"])
    assert [p.flag for (_, p), in flags.values()] == ["--size", "--fast", "--label"]
    assert flags["size"][0][1].parse("9") == 9
    assert undeclared_note(OldStyle) == (
        "OldStyle's constructor takes size, fast, label, which it does not declare: they work "
        'as flags for now; declare them with `parameters = (Param("size", int, 7, "..."), '
        'Param("fast", bool, False, "..."), Param("label", str, \'x\', "..."),)` '
        "(games.contract.Param: add bounds or choices there)")
    assert undeclared_note(games.game_class("connect4")) is None     # declares its own


def test_games_conformance_is_an_alias_that_warns():
    """A plug-in's tests of 2026-11 import the conformance check from games.conformance:
    the name still works, with a DeprecationWarning naming mcts.conformance."""
    import importlib
    import sys
    import warnings

    import mcts.conformance
    sys.modules.pop("games.conformance", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alias = importlib.import_module("games.conformance")
    assert alias.assert_conforms is mcts.conformance.assert_conforms
    assert alias.run_checks is mcts.conformance.run_checks
    assert any(issubclass(w.category, DeprecationWarning)
               and "import mcts.conformance instead" in str(w.message) for w in caught)


def test_an_old_result_text_override_still_reports_the_result():
    """Before contract version 2 result_text took the status only: a plug-in that overrides
    it so still gets its own text from summary (which now passes the final position too)."""
    import games as registry

    class OldStyle(type(registry.get("tictactoe"))):
        def result_text(self, status):
            return f"status {status}"

    g = OldStyle()
    s = g.initial_state()
    for a in (0, 3, 1, 4, 2):
        g.play(s, a)
    assert g.summary(s) == "status 1"
