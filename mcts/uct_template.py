# Body of a generated search module: read as text by mcts.codegen, never imported directly.
#
# The generator writes one module per game kernel module: an import of that game's kernels
# (to_play, status, legal_actions, apply_action, playout_action, rollout, rollout_record, ply,
# prior, position_key, move_features, solve, chance_outcomes, returns, ownership) and the
# constants HAS_PRIOR, HAS_KEY, HAS_FEATURES, HAS_SOLVE, HAS_CHANCE, HAS_RETURNS and
# HAS_OWNERSHIP (does the game have its own prior kernel, position_key for transpositions,
# move_features for the learned playout policy, an exact solver, chance positions, a reward
# per player, an ownership kernel?) and GENERAL (chance or
# returns: chance nodes and the max-n backup of a reward vector, without the MCTS-Solver;
# compiled out for a two-player game without either) followed by this text and
# playout_template.py. Because the search calls the game's functions by their global names,
# instead of receiving them as arguments, numba can cache every function below to disk (numba
# issues #6264, #2952).
#
# Algorithm: UCT (Kocsis and Szepesvari 2006, "Bandit based Monte-Carlo Planning") with UCB1
# selection (Auer, Cesa-Bianchi and Fischer 2002) or RAVE (Gelly and Silver 2007), and the
# MCTS-Solver (Winands, Bjornsson and Saito 2008, "Monte-Carlo Tree Search Solver"), fed for
# games with an exact solver by its calls on tree nodes (try_solve: an MCTS-minimax hybrid,
# Baier and Winands 2015). The tree
# reaches run_playouts as one value ``tree`` (mcts.tree.TreeArrays: one array per node field,
# shape (capacity,), plus ``stats``) with its scratch buffers ``work`` (mcts.tree.Workspace);
# a node's children are one contiguous block allocated at expansion. One iteration of
# run_playouts is four phases:
#   descend (select_child / select_child_rave down the tree; grow a leaf: expand it, or
#   join_twin: share the children of a transposition) -> try_solve on the path's due nodes
#   (games with an exact solver) -> evaluate (a playout, or the proof or final status)
#   -> backpropagate (values), propagate_proof (MCTS-Solver, with try_prove) -> amaf_update
#   (RAVE only). With the ownership option, evaluate is followed by the game's ownership
#   kernel on the simulation's final position, summed in the thread's Workspace (``owned``,
#   ``owned_count``; ``owned_rng`` its own random stream, so that the search's draws do not
#   change): per thread, so threads sharing a tree need no atomics there.
# Measured choices, in instructions per MCTS playout under callgrind (the old single-function
# loop: Connect Four 4,886, Go 9x9 with RAVE 188,386; this one: 4,940 and 185,078):
# * phase functions take the arrays they use, read from ``tree`` by name once per batch:
#   reading named-tuple fields in the per-node loops costs an atomic reference count each
#   (3x slower);
# * the descent loop stays in run_playouts (as a function of its own, +10 %);
# * a call per iteration that passes many arrays costs ~300 instructions, so backpropagate
#   takes only the value arrays and the solver's propagate_proof runs only for a proven leaf;
# * numba's inline="always" adds reference counts on array arguments (+6 % per function).
# Parameter names are the TreeArrays field names (``status`` becomes ``node_status``:
# ``status`` is the game's kernel); each such array has shape (capacity,) and its field's
# dtype in mcts.tree.FIELDS: parent, first_child, num_children, action int32; mover, status,
# proven int8; proven_plies int16; visits int64; value_sum float64; amaf_visits int32;
# amaf_value float32; prior_visits int32; prior_value float32; stats int64 (N_STATS,). Node
# indices and depths are int64. RAVE's selection and backup are in mcts.rave, the backup of
# values and proofs in mcts.backup, evaluate in playout_template.py. The parameters arrive as
# one mcts.config.Params (float64 fields named after the search options).
import numpy as np
from numba import njit

