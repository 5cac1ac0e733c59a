# Body of a generated search module: read as text by mcts.codegen, never imported directly.
#
# The generator writes one module per game kernel module: an import of that game's kernels
# (to_play, status, legal_actions, apply_action, rollout) followed by this text. Because the
# search calls the game's functions by their global names, instead of receiving them as
# arguments, numba can cache every function below to disk (numba issues #6264, #2952).
#
# Algorithm: UCT (Kocsis and Szepesvari 2006, "Bandit based Monte-Carlo Planning") with UCB1
# selection (Auer, Cesa-Bianchi and Fischer 2002). The tree is a set of preallocated arrays
# indexed by node; a node's children are one contiguous block allocated at expansion.
import numpy as np
from numba import njit

from mcts.rng import below, next_u64

ROOT = 0              # index of the root node
NO_CHILDREN = -1      # first_child of a node not yet expanded
ILLEGAL, ONGOING, FIRST_WINS, SECOND_WINS, DRAW = -1, 0, 1, 2, 3


@njit(cache=True)
def reward_first(st):
    """Reward of player 0 for final status ``st``: win 1, draw 0.5, loss 0."""
    if st == FIRST_WINS:
        return 1.0
    if st == DRAW:
        return 0.5
    return 0.0


@njit(cache=True)
def select_child(node, first_child, num_children, visits, value_sum, node_status, c):
    """UCB1 child of ``node``: an unvisited child first (children are shuffled at expansion),
    else the maximiser of mean value + c * sqrt(ln N / n). Pruned (ILLEGAL) children are skipped.
    Returns -1 if every child is pruned."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    cl = c * np.sqrt(np.log(visits[node] + 1.0))
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL:
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
def expand(node, state, n_nodes, buf, rng, parent, first_child, num_children, action, mover,
           node_status, visits, value_sum):
    """Allocate the children of leaf ``node`` (position ``state``) in shuffled order.
    Returns the new node count, unchanged when the capacity would be exceeded."""
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
        visits[j] = 0
        value_sum[j] = 0.0
    first_child[node] = n_nodes
    num_children[node] = n
    return n_nodes + n


@njit(cache=True)
def run_playouts(root_state, n_iter, c, rng, parent, first_child, num_children, action, mover,
                 node_status, visits, value_sum, stats, scratch, buf, path):
    """Run ``n_iter`` UCT iterations (select, expand, playout, backpropagate) from ``root_state``.

    ``stats`` is int64[3]: nodes in use, deepest stored node depth, playouts done (all updated).
    A leaf is expanded on its second visit; when the capacity is full, playouts start below the
    deepest stored node. Values are kept from the view of the player who moved into each node."""
    n_nodes = stats[0]
    max_depth = stats[1]
    for _ in range(n_iter):
        scratch[:] = root_state
        node = ROOT
        depth = 0
        path[0] = ROOT
        st = node_status[ROOT]
        while st == ONGOING:
            if first_child[node] == NO_CHILDREN:
                if visits[node] == 0 and node != ROOT:
                    break
                grown = expand(node, scratch, n_nodes, buf, rng, parent, first_child,
                               num_children, action, mover, node_status, visits, value_sum)
                if grown == n_nodes:
                    break
                n_nodes = grown
            child = select_child(node, first_child, num_children, visits, value_sum,
                                 node_status, c)
            while child >= 0:
                st = apply_action(scratch, action[child])
                if st != ILLEGAL:
                    break
                node_status[child] = ILLEGAL      # e.g. superko: prune and choose again
                child = select_child(node, first_child, num_children, visits, value_sum,
                                     node_status, c)
            if child < 0:
                st = status(scratch)
                break
            node = child
            node_status[node] = st
            depth += 1
            path[depth] = node
        if st == ONGOING:
            st = rollout(scratch, rng)
        r0 = reward_first(st)
        for d in range(depth, -1, -1):
            nd = path[d]
            visits[nd] += 1
            value_sum[nd] += r0 if mover[nd] == 0 else 1.0 - r0
        if depth > max_depth:
            max_depth = depth
    stats[0] = n_nodes
    stats[1] = max_depth
    stats[2] += n_iter
    return n_nodes


@njit(cache=True)
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
    return plies
