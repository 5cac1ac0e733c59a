"""Check of the optional ``move_features`` kernel (the learned playout policy's candidates) and of
``learned_rollout`` with its ``Game.playout_table``."""

import numpy as np

from games.contract import ILLEGAL, ONGOING
from games.rng import new_rng
from mcts.conformance.common import RANDOM_GAMES, _Problems

LEARNED_PLAYOUTS = 20         # playouts of the learned policy, with random weights


def check_move_features(game):
    """Over ``RANDOM_GAMES`` seeded random games: ``move_features`` leaves the state unchanged
    and gives the same answer twice; its candidates are distinct actions that
    ``legal_actions`` lists (``apply_action`` may refuse one only for a reason such as
    superko, never in most positions); each row holds at most ``feature_slots`` distinct ids
    in ``[0, num_features)``, ended by -1; finished games have no candidate. Then
    ``LEARNED_PLAYOUTS`` playouts of the learned policy with random weights end. Nothing to
    check for a game without the kernel."""
    from mcts.codegen import provided_kernels
    from mcts.search import load_kernels
    from mcts.tree import new_workspace
    provided = provided_kernels(game.kernel_module)
    if "move_features" not in provided:
        return (["a learned_rollout kernel needs a move_features kernel too (the candidates "
                 "and features of the same policy, for selfplay's episodes and training)"]
                if "learned_rollout" in provided else [])
    if "learned_rollout" in provided:
        message = _table_problem(game)
        if message:
            return [message]
    problems = _Problems()
    if game.num_features < 1 or game.feature_slots < 1:
        return [f"{type(game).__name__} has a move_features kernel but declares num_features "
                f"= {game.num_features} and feature_slots = {game.feature_slots}: declare "
                "both (the weight vector's length, the most features of one move)"]
    k = game.kernels
    a, slots = max(game.num_actions, 1), game.feature_slots
    cand = np.empty(a, dtype=np.int32)
    buf = np.empty(a, dtype=np.int32)
    refused = total = 0
    for seed in range(RANDOM_GAMES):
        rng, state = new_rng(2000 + seed), game.initial_state()
        ply = 0
        while True:
            where = f"in the game with seed {2000 + seed}, ply {ply}"
            before = state.copy()
            feats = np.full((a, slots + 1), -7, dtype=np.int32)   # one column to spare
            n = int(k.move_features(state, cand, feats))
            if not np.array_equal(state, before):
                problems.add("writes", f"move_features changed the state ({where}): it must "
                             "only read it")
                return problems.messages()
            again = np.full_like(feats, -7)
            cand2 = np.empty_like(cand)
            if int(k.move_features(state, cand2, again)) != n or not (
                    np.array_equal(cand[:n], cand2[:n]) and np.array_equal(feats[:n], again[:n])):
                problems.add("pure", f"move_features gave two answers for one state ({where})")
            st = int(k.status(state))
            legal = set(int(x) for x in buf[:int(k.legal_actions(state, buf))]) \
                if st == ONGOING else set()
            if st != ONGOING and n != 0:
                problems.add("over", f"move_features gave {n} candidates in a finished game "
                             f"({where}): return 0")
            if len(set(int(x) for x in cand[:n])) != n or not set(int(x) for x in cand[:n]) <= legal:
                problems.add("legal", f"move_features gave candidates that are repeated or not "
                             f"legal actions ({where}): {sorted(int(x) for x in cand[:n])}")
            for i in range(n):
                total += 1
                refused += k.apply_action(state.copy(), int(cand[i])) == ILLEGAL
                row = [int(x) for x in feats[i, :slots]]
                ids = row[:row.index(-1)] if -1 in row else row
                if feats[i, slots] not in (-7, -1) or any(
                        x < 0 or x >= game.num_features for x in ids) or len(set(ids)) != len(ids):
                    problems.add("ids", f"move_features row {i} ({where}) holds {ids}: at most "
                                 f"feature_slots = {slots} distinct ids in [0, "
                                 f"{game.num_features}), then -1")
            if st != ONGOING or ply >= game.max_length:
                break
            k.apply_action(state, int(k.playout_action(state, rng)))
            ply += 1
    if total and refused > 0.05 * total:
        problems.add("refused", f"apply_action refused {refused} of {total} candidates of "
                     "move_features: give legal moves only")
    if not problems.messages():
        kernels = load_kernels(game, log=None)
        work = new_workspace(game, np.random.default_rng(0).normal(0, 2, game.num_features))
        outcomes = np.zeros(4, dtype=np.int64)
        kernels.learned_playouts(game.initial_state(), LEARNED_PLAYOUTS, new_rng(1), work,
                                 outcomes)
        if outcomes[1:].sum() != LEARNED_PLAYOUTS:
            problems.add("end", f"learned playouts with random weights ended {outcomes[1:]}"
                         f" of {LEARNED_PLAYOUTS}: every playout must reach an end")
    return problems.messages()


def _table_problem(game):
    """What is wrong with ``Game.playout_table`` of a game with a ``learned_rollout`` kernel
    (None if nothing): it must give a float64 1-D array of one length whatever the weights."""
    tables = [game.playout_table(np.full(game.num_features, x)) for x in (0.0, 1.5)]
    if any(t is None for t in tables):
        return (f"{type(game).__name__} has a learned_rollout kernel but no playout_table: "
                "define Game.playout_table(weights) giving the kernel's table")
    if any(not isinstance(t, np.ndarray) or t.dtype != np.float64 or t.ndim != 1 for t in tables) \
            or tables[0].shape != tables[1].shape:
        return ("playout_table must give a float64 1-D array whose length does not depend on "
                f"the weights; it gave {[getattr(t, 'shape', type(t)) for t in tables]}")
    return None
