"""Go's playouts: the contract's ``playout_action``, ``rollout`` and ``rollout_record`` kernels
(re-exported by :mod:`games.go.kernels`, whose docstring describes the policies), and
``finish_move``, the bookkeeping after every move that ``apply_action`` shares.

Functions take the state and integers only (see games.go.board).
"""
import numpy as np
from numba import njit

from games.contract import ONGOING
from games.compiled import nrt_free
from games.go.board import (COLOR, EMPTY, EPOS, F_CAPS_B, F_CAPS_W, F_EMPTY_AT, F_HIST_AT, F_KO,
                            F_LAST, F_LASTKO, F_LASTKO_AT, F_MAXMOVES, F_MOVES,
                            F_NEMPTY, F_PASSES, F_POLICY, F_SIZE, F_STATUS, F_TOMOVE, NO_POINT,
                            POLICY_FINISH, POLICY_KO, POLICY_UNIFORM, at, is_legal_point,
                            is_own_eye, place_stone)
from games.go.history import push_history
from games.go.area import final_status
from games.go.libs import bad_self_atari
from games.go.policy import local_move
from games.rng import below, next_u64

KO_AGE = 4          # the ko rule plays at a ko captured fewer than this many moves ago,
KO_RATE = 40        # in this many moves of 100 (Pachi's Moggy: koage 4, korate 40)
MERCY_DIVISOR = 5   # a playout ends once one side has captured n * n // 5 more stones than the
                    # other since it began (the mercy rule, see _playout)


@nrt_free
def capture_lead(state):
    """Stones captured by Black minus stones captured by White, since the game began."""
    return state[F_CAPS_B] - state[F_CAPS_W]


@nrt_free
def finish_move(state, action):
    """Bookkeeping after a stone or a pass: turn, counters, history, end of game; a ko
    capture is remembered (F_LASTKO, F_LASTKO_AT) for the ko rule."""
    if state[F_KO] != NO_POINT:
        state[F_LASTKO] = state[F_KO]
        state[F_LASTKO_AT] = state[F_MOVES]
    state[F_LAST] = action
    state[F_TOMOVE] = 1 - state[F_TOMOVE]
    state[F_MOVES] += 1
    push_history(state)
    if state[F_PASSES] >= 2 or state[F_MOVES] >= state[F_MAXMOVES]:
        state[F_STATUS] = final_status(state)
    return state[F_STATUS]


@nrt_free
def _is_candidate(state, w, p, c):
    """Playout policy filter: legal by simple ko and suicide, and not the mover's own eye."""
    return (p != state[F_KO] and not is_own_eye(state, w, p, c)
            and is_legal_point(state, w, p, c))


@nrt_free
def _random_ok(state, w, p, c, patterns):
    """A point the random part of the policy may play: a candidate, and with the patterns
    policy not a self-atari of two stones or more."""
    return _is_candidate(state, w, p, c) and not (patterns and bad_self_atari(state, w, p, c))


@nrt_free
def ko_move(state, w, c, x):
    """The ko rule (Pachi's Moggy "ko fight check"): once the ban of a ko captured fewer than
    KO_AGE moves ago has lifted, play its point in KO_RATE of 100 draws if the random policy
    may play it there: the side that lost the ko retakes it, the other side fills it.
    ``(point or NO_POINT, new rng state x)``."""
    k = state[F_LASTKO]
    if (k == NO_POINT or state[F_KO] != NO_POINT or state[at(k, COLOR)] != EMPTY
            or state[F_MOVES] - state[F_LASTKO_AT] >= KO_AGE):
        return NO_POINT, x
    x = next_u64(x)
    if below(x, 100) < KO_RATE and _random_ok(state, w, k, c, True):
        return k, x
    return NO_POINT, x


