"""Compiled code is never stale: after an edit of any source the kernels depend on, the next
process recompiles the search and the game's kernels, says so, and runs the new code.

Each test works on a copy of the sources in a temporary folder (numba's cache goes next to the
copy, the generated search modules to a private MCTS_CACHE_DIR), runs a subprocess, edits a
helper module, and runs again. numba alone would keep the old machine code here: it checks a
cached function only against its own file (numba docs, "Caching Limitations")."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
PLUGIN = ROOT / "tests" / "data" / "plugin_example"
COMPILING = "compiling the search and the kernels"

# Random playouts and a small search through the generated search module: its own compiled
# code inlines the game's kernels, so both must be fresh for the figures to follow an edit.
PROBE = """
import json, sys
import numpy as np
import games
from games.rng import new_rng
from mcts import MCTS, SearchConfig
from mcts.search import load_kernels
{setup}
k = load_kernels(game)
out = np.zeros(4, dtype=np.int64)
k.random_playouts(game.initial_state(), 300, new_rng(1), game.initial_state(), out)
r = MCTS(game, SearchConfig(seed=2, capacity=50_000, threads=1), log=None).search(
    game.initial_state(), playouts=2_000)
print(json.dumps({{"outcomes": out.tolist()[1:], "value": round(r.value, 6)}}))
"""


def copy_sources(dest):
    for folder in ("games", "mcts"):
        shutil.copytree(ROOT / folder, dest / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))


def run(checkout, setup, extra_path=(), shared=None):
    """(the probe's figures, whether it announced a compile) for a subprocess on ``checkout``;
    with ``shared``, the generated modules and numba's cache both go to that folder."""
    env = dict(os.environ, MCTS_CACHE_DIR=str(shared or checkout / "generated"),
               MCTS_PORTABLE_CACHE="0",      # the native compile (test_portable.py: shipped code)
               PYTHONPATH=os.pathsep.join([str(checkout), *map(str, extra_path)]))
    env.pop("NUMBA_CACHE_DIR", None)
    if shared:
        env["NUMBA_CACHE_DIR"] = str(shared / "numba")
    p = subprocess.run([sys.executable, "-c", PROBE.format(setup=setup)], cwd=checkout, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), COMPILING in p.stderr


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def test_editing_a_go_helper_module_recompiles_the_game_and_the_search(tmp_path):
    copy_sources(tmp_path)
    setup = "game = games.get('go', size=5, playout_policy='uniform')"
    before, compiled = run(tmp_path, setup)
    assert compiled
    assert before["outcomes"][2] == 0 and sum(before["outcomes"]) == 300   # komi 7.5: no jigo
    again, compiled = run(tmp_path, setup)
    assert (again, compiled) == (before, False)        # warm: loaded, nothing recompiled
    # games/go/area.py is not the kernel module: kernels.py's kernels call its final_status
    edit(tmp_path / "games" / "go" / "area.py", "def final_status(s):\n",
         "def final_status(s):\n    return DRAW\n")
    after, compiled = run(tmp_path, setup)
    assert compiled
    assert after["outcomes"] == [0, 0, 300]            # every playout now ends in a draw
    assert after["value"] == 0.5


def test_editing_a_plugin_helper_module_is_seen_by_the_next_run(tmp_path):
    copy_sources(tmp_path)
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin, ignore=shutil.ignore_patterns("__pycache__"))
    setup = "import nim_plugin\ngames.register(nim_plugin.Nim)\ngame = games.get('nim')"
    before, compiled = run(tmp_path, setup, [plugin])
    assert compiled and sum(before["outcomes"]) == 300
    # misère instead of normal play: the same seeded playouts, each winner swapped
    edit(plugin / "nim_rules.py", "state[STATUS] = FIRST_WINS + state[TO_PLAY]",
         "state[STATUS] = FIRST_WINS + 1 - state[TO_PLAY]")
    after, compiled = run(tmp_path, setup, [plugin])
    assert compiled
    assert after["outcomes"] == [before["outcomes"][1], before["outcomes"][0], 0]