from games.compiled import copy_into, nrt_free
from games.contract import CHANCE, DRAW, FIRST_WINS, ILLEGAL, ONGOING, status_returns
from games.rng import below, draw_index, draw_outcome, next_u64
from mcts.atomics import atomic_add, atomic_cas, atomic_store
from mcts.backup import backpropagate, backpropagate_n, propagate_proof, try_prove
from mcts.rave import amaf_update, amaf_update_n, select_child_rave
from mcts.transpositions import table_find, table_insert
from mcts.tree import (EXPANDING, MAX_PLIES, NO_CHILDREN, NOT_PROVEN, ROOT, S_AMAF_STAMP,
                       S_MAX_DEPTH, S_NODES, S_PLAYOUTS)


@nrt_free
def reward_first(st):
    """Reward (float) of player 0 for final status ``st``: win 1, draw 0.5, loss 0."""
    if st == FIRST_WINS:
        return 1.0
    if st == DRAW:
        return 0.5
    return 0.0


@nrt_free
def select_child(node, c, merge_prior, first_child, num_children, mover, node_status, proven,
                 visits, value_sum, prior_visits, prior_value):
    """UCB1 child of ``node``: an unvisited child first (children are shuffled at expansion),
    else the maximiser of mean value + c * sqrt(ln N / n). With ``merge_prior`` a child's prior
    playouts (``prior_visits``, ``prior_value``) count as its own, in its mean and its n
    (Gelly and Silver 2007, "Combining online and offline knowledge in UCT", section 5: the
    prior as virtual visits), so a child with a prior is not tried first. Pruned (ILLEGAL)
    children and children proven lost for the player to move are skipped. Returns -1 if
    none is left."""
    first = first_child[node]
    best = -1
    best_score = -np.inf
    cl = c * np.sqrt(np.log(visits[node] + 1.0))
    lost = FIRST_WINS + (1 - np.int64(mover[first]))   # a loss for the player to move
    if GENERAL:                                 # no proofs (and players beyond 0 and 1)
        lost = ILLEGAL - 1
    for j in range(first, first + num_children[node]):
        if node_status[j] == ILLEGAL or proven[j] == lost:
            continue
        v = visits[j] + 0.0
        s = value_sum[j] + 0.0
        if merge_prior:
            v += prior_visits[j]
            s += prior_value[j]
        if v == 0:
            return j
        score = s / v + cl / np.sqrt(v)
        if score > best_score:
            best_score = score
            best = j
    return best


@njit(cache=True)
def expand(node, state, buf, probs, rng, parent, first_child, num_children, action, mover,
           node_status, proven, proven_plies, visits, value_sum, amaf_visits, amaf_value,
           prior_visits, prior_value, seed_amaf, stats, shared):
    """Allocate the children of leaf ``node`` (position ``state``) in shuffled order, with the
    game's prior knowledge (if any) in their prior statistics and, with ``seed_amaf``, also
    as their initial RAVE statistics; ``buf`` (int32,
    (num_actions,)) receives the legal actions. At a chance position the children are its
    outcomes in the order of ``chance_outcomes`` (``probs``, float64 (num_actions,), receives
    their probabilities; ``chance_child`` relies on that order), with mover ``CHANCE``.
    Returns False, changing nothing, when there
    is no legal action or the capacity would be exceeded. With ``shared`` (threads share the
    tree) the block is taken by an atomic add on the node count, and published by writing
    ``first_child[node]`` last: a thread that reads it finds the children complete."""
    who = to_play(state)
    if HAS_CHANCE and who == CHANCE:
        n = chance_outcomes(state, buf, probs)
    else:
        n = legal_actions(state, buf)
    if n == 0:
        return False
    if shared:
        start = atomic_add(stats, S_NODES, n)
        if start + n > parent.shape[0]:
            atomic_add(stats, S_NODES, -n)
            return False
    else:
        start = stats[S_NODES]
        if start + n > parent.shape[0]:
            return False
    if not (HAS_CHANCE and who == CHANCE):
        x = rng[0]
        for i in range(n - 1, 0, -1):       # Fisher-Yates shuffle
            x = next_u64(x)
            k = below(x, i + 1)
            buf[i], buf[k] = buf[k], buf[i]
        rng[0] = x
    for i in range(n):
        j = start + i
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
        prior_visits[j] = 0
        prior_value[j] = 0.0
    if HAS_PRIOR and who != CHANCE:         # HAS_PRIOR is set by the generator (a constant)
        prior(state, buf[:n], prior_visits[start:start + n], prior_value[start:start + n])
        if seed_amaf:
            for i in range(start, start + n):
                amaf_visits[i] = prior_visits[i]
                amaf_value[i] = prior_value[i]
    num_children[node] = n
    if shared:
        atomic_store(first_child, node, start)
    else:
        first_child[node] = start
        stats[S_NODES] = start + n
    return True


