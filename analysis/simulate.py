"""Simulated paired studies with a known effect: does the analysis say what it should?

A study has ``n_workflows`` workflows (clusters) of varying size; each workflow draws a latent type
``(p_base, p_treat)`` from a finite mixture, so the true effect is known exactly:
``sum(weight * (p_treat - p_base))``. Within a pair the two arms share their uniform draw with
probability ``coupling`` (hard tasks fail in both arms), otherwise they are independent. Workflow types
make outcomes correlated within a workflow, which is what the task-clustered bootstrap must absorb.

Used by the tests (fewer studies and resamples) and by ``scripts/simulate_coverage.py`` (more).
This module knows nothing about records, tables or litellm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.stats import (
    cluster_bootstrap_ci,
    mcnemar_exact,
    mcnemar_midp,
    paired_bootstrap_ci,
    signflip_test,
)
from core.seeding import np_rng


@dataclass(frozen=True)
class Design:
    n_workflows: int = 80
    min_pairs: int = 2  # pairs per workflow ~ uniform on [min_pairs, max_pairs]
    max_pairs: int = 6
    # (weight, p_base, p_treat) per workflow type; heterogeneous effects across workflows
    types: tuple[tuple[float, float, float], ...] = ((0.4, 0.05, 0.35), (0.3, 0.10, 0.10), (0.3, 0.50, 0.60))
    coupling: float = 0.5

    @property
    def truth(self) -> float:
        """The true mean difference (a proportion): cluster sizes are independent of types."""
        w = np.array([t[0] for t in self.types])
        d = np.array([t[2] - t[1] for t in self.types])
        return float((w * d).sum() / w.sum())


# No effect in any workflow type; enough discordance that the exact tests are not starved of pairs.
NULL_DESIGN = Design(types=((0.4, 0.2, 0.2), (0.3, 0.4, 0.4), (0.3, 0.6, 0.6)), coupling=0.2)


@dataclass
class Study:
    y_base: np.ndarray
    y_treat: np.ndarray
    workflow: np.ndarray


def simulate_study(design: Design, seed: int = 0, index: int = 0) -> Study:
    gen = np_rng(seed, "simulate_study", index)
    w = np.array([t[0] for t in design.types], dtype=float)
    kinds = gen.choice(len(design.types), size=design.n_workflows, p=w / w.sum())
    sizes = gen.integers(design.min_pairs, design.max_pairs + 1, size=design.n_workflows)
    workflow = np.repeat(np.arange(design.n_workflows), sizes)
    pb = np.array([t[1] for t in design.types])[kinds][workflow]
    pt = np.array([t[2] for t in design.types])[kinds][workflow]
    u_base = gen.random(workflow.size)
    u_own = gen.random(workflow.size)
    shared = gen.random(workflow.size) < design.coupling
    u_treat = np.where(shared, u_base, u_own)
    return Study((u_base < pb).astype(int), (u_treat < pt).astype(int), workflow)


def coverage(
    design: Design = Design(),
    n_studies: int = 1_000,
    n_resamples: int = 2_000,
    level: float = 0.95,
    seed: int = 0,
    method: str = "cluster",
) -> dict:
    """Share of simulated studies whose percentile CI covers the true effect.

    ``method`` "cluster" is the task-clustered bootstrap the tables report; "iid" resamples pairs
    and ignores workflows (shown beside it to make the clustering visible).
    """
    if method not in ("cluster", "iid"):
        raise ValueError(f"method must be 'cluster' or 'iid', got {method!r}")
    hits, widths = 0, []
    for s in range(n_studies):
        st = simulate_study(design, seed, s)
        d, boot_seed = st.y_treat - st.y_base, seed * 1_000_003 + s
        if method == "cluster":
            lo, hi = cluster_bootstrap_ci(d, st.workflow, n_resamples, level, boot_seed)
        else:
            lo, hi = paired_bootstrap_ci(d, n_resamples, level, boot_seed)
        hits += lo <= design.truth <= hi
        widths.append(hi - lo)
    return {
        "truth_points": 100 * design.truth,
        "coverage": hits / n_studies,
        "mean_width_points": 100 * float(np.mean(widths)),
        "n_studies": n_studies,
        "n_resamples": n_resamples,
        "method": method,
    }


def null_rejection(
    design: Design = NULL_DESIGN, n_studies: int = 2_000, alpha: float = 0.05, seed: int = 0
) -> dict:
    """Rejection rates at ``alpha`` of exact McNemar, mid-p McNemar and the cluster sign-flip under a true null."""
    if abs(design.truth) > 1e-12:
        raise ValueError(f"null_rejection needs a design with no effect, got truth {design.truth}")
    rej = {"mcnemar": 0, "midp": 0, "signflip": 0}
    for s in range(n_studies):
        st = simulate_study(design, seed, s)
        d = st.y_treat - st.y_base
        wins, losses = int((d > 0).sum()), int((d < 0).sum())
        rej["mcnemar"] += mcnemar_exact(wins, losses) <= alpha
        rej["midp"] += mcnemar_midp(wins, losses) <= alpha
        rej["signflip"] += signflip_test(d, st.workflow) <= alpha
    return {k: v / n_studies for k, v in rej.items()} | {"n_studies": n_studies, "alpha": alpha}
