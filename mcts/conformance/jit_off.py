"""A small seeded search, compiled against NUMBA_DISABLE_JIT=1 (plain Python, in a subprocess)."""
import json
import os
import subprocess
import sys


from games.contract import spec_of
from mcts.conformance.common import SEARCH_PLAYOUTS, SUBPROCESS_SECONDS, STDERR_LINES


# -- the search, compiled and as plain Python ---------------------------------------------------
def check_search(game):
    """A small seeded search: the same result twice, and compiled == NUMBA_DISABLE_JIT=1."""
    import numba
    compiled = small_search(game)
    if compiled != small_search(game):
        return ["two identical seeded searches disagree: the kernels must draw random numbers "
                "only from the rng argument and keep no state between calls"]
    if numba.config.DISABLE_JIT:         # this process runs plain Python already
        return []
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.pathsep.join(sys.path))
    code = ("import json, warnings; warnings.simplefilter('ignore'); "
            "from games.contract import game_from_spec; from mcts.conformance import small_search; "
            f"print(json.dumps(small_search(game_from_spec({spec_of(game)!r}))))")
    what = "a seeded search in a subprocess with NUMBA_DISABLE_JIT=1"
    try:
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=SUBPROCESS_SECONDS)
    except subprocess.TimeoutExpired:
        return [f"{what} did not finish in {SUBPROCESS_SECONDS} s: the kernels must also run as "
                "plain Python (NUMBA_DISABLE_JIT=1), e.g. to be debugged"]
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-STDERR_LINES:] or ["(nothing on stderr)"]
        return [f"the kernels fail as plain Python: {what} exited with status "
                f"{proc.returncode}; the end of its stderr:\n" + "\n".join("    " + line
                                                                             for line in tail)]
    try:
        interpreted = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return [f"{what} printed no result; its output ends: {proc.stdout[-300:]!r}"]
    if interpreted != compiled:
        return ["a seeded search differs compiled and under NUMBA_DISABLE_JIT=1 (look in the "
                "kernels for integer overflow, or int/uint64 mixes numba and numpy promote "
                f"differently): (move, visits, value, proof) compiled {compiled[:6]} vs plain "
                f"Python {interpreted[:6]}"]
    return []


def small_search(game, playouts=SEARCH_PLAYOUTS):
    """[[move, visits, value, proof]] of each root move after a small seeded search."""
    from mcts import MCTS, SearchConfig
    capacity = max(20_000, 2 * (game.num_actions + 1))
    engine = MCTS(game, SearchConfig(seed=3, capacity=capacity), log=None)
    r = engine.search(game.initial_state(), playouts=playouts)
    return [[c.move, c.visits, round(c.value, 9), None if c.proof is None else c.proof.value]
            for c in r.children]
