"""Conformance check: does a game keep the contract of :mod:`games.base`?

Run it as ``python cli.py check GAME`` or from a game's own tests::

    from mcts.conformance import assert_conforms
    def test_my_game_conforms():
        assert_conforms(MyGame())

Each check returns a list of problems written for the game's author (empty when it passes):
kernels present; seeded random games end within ``max_length``; legal actions are in range
and each one applies; moves round-trip through ``format_move``/``parse_move``; the state keeps
its shape and dtype; finished games accept no move; the same seed gives the same game; and a
small search gives the same result compiled and under ``NUMBA_DISABLE_JIT=1`` (in a
subprocess, so the kernels run as plain Python).
"""
import importlib
import json
import os
import subprocess
import sys

import numpy as np

from games.contract import DRAW, FIRST_WINS, ILLEGAL, KERNEL_NAMES, ONGOING, spec_of

STATUSES = (ONGOING, FIRST_WINS, FIRST_WINS + 1, DRAW)


def _random_game(game, seed, problems, check_each=True):
    """Play one seeded game with the playout policy; return its actions, checking as it goes."""
    from games.rng import new_rng
    k = game.kernels
    rng, state = new_rng(seed), game.initial_state()
    shape, dtype = state.shape, state.dtype
    buf = np.empty(2 * game.num_actions + 64, dtype=np.int32)   # room to catch overflows
    actions = []
    while int(k.status(state)) == ONGOING:
        where = f"game with seed {seed}, ply {len(actions) + 1}"
        if len(actions) >= game.max_length:
            problems.append(f"{where}: the game has not ended after max_length = "
                            f"{game.max_length} plies")
            return actions
        if int(k.to_play(state)) not in (0, 1):
            problems.append(f"{where}: to_play returned {int(k.to_play(state))}, not 0 or 1")
            return actions
        n = int(k.legal_actions(state, buf))
        if n > game.num_actions:
            problems.append(f"{where}: legal_actions wrote {n} actions, more than num_actions "
                            f"= {game.num_actions} (the search's buffer would overflow)")
            return actions
        legal = [int(a) for a in buf[:n]]
        if n == 0:
            problems.append(f"{where}: no legal action in an unfinished game (add a pass?)")
            return actions
        bad = [a for a in legal if not 0 <= a < game.num_actions]
        if bad:
            problems.append(f"{where}: legal_actions gave {bad}, outside [0, {game.num_actions})")
            return actions
        if check_each:
            for a in legal:
                after = state.copy()
                st = int(k.apply_action(after, a))
                if st not in STATUSES and st != ILLEGAL:
                    problems.append(f"{where}: apply_action({a}) returned {st}, not a status")
                if after.shape != shape or after.dtype != dtype:
                    problems.append(f"{where}: apply_action({a}) changed the state's shape or "
                                    f"dtype to {after.shape} {after.dtype}")
                try:
                    text = game.format_move(a, state)
                    back = game.parse_move(text, state) if st != ILLEGAL else a
                except ValueError as e:
                    problems.append(f"{where}: move {a} formatted as {text!r} is refused by "
                                    f"parse_move: {e}")
                    continue
                if back != a:
                    problems.append(f"{where}: format_move({a}) = {text!r} parses back as {back}")
        a = int(k.playout_action(state, rng))
        if a not in legal:
            problems.append(f"{where}: playout_action chose {a}, not among legal actions {legal}")
            return actions
        if int(k.apply_action(state, a)) == ILLEGAL:
            problems.append(f"{where}: apply_action refused the playout policy's move {a}")
            return actions
        actions.append(a)
    st = int(k.status(state))
    if st not in STATUSES[1:]:
        problems.append(f"game with seed {seed}: final status {st} is not a result")
    if int(k.legal_actions(state, buf)) != 0:
        problems.append(f"game with seed {seed}: legal_actions is not empty after the end")
    if int(k.apply_action(state.copy(), actions[-1] if actions else 0)) != ILLEGAL:
        problems.append(f"game with seed {seed}: apply_action accepted a move after the end")
    return actions


def check_kernels(game):
    mod = importlib.import_module(game.kernel_module)
    missing = [name for name in KERNEL_NAMES if not hasattr(mod, name)]
    problems = [f"kernel module {game.kernel_module} lacks {name}()" for name in missing]
    state = game.initial_state()
    if not isinstance(state, np.ndarray) or state.ndim != 1:
        problems.append("initial_state() must return a 1-D numpy array")
    if game.num_actions < 1 or game.max_length < 1:
        problems.append("set num_actions and max_length (positive) in __init__")
    return problems


def check_random_games(game, games=20, seed=0):
    problems = []
    for i in range(games):
        _random_game(game, seed + i, problems, check_each=i < 5)
        if problems:
            break
    return problems


def check_determinism(game, seed=7):
    problems = []
    a = _random_game(game, seed, problems, check_each=False)
    b = _random_game(game, seed, problems, check_each=False)
    if a != b:
        problems.append(f"the same seed ({seed}) gave two different games: {a[:10]}... and "
                        f"{b[:10]}...: draw random numbers only from the rng argument")
    return problems


def check_search(game):
    """A small seeded search: the same result twice, and compiled == NUMBA_DISABLE_JIT=1."""
    compiled = small_search(game)
    if compiled != small_search(game):
        return ["two identical seeded searches disagree"]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.pathsep.join(sys.path))
    code = ("import json, warnings; warnings.simplefilter('ignore'); "
            "from games.contract import game_from_spec; from mcts.conformance import small_search; "
            f"print(json.dumps(small_search(game_from_spec({spec_of(game)!r}))))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-3:]
        return ["the kernels fail as plain Python (NUMBA_DISABLE_JIT=1): " + " | ".join(tail)]
    interpreted = json.loads(proc.stdout.strip().splitlines()[-1])
    if interpreted != compiled:
        return ["a seeded search differs compiled and under NUMBA_DISABLE_JIT=1 (look for "
                "implicit int/uint64 promotions to float or integer overflow): "
                f"{compiled} vs {interpreted}"]
    return []


def small_search(game, playouts=200):
    from mcts import MCTS, SearchConfig
    engine = MCTS(game, SearchConfig(seed=3, capacity=20_000), log=None)
    r = engine.search(game.initial_state(), playouts=playouts)
    return [[c["move"], c["visits"], round(c["value"], 9)] for c in r.children]


CHECKS = (("kernels and state", check_kernels),
          ("seeded random games", check_random_games),
          ("same seed, same game", check_determinism),
          ("search compiled vs NUMBA_DISABLE_JIT=1", check_search))


def run_checks(game):
    """[(check name, [problems])] for each check run; the checks after a failing one are
    skipped (they would run a search on a game that breaks the contract)."""
    out = []
    for name, check in CHECKS:
        try:
            problems = check(game)
        except Exception as e:  # the author needs the message, not our traceback
            problems = [f"raised {type(e).__name__}: {e}"]
        out.append((name, problems))
        if problems:              # later checks rely on the earlier ones
            break
    return out


def assert_conforms(game):
    """For a game's own tests: fail with every problem found, in words."""
    failed = [f"{name}: {p}" for name, problems in run_checks(game) for p in problems]
    assert not failed, f"{game.name} breaks the game contract:\n" + "\n".join(failed)
