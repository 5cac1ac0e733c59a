"""Prior knowledge for Go's search tree: the contract's ``prior`` kernel rules (see games.go).

A new child gets virtual playouts, all won or all lost, in units of ``PRIOR_UNIT``, in the
spirit of Gelly and Silver 2007 ("Combining online and offline knowledge in UCT": the
even-game prior) and of the knowledge priors of Pachi (Baudiš and Gailly 2011, "Pachi: State
of the art open source Go program") and Fuego. Where the search counts them (as AMAF playouts
or as the move's own) is the search's setting ``prior_stats`` (mcts.search.SearchConfig).

The learned prior (``Go(prior_learned=True)``) adds won virtual playouts in proportion to the
square root of a move's probability under a linear softmax over Go's move features
(:mod:`games.go_features`), fitted to the moves of Pachi's search in Pachi's self-play games
(``benchmarks/go_prior_fit.py``; the weights are ``games/weights/go-prior.npz``). This is
Pachi's pattern prior (``sqrt(p) * pattern_eqex`` won playouts; Baudiš and Gailly 2011) over
the move-prediction model of Coulom 2007 ("Computing Elo ratings of move patterns").

Functions take the state ``s`` and integers only (see games.go_board).
"""
import math
import os

import numpy as np
from numba import njit

from games.contract import feature_softmax
from games.go_board import (BLACK, BORDER, COLOR, EMPTY, F_LASTKO, F_LASTKO_AT, F_MOVES, F_SIZE,
                            GROUP, NEXT, NO_POINT, WHITE, at, is_own_eye)
from games.go_features import FEATURE_SLOTS, NUM_FEATURES, move_features
from games.go_libs import captures, self_atari
from games.go_policy import PATTERN_TABLE, neighbourhood
from games.go_selfatari import SCRATCH, bad_self_atari_read, cousin

PRIOR_UNIT = 20
# Won virtual playouts at common-fate-graph distance 1, 2 and 3 from the last move: Pachi's
# small-board cfgd prior (45, 40, 15 beside an even prior of 14), scaled to PRIOR_UNIT.
CFGD_BONUS = (0, 45 * PRIOR_UNIT // 14, 40 * PRIOR_UNIT // 14, 15 * PRIOR_UNIT // 14)
CFGD_FAR = 4
LEARNED_WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights",
                                    "go-prior.npz")
# Won virtual playouts of a move the learned softmax gives probability 1 (scaled by sqrt(p)):
# Pachi's pattern_eqex, 8 times its even-game prior, in PRIOR_UNIT's scale.
LEARNED_EQEX = 8 * PRIOR_UNIT
KO_PRIOR_AGE = 10       # the ko prior favours a ko captured at most this many moves ago (Pachi)


def load_learned_weights(path=LEARNED_WEIGHTS_FILE):
    """The learned prior's weights: float64 ``(NUM_FEATURES,)`` from the ``weights`` entry of
    the ``.npz`` file ``path``. ``OSError`` if it cannot be read, ``ValueError`` if its shape
    is not the features' (weights of another feature set)."""
    with np.load(path) as data:
        weights = np.asarray(data["weights"], dtype=np.float64)
    if weights.shape != (NUM_FEATURES,):
        raise ValueError(f"{path}: {weights.shape[0]} weights, the features need {NUM_FEATURES}")
    return weights


LEARNED_WEIGHTS = load_learned_weights()        # frozen into the compiled prior


@njit(cache=True)
def cfg_distances(s, w, last, dist, queue):
    """Common-fate-graph distance from the stone on ``last`` to every point, up to 3
    (``CFGD_FAR`` beyond): a whole group is one node, so its liberties are at distance 1
    (Graepel, Goutrié, Krüger and Herbrich 2001, "Learning on graphs in the game of Go"; Pachi's
    ``cfgd`` prior). ``dist`` and ``queue``: int64 arrays of ``w * w`` entries, ``dist``
    overwritten, indexed by point."""
    dist[:] = CFGD_FAR
    tail = 0
    x = last
    while True:                         # the last move's group: distance 0
        dist[x] = 0
        queue[tail] = x
        tail += 1
        x = s[at(x, NEXT)]
        if x == last:
            break
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        d = dist[x] + 1
        if d >= CFGD_FAR:
            break
        for e in (1, -1, w, -w):
            y = x + e
            v = s[at(y, COLOR)]
            if v == BORDER or dist[y] <= d:
                continue
            if v == EMPTY:
                dist[y] = d
                queue[tail] = y
                tail += 1
                continue
            z = s[at(y, GROUP)]         # a whole group at once
            g = z
            while True:
                dist[z] = d
                queue[tail] = z
                tail += 1
                z = s[at(z, NEXT)]
                if z == g:
                    break


@njit(cache=True)
def _empty_around(s, w, p, radius):
    """True if no stone lies within Manhattan distance ``radius`` of ``p``."""
    n = w - 2
    r0 = p // w - 1
    c0 = p % w - 1
    for dr in range(-radius, radius + 1):
        r = r0 + dr
        if r < 0 or r >= n:
            continue
        span = radius - abs(dr)
        for dc in range(-span, span + 1):
            col = c0 + dc
            if 0 <= col < n:
                v = s[at((r + 1) * w + col + 1, COLOR)]
                if v == BLACK or v == WHITE:
                    return False
    return True


