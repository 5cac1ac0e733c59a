"""Minorization-maximization (MM) for the generalized Bradley-Terry model of move features:
the fit of Coulom 2007, "Computing Elo ratings of move patterns in the game of Go" (ICGA
Journal 30(4)), section 3, for any game with a ``move_features`` kernel.

**Model.** A position ``t`` has candidates ``j``, each with a set ``F_tj`` of binary features
(the ids of ``move_features``: int32 rows, ``-1`` padded). Feature ``i`` has a strength
``gamma_i = exp(w_i)``; a candidate's strength is the product ``E_tj = prod_{i in F_tj}
gamma_i`` and the teacher chose candidate ``c_t`` with probability ``E_tc / E_t``,
``E_t = sum_j E_tj``. This is the softmax of :mod:`mcts.learn` with one-hot targets: the
returned weights ``w = log(gamma)`` load wherever that learner's weights do.

**Prior** (Coulom's section 3.3): every feature plays ``prior`` virtual wins and ``prior``
virtual losses against a virtual opponent of strength 1. A feature never seen keeps
``gamma = 1`` (weight 0), one that never wins stays finite. With ``prior = 0`` this is plain
maximum likelihood: a feature that occurs and never wins (or always wins) has no finite
optimum, which :func:`fit` refuses.

**Update.** With ``W_i`` the teacher's candidates that have feature ``i`` (plus ``prior``)
and ``C_tj / gamma_i`` the strength of the other features of candidate ``j``, Coulom's MM
step is ``gamma_i <- W_i / (sum_t sum_{j: i in F_tj} (E_tj / gamma_i) / E_t + 2 prior /
(gamma_i + 1))``. It maximizes a minorizer of the log-likelihood, so the objective never
decreases. The features of one *group* are updated together from the same ``E_t`` (one
pass over the data per group), which keeps the guarantee only if no candidate has two
features of one group (the minorizer is then separable in the group's features): :func:`fit`
checks that and raises ``ValueError`` otherwise. Default groups: one per feature (always
safe, but one pass over the data each). For Go (benchmarks/train_go_mm.py) the 3x3 classes, the
lines and the distances are each mutually exclusive.

**Stopping.** After each round over all groups the objective (log-likelihood of the teacher's
moves plus the prior's virtual games) is recorded; the fit stops when no weight moved by
more than ``tol`` in a round, or after ``max_iterations`` rounds.

Cost: each group costs ``O(R)`` (R candidate rows) plus its own entries; a full recompute
of the rows' sums ``O(R K)`` per round. Measured (one core, numpy): Go's 8 groups on 103,832
positions of 59 candidates (6.2 million rows, 8 slots) take 3 s a round, 30 s for 10.
"""
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Positions:
    """Teacher positions: ``feats`` int32 ``(R, K)`` (one row per candidate, ids ``-1``
    padded), ``starts`` int64 ``(P,)`` (the first row of each position, increasing from 0;
    a position's rows run to the next start or to R), ``chosen`` int64 ``(P,)`` (the
    teacher's candidate, an index within its position's rows)."""
    feats: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray

    @staticmethod
    def from_list(items, slots=None) -> "Positions":
        """From ``[(feats, chosen), ...]``: ``feats`` array-like ``(n, k)`` of ids (-1
        padding; n >= 1), ``chosen`` in ``[0, n)``. ``ValueError`` otherwise."""
        items = list(items)
        width = slots or max([np.shape(f)[1] for f, _ in items] + [1])
        rows, starts, chosen, at = [], [], [], 0
        for f, c in items:
            f = np.asarray(f, dtype=np.int32).reshape(len(f), -1)
            if not len(f) or not 0 <= int(c) < len(f) or f.shape[1] > width:
                raise ValueError(f"position {len(starts)}: {len(f)} candidates of {f.shape[1]} "
                                 f"slots, chosen {c}")
            pad = np.full((len(f), width), -1, dtype=np.int32)
            pad[:, :f.shape[1]] = f
            rows.append(pad)
            starts.append(at)
            chosen.append(int(c))
            at += len(f)
        feats = np.concatenate(rows) if rows else np.zeros((0, width), np.int32)
        return Positions(feats, np.array(starts, np.int64), np.array(chosen, np.int64))

    @staticmethod
    def concat(parts) -> "Positions":
        """The positions of ``parts`` one after another."""
        parts = list(parts)
        width = max([p.feats.shape[1] for p in parts] + [1])
        feats, starts, chosen, at = [], [], [], 0
        for p in parts:
            f = np.full((len(p.feats), width), -1, dtype=np.int32)
            f[:, :p.feats.shape[1]] = p.feats
            feats.append(f)
            starts.append(p.starts + at)
            chosen.append(p.chosen)
            at += len(p.feats)
        if not feats:
            return Positions(np.zeros((0, width), np.int32), np.zeros(0, np.int64),
                             np.zeros(0, np.int64))
        return Positions(np.concatenate(feats), np.concatenate(starts), np.concatenate(chosen))

    def __len__(self):
        return len(self.starts)

    def position_of_rows(self) -> np.ndarray:
        """int64 ``(R,)``: the position of each row."""
        sizes = np.diff(np.r_[self.starts, len(self.feats)])
        return np.repeat(np.arange(len(self.starts)), sizes)

    def check(self, num_features):
        """``ValueError`` for ids outside ``[-1, num_features)`` or bad starts / chosen."""
        s, n = self.starts, len(self.feats)
        if len(s) and (s[0] != 0 or np.any(np.diff(s) <= 0) or s[-1] >= n):
            raise ValueError("starts must increase from 0 and leave each position a row")
        sizes = np.diff(np.r_[s, n])
        if len(self.chosen) != len(s) or np.any(self.chosen < 0) or np.any(self.chosen >= sizes):
            raise ValueError("each chosen index must name one of its position's candidates")
        if n and (self.feats.min() < -1 or self.feats.max() >= num_features):
            raise ValueError(f"feature ids must be -1 (none) or below {num_features}")


