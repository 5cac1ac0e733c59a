"""Last-good-reply with forgetting in the compiled search (Baier and Drake 2010, "The Power of
Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go", IEEE TCIAIG 2(4)).

After each simulation the winner's moves are stored as the replies to the move before them
(LGR-1) and to the two moves before them (LGR-2); the loser's moves are forgotten where
they are the stored reply. A game's ``rollout_replies`` kernel (games.contract) tries the
stored reply before its own policy. The table belongs to one search thread
(mcts.tree.Workspace.replies): int32, ``(2 * (A + 1) * A,)`` for A = num_actions, entry
``(p * (A + 1) + b) * A + a`` the reply of player ``p`` to the move ``a`` after its own move
``b`` (row ``b = A``: to ``a`` whatever came before), ``NO_REPLY`` when none. Knows no game.
"""
import numpy as np

from games.compiled import nrt_free

NO_REPLY = -1


@nrt_free
def reply_index(a_count, player, before, last):
    """Index in the reply table of ``player``'s reply to ``last`` after its own ``before``
    (``a_count`` for LGR-1)."""
    return (player * (a_count + 1) + before) * a_count + last


@nrt_free
def _learn(replies, a_count, player, before, last, move, won, excluded):
    """Store (``won``) or forget one reply, for LGR-1 and, if ``before`` is known, LGR-2."""
    if move == excluded:
        return
    i = reply_index(a_count, player, a_count, last)
    if won:
        replies[i] = move
    elif replies[i] == move:
        replies[i] = NO_REPLY
    if before >= 0:
        i = reply_index(a_count, player, before, last)
        if won:
            replies[i] = move
        elif replies[i] == move:
            replies[i] = NO_REPLY


@nrt_free
def reply_update(path, depth, action, mover, seq_actions, seq_players, n_seq, r0, excluded,
                 replies, a_count):
    """Learn from one simulation: the tree's moves ``action[path[1:depth + 1]]`` (int32) by
    ``mover`` (int8), then the playout's ``n_seq`` moves ``seq_actions`` (int32) by
    ``seq_players`` (int8); ``r0`` is player 0's reward (0.5, a draw, teaches nothing).
    ``excluded`` (the game's pass) is never stored as a reply; ``a_count`` is the game's
    num_actions."""
    if r0 == 0.5:
        return
    winner = 0 if r0 > 0.5 else 1
    last = np.int64(-1)
    before = np.int64(-1)
    for t in range(1, depth + n_seq + 1):
        if t <= depth:
            nd = path[t]
            move = np.int64(action[nd])
            player = np.int64(mover[nd])
        else:
            move = np.int64(seq_actions[t - depth - 1])
            player = np.int64(seq_players[t - depth - 1])
        if last >= 0:
            _learn(replies, a_count, player, before, last, move, player == winner, excluded)
        before = last
        last = move
