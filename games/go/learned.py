"""A fast learned playout policy for Go: a softmax over move features whose 3x3 part is a
table lookup of the board's incremental 3x3 codes (games.go.board ``pat_at``), with the
softmax sums kept up to date only where the codes changed.

The playout turns the board's 3x3 codes on in its state (``enable_pat3``). The model is the
one of :mod:`games.go.features` (the same feature ids, so the same weight vector:
``games/weights/go_mm.npz``, ``go.npz`` or ``cli.py train go``), a generalized Bradley-Terry
model (Coulom 2007, "Computing Elo ratings of move patterns in the game of Go"): a
candidate's strength ``gamma = exp(sum of the weights of its features)``, and a move is drawn
with probability ``gamma / sum of gammas``. As in Crazy Stone, MoHex and AlphaGo's rollout
policy, the features split in two:

* **static**, per point: the 3x3 class (relative to the mover) and the line. Each empty point
  keeps ``gamma`` for either mover in ``tab`` together with per-row sums; a move recomputes
  them only for the points whose 3x3 code it changed (the stone's eight neighbours, each
  captured stone and its neighbours). The mover's own eyes (a 3x3 class) have gamma 0.
* **dynamic**, around the last moves only: Manhattan distance 1 and 2 to the last move (ids
  6, 7), read off the last stone at the draw; capture of the last move's group (ids 0 and
  1), capture of an enemy group in atari next to the mover's previous move (id 0), saving a
  group of ours in atari next to the last move (id 2, and id 0 when the save captures), a
  short list of tactical points (:func:`_specials`). Factors above one add their extra mass
  to the draw (:func:`_draw`).

A drawn point that is not a candidate of the uniform policy (simple ko, suicide) leaves the
sums for this move and the draw is repeated; a self-atari (ids 3, 4) is kept with
probability ``min(1, exp(weight))``, else it leaves the sums too. With nothing left the player
passes. The mercy rule of games.go.playout applies. Unless the state's policy is ``uniform``,
the ``ko`` policy's rules play first (:func:`learned_rollout`).

Differences from :func:`games.go.features.move_features`, the exact model: captures and saves
are seen next to the last two moves only, distances 3 and 4 and the atari feature (5) are not
used, and a refused self-atari leaves the draw (an approximation of its factor).

``tab`` (float64, ``TABLE_LEN``) holds the weights' tables (:func:`fill_table`, numpy, once per
set of weights) followed by the playout's scratch: its layout and the gamma bookkeeping are
in :mod:`games.go.learned_table`. Functions take the state ``s``, ``tab``
and integers only (see :mod:`games.go.board`).
"""
import numpy as np
from numba import njit

from games.compiled import nrt_free
from games.contract import ONGOING
from games.go.board import (COLOR, F_HIST_AT, F_KO, F_LAST, F_MOVES, F_PASSES, F_PAT3, F_POLICY,
                            F_SIZE, F_STATUS, F_TOMOVE, GROUP, MAX_PADDED, MAX_SIZE, NEXT,
                            NO_POINT, POLICY_KO, POLICY_UNIFORM, at, enable_pat3, in_atari,
                            place_stone)
from games.go.features import (F_CAPTURE, F_CAPTURE_LAST, F_DISTANCE, F_SAVE, F_SELF_ATARI,
                               F_SELF_ATARI_BIG)
from games.go.learned_table import (  # noqa: F401  (the table's layout: part of this API)
    EYE_CLASSES, K, LINES, SPECIAL, T_CAP, T_DYN, T_GAM, T_LINE, T_ROW, T_ROWS, T_SPEC, T_UNDO,
    TABLE_LEN, _UNIT, _set_around, _take_out, _undo, fill_table, init_gammas)
from games.go.libs import captures, liberty_of, self_atari, two_liberties
from games.go.playout import (MERCY_DIVISOR, _is_candidate, _local, capture_lead, finish_move,
                              ko_move, rollout)
from games.rng import next_u64


