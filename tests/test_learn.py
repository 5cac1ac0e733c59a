"""The learner of the learned playout policy (mcts.learn) on cases with a known answer."""
import numpy as np
import pytest

from mcts.learn import FeatureRows, fit, loss_and_gradient, probabilities


def rows(groups):
    """FeatureRows from [(list of feature-id lists, target list)] per position."""
    feats, group, target = [], [], []
    for g, (ids, pi) in enumerate(groups):
        width = 3
        for row, p in zip(ids, pi):
            feats.append(list(row) + [-1] * (width - len(row)))
            group.append(g)
            target.append(p)
    return FeatureRows(np.array(feats, np.int32), np.array(group, np.int64),
                       np.array(target, np.float64))


def test_one_hot_features_learn_the_log_ratios_of_the_targets():
    """With one feature per candidate, the maximum-likelihood weights satisfy
    w_a - w_b = log(pi_a / pi_b) exactly (softmax is the inverse of log)."""
    data = rows([([[0], [1], [2]], [0.5, 0.3, 0.2])])
    w, before, after = fit(np.zeros(3), data, steps=3000, learning_rate=0.05, l2=0.0)
    assert before == pytest.approx(np.log(3))
    assert w[0] - w[1] == pytest.approx(np.log(5 / 3), abs=1e-3)
    assert w[0] - w[2] == pytest.approx(np.log(5 / 2), abs=1e-3)
    entropy = -np.sum(np.array([0.5, 0.3, 0.2]) * np.log([0.5, 0.3, 0.2]))
    assert after == pytest.approx(entropy, abs=1e-6)


def test_targets_made_by_known_weights_give_those_weights_back():
    """Targets that are the softmax of known weights w* over shared features (positions
    chosen so that w* is identifiable) are fitted back to w*."""
    w_star = np.array([1.5, -0.5, 0.0, 2.0])
    positions = [[[0], [1], [2]], [[0, 3], [1], [2, 3]], [[3], [2]], [[0, 1], [2]]]
    groups = []
    for ids in positions:
        logits = np.array([w_star[r].sum() for r in ids])
        pi = np.exp(logits) / np.exp(logits).sum()
        groups.append((ids, list(pi)))
    w, _, _ = fit(np.zeros(4), rows(groups), steps=4000, learning_rate=0.05, l2=0.0)
    assert np.allclose(w, w_star, atol=2e-3)


def test_the_gradient_is_the_derivative_of_the_loss():
    rng = np.random.default_rng(3)
    groups = [([[0, 2], [1], [2, 3], []], list(rng.dirichlet([1] * 4))),
              ([[1, 3], [0]], [0.25, 0.75])]
    data = rows(groups)
    w = rng.normal(size=4)
    _, grad = loss_and_gradient(w, data, l2=0.1)
    for f in range(4):
        e = np.zeros(4)
        e[f] = 1e-6
        numeric = (loss_and_gradient(w + e, data, 0.1)[0] - loss_and_gradient(w - e, data, 0.1)[0]) / 2e-6
        assert grad[f] == pytest.approx(numeric, abs=1e-6)


def test_probabilities_sum_to_one_per_position_and_pad_ids_count_nothing():
    data = rows([([[0], [0, 1], []], [1, 0, 0]), ([[1], [1]], [0.5, 0.5])])
    p = probabilities(np.array([np.log(2.0), np.log(3.0)]), data)
    assert p[:3] == pytest.approx([2 / 9, 6 / 9, 1 / 9])
    assert p[3:] == pytest.approx([0.5, 0.5])


def test_ids_outside_the_weights_are_refused():
    with pytest.raises(ValueError, match="below 2"):
        fit(np.zeros(2), rows([([[0], [5]], [0.5, 0.5])]))