@nrt_free
def _local(state, w, c, x, board):
    """The patterns policy's answer to the last move (games.go.policy rules 1-3): ``(point or
    NO_POINT, rng state)``; NO_POINT also with the uniform policy or after a pass. ``board``:
    the ladders' scratch (``state[F_HIST_AT]`` entries, ``games.go.ladder.read_ladder``)."""
    a = state[F_LAST]
    n = w - 2
    if state[F_POLICY] == POLICY_UNIFORM or a < 0 or a >= n * n:
        return NO_POINT, x
    return local_move(state, w, (a // n + 1) * w + a % n + 1, c, x, board)


@njit(cache=True)
def playout_action(state, rng):
    """The playout policy's move (see the module docstring); the state is not changed. Pass
    when there is no candidate."""
    n = state[F_SIZE]
    w = n + 2
    c = state[F_TOMOVE] + 1
    p = NO_POINT
    board = np.empty(state[F_HIST_AT], dtype=np.int64)
    if state[F_POLICY] & POLICY_KO:
        p, rng[0] = ko_move(state, w, c, rng[0])
    if p == NO_POINT:
        p, rng[0] = _local(state, w, c, rng[0], board)
    if p == NO_POINT:
        e0 = state[F_EMPTY_AT]
        empties = state[e0:e0 + state[F_NEMPTY]].copy()
        p, rng[0] = _random_move(state, w, c, rng[0], empties, False)
    return n * n if p == NO_POINT else (p // w - 1) * n + p % w - 1


@nrt_free
def _random_move(state, w, c, x, empties, listed):
    """The random part of the policy: draw uniformly from the points of ``empties`` (int64
    padded points; reordered) not yet refused, until one is :func:`_random_ok`;
    ``(point or NO_POINT, new rng state x)``. A refused point is swapped behind the points
    still open, so nothing is allocated; with ``listed``, ``empties`` is the state's own
    empty-point list and the swaps update its EPOS index."""
    patterns = state[F_POLICY] != POLICY_UNIFORM
    k = empties.shape[0]
    while k > 0:
        x = next_u64(x)
        i = below(x, k)
        p = empties[i]
        if _random_ok(state, w, p, c, patterns):
            return p, x
        k -= 1
        empties[i] = empties[k]
        empties[k] = p
        if listed:
            state[at(empties[i], EPOS)] = i
            state[at(p, EPOS)] = k
    return NO_POINT, x


@njit(cache=True)
def _playout(state, rng, record, seq_actions, seq_players):
    """Play the playout policy to the end (two passes or the move cap); return the status and
    the number of moves written to ``seq_actions`` / ``seq_players`` when ``record``.

    A candidate is drawn uniformly from the not-yet-rejected part of the empty list; a rejected
    point is swapped behind that part, so every draw is uniform over the points left and
    nothing is allocated. Simple ko only: no superko test here.

    The mercy rule: once one side has captured more than ``n * n // MERCY_DIVISOR`` stones
    more than the other during the playout (16 on 9x9), both sides pass, so the playout ends
    at once and the board is scored as it stands. Not with the uniform policy (its playouts
    stay those of OpenSpiel's benchmarks) nor with POLICY_FINISH (games.go.count's ownership
    statistics, which need every point settled). Pachi's ``mercymin`` (off by default) is this
    rule on the whole game's captures; Fuego's mercy rule (on by default) calls the game once
    the stone difference on the board exceeds 30 % of its points. Over 2,400 ``ko`` playouts
    from four 9x9 positions this one saved 13 % of the moves and changed no result: from there
    on a playout mostly refills the area just captured."""
    if state[F_STATUS] != ONGOING:
        return state[F_STATUS], 0
    n = state[F_SIZE]
    w = n + 2
    e0 = state[F_EMPTY_AT]
    patterns = state[F_POLICY] != POLICY_UNIFORM
    x = rng[0]
    st = ONGOING
    m = 0
    board = np.empty(state[F_HIST_AT], dtype=np.int64)
    use_ko = state[F_POLICY] & POLICY_KO != 0
    lead0 = capture_lead(state)
    mercy = n * n // MERCY_DIVISOR
    if not patterns or state[F_POLICY] & POLICY_FINISH:
        mercy = 1 << 40                         # no mercy rule
    called = False
    while st == ONGOING:
        c = state[F_TOMOVE] + 1
        chosen = NO_POINT
        if use_ko:                              # the ko fight first
            chosen, x = ko_move(state, w, c, x)
        if patterns and chosen == NO_POINT:     # uniform playouts: no call at all
            chosen, x = _local(state, w, c, x, board)
        if chosen == NO_POINT and not called:
            chosen, x = _random_move(state, w, c, x, state[e0:e0 + state[F_NEMPTY]], True)
        if chosen == NO_POINT:
            state[F_PASSES] += 1
            state[F_KO] = NO_POINT
            action = n * n
        else:
            state[F_KO] = place_stone(state, w, chosen, c, True)
            state[F_PASSES] = 0
            action = (chosen // w - 1) * n + chosen % w - 1
        if record and m < seq_actions.shape[0]:
            seq_actions[m] = action
            seq_players[m] = c - 1
            m += 1
        st = finish_move(state, action)
        if not called and abs(capture_lead(state) - lead0) > mercy:
            called = True                       # the mercy rule: both sides pass from here
            use_ko = patterns = False
    rng[0] = x
    return st, m


@nrt_free
def playout_settled(state):
    """True if the playout policy has nothing left to play in ``state`` for either colour: no
    empty point that its random part could choose (:func:`_random_ok`, with the state's
    policy), so that a playout from here passes out at once. A playout that ends by two
    passes of its own ends so; one ended by the mercy rule or the move cap, or a tree's two
    passes before the board is settled, does not (then stones may be dead on the board and
    regions unclaimed, so who owns what is not yet told)."""
    n = state[F_SIZE]
    w = n + 2
    e0 = state[F_EMPTY_AT]
    patterns = state[F_POLICY] != POLICY_UNIFORM
    for i in range(state[F_NEMPTY]):
        p = state[e0 + i]
        if _random_ok(state, w, p, 1, patterns) or _random_ok(state, w, p, 2, patterns):
            return False
    return True


@njit(cache=True)
def rollout(state, rng):
    """Play the playout policy to the end (two passes or the move cap); return the status."""
    st, _ = _playout(state, rng, False, state[:0].astype(np.int32), state[:0].astype(np.int8))
    return st


@njit(cache=True)
def rollout_record(state, rng, seq_actions, seq_players):
    """``rollout`` that also records each move and its player (for RAVE); returns
    (status, moves recorded)."""
    return _playout(state, rng, True, seq_actions, seq_players)
