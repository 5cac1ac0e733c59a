"""RAVE in the compiled search: the selection rule and the all-moves-as-first backup.

Rapid action value estimation (Gelly and Silver 2007, "Combining online and offline
knowledge in UCT"; 2011, "Monte-Carlo tree search and rapid action value estimation in
computer Go") keeps for every child the results of the simulations in which its move was
played later, by the same player, anywhere below its parent: many samples for each move from
every simulation. The functions take the tree's arrays (mcts.tree) and scalars and know no
game; mcts.uct_template calls them.
"""
import numpy as np

from games.compiled import nrt_free
from games.contract import FIRST_WINS, ILLEGAL


@nrt_free
def select_child_rave(node, c, k, merge_prior, first_child, num_children, mover, node_status,
                      proven, visits, value_sum, amaf_visits, amaf_value, prior_visits,
                      prior_value):
    """RAVE selection (Gelly and Silver 2007, "Combining online and offline knowledge in
    UCT"): maximise (1 - b) Q + b Q_amaf + c sqrt(ln N / (n + 1)) with the hand-selected
    schedule b = sqrt(k / (3 n + k)) of that paper; ``k`` is the equivalence parameter. With
    ``merge_prior`` the node's prior playouts (``prior_visits``, ``prior_value``) join its own
    n and Q (as Pachi and Fuego do); otherwise expansion put them in the AMAF statistics. A
    child with no statistics at all (e.g. pass, kept out of AMAF and given no prior) is judged
    by its own mean, and tried once first. Pruned (ILLEGAL) children and children proven lost
    for the player to move are skipped; returns -1 if none is left."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    log_n = np.log(visits[node] + 1.0)
    who = np.int64(mover[first])
    lost = FIRST_WINS + (1 - who) if who < 2 else ILLEGAL - 1   # no proofs past 2 players
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL or proven[j] == lost:
            continue
        n = visits[j]
        nq = n + 0.0
        sq = value_sum[j]
        if merge_prior:
            nq += prior_visits[j]
            sq += prior_value[j]
        na = amaf_visits[j] + 0.0
        if na > 0:
            beta = np.sqrt(k / (3.0 * n + k))
            q = sq / nq if nq > 0 else 0.0
            score = (1.0 - beta) * q + beta * (amaf_value[j] + 0.0) / na
        else:
            score = sq / nq if nq > 0 else 1.0
        score += c * np.sqrt(log_n / (n + 1.0))
        if score > best_score:
            best_score = score
            best = j
    return best


@nrt_free
def amaf_update(path, depth, seq_actions, seq_players, n_seq, mark, stamp, r0, excluded,
                first_only, first_child, num_children, action, mover, amaf_visits, amaf_value):
    """All-moves-as-first backup: every child of a node on ``path[:depth + 1]`` whose move its
    player made later in the same simulation (in the tree below the node, or in the playout's
    ``n_seq`` moves ``seq_actions`` (int32) by ``seq_players`` (int8)) gets the simulation's
    result: ``amaf_visits`` (int32) + 1, ``amaf_value`` (float32) + its mover's reward.
    ``mark`` (int64, 2 * num_actions) holds ``stamp`` for each (player, action) seen so far,
    walking up from the playout. With ``first_only`` a move counts only if its player was the
    first to play it after the node (MoGo's and Pachi's rule: in Go, a point retaken after a
    capture says little about playing it first). The action ``excluded`` (the game's pass,
    played at the end of every playout) gets no AMAF statistics."""
    a_count = np.int64(mark.shape[0] // 2)     # int64: as plain Python an int8 * int overflows
    for t in range(n_seq - 1, -1, -1):         # backwards: the first play is written last
        mark[seq_players[t] * a_count + seq_actions[t]] = stamp
        if first_only:
            mark[(1 - seq_players[t]) * a_count + seq_actions[t]] = -1
    for d in range(depth, -1, -1):
        nd = path[d]
        f = first_child[nd]
        if f >= 0:                              # expanded (not NO_CHILDREN, EXPANDING)
            for j in range(f, f + num_children[nd]):
                if mark[mover[j] * a_count + action[j]] == stamp and action[j] != excluded:
                    amaf_visits[j] += 1
                    amaf_value[j] += r0 if mover[j] == 0 else 1.0 - r0
        if d > 0:
            mark[mover[nd] * a_count + action[nd]] = stamp
            if first_only:
                mark[(1 - mover[nd]) * a_count + action[nd]] = -1


@nrt_free
def amaf_update_n(path, depth, seq_actions, seq_players, n_seq, mark, stamp, rewards, excluded,
                  first_only, first_child, num_children, action, mover, amaf_visits, amaf_value):
    """:func:`amaf_update` for any number of players and chance: the same statistics, each
    child credited with its own mover's reward from ``rewards`` (float64, (MAX_PLAYERS,));
    ``mark`` (int64, ``(MAX_PLAYERS * num_actions,)``) holds a stamp per player and action.
    Chance outcomes (player ``CHANCE``) and the children of chance nodes get no AMAF
    statistics."""
    a_count = np.int64(mark.shape[0] // rewards.shape[0])
    players = np.int64(rewards.shape[0])
    for t in range(n_seq - 1, -1, -1):
        p = np.int64(seq_players[t])
        if p < 0:
            continue
        mark[p * a_count + seq_actions[t]] = stamp
        if first_only:
            for q in range(players):
                if q != p:
                    mark[q * a_count + seq_actions[t]] = -1
    for d in range(depth, -1, -1):
        nd = path[d]
        f = first_child[nd]
        if f >= 0 and mover[f] >= 0:
            for j in range(f, f + num_children[nd]):
                if mark[mover[j] * a_count + action[j]] == stamp and action[j] != excluded:
                    amaf_visits[j] += 1
                    amaf_value[j] += rewards[mover[j]]
        if d > 0 and mover[nd] >= 0:
            p = np.int64(mover[nd])
            mark[p * a_count + action[nd]] = stamp
            if first_only:
                for q in range(players):
                    if q != p:
                        mark[q * a_count + action[nd]] = -1
