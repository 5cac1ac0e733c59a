# Second part of a generated search module (mcts.codegen appends it to uct_template.py): a
# simulation's evaluation phase (evaluate: the proof, the final status or a playout), the
# playouts outside the tree search, and the learned softmax playout policy. Read as text,
# never imported directly; the game's kernels and HAS_FEATURES come from the generated header.
#
# The learned policy (a "fast rollout policy": a linear softmax over binary move features, as
# in Coulom 2007, "Computing Elo ratings of move patterns in the game of Go", and Silver et
# al. 2016, "Mastering the game of Go with deep neural networks and tree search") picks
# candidate i of the game's ``move_features`` kernel with probability
#     p_i = exp(sum_f w[f]) / sum_j exp(sum_f w[f])     (f over the features active for i)
# where ``w`` is ``work.weights`` (float64, (num_features,)). The weights are data: changing
# them never recompiles, and the same seed and weights give the same playout.
import numpy as np
from numba import njit

from games.compiled import copy_into
from games.contract import CHANCE, ILLEGAL, ONGOING, feature_softmax, status_returns
from games.rng import draw_outcome, next_u64, random_below
from mcts.tree import NOT_PROVEN

_UNIT = 1.0 / 9007199254740992.0      # 2 ** -53
OUTCOME_BUFFER = 65536                # outcomes of a chance position, at most (games.contract)


@njit(cache=True)
def evaluate(state, st, proof, rng, rave, learned, work):
    """The result of a simulation whose last node has game status ``st`` and proof ``proof``
    (NOT_PROVEN if none): the proof, else the final status if the game is over, else a
    playout from ``state``, of the learned policy if ``learned`` or else the game's own,
    recorded in ``work.seq_actions`` (int32) / ``work.seq_players`` (int8) when ``rave``.
    Returns (final status, moves recorded)."""
    if proof != NOT_PROVEN:
        return np.int64(proof), 0
    if st != ONGOING:
        return st, 0
    if learned:
        return learned_playout(state, rng, work, rave)
    if rave:
        return rollout_record(state, rng, work.seq_actions, work.seq_players)
    return rollout(state, rng), 0


@njit(cache=True)
def evaluate_general(state, st, rng, rave, learned, work):
    """:func:`evaluate` for a game with chance or a ``returns`` kernel (no proofs: the
    MCTS-Solver is off for them): a playout from ``state`` unless its status ``st`` is final,
    chance outcomes drawn by probability; writes each player's reward at the end to
    ``work.rewards`` (float64, (MAX_PLAYERS,)) and returns the moves recorded for RAVE."""
    n_seq = 0
    if st == ONGOING:
        if learned:
            st, n_seq = learned_playout(state, rng, work, rave)
        elif rave:
            st, n_seq = chance_rollout_record(state, rng, work.seq_actions, work.seq_players,
                                              work.buf, work.probs)
        else:
            st = chance_rollout(state, rng, work.buf, work.probs)
    if HAS_RETURNS:
        returns(state, work.rewards)
    else:
        status_returns(st, work.rewards)
    return n_seq


@njit(cache=True)
def softmax_action(state, rng, weights, cand, feats, logits):
    """The learned policy's move in ``state`` (not changed): a draw from the softmax over the
    candidates of ``move_features`` (``cand`` int32 (num_actions,), ``feats`` int32
    (num_actions, feature_slots), ``logits`` float64 (num_actions,) are scratch). With no
    candidate, the game's ``playout_action``. ``rng`` is uint64 ``(1,)``."""
    n = move_features(state, cand, feats)
    if n <= 0:
        return playout_action(state, rng)
    total = feature_softmax(feats, n, weights, logits)
    x = next_u64(rng[0])
    rng[0] = x
    u = np.float64(x >> np.uint64(11)) * _UNIT * total
    for i in range(n - 1):
        u -= logits[i]
        if u < 0.0:
            return cand[i]
    return cand[n - 1]


@njit(cache=True)
def learned_playout(state, rng, work, record):
    """Play the learned policy (weights ``work.weights``) to the end from ``state`` (changed):
    the game's ``learned_rollout`` with ``work.table`` if it has one, else this softmax over
    ``move_features``, where a move ``apply_action`` refuses (e.g. superko) is replaced by
    the game's ``playout_action``. With ``record``, each move and its player go to ``work.seq_actions`` /
    ``work.seq_players`` (up to their length). Returns (final status, moves recorded)."""
    seq_actions, seq_players = work.seq_actions, work.seq_players
    if HAS_LEARNED_ROLLOUT:
        return learned_rollout(state, rng, work.table, record, seq_actions, seq_players)
    m = 0
    st = status(state)
    while st == ONGOING:
        player = to_play(state)
        if HAS_CHANCE and player == CHANCE:
            n = chance_outcomes(state, work.buf, work.probs)
            st = apply_action(state, draw_outcome(rng, work.buf, work.probs, n))
            continue
        a = softmax_action(state, rng, work.weights, work.cand, work.feats, work.logits)
        st = apply_action(state, a)
        tries = 0
        while st == ILLEGAL and tries < 16:
            a = playout_action(state, rng)
            st = apply_action(state, a)
            tries += 1
        if st == ILLEGAL:                      # a deterministic playout_action refused too
            st, a = first_accepted(state, work.buf)
            if st == ILLEGAL:
                return status(state), m
        if record and m < seq_actions.shape[0]:
            seq_actions[m] = a
            seq_players[m] = player
            m += 1
    return st, m