DATA_GAME = '''
"""Take 1 to MAX_TAKE (a constant of pile_rules.py) from a pile; the pile size is read from
pile.txt when the module loads and baked into the compiled kernels as a constant, so the file
is a declared dependency."""
from pathlib import Path
import numpy as np
from numba import njit
from games.contract import FIRST_WINS, ILLEGAL, ONGOING, Game
from games.rng import random_below
from pile_rules import MAX_TAKE

DATA = Path(__file__).with_name("pile.txt")
PILE = int(DATA.read_text())


@njit(cache=True)
def to_play(state):
    return state[1]


@njit(cache=True)
def status(state):
    return state[2]


@njit(cache=True)
def legal_actions(state, out):
    if state[2] != ONGOING:
        return 0
    n = min(MAX_TAKE, state[0])
    for i in range(n):
        out[i] = i
    return n


@njit(cache=True)
def apply_action(state, action):
    if state[2] != ONGOING or action < 0 or action >= min(MAX_TAKE, state[0]):
        return ILLEGAL
    state[0] -= action + 1
    if state[0] == 0:
        state[2] = FIRST_WINS + state[1]
    state[1] = 1 - state[1]
    return state[2]


@njit(cache=True)
def playout_action(state, rng):
    return random_below(rng, min(MAX_TAKE, state[0]))


@njit(cache=True)
def initial(out):
    out[0] = PILE                      # the compiled constant
    return out


class Pile(Game):
    name = "pile"
    kernel_module = "pile_game"
    kernel_dependencies = ("pile.txt",)        # relative to this file

    def __init__(self):
        super().__init__()
        self.num_actions, self.max_length = 3, 100

    def initial_state(self):
        return initial(np.array([0, 0, ONGOING], dtype=np.int64))

    def format_move(self, action, state=None):
        return str(action + 1)
'''


def pile_game(tmp_path):
    copy_sources(tmp_path)
    (tmp_path / "pile_game.py").write_text(DATA_GAME)
    (tmp_path / "pile_rules.py").write_text("MAX_TAKE = 2\n")
    (tmp_path / "pile.txt").write_text("3")
    setup = "import pile_game\ngame = pile_game.Pile()"
    before, compiled = run(tmp_path, setup)
    # taking 1 or 2, a pile of 3 (a multiple of 3) is lost for the side to move
    assert compiled and before["value"] == 0.0
    return setup


def test_editing_a_declared_data_dependency_is_seen_by_the_next_run(tmp_path):
    setup = pile_game(tmp_path)
    (tmp_path / "pile.txt").write_text("4")
    after, compiled = run(tmp_path, setup)
    assert compiled and after["value"] == 1.0          # pile 4: take 1, and win


def test_editing_a_module_of_constants_is_seen_by_the_next_run(tmp_path):
    # `from pile_rules import MAX_TAKE` leaves only a number in the kernel module's globals
    setup = pile_game(tmp_path)
    (tmp_path / "pile_rules.py").write_text("MAX_TAKE = 3\n")
    after, compiled = run(tmp_path, setup)
    assert compiled and after["value"] == 1.0          # take all 3, and win


def test_two_checkouts_sharing_a_cache_keep_their_own_compiled_code(tmp_path):
    shared = tmp_path / "cache"
    a, b = tmp_path / "a", tmp_path / "b"
    for checkout in (a, b):
        copy_sources(checkout)
    # b differs from a: its tic-tac-toe playouts always end in a draw
    edit(b / "games" / "tictactoe.py", "def playout_action(state, rng):\n",
         "def playout_action(state, rng):\n    return first_empty(state)\n\n\n"
         "@njit(cache=True)\ndef first_empty(state):\n    for a in range(CELLS):\n"
         "        if state[a] == EMPTY:\n            return a\n    return -1\n\n\n"
         "def _unused(state, rng):\n")
    setup = "game = games.get('tictactoe')"
    first_a, compiled = run(a, setup, shared=shared)
    assert compiled
    first_b, compiled = run(b, setup, shared=shared)
    assert compiled and first_b != first_a
    for checkout, first in ((a, first_a), (b, first_b), (a, first_a)):
        assert run(checkout, setup, shared=shared) == (first, False)


def test_a_module_that_imports_a_compiled_helper_is_seen_compiled():
    """Connect Four's kernels import games.rng's random_below: the cache folder of the
    module's own functions decides (not that of an imported helper), so a warm second run
    does not say it compiles."""
    import games
    from mcts import codegen
    from mcts.search import load_kernels
    game = games.get("connect4")
    load_kernels(game, log=None)
    assert codegen.is_compiled(game.kernel_module)