@nrt_free
def _special(tab, k, p, f):
    """Give point ``p`` tactical feature ``f`` (its factor ``exp(weight)`` once per feature;
    the point joins the special list if new); returns the count of special points."""
    bit = 1 << f
    for i in range(k):
        if tab[T_SPEC + 3 * i] == p:
            mask = np.int64(tab[T_SPEC + 3 * i + 2])
            if mask & bit == 0:
                tab[T_SPEC + 3 * i + 1] *= tab[T_DYN + f]
                tab[T_SPEC + 3 * i + 2] = mask | bit
            return k
    if k < SPECIAL:
        tab[T_SPEC + 3 * k] = p
        tab[T_SPEC + 3 * k + 1] = tab[T_DYN + f]
        tab[T_SPEC + 3 * k + 2] = bit
        k += 1
    return k


@nrt_free
def _specials(s, w, tab, c, last, prev):
    """This move's tactical points for mover ``c`` (see the module docstring; ``last``: the
    opponent's last stone, ``prev``: the mover's previous one, NO_POINT if none); writes each
    point's tactical factor (the product of ``exp(weight)`` of its features), returns the
    count. The distance features are not listed: :func:`_draw` reads them off ``last``."""
    k = 0
    if last != NO_POINT and s[at(last, COLOR)] == 3 - c:
        g = s[at(last, GROUP)]
        if in_atari(s, g):
            k = _special(tab, k, liberty_of(s, g), F_CAPTURE)
            k = _special(tab, k, liberty_of(s, g), F_CAPTURE_LAST)
        for d in (1, -1, w, -w):
            q = last + d
            if s[at(q, COLOR)] == c and in_atari(s, s[at(q, GROUP)]):
                lib = liberty_of(s, s[at(q, GROUP)])
                cap = captures(s, w, lib, c)
                if cap or two_liberties(s, w, lib, c):
                    k = _special(tab, k, lib, F_SAVE)
                x = s[at(q, GROUP)]
                while True:             # enemy groups in atari touching ours: capture them
                    for e in (1, -1, w, -w):
                        y = x + e
                        if s[at(y, COLOR)] == 3 - c and s[at(y, GROUP)] != g and in_atari(
                                s, s[at(y, GROUP)]):
                            k = _special(tab, k, liberty_of(s, s[at(y, GROUP)]), F_CAPTURE)
                    x = s[at(x, NEXT)]
                    if x == s[at(q, GROUP)]:
                        break
    if prev != NO_POINT and s[at(prev, COLOR)] == c:
        for d in (1, -1, w, -w):
            q = prev + d
            if s[at(q, COLOR)] == 3 - c and in_atari(s, s[at(q, GROUP)]):
                k = _special(tab, k, liberty_of(s, s[at(q, GROUP)]), F_CAPTURE)
    return k


@nrt_free
def _distance_factor(tab, w, near, p):
    """The distance feature's factor of point ``p`` (``near``: the last stone, NO_POINT if
    the distances do not apply): ``exp`` of the weight of distance 1 or 2, else 1."""
    if near == NO_POINT:
        return 1.0
    d = p - near
    if d == 1 or d == -1 or d == w or d == -w:
        return tab[T_DYN + F_DISTANCE]
    if (d == 2 or d == -2 or d == 2 * w or d == -2 * w or d == w + 1 or d == w - 1
            or d == 1 - w or d == -1 - w):
        return tab[T_DYN + F_DISTANCE + 1]
    return 1.0


