import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from analysis import stats


@pytest.mark.parametrize("b,c", [(48, 34), (0, 5), (3, 3), (10, 0), (17, 2), (400, 350)])
def test_mcnemar_exact_matches_binomtest(b, c):
    assert stats.mcnemar_exact(b, c) == pytest.approx(sps.binomtest(b, b + c, 0.5).pvalue, rel=1e-9)


def test_zero_discordant_pairs_give_p_one():
    assert stats.mcnemar_exact(0, 0) == 1.0
    assert stats.mcnemar_midp(0, 0) == 1.0
    assert stats.signflip_test(np.zeros(10), np.arange(10)) == 1.0


@pytest.mark.parametrize("b,c", [(48, 34), (2, 9), (0, 4)])
def test_midp_is_exact_minus_observed_table(b, c):
    k, n = min(b, c), b + c
    expected = 2 * (sps.binom.cdf(k, n, 0.5) - 0.5 * sps.binom.pmf(k, n, 0.5))
    assert stats.mcnemar_midp(b, c) == pytest.approx(expected, rel=1e-9)
    assert stats.mcnemar_midp(b, c) < stats.mcnemar_exact(b, c)


def test_connor_reproduces_published_example():
    assert stats.connor_n(0.05, 0.45, alpha=0.05, power=0.8) == 23


def test_exact_power_matches_enumeration_of_all_tables():
    n, p10, p01 = 9, 0.3, 0.1
    expected = 0.0
    probs = (p10, p01, 1 - p10 - p01)
    for b, c in itertools.product(range(n + 1), repeat=2):
        if b + c > n:
            continue
        prob = sps.multinomial.pmf([b, c, n - b - c], n, probs)
        if stats.mcnemar_exact(b, c) <= 0.05:
            expected += prob
    assert stats.mcnemar_exact_power(n, p10, p01) == pytest.approx(expected, rel=1e-9)


def test_exact_mde_is_larger_than_connors_and_hits_the_power():
    for n, psi in ((100, 0.2), (200, 0.2)):
        connor = stats.connor_mde(n, psi)
        exact = stats.mde_exact(n, psi)
        assert exact > connor
        at_connor = stats.mcnemar_exact_power(n, (psi + connor) / 2, (psi - connor) / 2)
        assert at_connor < 0.8
        at_exact = stats.mcnemar_exact_power(n, (psi + exact) / 2, (psi - exact) / 2)
        assert at_exact == pytest.approx(0.8, abs=1e-4)


def test_mde_is_nan_when_unreachable():
    assert math.isnan(stats.mde_exact(5, 0.05))


def test_holm_matches_step_down_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.2])
    # sorted: .01*4=.04, .03*3=.09, .04*2=.08 -> running max .09, .2*1=.2
    expected = np.array([0.04, 0.09, 0.09, 0.2])
    assert np.allclose(stats.holm(p), expected)
    with_nan = stats.holm([0.01, np.nan, 0.04])
    assert math.isnan(with_nan[1]) and np.allclose(with_nan[[0, 2]], [0.02, 0.04])


def _brute_signflip(diff, clusters):
    sums = np.array([diff[clusters == k].sum() for k in np.unique(clusters)])
    obs = abs(sums.sum())
    null = [abs(np.dot(s, sums)) for s in itertools.product((-1, 1), repeat=sums.size)]
    return np.mean(np.array(null) >= obs - 1e-9)


def test_signflip_exact_matches_brute_enumeration():
    gen = np.random.default_rng(3)
    diff = gen.choice([-1, 0, 1], size=40, p=[0.2, 0.5, 0.3])
    clusters = np.repeat(np.arange(10), 4)
    assert stats.signflip_test(diff, clusters) == pytest.approx(_brute_signflip(diff, clusters), rel=1e-9)


def test_signflip_monte_carlo_close_to_exact_and_seeded():
    gen = np.random.default_rng(4)
    diff = gen.choice([-1, 0, 1], size=120, p=[0.2, 0.5, 0.3])
    clusters = np.repeat(np.arange(30), 4)
    exact = stats.signflip_test(diff, clusters)
    scaled = diff * 1.1  # non-integer sums: no exact shortcut, same p in exact arithmetic
    mc = stats.signflip_test(scaled, clusters, n_flips=100_000, seed=1)
    assert mc == stats.signflip_test(scaled, clusters, n_flips=100_000, seed=1)
    se = math.sqrt(exact * (1 - exact) / 100_000)
    assert abs(mc - exact) < 5 * se + 1e-4


def test_cluster_bootstrap_is_seeded_and_widens_with_clustering():
    gen = np.random.default_rng(5)
    per_cluster = gen.choice([-1, 0, 1], size=40, p=[0.2, 0.5, 0.3])
    diff = np.repeat(per_cluster, 5)  # identical pairs within a workflow: strong clustering
    clusters = np.repeat(np.arange(40), 5)
    a = stats.cluster_bootstrap_ci(diff, clusters, n_resamples=4000, seed=0)
    assert a == stats.cluster_bootstrap_ci(diff, clusters, n_resamples=4000, seed=0)
    assert a != stats.cluster_bootstrap_ci(diff, clusters, n_resamples=4000, seed=1)
    iid = stats.paired_bootstrap_ci(diff, n_resamples=4000, seed=0)
    assert a[0] <= diff.mean() <= a[1]
    assert (a[1] - a[0]) > 1.5 * (iid[1] - iid[0])


def test_paired_effect_with_no_discordance():
    y = np.array([0, 1, 1, 0, 1])
    e = stats.paired_effect(y, y, ["a", "a", "b", "c", "c"], n_resamples=500)
    assert e["p_mcnemar"] == 1.0 and e["p_signflip"] == 1.0
    assert (e["ci_low"], e["ci_high"]) == (0.0, 0.0)
    assert e["wins"] == e["losses"] == 0 and math.isnan(e["mde_points"])


def test_signflip_equals_exact_mcnemar_with_one_pair_per_cluster():
    gen = np.random.default_rng(6)
    diff = gen.choice([-1, 0, 1], size=60, p=[0.15, 0.6, 0.25])
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    assert stats.signflip_test(diff, np.arange(60)) == pytest.approx(
        stats.mcnemar_exact(wins, losses), rel=1e-9
    )