@njit(cache=True)
def point_prior(s, w, p, c, last, saves, local, dist, read):
    """Prior ``(virtual playouts, virtual wins)`` of a ``c`` stone on empty, legal ``p`` after
    the opponent's stone on ``last`` (NO_POINT after a pass or at the start); with ``local``
    (bool) a unit won for a capture and for ``saves`` (the saving moves of a group in atari
    next to ``last``, :func:`games.go_policy.saving_moves`, computed once for all the points),
    else nothing for them (:mod:`games.go_assess` gives the groups short of liberties).
    ``dist``: an empty int64 array, or that of :func:`cfg_distances` from ``last``, which then
    replaces the Manhattan-distance bonus. With ``read`` (bool) the self-atari malus and the
    empty-area edge terms are left to :func:`moggy_terms`:

    * even game: PRIOR_UNIT playouts, half won;
    * with ``local``: a capture, or a move of ``saves``: 1 unit won each;
    * filling one's own eye: 2 units lost; a self-atari: 2 units lost for a group of two
      stones or more, 1 unit for a lone stone;
    * a match of MoGo's 3x3 patterns: 1 unit won; within Manhattan distance 2 of ``last``:
      half a unit won, or with ``dist`` ``CFGD_BONUS[d]`` won at graph distance d <= 3;
    * in an empty area (no stone within distance 2): on the first line 1 unit lost, on the
      second line half a unit lost.
    """
    u = PRIOR_UNIT
    h = PRIOR_UNIT // 2
    n = w - 2
    visits = u
    wins = h
    if is_own_eye(s, w, p, c):
        return visits + 2 * u, wins
    if not read and self_atari(s, w, p, c):
        joins = False
        for d in (1, -1, w, -w):
            if s[at(p + d, COLOR)] == c:
                joins = True
        visits += 2 * u if joins else u
    if local and captures(s, w, p, c):
        visits += u
        wins += u
    if local and (p == saves[0] or p == saves[1] or p == saves[2] or p == saves[3]):
        visits += u
        wins += u
    if dist.shape[0] > 0:
        if dist[p] < CFGD_FAR:
            visits += CFGD_BONUS[dist[p]]
            wins += CFGD_BONUS[dist[p]]
    elif last != NO_POINT and abs(p // w - last // w) + abs(p % w - last % w) <= 2:
        visits += h
        wins += h
    if PATTERN_TABLE[neighbourhood(s, w, p)]:
        visits += u
        wins += u
    line = min(min(p // w - 1, p % w - 1), min(n - p // w, n - p % w))
    if not read and line <= 1 and _empty_around(s, w, p, 2):
        visits += u if line == 0 else h
    return visits, wins


@njit(cache=True)
def learned_probabilities(state, cand, probs):
    """The learned softmax over the candidates of :func:`games.go_features.move_features`:
    writes their actions to ``cand`` and probabilities to ``probs`` (int64 and float64 arrays
    of ``n * n + 1`` entries) and returns how many there are (0 when the game is over or no
    point is playable)."""
    n = state[F_SIZE]
    feats = np.full((n * n + 1, FEATURE_SLOTS), -1, dtype=np.int32)
    m = move_features(state, cand, feats)
    total = feature_softmax(feats, m, LEARNED_WEIGHTS, probs)
    for i in range(m):
        probs[i] /= total
    return m


@njit(cache=True)
def learned_bonus(state, bonus):
    """Won virtual playouts of the learned prior for every action: ``bonus`` int64 ``(n * n
    + 1,)`` is overwritten with ``round(LEARNED_EQEX * sqrt(p))`` for each candidate of
    :func:`learned_probabilities` and 0 elsewhere (pass included)."""
    n = state[F_SIZE]
    cand = np.empty(n * n + 1, dtype=np.int64)
    probs = np.empty(n * n + 1, dtype=np.float64)
    m = learned_probabilities(state, cand, probs)
    bonus[:] = 0
    for i in range(m):
        bonus[cand[i]] = int(LEARNED_EQEX * math.sqrt(probs[i]) + 0.5)


@njit(cache=True)
def moggy_terms(s, w, c, unit, visits, wins):
    """The prior terms of Pachi's tree that :func:`point_prior` does otherwise, as Pachi does
    them (``uct/prior.c`` and Moggy's ``assess_one``; Baudiš and Gailly 2011), added for
    player ``c`` to ``visits`` and ``wins`` (int64 ``(w * w,)``, indexed by padded point):

    * a bad self-atari as Moggy's playouts read it (:func:`games.go_selfatari.bad_self_atari_read`,
      throw-ins and nakade excepted): ``unit`` lost, and its cousin (the other liberty of
      the two-liberty group that made it one, or a counter-capture;
      :func:`games.go_selfatari.cousin`, its random choice drawn from the point) ``unit``
      won; other self-ataris get nothing;
    * the point of a ko captured at most ``KO_PRIOR_AGE`` moves ago: ``unit`` won (Pachi's
      ko prior, for either side);
    * on the first or the third line with no stone within Manhattan distance 2: ``unit``
      lost, or won (Pachi's ``b19`` prior, which it applies on every board size).
    """
    n = w - 2
    scratch = np.empty(SCRATCH, dtype=np.int64)
    for r in range(n):
        for col in range(n):
            p = (r + 1) * w + col + 1
            if s[at(p, COLOR)] != EMPTY or is_own_eye(s, w, p, c):
                continue
            if bad_self_atari_read(s, w, p, c, scratch):
                visits[p] += unit
                q, _ = cousin(s, w, p, c, np.uint64(p * 2654435761 + 1), scratch)
                if q != NO_POINT:
                    visits[q] += unit
                    wins[q] += unit
            line = min(min(r, col), min(n - 1 - r, n - 1 - col))
            if (line == 0 or line == 2) and _empty_around(s, w, p, 2):
                visits[p] += unit
                if line == 2:
                    wins[p] += unit
    k = s[F_LASTKO]
    if k != NO_POINT and s[F_MOVES] - s[F_LASTKO_AT] <= KO_PRIOR_AGE and s[at(k, COLOR)] == EMPTY:
        visits[k] += unit
        wins[k] += unit
