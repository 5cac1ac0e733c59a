"""Hand-written rollout and rollout_record against the generated
playout_action loop."""
import math

import numpy as np

from games.contract import CHANCE, DRAW, FIRST_WINS, ONGOING, RESULTS, SECOND_WINS
from games.rng import new_rng
from mcts.conformance.common import (ABS_TOLERANCE, PLAYOUTS, _Problems, _status_name,
                                     Z_TOLERANCE)
from mcts.conformance.play import _random_game


# -- rollout and rollout_record against the playout_action loop --------------------------------
_RATE_WORDS = {FIRST_WINS: "the first player wins {} of playouts",
               SECOND_WINS: "the second player wins {} of playouts",
               DRAW: "{} of playouts are draws"}


def _loop_results(game, state, n, seed):
    """Final statuses of ``n`` seeded playouts of the generic playout_action loop from
    ``state`` (as the generated rollout plays them): {status: count}. Playouts that end with
    ILLEGAL (apply_action refused the policy's move, e.g. superko) or outlast max_length are
    left out."""
    k, rng = game.kernels, new_rng(seed)
    counts = {st: 0 for st in RESULTS}
    for _ in range(n):
        s = state.copy()
        st, plies = int(k.status(s)), 0
        while st == ONGOING and plies <= game.max_length:
            st = int(k.apply_action(s, k.playout_action(s, rng)))
            plies += 1
        if st in counts:
            counts[st] += 1
    return counts


def _compare(kernel, counts, reference, where):
    """The message if the result rates of ``counts`` and ``reference`` ({status: count})
    differ by more than the tolerance (the result that differs most), else None."""
    n1, n2 = sum(counts.values()), sum(reference.values())
    if not n1 or not n2:
        return None
    worst = None
    for st in RESULTS:
        p1, p2 = counts[st] / n1, reference[st] / n2
        pooled = (counts[st] + reference[st]) / (n1 + n2)
        tol = Z_TOLERANCE * math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) + ABS_TOLERANCE
        excess = abs(p1 - p2) - tol
        if excess > 0 and (worst is None or excess > worst[0]):
            worst = (excess, st, p1, p2, tol)
    if worst is None:
        return None
    _, st, p1, p2, tol = worst
    counted = f"{n1} playouts each" if n1 == n2 else f"{n1} and {n2} playouts"
    return (f"{kernel}: {_RATE_WORDS[st].format(f'{p1:.1%}')}, but the playout_action loop "
            f"gives {p2:.1%} ({counted} from {where}; tolerance {Z_TOLERANCE:g} "
            f"standard errors + {ABS_TOLERANCE:.0%} = {tol:.1%} here): a hand-written {kernel} "
            "must follow the same policy as playout_action and return the winner as status() "
            "gives it")


def _check_rollout(game, state, where, seed, reference, problems):
    k = game.kernels
    rng, counts, bad, contradict = new_rng(seed), {st: 0 for st in RESULTS}, {}, []
    for _ in range(PLAYOUTS):
        s = state.copy()
        st = int(k.rollout(s, rng))
        if st not in counts:
            bad[st] = bad.get(st, 0) + 1
            continue
        counts[st] += 1
        left = int(k.status(s))
        if left in RESULTS and left != st:
            contradict.append((st, left))
    if bad:
        st, c = max(bad.items(), key=lambda x: x[1])
        problems.add("rollout result", f"rollout returned {_status_name(st)} in {c} of "
                     f"{PLAYOUTS} playouts from {where}: it must play to the end and return "
                     "FIRST_WINS, SECOND_WINS or DRAW")
    if contradict:
        st, left = contradict[0]
        problems.add("rollout state", f"rollout returned {_status_name(st)} but left a state "
                     f"whose status() is {_status_name(left)} in {len(contradict)} of "
                     f"{PLAYOUTS} playouts from {where}: it must return the final status of "
                     "the game it played")
        return                       # the same fault as the rates would show
    message = _compare("rollout", counts, reference, where)
    if message:
        problems.add("rollout rates", message)


def _check_rollout_record(game, state, where, seed, reference, problems):
    """rollout_record: results and recorded moves (players and actions in range; their order
    is free: all-moves-as-first statistics use which player made which move, so a playout
    may record its moves in any order, e.g. a board filled at once); the rates against
    ``reference``."""
    k = game.kernels
    name = "rollout_record"
    size = game.max_length + 1                  # the search's buffers
    actions = np.zeros(size, dtype=np.int32)
    players = np.zeros(size, dtype=np.int8)
    rng, counts, bad = new_rng(seed), {st: 0 for st in RESULTS}, {}
    for i in range(PLAYOUTS):
        s = state.copy()
        got = k.rollout_record(s, rng, actions, players)
        try:
            st, m = (int(x) for x in got)
        except (TypeError, ValueError):
            problems.add("record pair", f"{name} returned {got!r}: it must return a "
                         "pair (final status, moves recorded)")
            return
        if st not in counts:
            bad[st] = bad.get(st, 0) + 1
            continue
        counts[st] += 1
        if not 0 <= m <= size:
            problems.add("record count", f"{name} said it recorded {m} moves from "
                         f"{where}, but its buffers hold {size}: return (status, moves written)")
            continue
        who = [int(p) for p in players[:m]]
        allowed = set(range(game.num_players)) | ({CHANCE} if game.chance else set())
        wrong = [p for p in who if p not in allowed]
        if wrong:
            problems.add("record players", f"{name} recorded player {wrong[0]} from "
                         f"{where}: record the player of each move, 0 to num_players - 1"
                         + (" (CHANCE for a chance outcome)" if game.chance else ""))
        out_of_range = [int(a) for a in actions[:m] if not 0 <= a < game.num_actions]
        if out_of_range:
            problems.add("record range", f"{name} recorded the move {out_of_range[0]} from "
                         f"{where}, outside [0, {game.num_actions}): record the actions played")
        if m == size:
            problems.add("record long", f"{name} recorded {m} moves from {where}, more "
                         f"than max_length = {game.max_length}: playouts must end within "
                         "max_length plies")
    if bad:
        st, c = max(bad.items(), key=lambda x: x[1])
        problems.add("record result", f"{name} returned {_status_name(st)} in {c} of "
                     f"{PLAYOUTS} playouts from {where}: it must play to the end and return "
                     "(FIRST_WINS, SECOND_WINS or DRAW, moves recorded)")
    message = _compare(name, counts, reference, where)
    if message:
        problems.add("record rates", message)


def check_rollouts(game, seeds=(101, 102)):
    """Hand-written rollout / rollout_record against the generic playout_action loop."""
    from mcts.codegen import provided_kernels
    hand = provided_kernels(game.kernel_module) & {"rollout", "rollout_record"}
    if not hand:
        return []
    k, problems = game.kernels, _Problems()
    starts = [("the initial position", game.initial_state())]
    for j, seed in enumerate(seeds):    # positions a third, two thirds into random games
        actions = _random_game(game, seed, _Problems(), check_each=False)
        ply = len(actions) * (1 + j % 2) // 3
        if ply:
            state = game.initial_state()
            for a in actions[:ply]:
                k.apply_action(state, a)
            starts.append((f"the position after {ply} seeded random moves (seed {seed})", state))
    for i, (where, state) in enumerate(starts):
        if int(k.status(state)) != ONGOING:
            continue
        seed = 1000 + i
        reference = _loop_results(game, state, PLAYOUTS, seed)
        if "rollout" in hand:
            _check_rollout(game, state, where, seed, reference, problems)
        if "rollout_record" in hand:
            _check_rollout_record(game, state, where, seed, reference, problems)
    return problems.messages()
