"""The backup phase of the compiled search: values up the path, and the MCTS-Solver's proofs.

The functions take the tree's arrays (mcts.tree, shapes and dtypes in mcts.uct_template's
header) and scalars, and know no game; mcts.uct_template calls them after each simulation.
Proofs follow the MCTS-Solver (Winands, Bjornsson and Saito 2008, "Monte-Carlo Tree Search
Solver"); on a tree that threads share, values are added atomically (mcts.atomics).
"""
import numpy as np

from games.compiled import nrt_free
from games.contract import DRAW, FIRST_WINS, ILLEGAL
from mcts.atomics import atomic_add
from mcts.tree import MAX_PLIES, NOT_PROVEN


@nrt_free
def try_prove(node, first_child, num_children, mover, node_status, proven, proven_plies):
    """MCTS-Solver step: ``node`` is proven won for the player to move once one child is proven
    won for them, and proven drawn or lost once every child is proven and none wins. A proof
    is stored as the final game status (FIRST_WINS, SECOND_WINS, DRAW), whatever the
    perspective, with the plies to the end under best play (fastest win, slowest loss).
    Returns True if ``node`` is proven."""
    first = first_child[node]
    if first < 0:                           # NO_CHILDREN, or EXPANDING by another thread
        return False
    who = np.int64(mover[first])
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
        proof, plies = win, win_plies
    elif open_child or legal == 0:
        return False
    elif draw_plies < far:
        proof, plies = DRAW, draw_plies
    else:
        proof, plies = FIRST_WINS + (1 - who), loss_plies
    proven[node] = proof
    proven_plies[node] = min(plies + 1, MAX_PLIES)
    return True


@nrt_free
def backpropagate(path, depth, r0, mover, visits, value_sum, shared):
    """Add the simulation's result (``r0``, player 0's reward in [0, 1]) to every node of
    ``path[:depth + 1]`` (int64 node indices), each from the view of its mover: ``visits``
    (int64) + 1, ``value_sum`` (float64) + its mover's reward. With ``shared`` the visit was
    counted on the way down (the virtual loss) and only the reward is added, atomically."""
    for d in range(depth, -1, -1):
        nd = path[d]
        reward = r0 if mover[nd] == 0 else 1.0 - r0
        if shared:
            atomic_add(value_sum, nd, reward)
        else:
            visits[nd] += 1
            value_sum[nd] += reward


@nrt_free
def backpropagate_n(path, depth, rewards, mover, visits, value_sum, player_sums, shared):
    """Max-n backup (Luckhart and Irani 1986; for UCT, Sturtevant 2008, "An analysis of UCT in
    multi-player games"): every node of ``path[:depth + 1]`` gets a visit and the reward of
    its own mover from ``rewards`` (float64, (MAX_PLAYERS,), one per player), so that each
    player's choices maximise that player's reward. A chance outcome's node (mover
    ``CHANCE``) takes the reward of the last player above it on the path (player 0 below a
    chance root); ``player_sums`` (float64, (MAX_PLAYERS,)) adds the whole vector (the root's
    value for every player). With ``shared``, the visit was counted on the way down and the
    rewards are added atomically."""
    view = 0
    for d in range(depth + 1):
        nd = path[d]
        m = mover[nd]
        if m >= 0:
            view = m
        if shared:
            atomic_add(value_sum, nd, rewards[view])
        else:
            visits[nd] += 1
            value_sum[nd] += rewards[view]
    for p in range(rewards.shape[0]):
        if shared:
            atomic_add(player_sums, p, rewards[p])
        else:
            player_sums[p] += rewards[p]


@nrt_free
def propagate_proof(path, depth, first_child, num_children, mover, node_status, proven,
                    proven_plies):
    """MCTS-Solver backup: the leaf ``path[depth]`` is proven; prove its ancestors with
    ``try_prove`` from the bottom up, as far as the proof carries."""
    for d in range(depth - 1, -1, -1):
        if not try_prove(path[d], first_child, num_children, mover, node_status, proven,
                         proven_plies):
            return
