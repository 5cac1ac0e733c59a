"""Search options declared once (mcts.config.OPTIONS): the flags, the configuration, the
validation, the compiled parameters and the games' defaults all come from the table; and a
plug-in written with the old per-option attributes keeps its defaults."""
import dataclasses
import subprocess
import sys
import warnings

import pytest

import games
from cli import parse_args
from frontends.player import PlayerConfig
from games.contract import Game
from mcts import MCTS, SearchConfig
from mcts.config import OPTIONS, Params, resolve
from mcts.conformance.structure import _search_default_problems, contract_notes

C4 = games.get("connect4")
TTT = games.get("tictactoe")


def test_every_option_with_a_flag_is_a_flag_of_the_searching_commands():
    flagged = [o for o in OPTIONS if o.flag is not None]
    for argv in (["play", "tictactoe"], ["analyze", "tictactoe", "--moves", "5"], ["gtp"],
                 ["arena", "tictactoe"]):
        args = parse_args(argv)
        for o in flagged:
            assert hasattr(args, o.dest), (argv, o.flag)


def test_the_config_and_the_compiled_parameters_have_a_field_per_option():
    fields = {f.name for f in dataclasses.fields(SearchConfig)}
    assert fields == {o.name for o in OPTIONS if o.flag is not None or not o.per_game} \
        | {"playout_weights"}
    assert set(Params._fields) == {o.name for o in OPTIONS if o.slot} \
        | {"no_amaf", "shared", "learned", "solve_cap"}


@pytest.mark.parametrize("argv, message", [
    (["--rave-k", "0"], "rave_k must be a number above 0, got '0'"),
    (["--exploration", "-1"], "exploration must be a number of at least 0, got '-1'"),
    (["--prior-stats", "all"], "prior_stats must be one of amaf, value, both, got 'all'"),
    (["--threads", "0"], "threads must be an integer of at least 1, got '0'"),
    (["--nodes", "many"], "capacity must be an integer of at least 1, got 'many'")])
def test_a_bad_value_is_refused_in_one_line_naming_the_allowed_values(argv, message):
    r = subprocess.run([sys.executable, "cli.py", "analyze", "tictactoe", "--moves", "5",
                        *argv], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()[-1]) > 0


def test_flags_reach_the_search_config_and_omitted_ones_keep_the_defaults():
    player = PlayerConfig.from_args(parse_args(["play", "connect4", "--rave-k", "300",
                                                "--no-early-stop", "--seed", "9"]))
    config = player.search_config(C4)
    assert (config.rave_k, config.early_stop, config.seed) == (300.0, False, 9)
    assert config.rave is None and config.solve_nodes is None       # the game's, later
    assert config.capacity == 4_000_000 and config.transpositions is True


def test_a_games_search_defaults_apply_unless_the_user_sets_the_option():
    assert resolve(SearchConfig(), C4)["solve_nodes"] == 32.0
    assert resolve(SearchConfig(solve_nodes=0), C4)["solve_nodes"] == 0
    assert resolve(SearchConfig(), TTT)["solve_nodes"] == 0.0
    go = games.get("go", size=9)
    v = resolve(SearchConfig(), go)
    assert (v["rave"], v["rave_first_play"], v["exploration"]) == (True, True, 0.05)
    v = resolve(SearchConfig(rave=False), go)
    assert v["exploration"] == 0.2                      # Go's c without RAVE
    assert resolve(SearchConfig(), TTT)["exploration"] == 0.7


def _old_style_class():
    class OldStyle(type(TTT)):          # the contract of 2026-12-05: one attribute per option
        rave_default = True
        rave_k_default = 250.0
        criticality_default = 1.1       # retired since: ignored
    return OldStyle


def test_old_per_option_attributes_still_set_the_defaults_with_a_warning():
    with pytest.warns(DeprecationWarning) as caught:
        cls = _old_style_class()
    said = [str(w.message) for w in caught]
    assert "OldStyle.rave_default is deprecated: write search_defaults = {'rave': True, ...} " \
           "instead" in said
    assert any("criticality_default is ignored" in s for s in said)
    assert cls.search_defaults == {"rave": True, "rave_k": 250.0}
    game = cls()
    v = resolve(SearchConfig(), game)
    assert v["rave"] is True and v["rave_k"] == 250.0
    assert MCTS(game, SearchConfig(threads=1), log=None).params().rave_k == 250.0
    assert len(contract_notes(game)) == 3


def test_reading_an_old_attribute_warns_and_gives_the_new_value():
    with pytest.warns(DeprecationWarning, match=r"read search_defaults.get\('solve_nodes'\)"):
        assert C4.solve_nodes_default == 32.0


def test_check_refuses_an_unknown_or_bad_search_default():
    class Typo(Game):
        search_defaults = {"rave_kk": 5.0, "exploration": -1.0}
    problems = _search_default_problems(Typo())
    assert problems[0].startswith("search_defaults names 'rave_kk', which is not a search "
                                  "option a game may set: use one of exploration, ")
    assert problems[1] == "search_defaults: exploration must be a number of at least 0, got -1.0"


def test_built_in_games_use_no_deprecated_name():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in ("connect4", "go", "othello", "tictactoe"):
            assert contract_notes(games.get(name)) == []