@dataclass
class Result:
    """What :func:`fit` returns: ``weights`` float64 ``(num_features,)`` (log gamma),
    ``objective`` the log-likelihood plus the prior's term before the first round and after
    each round (never decreasing), ``log_likelihoods`` the teacher moves' log-likelihood
    (natural log, summed over positions) at the same times, ``log_likelihood`` its last
    value, ``iterations`` the rounds
    run, ``converged`` whether the last round moved no weight by more than ``tol``."""
    weights: np.ndarray
    objective: list = field(default_factory=list)
    log_likelihoods: list = field(default_factory=list)
    log_likelihood: float = 0.0
    iterations: int = 0
    converged: bool = False


def _softmax(s, starts, pos):
    top = np.maximum.reduceat(s, starts)
    e = np.exp(s - top[pos])
    z = np.add.reduceat(e, starts)
    return e / z[pos], top, z


def log_likelihood(weights, data: Positions) -> float:
    """Sum over positions of ``log P(teacher's candidate)`` under ``weights``."""
    if not len(data):
        return 0.0
    ext = np.append(np.asarray(weights, dtype=np.float64), 0.0)
    s = ext[data.feats].sum(axis=1)
    _, top, z = _softmax(s, data.starts, data.position_of_rows())
    return float(np.sum(s[data.starts + data.chosen] - top - np.log(z)))


def top1(weights, data: Positions) -> float:
    """Share of positions whose teacher candidate has the highest sum of weights; a tie of
    m candidates at the top counts 1/m (uniform tie-breaking). NaN with no positions."""
    if not len(data):
        return float("nan")
    ext = np.append(np.asarray(weights, dtype=np.float64), 0.0)
    s = ext[data.feats].sum(axis=1)
    pos = data.position_of_rows()
    best = (s == np.maximum.reduceat(s, data.starts)[pos]).astype(np.float64)
    ties = np.add.reduceat(best, data.starts)
    return float(np.mean(best[data.starts + data.chosen] / ties))


def _prior_term(w, free, prior):
    wf = w[free]
    return float(prior * np.sum(wf - 2.0 * np.logaddexp(0.0, wf)))


