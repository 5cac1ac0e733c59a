"""The learner of the learned playout policy: a linear softmax over binary move features,
fitted by maximum likelihood to the move distributions of a deeper search.

**Objective.** Each training position ``t`` has candidates ``i`` (the game's ``move_features``)
with feature sets ``F_ti`` and a target distribution ``pi_t`` (the visit shares of an MCTS
at the position, restricted to the candidates and renormalised). The policy is
``p_w(i | t) = exp(sum_{f in F_ti} w_f) / sum_j exp(sum_{f in F_tj} w_f)`` and the learner
minimises the cross-entropy plus an L2 penalty::

    L(w) = - (1 / T) sum_t sum_i pi_ti log p_w(i | t) + (l2 / 2) |w|^2
    dL/dw_f = (1 / T) sum_t sum_i (p_w(i | t) - pi_ti) [f in F_ti] + l2 w_f

This is the generalised Bradley-Terry model of Coulom 2007 ("Computing Elo ratings of move
patterns in the game of Go") and the supervised rollout policy of Silver et al. 2016
("Mastering the game of Go with deep neural networks and tree search"), with the search's
visit distribution (as in AlphaZero's policy target) in place of expert moves. It is convex,
so every run from the same data reaches the same optimum, and cheap. Simulation balancing
(Silver and Tesauro 2009; Huang, Coulom and Lin 2010) targets the playouts' mean outcome
instead, and would need many playouts per training position; a stronger move predictor is
not always a better playout policy, so the result is judged at equal time by matches
(``cli.py arena``), not by this loss.

**Optimiser.** Full-batch Adam (Kingma and Ba 2015) for a fixed number of steps: the same
data and start give the same weights on every machine.

**Data** (:class:`FeatureRows`): one row per (position, candidate), the positions' rows
contiguous: ``feats`` int32 ``(R, K)`` (feature ids, ``-1`` padding), ``group`` int64 ``(R,)``
(the position of each row, non-decreasing) and ``target`` float64 ``(R,)`` (``pi_ti``, summing
to 1 over each position's rows).
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class FeatureRows:
    """Training rows (see the module docstring): ``feats`` int32 (R, K), ``group`` int64 (R,),
    ``target`` float64 (R,)."""
    feats: np.ndarray
    group: np.ndarray
    target: np.ndarray

    @property
    def positions(self) -> int:
        """One more than the largest position number (numbers may skip positions)."""
        return int(self.group[-1]) + 1 if len(self.group) else 0

    @property
    def count(self) -> int:
        """The number of positions with rows (T of the module docstring)."""
        return len(_starts(self.group)) if len(self.group) else 0

    @staticmethod
    def concat(parts) -> "FeatureRows":
        """The rows of ``parts`` one after another, positions renumbered."""
        parts = [p for p in parts if len(p.group)]
        if not parts:
            return FeatureRows(np.zeros((0, 1), np.int32), np.zeros(0, np.int64), np.zeros(0))
        width = max(p.feats.shape[1] for p in parts)
        feats, groups, offset = [], [], 0
        for p in parts:
            f = np.full((len(p.group), width), -1, dtype=np.int32)
            f[:, :p.feats.shape[1]] = p.feats
            feats.append(f)
            groups.append(p.group + offset)
            offset += p.positions
        return FeatureRows(np.concatenate(feats), np.concatenate(groups),
                           np.concatenate([p.target for p in parts]))


def _starts(group):
    return np.flatnonzero(np.r_[True, group[1:] != group[:-1]])


def probabilities(weights, rows: FeatureRows) -> np.ndarray:
    """The policy's probability of each row's candidate within its position: float64 (R,)."""
    ext = np.append(np.asarray(weights, dtype=np.float64), 0.0)   # id -1 reads the 0 at the end
    logits = ext[rows.feats].sum(axis=1)
    starts = _starts(rows.group)
    top = np.maximum.reduceat(logits, starts)
    sizes = np.diff(np.r_[starts, len(logits)])
    e = np.exp(logits - np.repeat(top, sizes))
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def loss_and_gradient(weights, rows: FeatureRows, l2: float = 0.0):
    """``(L(w), dL/dw)`` of the module docstring; the gradient is float64 (num_features,)."""
    w = np.asarray(weights, dtype=np.float64)
    positions = max(rows.count, 1)
    p = probabilities(w, rows)
    loss = -np.sum(rows.target * np.log(np.maximum(p, 1e-300))) / positions
    loss += 0.5 * l2 * float(w @ w)
    diff = (p - rows.target) / positions
    k = rows.feats.shape[1]
    grad = np.bincount(rows.feats.ravel() + 1, weights=np.repeat(diff, k),
                       minlength=len(w) + 1)[1:]
    return loss, grad + l2 * w


def fit(weights, rows: FeatureRows, steps: int = 300, learning_rate: float = 0.05,
        l2: float = 1e-4):
    """Adam on :func:`loss_and_gradient` from ``weights`` (float64 (num_features,), not
    changed) for ``steps`` steps; returns ``(new weights, loss before, loss after)``.
    ``ValueError`` for rows whose feature ids are outside the weight vector."""
    w = np.array(weights, dtype=np.float64)
    if len(rows.group) == 0:
        return w, float("nan"), float("nan")
    if rows.feats.max() >= len(w) or rows.feats.min() < -1:
        raise ValueError(f"feature ids must be -1 (none) or below {len(w)}")
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    before = None
    for t in range(1, steps + 1):
        loss, g = loss_and_gradient(w, rows, l2)
        before = loss if before is None else before
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= learning_rate * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return w, float(before), float(loss_and_gradient(w, rows, l2)[0])
