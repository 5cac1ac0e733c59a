"""Check of the optional ``solve`` kernel (an exact solver): its answers must be exact."""

import numpy as np

from games.contract import DRAW, FIRST_WINS, ILLEGAL, ONGOING
from games.rng import new_rng
from mcts.conformance.common import RANDOM_GAMES, _Problems, _status_name

REFERENCE_NODES = 5_000       # positions whose full game tree is larger are not compared
SOLVE_BUDGET = 10_000_000     # the solver's budget where its answer is compared
SMALL_BUDGETS = (1, 10, 100)  # budgets too small to settle most positions: ONGOING or exact


class _TooBig(Exception):
    pass


def exhaustive(k, state, count, actions):
    """(final status, plies) of ``state`` under best play by a full minimax over the game's
    kernels: a win as fast as possible, a loss as slow as possible, a draw (plies of the
    shortest draw) before a loss. ``count`` is a one-item list of nodes left; ``_TooBig`` when
    it runs out. ``actions``: the game's ``num_actions``."""
    st = int(k.status(state))
    if st != ONGOING:
        return st, 0
    count[0] -= 1
    if count[0] < 0:
        raise _TooBig
    who = int(k.to_play(state))
    win, loss = FIRST_WINS + who, FIRST_WINS + 1 - who
    buf = np.empty(actions, dtype=np.int32)
    best = None                  # (rank, plies): rank 0 win, 1 draw, 2 loss
    for a in buf[:int(k.legal_actions(state, buf))]:
        child = state.copy()
        if int(k.apply_action(child, int(a))) == ILLEGAL:
            continue
        cs, cp = exhaustive(k, child, count, actions)
        rank = 0 if cs == win else (1 if cs == DRAW else 2)
        key = (rank, cp + 1 if rank < 2 else -(cp + 1))
        best = key if best is None or key < best else best
    if best is None:
        return st, 0
    rank, plies = best
    return (win, DRAW, loss)[rank], abs(plies)


def check_solver(game):
    """Over ``RANDOM_GAMES`` seeded random games, on every position whose full game tree has
    at most ``REFERENCE_NODES`` nodes: ``solve`` with a budget of ``SOLVE_BUDGET`` nodes gives
    the status of a full minimax over the kernels, and for a win or a loss its plies (the
    winner as fast, the loser as slow as they can); with the budgets ``SMALL_BUDGETS`` it
    gives that answer, that status with an upper bound of the plies, or ``ONGOING``; it leaves
    the state unchanged. Nothing to check for a game without the kernel."""
    from mcts.codegen import provided_kernels
    from mcts.search import load_kernels
    if "solve" not in provided_kernels(game.kernel_module):
        return []
    if game.solve_table_size < 1:
        return [f"{type(game).__name__} has a solve kernel but declares solve_table_size = "
                f"{game.solve_table_size}: declare the entries of its table (1 if it needs "
                "none)"]
    k = load_kernels(game, log=None)
    problems = _Problems()
    table = np.zeros(game.solve_table_size, dtype=np.uint64)
    compared = 0
    for seed in range(RANDOM_GAMES):
        rng, state, line = new_rng(3000 + seed), game.initial_state(), []
        while int(k.status(state)) == ONGOING and len(line) < game.max_length:
            line.append(state.copy())
            k.apply_action(state, int(k.playout_action(state, rng)))
        for ply in range(len(line) - 1, -1, -1):        # from the end: small trees first
            pos, where = line[ply], f"the game with seed {3000 + seed}, ply {ply}"
            try:
                want = exhaustive(k, pos, [REFERENCE_NODES], game.num_actions)
            except _TooBig:
                break
            compared += 1
            before = pos.copy()
            got = tuple(int(x) for x in k.solve(pos, np.int64(SOLVE_BUDGET), table))
            if not np.array_equal(pos, before):
                problems.add("writes", f"solve changed the state ({where}): it must only read "
                             "it")
                return problems.messages()
            if not _agrees(got, want):
                problems.add("exact", f"solve said {_status_name(got[0])} in {got[1]} plies "
                             f"where a full minimax finds {_status_name(want[0])} in {want[1]} "
                             f"({where}): its answers must be exact")
            for budget in SMALL_BUDGETS:                # the status, and plies or a bound
                got = tuple(int(x) for x in k.solve(pos, np.int64(budget), table * 0))
                if got[0] != ONGOING and not (_agrees(got, want) or (
                        got[0] == want[0] and got[0] != DRAW and want[1] <= got[1])):
                    problems.add("budget", f"solve with a budget of {budget} nodes said "
                                 f"{_status_name(got[0])} in {got[1]} plies where the answer "
                                 f"is {_status_name(want[0])} in {want[1]} ({where}): out of "
                                 "budget, return (ONGOING, 0), or the status with plies of at "
                                 "least the true ones")
    if not compared:
        problems.add("none", f"no position of {RANDOM_GAMES} random games had a game tree of "
                     f"at most {REFERENCE_NODES} nodes: solve was not compared")
    return problems.messages()


def _agrees(got, want):
    return got[0] == want[0] and (want[0] == DRAW or got[1] == want[1])
