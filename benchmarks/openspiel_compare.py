"""OpenSpiel's figures for the same games, measured the same way, for `bench --compare openspiel`.

OpenSpiel (``pip install open-spiel``, the ``compare`` extra) exposes its C++ MCTS to Python as
``pyspiel.MCTSBot`` and its C++ random rollouts only as the evaluator of that bot,
``pyspiel.RandomRolloutEvaluator(n_rollouts, seed)``. So:

- MCTS playouts per second: one ``MCTSBot.step`` from the initial position with UCT, c = sqrt 2,
  one random rollout per leaf, ``S`` simulations, divided by its seconds.
- Random playouts per second: the same search of ``s`` simulations run twice, with 1 and with
  ``R`` rollouts per leaf; the difference in time is ``s * (R - 1)`` whole C++ random rollouts
  from positions one or two plies from the start.
- Average playout length: random games played through the Python API (a sample).

A game whose first position is a chance node (Backgammon's opening roll) is timed from the
position after its first outcome: OpenSpiel's MCTSBot does not search from a chance node.
"""
import random
import time

GAME_NAMES = {"connect4": "connect_four", "go": "go", "tictactoe": "tic_tac_toe",
              "othello": "othello", "pig": "pig", "backgammon": "backgammon",
              "chinese_checkers": "chinese_checkers"}
# Our parameters that OpenSpiel's twin takes under the same name.
SHARED_PARAMS = {"pig": ("players", "winscore", "diceoutcomes", "horizon"),
                 "chinese_checkers": ("players", "max_moves")}
INSTALL_HINT = "OpenSpiel is not installed: pip install -e '.[compare]' (or pip install open-spiel)"


def available():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def load(name, params):
    """The pyspiel game for our game ``name`` with ``params``, or None if it has no twin."""
    import pyspiel
    if name not in GAME_NAMES:
        return None
    spiel_params = {}
    if name == "go":
        spiel_params = {"board_size": int(params.get("size", 9)),
                        "komi": float(params.get("komi", 7.5))}
    for key in SHARED_PARAMS.get(name, ()):
        if key in params:
            spiel_params[key] = params[key]
    return pyspiel.load_game(GAME_NAMES[name], spiel_params)


def first_decision(game, seed=0):
    """The initial state, or, if it is a chance node, the state after its first outcomes
    drawn by probability (``seed``)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def _step_seconds(game, rollouts, simulations, seed):
    import pyspiel
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(rollouts, seed), 2 ** 0.5,
                          simulations, 4000, False, seed, False)
    state = first_decision(game, seed)
    w0, c0 = time.perf_counter(), time.process_time()
    bot.step(state)
    return time.perf_counter() - w0, time.process_time() - c0


def mcts_rate(game, simulations, seed):
    """(wall, CPU) simulations per second of a C++ MCTS search of ``simulations``."""
    wall, cpu = _step_seconds(game, 1, simulations, seed)
    return simulations / wall, simulations / max(cpu, 1e-9)


def rollout_rate(game, seconds, seed):
    """(wall, CPU) whole C++ random rollouts per second, spending about ``seconds``: the time
    of a search with 1 + extra rollouts per leaf minus that of a search with 1. A timing so
    noisy that the difference is not positive falls back on the whole search's time (a lower
    bound of the rate), and the rollout count stays within what OpenSpiel's int takes."""
    sims, extra = 20, 10
    w1, c1 = _step_seconds(game, 1, sims, seed)
    wr, cr = _step_seconds(game, 1 + extra, sims, seed)
    per = (wr - w1) / (sims * extra)                       # seconds per rollout, estimate
    if per <= 0:
        per = wr / (sims * (1 + extra))
    scale = max(1, min(int(seconds / max(per * sims * extra, 1e-9)), 2 ** 30 // (sims * extra)))
    extra *= scale
    w1, c1 = _step_seconds(game, 1, sims, seed)
    wr, cr = _step_seconds(game, 1 + extra, sims, seed)
    n = sims * extra
    wall = wr - w1 if wr > w1 else wr
    cpu = cr - c1 if cr > c1 else cr
    return n / max(wall, 1e-9), n / max(cpu, 1e-9)


def mean_playout_length(game, games=100, seed=0):
    """Mean plies of uniformly random games from the initial position (Python API sample;
    chance outcomes drawn by their probabilities and counted as plies, as ours are)."""
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            total += 1
    return total / games