@njit(cache=True)
def chance_child(node, state, buf, probs, rng, first_child):
    """The child of chance node ``node`` (position ``state``) for an outcome drawn by its
    probability (``chance_outcomes`` into the scratch ``buf`` / ``probs``): selection samples
    chance nodes, so a node's mean value estimates the expectation over the outcomes (as in
    the chance-node handling of Lanctot et al. 2013, "Monte Carlo *-minimax search", its
    sampling baseline)."""
    n = chance_outcomes(state, buf, probs)
    return first_child[node] + draw_index(rng, probs, n)


@nrt_free
def join_twin(node, key, table_keys, table_nodes, first_child, num_children, proven,
              proven_plies):
    """Transpositions (mcts.transpositions): if the position ``key`` (uint64) of the leaf
    ``node`` was expanded at another node, give ``node`` that node's block of children (both
    then share their statistics) and its proof if it is proven. Returns True if so."""
    twin = table_find(table_keys, table_nodes, key)
    if twin < 0 or twin == node:
        return False
    first_child[node] = first_child[twin]
    num_children[node] = num_children[twin]
    if proven[twin] != NOT_PROVEN:
        proven[node] = proven[twin]
        proven_plies[node] = proven_plies[twin]
    return True


@nrt_free
def solve_due(visits, start):
    """True if a node of ``visits`` visits is due for the exact solver: ``start`` (>= 1) times
    a power of two."""
    if visits < start or visits % start != 0:
        return False
    q = visits // start
    return q & (q - 1) == 0


@njit(cache=True)
def try_solve(root_state, state, path, depth, per_visit, start, cap, table, action, visits,
              proven, proven_plies, seen):
    """The game's exact solver on the nodes of ``path[1:depth + 1]`` that are due
    (``solve_due``), shallowest first, each with a budget of ``per_visit`` solver nodes per
    visit (at most ``cap``): a node's calls cost at most twice ``per_visit`` times its visits
    in all, and a position the solver cannot settle now is tried again, with twice the
    budget, once the search has looked at it twice as much (``seen``: visits of this
    simulation already counted, 1 on a shared tree, else 0). ``state`` is scratch: the
    positions are replayed into it from ``root_state`` (the descent itself stays free of the
    call: 25 % faster). A settled node is proven (its proof joins the MCTS-Solver's). Returns its depth, or -1."""
    copy_into(state, root_state)
    for d in range(1, depth + 1):
        nd = path[d]
        apply_action(state, np.int64(action[nd]))
        v = visits[nd] - seen
        if proven[nd] != NOT_PROVEN or not solve_due(v, start):
            continue
        st, plies = solve(state, np.int64(min(per_visit * v, cap, 4.0e18)), table)
        if st != ONGOING:
            proven[nd] = st
            proven_plies[nd] = min(plies, MAX_PLIES)
            return d
    return -1


