"""Statistical validation on simulated clustered paired studies with a known effect.

The suite uses 1,000 studies with 2,000 cluster-bootstrap resamples each (the tables use 10,000);
``scripts/simulate_coverage.py`` runs the fuller version and prints the figures.
"""

import numpy as np
import pytest

from analysis.simulate import NULL_DESIGN, Design, coverage, null_rejection, simulate_study


def test_truth_is_the_mean_difference_of_the_design():
    d = Design()
    diffs = [np.mean(s.y_treat - s.y_base) for s in (simulate_study(d, 7, i) for i in range(400))]
    se = np.std(diffs) / np.sqrt(len(diffs))
    assert abs(np.mean(diffs) - d.truth) < 4 * se
    assert NULL_DESIGN.truth == 0.0


def test_studies_are_seeded_and_clustered():
    a, b = simulate_study(Design(), 1, 0), simulate_study(Design(), 1, 0)
    assert np.array_equal(a.y_treat, b.y_treat) and np.array_equal(a.workflow, b.workflow)
    assert not np.array_equal(a.y_treat, simulate_study(Design(), 1, 1).y_treat)
    assert len(np.unique(a.workflow)) == Design().n_workflows


@pytest.mark.slow
def test_cluster_bootstrap_covers_the_truth_about_95_percent():
    res = coverage(Design(), n_studies=1_000, n_resamples=2_000, seed=0)
    assert 0.93 <= res["coverage"] <= 0.97, res


@pytest.mark.slow
def test_tests_reject_a_true_null_at_about_five_percent():
    res = null_rejection(NULL_DESIGN, n_studies=1_000, alpha=0.05, seed=0)
    # exact McNemar and the exact sign-flip are conservative (discrete); mid-p sits closer to alpha
    assert 0.02 <= res["mcnemar"] <= 0.065, res
    assert 0.02 <= res["signflip"] <= 0.065, res
    assert 0.03 <= res["midp"] <= 0.07, res


def test_null_rejection_refuses_a_design_with_an_effect():
    with pytest.raises(ValueError):
        null_rejection(Design(), n_studies=1)
