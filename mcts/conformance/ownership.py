"""Check of the optional ``ownership`` kernel: what it adds to its buffer, and the search's sums."""

import numpy as np

from games.rng import new_rng
from mcts.conformance.common import RANDOM_GAMES, SEARCH_PLAYOUTS, _Problems

_SENTINEL = 7.0     # the buffer's entries before a call: only additions may change them


def check_ownership(game):
    """At the end of ``RANDOM_GAMES`` seeded random games and at their starting position:
    ``ownership(state, rng, out)`` returns 0 or 1; with 0 it leaves ``out`` (float64,
    ``(2, num_actions)``) as it was; with 1 it adds to each action -1, 0 or +1 in row 0 and
    0 or 1 in row 1, not both (a point is owned by one player, or by neither). And a seeded
    search with the ``ownership`` option reports ``ownership`` / ``neutral`` maps of shape
    ``(num_actions,)`` in [-1, 1] and [0, 1] over at most its playouts, and the same search
    result (move and visits) as without it. Nothing to check for a game without the kernel."""
    from mcts.codegen import provided_kernels
    if "ownership" not in provided_kernels(game.kernel_module):
        return []
    k = game.kernels
    problems = _Problems()
    for seed in range(RANDOM_GAMES):
        rng, state = new_rng(2000 + seed), game.initial_state()
        for ply in range(game.max_length + 1):
            if game.status(state) != 0 or game.is_chance(state):
                break
            k.apply_action(state, int(k.playout_action(state, rng)))
        for where, pos in ((f"the end of the game with seed {2000 + seed}", state),
                           ("the initial position", game.initial_state())):
            out = np.full((2, game.num_actions), _SENTINEL)
            counted = k.ownership(pos.copy(), new_rng(seed), out)
            added = out - _SENTINEL
            if counted not in (0, 1):
                problems.add("return", f"ownership returned {counted!r} at {where}: return 1 "
                             "if it counted the position, 0 if not")
            elif counted == 0 and added.any():
                problems.add("zero", f"ownership returned 0 but changed out at {where}: add "
                             "nothing when not counting")
            elif counted == 1 and not (np.isin(added[0], (-1.0, 0.0, 1.0)).all()
                                       and np.isin(added[1], (0.0, 1.0)).all()
                                       and (np.abs(added[0]) + added[1] <= 1).all()):
                problems.add("values", f"ownership added values other than -1/0/+1 to row 0 "
                             f"or 0/1 to row 1, or both to one action, at {where}: each action "
                             "is owned by the first player (+1), the second (-1) or neither "
                             "(row 1)")
    if problems.messages():
        return problems.messages()
    return _search_problems(game)


def _search_problems(game):
    from mcts import MCTS, SearchConfig
    results = []
    for on in (False, True):
        engine = MCTS(game, SearchConfig(seed=3, threads=1, ownership=on, capacity=100_000),
                      log=None)
        results.append(engine.search(game.initial_state(), playouts=SEARCH_PLAYOUTS))
    off, on = results
    if (off.move, [c.visits for c in off.children]) != (on.move, [c.visits for c in on.children]):
        return ["a seeded search changed with the ownership option on: the ownership kernel "
                "must draw only from its rng argument and change nothing but its own copy"]
    if on.ownership_playouts == 0:
        return []
    if not (0 < on.ownership_playouts <= on.playouts and on.ownership.shape == (game.num_actions,)
            and np.all(np.abs(on.ownership) <= 1) and np.all((on.neutral >= 0)
                                                            & (on.neutral <= 1))):
        return [f"the search's ownership sums are out of range ({on.ownership_playouts} counted "
                f"of {on.playouts} playouts)"]
    return []
