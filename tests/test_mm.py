"""Coulom's MM fit of the generalized Bradley-Terry model (mcts.mm) on cases whose optimum is
known in closed form, its monotone objective, and its agreement with the convex learner."""
import numpy as np
import pytest

from mcts import learn, mm


def repeat(candidates, counts):
    """Positions that all have ``candidates`` (lists of feature ids), the teacher choosing
    candidate j ``counts[j]`` times."""
    return [(candidates, j) for j, n in enumerate(counts) for _ in range(n)]


def pad(rows, width=3):
    return [list(r) + [-1] * (width - len(r)) for r in rows]


def test_one_feature_per_candidate_gives_the_choice_frequencies():
    """Every position offers features 0, 1, 2 (one each), chosen 5, 3 and 2 times: the
    likelihood is multinomial, maximal at gamma_i proportional to the counts. Feature 0
    is fixed at gamma 1, so gamma_1 = 3/5 and gamma_2 = 2/5 exactly."""
    data = mm.Positions.from_list(repeat(pad([[0], [1], [2]]), [5, 3, 2]))
    r = mm.fit(data, 3, groups=[[0, 1, 2]], fixed=[0], prior=0, tol=1e-12, max_iterations=2000)
    assert r.converged
    assert np.exp(r.weights) == pytest.approx([1, 3 / 5, 2 / 5], abs=1e-6)
    assert r.log_likelihood == pytest.approx(5 * np.log(.5) + 3 * np.log(.3) + 2 * np.log(.2))


def test_two_co_occurring_features_give_the_marginal_odds():
    """Candidates {}, {a}, {b}, {a, b} in every position, chosen n00, n10, n01, n11 times:
    gamma = a^x b^y is the independence model of a 2x2 table, whose maximum-likelihood
    fit has the margins' odds: a = (n10 + n11) / (n00 + n01), b = (n01 + n11) / (n00 + n10).
    a and b share a candidate, so they are updated in turn (two groups)."""
    n00, n10, n01, n11 = 7, 4, 3, 6
    data = mm.Positions.from_list(repeat(pad([[], [0], [1], [0, 1]]), [n00, n10, n01, n11]))
    r = mm.fit(data, 2, groups=[[0], [1]], prior=0, tol=1e-12, max_iterations=5000)
    assert r.converged
    assert np.exp(r.weights) == pytest.approx([(n10 + n11) / (n00 + n01),
                                               (n01 + n11) / (n00 + n10)], abs=1e-6)


def test_the_prior_adds_virtual_wins_and_losses():
    """Feature 1 against the fixed feature 0, chosen W of N times, plus a virtual wins and a
    virtual losses against gamma 1: the posterior mode is gamma = (W + a) / (N - W + a).
    Feature 3 occurs and never wins, and stays finite: (0 + a) / (4 + a). Feature 2 appears
    nowhere: it goes from its start 0.7 to 0 (gamma 1, its mode)."""
    W, N, a = 9, 12, 2.5
    items = repeat(pad([[0], [1]]), [N - W, W]) + repeat(pad([[0], [3]]), [4, 0])
    data = mm.Positions.from_list(items)
    r = mm.fit(data, 4, groups=[[0], [1], [2], [3]], fixed=[0], prior=a, tol=1e-13,
               weights=[0, 0, 0.7, 0], max_iterations=5000)
    assert r.converged
    assert np.exp(r.weights[1]) == pytest.approx((W + a) / (N - W + a), abs=1e-6)
    assert np.exp(r.weights[3]) == pytest.approx(a / (4 + a), abs=1e-6)
    assert r.weights[2] == 0.0


def random_data(seed, positions=300, features=12, slots=3):
    """Positions of 2-8 candidates with up to ``slots`` distinct features from three groups
    (0-3, 4-7, 8-11: at most one of each group per candidate), the teacher drawing from the
    softmax of hidden weights."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(0, 1.5, features)
    items = []
    for _ in range(positions):
        n = int(rng.integers(2, 9))
        rows = []
        for _ in range(n):
            ids = [g * 4 + int(rng.integers(4)) for g in range(3) if rng.random() < 0.7]
            rows.append(ids + [-1] * (slots - len(ids)))
        rows = np.array(rows)
        logits = np.where(rows >= 0, hidden[rows], 0).sum(axis=1)
        p = np.exp(logits - logits.max())
        items.append((rows, int(rng.choice(n, p=p / p.sum()))))
    return mm.Positions.from_list(items), [range(0, 4), range(4, 8), range(8, 12)]


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_the_objective_never_decreases(prior):
    data, groups = random_data(1)
    r = mm.fit(data, 12, groups=groups, prior=prior, tol=0, max_iterations=60)
    steps = np.diff(r.objective)
    assert len(steps) == 60
    assert steps.min() >= -1e-9
    assert steps[0] > 1.0                       # it does climb from weights 0
    assert r.log_likelihood == pytest.approx(r.log_likelihoods[-1], rel=1e-12)
    assert (r.objective == r.log_likelihoods) == (prior == 0)


def test_mm_optimum_is_the_convex_learners_optimum():
    """Without a prior the MM fixed point is the maximum-likelihood point of mcts.learn's
    cross-entropy with one-hot targets and no L2: its gradient there is zero, and Adam
    from zeros gets no lower loss."""
    data, groups = random_data(2)
    r = mm.fit(data, 12, groups=groups, prior=0, tol=1e-11, max_iterations=5000)
    assert r.converged
    pos = data.position_of_rows()
    target = np.zeros(len(pos))
    target[data.starts + data.chosen] = 1.0
    rows = learn.FeatureRows(data.feats, pos.astype(np.int64), target)
    loss, grad = learn.loss_and_gradient(r.weights, rows, l2=0.0)
    assert loss == pytest.approx(-r.log_likelihood / len(data), rel=1e-12)
    assert np.abs(grad).max() < 1e-8
    _, _, adam = learn.fit(np.zeros(12), rows, steps=1500, learning_rate=0.05, l2=0.0)
    assert adam >= loss - 1e-9
    assert adam == pytest.approx(loss, abs=1e-4)


def test_fixed_features_stay_and_top1_counts_ties_fairly():
    data, groups = random_data(3)
    r = mm.fit(data, 12, groups=groups, fixed=[5, 9], prior=1.0, max_iterations=30)
    assert r.weights[5] == 0.0 and r.weights[9] == 0.0
    assert np.all(r.weights[[0, 1, 2, 3]] != 0)
    # all-zero weights: every candidate ties, top-1 is the mean of 1 / candidates
    sizes = np.diff(np.r_[data.starts, len(data.feats)])
    assert mm.top1(np.zeros(12), data) == pytest.approx(np.mean(1 / sizes))


def test_bad_input_is_refused_in_one_line():
    data = mm.Positions.from_list([(pad([[0, 1], [1]]), 0)])
    with pytest.raises(ValueError, match="two features"):
        mm.fit(data, 2, groups=[[0, 1]])
    with pytest.raises(ValueError, match="never wins or always wins"):
        mm.fit(data, 2, groups=[[0], [1]], prior=0)
    with pytest.raises(ValueError, match="below 2"):
        mm.fit(mm.Positions.from_list([(pad([[0], [2]]), 0)]), 2)
    with pytest.raises(ValueError, match="chosen 2"):
        mm.Positions.from_list([(pad([[0], [1]]), 2)])