@njit(cache=True, nogil=True)
def run_playouts(root_state, n_iter, params, rng, tree, work):
    """Run up to ``n_iter`` MCTS iterations from ``root_state`` (the game's state array, not
    changed); return how many ran (fewer only once the solver has proved the root).

    ``params``: mcts.config.Params (float64 fields). ``tree``: mcts.tree.TreeArrays, updated
    (its ``stats`` too, by the ``S_*`` slots); ``work``: mcts.tree.Workspace (with
    ``params.ownership``, its ``owned`` / ``owned_count`` sums grow). ``rng``: uint64
    ``(1,)``. Values are kept from the view of the player who moved into each node. Releases
    the GIL.

    With ``params.shared`` several threads run this on one tree at once (tree
    parallelisation: Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo Tree
    Search"; lock-free as in Enzenberger and Mueller 2009, "A lock-free multithreaded
    Monte-Carlo tree search algorithm"): a visit is counted on the way down (a virtual loss
    that steers the other threads elsewhere until the result comes back), node blocks are
    taken with an atomic add, a leaf is expanded by the one thread that claims it
    (``EXPANDING``; the others play out from it meanwhile), and visits, values and the
    tree's counters change atomically. The transposition table is not used then. The AMAF
    statistics are plain adds: a rare lost update only drops one sample."""
    parent, first_child, num_children = tree.parent, tree.first_child, tree.num_children
    action, mover, node_status, proven = tree.action, tree.mover, tree.status, tree.proven
    proven_plies, visits, value_sum = tree.proven_plies, tree.visits, tree.value_sum
    amaf_visits, amaf_value, stats = tree.amaf_visits, tree.amaf_value, tree.stats
    prior_visits, prior_value = tree.prior_visits, tree.prior_value
    table_keys, table_nodes = tree.table_keys, tree.table_nodes
    state, buf, path, mark = work.state, work.buf, work.path, work.mark
    probs = work.probs
    seq_actions, seq_players = work.seq_actions, work.seq_players
    excluded, first_only = np.int64(params.no_amaf), params.rave_first_play != 0.0
    c, k = params.exploration, params.rave_k
    solver, rave = params.solver != 0.0 and not GENERAL, params.rave != 0.0
    merge_prior = params.prior_stats != 0.0         # 1: value, 2: value and AMAF
    seed_amaf = params.prior_stats != 1.0
    parallel = params.shared != 0.0
    seen = 1 if parallel else 0                 # this simulation's own visit, when counted
    keyed = HAS_KEY and params.transpositions != 0.0 and not parallel and not HAS_CHANCE
    learned = HAS_FEATURES and params.learned != 0.0
    solving = HAS_SOLVE and solver and params.solve_nodes > 0.0
    solve_from = max(np.int64(params.solve_from), 1)
    owning = HAS_OWNERSHIP and params.ownership != 0.0
    owned, owned_count, owned_rng = work.owned, work.owned_count, work.owned_rng
    done = 0
    while done < n_iter and proven[ROOT] == NOT_PROVEN:
        done += 1
        copy_into(state, root_state)
        node = np.int64(ROOT)                   # descend: selection and expansion
        depth = 0
        due = False
        path[0] = ROOT
        if parallel:
            atomic_add(visits, ROOT, 1)
        st = np.int64(node_status[ROOT])
        while st == ONGOING and proven[node] == NOT_PROVEN:
            if depth + 1 >= path.shape[0]:      # deeper than the game's max_length said
                break
            if first_child[node] == EXPANDING:  # another thread is expanding it: play out
                break
            if first_child[node] == NO_CHILDREN:    # a leaf: grow it, or stop here
                key = position_key(state) if keyed else np.uint64(0)
                if keyed and node != ROOT and join_twin(node, key, table_keys, table_nodes,
                                                         first_child, num_children, proven,
                                                         proven_plies):
                    if proven[node] != NOT_PROVEN:
                        break
                else:
                    if visits[node] < 1 + seen and node != ROOT:
                        break                   # expanded at its second visit
                    if parallel and atomic_cas(first_child, node, NO_CHILDREN,
                                               EXPANDING) != NO_CHILDREN:
                        break                   # claimed by another thread first
                    if not expand(node, state, buf, probs, rng, parent, first_child, num_children,
                                  action, mover, node_status, proven, proven_plies, visits,
                                  value_sum, amaf_visits, amaf_value, prior_visits,
                                  prior_value, seed_amaf, stats, parallel):
                        if parallel:
                            atomic_store(first_child, node, NO_CHILDREN)
                        break
                    if keyed:
                        table_insert(table_keys, table_nodes, key, node)
            while True:                         # select a child whose move is legal
                if HAS_CHANCE and mover[first_child[node]] == CHANCE:
                    child = chance_child(node, state, buf, probs, rng, first_child)
                elif rave:
                    child = select_child_rave(node, c, k, merge_prior, first_child,
                                              num_children, mover, node_status, proven,
                                              visits, value_sum, amaf_visits, amaf_value,
                                              prior_visits, prior_value)
                else:
                    child = select_child(node, c, merge_prior, first_child, num_children,
                                         mover, node_status, proven, visits, value_sum,
                                         prior_visits, prior_value)
                if child < 0:
                    break
                st = apply_action(state, np.int64(action[child]))
                if st != ILLEGAL:
                    break
                node_status[child] = ILLEGAL    # e.g. superko: prune and choose again
            if child < 0:                       # every move pruned or proven lost
                st = status(state)
                if solver:
                    try_prove(node, first_child, num_children, mover, node_status, proven,
                              proven_plies)
                break
            node = child
            node_status[node] = st
            depth += 1
            path[depth] = node
            if parallel:
                atomic_add(visits, node, 1)
            if st != ONGOING and solver:
                proven[node] = st
                proven_plies[node] = 0
            elif solving and proven[node] == NOT_PROVEN and solve_due(visits[node] - seen,
                                                                      solve_from):
                due = True
        if due:                                 # the exact solver on the nodes due for it
            d = try_solve(root_state, work.solve_state, path, depth, params.solve_nodes,
                          solve_from, params.solve_cap, work.solve_table, action, visits,
                          proven, proven_plies, seen)
            if d >= 0:
                depth = d
        leaf = path[depth]
        if GENERAL:                             # chance or more players: max-n
            n_seq = evaluate_general(state, st, rng, rave, learned, work)
            backpropagate_n(path, depth, work.rewards, mover, visits, value_sum,
                            tree.player_sums, parallel)
        else:
            final, n_seq = evaluate(state, st, proven[leaf], rng, rave, learned, work)
            r0 = reward_first(final)
            backpropagate(path, depth, r0, mover, visits, value_sum, parallel)
            if solver and proven[leaf] != NOT_PROVEN:
                propagate_proof(path, depth, first_child, num_children, mover, node_status,
                                proven, proven_plies)
        if owning:                              # who owns what where this simulation ended
            owned_count[0] += ownership(state, owned_rng, owned)
        if rave:
            if parallel:                        # a stamp no other simulation uses
                stamp = atomic_add(stats, S_AMAF_STAMP, 1) + 1
            else:
                stats[S_AMAF_STAMP] += 1
                stamp = stats[S_AMAF_STAMP]
            if GENERAL:
                amaf_update_n(path, depth, seq_actions, seq_players, n_seq, mark, stamp,
                              work.rewards, excluded, first_only, first_child, num_children,
                              action, mover, amaf_visits, amaf_value)
            else:
                amaf_update(path, depth, seq_actions, seq_players, n_seq, mark, stamp, r0,
                            excluded, first_only, first_child, num_children, action, mover,
                            amaf_visits, amaf_value)
        stats[S_MAX_DEPTH] = max(stats[S_MAX_DEPTH], depth)
    if parallel:
        atomic_add(stats, S_PLAYOUTS, done)
    else:
        stats[S_PLAYOUTS] += done
    return done