@njit(cache=True)
def first_accepted(state, buf):
    """Play the first of the legal actions (``buf``: int32 scratch) that ``apply_action``
    accepts; returns (status, action), or (ILLEGAL, -1) if it accepts none."""
    n = legal_actions(state, buf)
    for i in range(n):
        st = apply_action(state, np.int64(buf[i]))
        if st != ILLEGAL:
            return st, buf[i]
    return ILLEGAL, -1


@njit(cache=True, nogil=True)
def random_playouts(root_state, n, rng, scratch, outcomes):
    """Play ``n`` playouts from ``root_state`` with the game's playout policy.

    ``outcomes`` is int64[5]: counts indexed by final status (ONGOING slot unused; a
    shorter array counts the statuses it has room for). Chance outcomes are drawn by
    probability. Returns the plies played in all (negative if the game has no ``ply``
    kernel)."""
    plies = 0
    start = ply(root_state)
    if HAS_CHANCE:
        buf = np.empty(OUTCOME_BUFFER, dtype=np.int32)
        probs = np.empty(OUTCOME_BUFFER, dtype=np.float64)
    for _ in range(n):
        copy_into(scratch, root_state)
        if HAS_CHANCE:
            st = chance_rollout(scratch, rng, buf, probs)
        else:
            st = rollout(scratch, rng)
        if 0 <= st < outcomes.shape[0]:
            outcomes[st] += 1
        plies += ply(scratch) - start
    return plies if start >= 0 else -1


@njit(cache=True, nogil=True)
def learned_playouts(root_state, n, rng, work, outcomes):
    """:func:`random_playouts` with the learned policy of ``work`` (mcts.tree.Workspace)."""
    plies = 0
    start = ply(root_state)
    scratch = work.state
    for _ in range(n):
        copy_into(scratch, root_state)
        st, _ = learned_playout(scratch, rng, work, False)
        if 0 <= st < outcomes.shape[0]:
            outcomes[st] += 1
        plies += ply(scratch) - start
    return plies if start >= 0 else -1


@njit(cache=True)
def random_episode(root_state, rng, states, actions, players, legal_mask, learned, work):
    """Play one game from ``root_state`` with the game's playout policy (the learned one of
    ``work`` if ``learned``), recording it.

    ``states`` (L + 1, S): ``states[t]`` is the position before ply ``t`` and ``states[length]``
    the final one; ``actions`` (L,) int32 and ``players`` (L,) int8 the move and mover of each
    ply; ``legal_mask`` (L, num_actions) float32, zeroed by the caller, marks the legal actions.
    A policy move that ``apply_action`` refuses (e.g. superko) is replaced by a uniformly
    random accepted one. A chance position is a ply of player ``CHANCE`` whose mask marks
    its outcomes, one drawn by probability. Returns (length, final status)."""
    state = root_state.copy()
    buf = np.empty(legal_mask.shape[1], dtype=np.int32)
    probs = np.empty(legal_mask.shape[1], dtype=np.float64)
    t = 0
    st = status(state)
    while st == ONGOING and t < actions.shape[0]:
        copy_into(states[t], state)
        players[t] = to_play(state)
        if HAS_CHANCE and players[t] == CHANCE:
            n = chance_outcomes(state, buf, probs)
            for i in range(n):
                legal_mask[t, buf[i]] = 1.0
            a = draw_outcome(rng, buf, probs, n)
            st = apply_action(state, a)
            actions[t] = a
            t += 1
            continue
        n = legal_actions(state, buf)
        for i in range(n):
            legal_mask[t, buf[i]] = 1.0
        if learned:
            a = softmax_action(state, rng, work.weights, work.cand, work.feats, work.logits)
        else:
            a = playout_action(state, rng)
        st = apply_action(state, a)
        while st == ILLEGAL and n > 0:         # draw without replacement until one applies
            legal_mask[t, a] = 0.0             # refused: not legal after all
            k = random_below(rng, n)
            a = buf[k]
            buf[k] = buf[n - 1]
            n -= 1
            st = apply_action(state, a)
        if st == ILLEGAL:
            break
        actions[t] = a
        t += 1
    copy_into(states[t], state)
    return t, status(state)
