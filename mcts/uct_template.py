# Body of a generated search module: read as text by mcts.codegen, never imported directly.
#
# The generator writes one module per game kernel module: an import of that game's kernels
# (to_play, status, legal_actions, apply_action, rollout, ply, prior) and the constant
# HAS_PRIOR (does the game have its own prior kernel?) followed by this text. Because
# the search calls the game's functions by their global names, instead of receiving them as
# arguments, numba can cache every function below to disk (numba issues #6264, #2952).
#
# Algorithm: UCT (Kocsis and Szepesvari 2006, "Bandit based Monte-Carlo Planning") with UCB1
# selection (Auer, Cesa-Bianchi and Fischer 2002) and the MCTS-Solver (Winands, Bjornsson and
# Saito 2008, "Monte-Carlo Tree Search Solver"). The tree is a set of preallocated arrays
# indexed by node (see mcts.search.Tree); a node's children are one contiguous block allocated
# at expansion. Phases: select_child, expand, (the game's) rollout, backpropagation and
# try_prove inside run_playouts.
import numpy as np
from numba import njit

from mcts.rng import below, next_u64, random_below

ROOT = 0              # index of the root node
NO_CHILDREN = -1      # first_child of a node not yet expanded
ILLEGAL, ONGOING, FIRST_WINS, SECOND_WINS, DRAW = -1, 0, 1, 2, 3
NOT_PROVEN = ONGOING  # proven[] of a node whose game-theoretic value is unknown
# Search parameters, packed in one float64 array ``params``:
P_EXPLORATION, P_SOLVER, P_RAVE, P_RAVE_K, P_NO_AMAF = 0, 1, 2, 3, 4


@njit(cache=True)
def reward_first(st):
    """Reward of player 0 for final status ``st``: win 1, draw 0.5, loss 0."""
    if st == FIRST_WINS:
        return 1.0
    if st == DRAW:
        return 0.5
    return 0.0