def fit(data: Positions, num_features, groups=None, fixed=(), prior=1.0, tol=1e-6,
        max_iterations=100, weights=None, on_iteration=None) -> Result:
    """Coulom's MM (module docstring) on ``data``. ``groups``: a list of int arrays of
    feature ids updated together (features in no group, and ``fixed`` ones, stay at their
    start); default one group per feature. ``fixed``: ids left at their start (0: gamma 1).
    ``prior``: virtual wins and losses per feature (>= 0). ``weights``: the start (float64
    ``(num_features,)``, default zeros; not changed; with a prior, the free features that
    occur nowhere in ``data`` are set to 0, their optimum). ``on_iteration(k, objective)`` is
    called after each round. ``ValueError`` for bad data, a group with two features in one
    candidate, or (``prior = 0``) a free feature that never wins or always wins."""
    data.check(num_features)
    if prior < 0 or tol < 0 or max_iterations < 0:
        raise ValueError("prior, tol and max_iterations must not be negative")
    w = np.zeros(num_features) if weights is None else np.array(weights, dtype=np.float64)
    if w.shape != (num_features,):
        raise ValueError(f"weights must have shape ({num_features},)")
    if groups is None:
        groups = [np.array([i]) for i in range(num_features)]
    free = np.ones(num_features, bool)
    free[np.asarray(list(fixed), dtype=np.int64)] = False
    group_of = np.full(num_features + 1, -1, dtype=np.int64)
    for g, ids in enumerate(groups):
        ids = np.asarray(ids, dtype=np.int64)
        if len(ids) and (ids.min() < 0 or ids.max() >= num_features or np.any(group_of[ids] >= 0)):
            raise ValueError(f"group {g}: ids outside [0, {num_features}) or in two groups")
        group_of[ids] = g
    in_group = group_of[:-1] >= 0
    free &= in_group

    pos = data.position_of_rows()
    wins = data.feats[data.starts + data.chosen]
    W = np.bincount(wins[wins >= 0], minlength=num_features).astype(np.float64)
    occurs = np.bincount(data.feats[data.feats >= 0], minlength=num_features)
    in_prior = free.copy()          # the features whose virtual games count
    free &= occurs > 0              # an unseen feature's optimum is its start (prior = 0)
    if prior > 0:                   # or gamma 1
        w[in_prior & (occurs == 0)] = 0.0
    else:
        sure = free & ((W == 0) | (W == occurs))
        if np.any(sure):
            raise ValueError(f"feature {int(np.flatnonzero(sure)[0])} never wins or always "
                             "wins: no finite maximum likelihood without a prior")
    # The entries (row, id) of each group, checked for at most one per row.
    r_all, k_all = np.nonzero(data.feats >= 0)
    ids_all = data.feats[r_all, k_all].astype(np.int64)
    g_all = group_of[ids_all]
    keep = g_all >= 0
    r_all, ids_all, g_all = r_all[keep], ids_all[keep], g_all[keep]
    order = np.argsort(g_all, kind="stable")
    r_all, ids_all, g_all = r_all[order], ids_all[order], g_all[order]
    bounds = np.searchsorted(g_all, np.arange(len(groups) + 1))
    entries = []
    for g in range(len(groups)):
        rows, ids = r_all[bounds[g]:bounds[g + 1]], ids_all[bounds[g]:bounds[g + 1]]
        if len(rows) != len(np.unique(rows)):
            raise ValueError(f"group {g} has two features (or one twice) in one candidate: "
                             "its features cannot be updated together")
        upd = np.asarray(groups[g], dtype=np.int64)
        upd = upd[free[upd]]
        if len(upd):
            entries.append((rows, ids, upd))

    win_rows = data.starts + data.chosen
    log2p = np.log(2.0 * prior) if prior > 0 else -np.inf

    def record(s):
        ll = 0.0
        if len(data):
            _, top, z = _softmax(s, data.starts, pos)
            ll = float(np.sum(s[win_rows] - top - np.log(z)))
        result.log_likelihoods.append(ll)
        result.objective.append(ll + _prior_term(w, in_prior, prior))

    def sums():
        return np.append(w, 0.0)[data.feats].sum(axis=1)

    s = sums()
    result = Result(w)
    record(s)
    for it in range(1, max_iterations + 1):
        moved = 0.0
        for rows, ids, upd in entries:
            p = _softmax(s, data.starts, pos)[0] if len(data) else s
            denom = np.bincount(ids, weights=p[rows], minlength=num_features)[upd]
            old = w[upd]
            with np.errstate(divide="ignore"):
                log_den = np.logaddexp(np.log(denom) - old, log2p - np.logaddexp(0.0, old))
                new = np.log(W[upd] + prior) - log_den
            delta = np.zeros(num_features + 1)
            delta[upd] = new - old
            w[upd] = new
            s[rows] += delta[ids]       # rows are distinct: one feature of the group each
            moved = max(moved, float(np.max(np.abs(new - old))))
        s = sums()                  # no drift from the incremental updates
        record(s)
        result.iterations = it
        if on_iteration:
            on_iteration(it, result.objective[-1])
        if moved <= tol:
            result.converged = True
            break
    result.log_likelihood = log_likelihood(w, data)
    return result