@nrt_free
def _draw(s, w, tab, c, ns, last, x):
    """Draw mover ``c``'s move from the softmax. A point's weight is its gamma (0 for a stone
    or the mover's own eye) times its distance factor ``f_d`` (``last``'s four neighbours, the
    eight points at distance 2, while the last stone stands) times its tactical factor ``f_t``
    (the ``ns`` points of :func:`_specials`). Factors above one add mass drawn apart: the
    distance points' ``gamma * (f_d - 1)`` summed straight from the gamma block (no list), the
    tactical points' ``gamma * max(f_d, 1) * (f_t - 1)``; a factor below one is the chance to
    keep the point when drawn. A drawn point that is no candidate or is refused leaves the
    sums for this move. ``(point or NO_POINT, points taken out of the draw (the undo list),
    new rng state x)``."""
    off = T_GAM + (c - 1) * MAX_PADDED
    roff = T_ROWS + (c - 1) * (MAX_SIZE + 2)
    top = w * w
    near = NO_POINT
    if last != NO_POINT and s[at(last, COLOR)] == 3 - c:
        near = last
    f1 = tab[T_DYN + F_DISTANCE]
    f2 = tab[T_DYN + F_DISTANCE + 1]
    e1 = f1 - 1.0 if f1 > 1.0 and near != NO_POINT else 0.0
    e2 = f2 - 1.0 if f2 > 1.0 and near != NO_POINT else 0.0
    u = 0
    resynced = False
    while True:
        m1 = 0.0
        m2 = 0.0
        if e1 > 0.0:
            m1 = e1 * (tab[off + near + 1] + tab[off + near - 1] + tab[off + near + w]
                       + tab[off + near - w])
        if e2 > 0.0:
            for d in (2, -2, 2 * w, -2 * w, w + 1, w - 1, 1 - w, -1 - w):
                q = near + d
                if 0 <= q < top:
                    m2 += tab[off + q]
            m2 *= e2
        mt = 0.0
        for i in range(ns):
            ft = tab[T_SPEC + 3 * i + 1]
            if ft > 1.0:
                q = np.int64(tab[T_SPEC + 3 * i])
                mt += tab[off + q] * max(_distance_factor(tab, w, near, q), 1.0) * (ft - 1.0)
        base = 0.0
        for r in range(1, w - 1):
            base += tab[roff + r]
        total = m1 + m2 + mt + base
        if total <= 0.0:
            return NO_POINT, u, x
        x = next_u64(x)
        v = np.float64(x >> np.uint64(11)) * _UNIT * total
        p = NO_POINT
        if v < m1:
            for d in (1, -1, w, -w):
                g = tab[off + near + d] * e1
                if g > 0.0:
                    p = near + d
                    if v < g:
                        break
                    v -= g
        elif v < m1 + m2:
            v -= m1
            for d in (2, -2, 2 * w, -2 * w, w + 1, w - 1, 1 - w, -1 - w):
                q = near + d
                if 0 <= q < top:
                    g = tab[off + q] * e2
                    if g > 0.0:
                        p = q
                        if v < g:
                            break
                        v -= g
        elif v < m1 + m2 + mt:
            v -= m1 + m2
            for i in range(ns):
                ft = tab[T_SPEC + 3 * i + 1]
                if ft > 1.0:
                    q = np.int64(tab[T_SPEC + 3 * i])
                    g = tab[off + q] * max(_distance_factor(tab, w, near, q), 1.0) * (ft - 1.0)
                    if g > 0.0:
                        p = q
                        if v < g:
                            break
                        v -= g
        else:
            v -= m1 + m2 + mt
            chosen_row = 0
            for r in range(1, w - 1):
                rs = tab[roff + r]
                if rs > 0.0:
                    chosen_row = r
                    if v < rs:
                        break
                    v -= rs
            if chosen_row > 0:
                for q in range(chosen_row * w + 1, chosen_row * w + w - 1):
                    g = tab[off + q]
                    if g > 0.0:
                        p = q
                        if v < g:
                            break
                        v -= g
            if p == NO_POINT and not resynced:
                for r in range(1, w - 1):       # rounding left a sum on an empty row
                    rs = 0.0
                    for q in range(r * w + 1, r * w + w - 1):
                        rs += tab[off + q]
                    tab[roff + r] = rs
                resynced = True
                continue
        if p == NO_POINT:
            return NO_POINT, u, x
        if not _is_candidate(s, w, p, c):
            u = _take_out(tab, u, p, off, roff)
            continue
        keep = min(_distance_factor(tab, w, near, p), 1.0)
        for i in range(ns):
            if tab[T_SPEC + 3 * i] == p:
                keep *= min(tab[T_SPEC + 3 * i + 1], 1.0)
        if self_atari(s, w, p, c):
            big = False
            for d in (1, -1, w, -w):
                if s[at(p + d, COLOR)] == c:
                    big = True
            keep *= tab[T_DYN + (F_SELF_ATARI_BIG if big else F_SELF_ATARI)]
        if keep < 1.0:
            x = next_u64(x)
            if np.float64(x >> np.uint64(11)) * _UNIT >= keep:
                u = _take_out(tab, u, p, off, roff)     # refused: out of this move's draw
                continue
        return p, u, x


@nrt_free
def learned_move(s, w, tab, c, last, prev, x):
    """Mover ``c``'s move of the policy (state unchanged, gammas current); ``(point or
    NO_POINT, new rng state x)``."""
    ns = _specials(s, w, tab, c, last, prev)
    p, u, x = _draw(s, w, tab, c, ns, last, x)
    _undo(tab, c, u)
    return p, x