@njit(cache=True)
def select_child(node, first_child, num_children, mover, node_status, proven, visits,
                 value_sum, c):
    """UCB1 child of ``node``: an unvisited child first (children are shuffled at expansion),
    else the maximiser of mean value + c * sqrt(ln N / n). Pruned (ILLEGAL) children and
    children proven lost for the player to move are skipped. Returns -1 if none is left."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    cl = c * np.sqrt(np.log(visits[node] + 1.0))
    lost = FIRST_WINS + (1 - mover[first])      # the proof of a loss for the player to move
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL or proven[j] == lost:
            continue
        v = visits[j]
        if v == 0:
            return j
        score = value_sum[j] / v + cl / np.sqrt(v)
        if score > best_score:
            best_score = score
            best = j
    return best


@njit(cache=True)
def select_child_rave(node, first_child, num_children, mover, node_status, proven, visits,
                      value_sum, amaf_visits, amaf_value, c, k):
    """RAVE selection (Gelly and Silver 2007, "Combining online and offline knowledge in
    UCT"): maximise (1 - b) Q + b Q_amaf + c sqrt(ln N / (n + 1)) with the hand-selected
    schedule b = sqrt(k / (3 n + k)); ``k`` is the equivalence parameter (the visit count at
    which both estimates weigh the same). A child without AMAF statistics (e.g. pass, which is
    kept out of them) is judged by its own mean, and tried once first."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    log_n = np.log(visits[node] + 1.0)
    lost = FIRST_WINS + (1 - mover[first])
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL or proven[j] == lost:
            continue
        n = visits[j]
        na = amaf_visits[j]
        if na > 0:
            beta = np.sqrt(k / (3.0 * n + k))
            q = value_sum[j] / n if n > 0 else 0.0
            score = (1.0 - beta) * q + beta * amaf_value[j] / na
        else:
            score = value_sum[j] / n if n > 0 else 1.0
        score += c * np.sqrt(log_n / (n + 1.0))
        if score > best_score:
            best_score = score
            best = j
    return best


@njit(cache=True)
def amaf_update(depth, path, first_child, num_children, action, mover, amaf_visits, amaf_value,
                seq_actions, seq_players, n_seq, mark, stamp, r0, excluded):
    """All-moves-as-first backup: every child of a node on the path whose move its player made
    later in the same simulation (in the tree below the node or in the playout) gets the
    simulation's result. ``mark`` (int64, 2 * num_actions) holds ``stamp`` for each
    (player, action) seen so far, walking up from the playout. The action ``excluded`` (the
    game's pass, played at the end of every playout) gets no AMAF statistics."""
    a_count = mark.shape[0] // 2
    for t in range(n_seq):
        mark[seq_players[t] * a_count + seq_actions[t]] = stamp
    for d in range(depth, -1, -1):
        nd = path[d]
        f = first_child[nd]
        if f != NO_CHILDREN:
            for j in range(f, f + num_children[nd]):
                if mark[mover[j] * a_count + action[j]] == stamp and action[j] != excluded:
                    amaf_visits[j] += 1
                    amaf_value[j] += r0 if mover[j] == 0 else 1.0 - r0
        if d > 0:
            mark[mover[nd] * a_count + action[nd]] = stamp


@njit(cache=True)
def expand(node, state, n_nodes, buf, rng, parent, first_child, num_children, action, mover,
           node_status, proven, proven_plies, visits, value_sum, amaf_visits, amaf_value):
    """Allocate the children of leaf ``node`` (position ``state``) in shuffled order, with the
    game's prior knowledge (if any) as their initial RAVE statistics. Returns the new node
    count, unchanged when the capacity would be exceeded."""
    n = legal_actions(state, buf)
    if n == 0 or n_nodes + n > parent.shape[0]:
        return n_nodes
    x = rng[0]
    for i in range(n - 1, 0, -1):           # Fisher-Yates shuffle
        x = next_u64(x)
        k = below(x, i + 1)
        buf[i], buf[k] = buf[k], buf[i]
    rng[0] = x
    who = to_play(state)
    for i in range(n):
        j = n_nodes + i
        parent[j] = node
        first_child[j] = NO_CHILDREN
        num_children[j] = 0
        action[j] = buf[i]
        mover[j] = who
        node_status[j] = ONGOING
        proven[j] = NOT_PROVEN
        proven_plies[j] = 0
        visits[j] = 0
        value_sum[j] = 0.0
        amaf_visits[j] = 0
        amaf_value[j] = 0.0
    if HAS_PRIOR:                           # set by the generator (a constant)
        prior(state, buf[:n], amaf_visits[n_nodes:n_nodes + n], amaf_value[n_nodes:n_nodes + n])
    first_child[node] = n_nodes
    num_children[node] = n
    return n_nodes + n


@njit(cache=True)
def try_prove(node, first_child, num_children, mover, node_status, proven, proven_plies):
    """MCTS-Solver step: ``node`` is proven won for the player to move once one child is proven
    won for them, and proven drawn or lost once every child is proven and none wins. A proof
    is stored as the final game status (FIRST_WINS, SECOND_WINS, DRAW), whatever the
    perspective, with the plies to the end under best play (fastest win, slowest loss).
    Returns True if ``node`` is proven."""
    first = first_child[node]
    if first == NO_CHILDREN:
        return False
    who = mover[first]
    win = FIRST_WINS + who
    open_child = False
    legal = 0
    far = 1 << 30
    win_plies, draw_plies, loss_plies = far, far, -1
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL:
            continue
        legal += 1
        pj = proven[j]
        if pj == NOT_PROVEN:
            open_child = True
        elif pj == win:
            win_plies = min(win_plies, np.int64(proven_plies[j]))
        elif pj == DRAW:
            draw_plies = min(draw_plies, np.int64(proven_plies[j]))
        else:
            loss_plies = max(loss_plies, np.int64(proven_plies[j]))
    if win_plies < far:
        proven[node] = win
        proven_plies[node] = win_plies + 1
    elif open_child or legal == 0:
        return False
    elif draw_plies < far:
        proven[node] = DRAW
        proven_plies[node] = draw_plies + 1
    else:
        proven[node] = FIRST_WINS + (1 - who)
        proven_plies[node] = loss_plies + 1
    return True


@njit(cache=True, nogil=True)
def run_playouts(root_state, n_iter, params, rng, parent, first_child, num_children, action,
                 mover, node_status, proven, proven_plies, visits, value_sum, amaf_visits,
                 amaf_value, stats, scratch, buf, path, seq_actions, seq_players, mark):
    """Run up to ``n_iter`` MCTS iterations (select, expand, playout, backpropagate) from
    ``root_state``; return how many ran (fewer only once the solver has proved the root).

    ``params`` (float64[5]): exploration constant c, solver on (1) or off (0), RAVE on or off,
    RAVE equivalence parameter k, the action kept out of AMAF (-1: none). ``stats`` is int64[4]: nodes in use, deepest stored node
    depth, playouts done, AMAF stamp (all updated). A leaf is expanded on its second visit;
    when the capacity is full, playouts start below the deepest stored node. Values are kept
    from the view of the player who moved into each node. With the solver, terminal and proven
    nodes are scored by their proof instead of a playout and proofs propagate up the path
    (MCTS-Solver). With RAVE, playouts are recorded (``seq_actions``, ``seq_players``) for the
    all-moves-as-first statistics. Releases the GIL."""
    c = params[P_EXPLORATION]
    solver = params[P_SOLVER] != 0.0
    rave = params[P_RAVE] != 0.0
    k = params[P_RAVE_K]
    no_amaf = np.int64(params[P_NO_AMAF])
    n_nodes = stats[0]
    max_depth = stats[1]
    done = 0
    while done < n_iter and proven[ROOT] == NOT_PROVEN:
        done += 1
        scratch[:] = root_state
        node = ROOT
        depth = 0
        path[0] = ROOT
        st = node_status[ROOT]
        while st == ONGOING and proven[node] == NOT_PROVEN:      # selection
            if depth + 1 >= path.shape[0]:       # deeper than the game's max_length said
                break
            if first_child[node] == NO_CHILDREN:
                if visits[node] == 0 and node != ROOT:
                    break
                grown = expand(node, scratch, n_nodes, buf, rng, parent, first_child,
                               num_children, action, mover, node_status, proven, proven_plies,
                               visits, value_sum, amaf_visits, amaf_value)
                if grown == n_nodes:
                    break
                n_nodes = grown
            child = -1
            while True:
                if rave:
                    child = select_child_rave(node, first_child, num_children, mover,
                                              node_status, proven, visits, value_sum,
                                              amaf_visits, amaf_value, c, k)
                else:
                    child = select_child(node, first_child, num_children, mover, node_status,
                                         proven, visits, value_sum, c)
                if child < 0:
                    break
                st = apply_action(scratch, action[child])
                if st != ILLEGAL:
                    break
                node_status[child] = ILLEGAL      # e.g. superko: prune and choose again
            if child < 0:                         # every move pruned or proven lost
                st = status(scratch)
                if solver:
                    try_prove(node, first_child, num_children, mover, node_status, proven,
                              proven_plies)
                break
            node = child
            node_status[node] = st
            depth += 1
            path[depth] = node
            if st != ONGOING and solver:
                proven[node] = st
                proven_plies[node] = 0
        n_seq = 0
        if proven[node] != NOT_PROVEN:            # evaluation
            st = proven[node]
        elif st == ONGOING:
            if rave:
                st, n_seq = rollout_record(scratch, rng, seq_actions, seq_players)
            else:
                st = rollout(scratch, rng)
        r0 = reward_first(st)
        proving = solver and proven[node] != NOT_PROVEN
        for d in range(depth, -1, -1):            # backpropagation
            nd = path[d]
            visits[nd] += 1
            value_sum[nd] += r0 if mover[nd] == 0 else 1.0 - r0
            if proving and d < depth:
                proving = try_prove(nd, first_child, num_children, mover, node_status, proven,
                                    proven_plies)
        if rave:
            stats[3] += 1
            amaf_update(depth, path, first_child, num_children, action, mover, amaf_visits,
                        amaf_value, seq_actions, seq_players, n_seq, mark, stats[3], r0,
                        no_amaf)
        if depth > max_depth:
            max_depth = depth
    stats[0] = n_nodes
    stats[1] = max_depth
    stats[2] += done
    return done


@njit(cache=True, nogil=True)
def random_playouts(root_state, n, rng, scratch, outcomes):
    """Play ``n`` playouts from ``root_state`` with the game's playout policy.

    ``outcomes`` is int64[4]: counts indexed by final status (ONGOING slot unused).
    Returns the plies played in all (negative if the game has no ``ply`` kernel)."""
    plies = 0
    start = ply(root_state)
    for _ in range(n):
        scratch[:] = root_state
        st = rollout(scratch, rng)
        if st >= 0:
            outcomes[st] += 1
        plies += ply(scratch) - start
    return plies if start >= 0 else -1


@njit(cache=True)
def random_episode(root_state, rng, states, actions, players, legal_mask):
    """Play one game from ``root_state`` with the game's playout policy, recording it.

    ``states`` (L + 1, S): ``states[t]`` is the position before ply ``t`` and ``states[length]``
    the final one; ``actions`` (L,) int32 and ``players`` (L,) int8 the move and mover of each
    ply; ``legal_mask`` (L, num_actions) float32, zeroed by the caller, marks the legal actions.
    A policy move that ``apply_action`` refuses (e.g. superko) is replaced by a uniformly
    random accepted one. Returns (length, final status)."""
    state = root_state.copy()
    buf = np.empty(legal_mask.shape[1], dtype=np.int32)
    t = 0
    st = status(state)
    while st == ONGOING and t < actions.shape[0]:
        states[t, :] = state
        players[t] = to_play(state)
        n = legal_actions(state, buf)
        for i in range(n):
            legal_mask[t, buf[i]] = 1.0
        a = playout_action(state, rng)
        st = apply_action(state, a)
        while st == ILLEGAL and n > 0:         # draw without replacement until one applies
            k = random_below(rng, n)
            a = buf[k]
            legal_mask[t, a] = 0.0
            buf[k] = buf[n - 1]
            n -= 1
            st = apply_action(state, a)
        if st == ILLEGAL:
            break
        actions[t] = a
        t += 1
    states[t, :] = state
    return t, status(state)
