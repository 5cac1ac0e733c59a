"""Check of the optional ``position_key`` kernel: equal keys must mean the same position."""

import numpy as np

from games.contract import ONGOING
from games.rng import new_rng
from mcts.conformance.common import RANDOM_GAMES, _Problems, _status_name


def check_position_keys(game):
    """Over ``RANDOM_GAMES`` seeded random games: ``position_key`` returns an unsigned 64-bit
    integer, leaves the state unchanged and gives the same key for equal states; two states
    with one key have the same player to move, status and legal actions (what the search
    shares between transpositions). Nothing to check for a game without the kernel."""
    from mcts.codegen import provided_kernels
    if "position_key" not in provided_kernels(game.kernel_module):
        return []
    k = game.kernels
    problems = _Problems()
    seen = {}                                        # key -> (state bytes, summary)
    buf = np.empty(game.num_actions, dtype=np.int32)
    for seed in range(RANDOM_GAMES):
        rng, state = new_rng(1000 + seed), game.initial_state()
        ply = 0
        while True:
            where = f"in the game with seed {1000 + seed}, ply {ply}"
            before = state.copy()
            key = k.position_key(state)
            if not isinstance(key, (np.uint64, int)) or isinstance(key, bool):
                problems.add("type", f"position_key returned {type(key).__name__} ({where}): "
                             "return an unsigned 64-bit integer (np.uint64)")
                return problems.messages()
            if not np.array_equal(state, before):
                problems.add("writes", f"position_key changed the state ({where}): it must "
                             "only read it")
                return problems.messages()
            if int(k.position_key(state.copy())) != int(key):
                problems.add("pure", f"position_key gave two keys for one state ({where}): it "
                             "must depend on the state only")
            st = int(k.status(state))
            n = int(k.legal_actions(state, buf)) if st == ONGOING else 0
            summary = (int(k.to_play(state)), st, tuple(sorted(int(a) for a in buf[:n])))
            old = seen.setdefault(int(key), (state.tobytes(), summary))
            if old[0] != state.tobytes() and old[1] != summary:
                problems.add("collision", f"position_key gave key {int(key)} to two positions "
                             f"that differ in player to move, status or legal moves ({where}: "
                             f"{summary[0]}, {_status_name(summary[1])}, {len(summary[2])} "
                             "moves): the search would share their statistics; give every "
                             "position its own key")
            if st != ONGOING or ply >= game.max_length:
                break
            k.apply_action(state, int(k.playout_action(state, rng)))
            ply += 1
    return problems.messages()