@nrt_free
def play_learned(s, w, tab, p, c):
    """Place mover ``c``'s stone on ``p`` (captures, ko) and bring the gammas up to date."""
    enemy = 3 - c
    ncap = 0
    for d in (1, -1, w, -w):            # the stones this move captures, listed before
        q = p + d
        if s[at(q, COLOR)] == enemy and in_atari(s, s[at(q, GROUP)]):
            g = s[at(q, GROUP)]
            seen = False
            for i in range(ncap):
                if np.int64(tab[T_CAP + i]) == g:
                    seen = True
            if not seen:
                y = g
                while True:
                    tab[T_CAP + ncap] = y
                    ncap += 1
                    y = s[at(y, NEXT)]
                    if y == g:
                        break
    s[F_KO] = place_stone(s, w, p, c, True)
    _set_around(s, w, tab, p)
    for i in range(ncap):
        _set_around(s, w, tab, np.int64(tab[T_CAP + i]))


@njit(cache=True)
def learned_rollout(state, rng, tab, record, seq_actions, seq_players):
    """Play the policy to the end (two passes or the move cap) from ``state`` (changed), with
    the weight tables of ``tab`` (:func:`fill_table`; its scratch is used); the moves and
    players go to ``seq_actions`` / ``seq_players`` with ``record``. Returns (final status,
    moves recorded). Unless the state's playout policy is ``uniform``, the hand-written rules
    of the ``ko`` policy come first (the ko fight, the answers to the last move:
    games.go.playout ``ko_move`` and ``_local``) and the learned draw replaces its uniform
    random part, as Moggy and Fuego put rules before a pattern-weighted random move; with
    ``uniform``, the learned draw alone. A table shorter than ``TABLE_LEN`` (no weights)
    plays the default playout."""
    if state[F_STATUS] != ONGOING:
        return state[F_STATUS], 0
    if tab.shape[0] < TABLE_LEN:        # no table (no weights): the default playout
        return rollout(state, rng), 0
    n = state[F_SIZE]
    w = n + 2
    if not state[F_PAT3]:
        enable_pat3(state, w)
    init_gammas(state, w, tab)
    x = rng[0]
    st = ONGOING
    m = 0
    lead0 = capture_lead(state)
    mercy = n * n // MERCY_DIVISOR
    called = False
    rules = state[F_POLICY] != POLICY_UNIFORM       # the hand-written rules first (hybrid)
    use_ko = state[F_POLICY] & POLICY_KO != 0
    board = np.empty(state[F_HIST_AT] if rules else 0, dtype=np.int64)
    a = state[F_LAST]
    last = NO_POINT if a < 0 or a >= n * n else (a // n + 1) * w + a % n + 1
    prev = NO_POINT
    while st == ONGOING:
        c = state[F_TOMOVE] + 1
        p = NO_POINT
        if rules and not called:
            if use_ko:
                p, x = ko_move(state, w, c, x)
            if p == NO_POINT:
                p, x = _local(state, w, c, x, board)
        if p == NO_POINT and not called:
            p, x = learned_move(state, w, tab, c, last, prev, x)
        if p == NO_POINT:
            state[F_PASSES] += 1
            state[F_KO] = NO_POINT
            action = n * n
        else:
            play_learned(state, w, tab, p, c)
            state[F_PASSES] = 0
            action = (p // w - 1) * n + p % w - 1
        prev = last
        last = p
        if record and m < seq_actions.shape[0]:
            seq_actions[m] = action
            seq_players[m] = c - 1
            m += 1
        st = finish_move(state, action)
        if not called and abs(capture_lead(state) - lead0) > mercy:
            called = True
    rng[0] = x
    return st, m


@njit(cache=True)
def learned_playouts(root, n, rng, tab, scratch):
    """``n`` playouts of the policy from ``root`` (a benchmark); returns the moves played."""
    moves = 0
    for _ in range(n):
        for i in range(root.shape[0]):
            scratch[i] = root[i]
        learned_rollout(scratch, rng, tab, False, scratch[:0].astype(np.int32),
                        scratch[:0].astype(np.int8))
        moves += scratch[F_MOVES] - root[F_MOVES]
    return moves
