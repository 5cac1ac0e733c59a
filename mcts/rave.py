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
def select_child_rave(node, c, k, mse, merge_prior, crit, crit_visits, first_child,
                      num_children, action, mover, node_status, proven, visits, value_sum,
                      amaf_visits, amaf_value, prior_visits, prior_value, own_mover, own_winner,
                      ref, ref_child, ref_owner):
    """RAVE selection (Gelly and Silver 2007, "Combining online and offline knowledge in
    UCT"): maximise (1 - b) Q + b Q_amaf + c sqrt(ln N / (n + 1)). The schedule b is the
    hand-selected sqrt(k / (3 n + k)) of that paper, or with ``mse`` the minimum-MSE schedule
    b = n_a / (n_a + n + n n_a / k) (Gelly and Silver 2011, "Monte-Carlo tree search and rapid
    action value estimation in computer Go", section 6, with 4 b_r^2 = 1 / k; as in Pachi's
    "sylvain_rave"); ``k`` is the equivalence parameter. With ``merge_prior`` the node's prior
    playouts (``prior_visits``, ``prior_value``) join its own n and Q (as Pachi and Fuego do);
    otherwise expansion put them in the AMAF statistics. A child with no statistics at all
    (e.g. pass, kept out of AMAF and given no prior) is judged by its own mean, and tried once
    first.

    With ``crit`` > 0, a child of more than ``crit_visits`` visits adds its criticality to its
    AMAF statistics (Coulom 2009, "Criticality: a Monte-Carlo heuristic for Go programs";
    Pachi's ``crit_rave``): crit * C * n_a playouts won by its mover, where C =
    P(owner = winner) - (P(owner = mover) P(mover wins) + P(owner = opponent) P(opponent
    wins)), the covariance of owning the move's point and winning, from ``own_winner`` and
    ``own_mover`` (:func:`criticality`). A point whose ownership decides the game looks
    better, one whose ownership goes against the winner looks worse.

    With ``ref`` >= 0 (GRAVE: Cazenave 2015, "Generalized rapid action value estimation"),
    the AMAF statistics of each child are those of the same move at node ``ref``, an
    ancestor where the same player moves and that has more simulations (see
    :func:`grave_reference`): ``ref_child`` and ``ref_owner`` (int64, ``(2 *
    num_actions,)``) give, for mover m and action a at index m * num_actions + a, ``ref``'s
    child for that move when ``ref_owner`` there equals ``ref``; a move ``ref`` lacks keeps
    its own statistics."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    log_n = np.log(visits[node] + 1.0)
    lost = FIRST_WINS + (1 - np.int64(mover[first]))
    a_count = ref_child.shape[0] // 2
    base = np.int64(mover[first]) * a_count
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
        sa = amaf_value[j] + 0.0
        if ref >= 0 and ref_owner[base + action[j]] == ref:
            jj = ref_child[base + action[j]]
            na = amaf_visits[jj] + 0.0
            sa = amaf_value[jj] + 0.0
        elif crit > 0.0 and n > crit_visits and na > 0:
            extra = crit * criticality(n, value_sum[j], own_mover[j], own_winner[j]) * na
            na += extra
            sa += extra
        if na > 0:
            if mse:
                beta = na / (na + nq + nq * na / k)
            else:
                beta = np.sqrt(k / (3.0 * n + k))
            q = sq / nq if nq > 0 else 0.0
            score = (1.0 - beta) * q + beta * sa / na
        else:
            score = sq / nq if nq > 0 else 1.0
        score += c * np.sqrt(log_n / (n + 1.0))
        if score > best_score:
            best_score = score
            best = j
    return best


@nrt_free
def grave_reference(node, ref_visits, cand, filled, first_child, num_children, action, mover,
                    visits, ref_child, ref_owner):
    """GRAVE's reference node for choosing among the children of ``node`` (Cazenave 2015):
    the node itself (-1 returned: its own AMAF statistics) once it has ``ref_visits``
    simulations, else the deepest node above it on this simulation's path that had them and
    whose children are moves of the same player, or -1 if there is none. ``cand`` (int64,
    (2,)): that deepest node per player so far in the descent (-1: none), updated here;
    ``filled`` (int64, (2,)): the node per player whose children ``ref_child`` and
    ``ref_owner`` (int64, ``(2 * num_actions,)``) currently index; a new reference is indexed
    once, in one pass over its children."""
    first = first_child[node]
    m = np.int64(mover[first])
    if visits[node] >= ref_visits:
        cand[m] = node
        return -1
    ref = cand[m]
    if ref >= 0 and filled[m] != ref:
        base = m * (ref_child.shape[0] // 2)
        f = first_child[ref]
        for j in range(f, f + num_children[ref]):
            ref_child[base + action[j]] = j
            ref_owner[base + action[j]] = ref
        filled[m] = ref
    return ref


@nrt_free
def criticality(n, value_sum, own_mover, own_winner):
    """Criticality of a node from its ``n`` simulations: ``value_sum`` (its mover's rewards),
    ``own_mover`` and ``own_winner`` (how often its point ended owned by its mover and by the
    winner): P(owner = winner) - (o v + (1 - o)(1 - v)) with o = P(owner = mover) and v the
    mover's mean reward; 0 when ownership and winning are independent, in [-0.25, 0.25]
    otherwise (Coulom 2009; Pachi's ``tree_node_criticality``)."""
    v = value_sum / n
    o = own_mover / n
    return own_winner / n - (o * v + (1.0 - o) * (1.0 - v))


@nrt_free
def amaf_update(path, depth, seq_actions, seq_players, n_seq, mark, first_at, stamp, r0,
                excluded, distance, first_only, first_child, num_children, action, mover,
                amaf_visits, amaf_value):
    """All-moves-as-first backup: every child of a node on ``path[:depth + 1]`` whose move its
    player made later in the same simulation (in the tree below the node, or in the playout's
    ``n_seq`` moves ``seq_actions`` (int32) by ``seq_players`` (int8)) gets the simulation's
    result: ``amaf_visits`` (int32) + w, ``amaf_value`` (float32) + w times its mover's
    reward. The weight w is 1, plus with ``distance`` > 0 the earliness of the move's first
    play after the node, ``floor(distance * (L - first) / (L - own))`` for a simulation of L
    moves, the first play at index ``first`` and the node's own move at ``own`` (Pachi's
    ``distance_rave``: moves soon after the node say more about it). ``mark`` (int64,
    2 * num_actions) holds ``stamp`` for each (player, action) seen so far, walking up from the
    playout, and ``first_at`` (int64, the same shape) the index of its first play. With
    ``first_only`` a move counts only if its player was the first to play it after the node
    (MoGo's and Pachi's rule: in Go, a point retaken after a capture says little about
    playing it first). The action ``excluded`` (the game's pass, played at the end of every
    playout) gets no AMAF statistics."""
    a_count = np.int64(mark.shape[0] // 2)     # int64: as plain Python an int8 * int overflows
    total = depth + n_seq                      # moves of the simulation, tree and playout
    for t in range(n_seq - 1, -1, -1):         # backwards: the first play is written last
        i = seq_players[t] * a_count + seq_actions[t]
        mark[i] = stamp
        first_at[i] = depth + t
        if first_only:
            mark[(1 - seq_players[t]) * a_count + seq_actions[t]] = -1
    for d in range(depth, -1, -1):
        nd = path[d]
        f = first_child[nd]
        if f >= 0:                              # expanded (not NO_CHILDREN, EXPANDING)
            for j in range(f, f + num_children[nd]):
                i = mover[j] * a_count + action[j]
                if mark[i] == stamp and action[j] != excluded:
                    w = 1
                    if distance > 0.0:
                        w += np.int64(distance * (total - first_at[i]) / (total - d + 1))
                    amaf_visits[j] += w
                    amaf_value[j] += w * (r0 if mover[j] == 0 else 1.0 - r0)
        if d > 0:
            i = mover[nd] * a_count + action[nd]
            mark[i] = stamp
            first_at[i] = d - 1
            if first_only:
                mark[(1 - mover[nd]) * a_count + action[nd]] = -1
