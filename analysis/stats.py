"""Paired-binary statistics: exact McNemar, bootstrap CIs, cluster sign-flip test, exact power, MDE, Holm.

Inputs are plain numpy arrays (per-pair differences ``y_treat - y_base`` in {-1, 0, 1} and a cluster
label per pair, the workflow). Every random draw comes from ``core.seeding.np_rng`` with a
``seed`` argument defaulting to 0. This module knows nothing about records, tables or litellm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from scipy import optimize, special
from scipy import stats as sps

from core.seeding import np_rng

# Keeps one (resamples x clusters) block of the bootstrap below ~32 MB of int64 indices.
_MAX_BLOCK = 4_000_000


def _half_cdf(k: int | np.ndarray, n: int | np.ndarray) -> np.ndarray:
    """P(X <= k) for X ~ Bin(n, 1/2) (scipy.special.bdtr: the ufunc, without rv_discrete's overhead)."""
    return special.bdtr(k, n, 0.5)


def _half_pmf(k: int | np.ndarray, n: int | np.ndarray) -> np.ndarray:
    """P(X = k) for X ~ Bin(n, 1/2), in logs so large n neither overflows nor underflows early."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    return np.exp(
        special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1) - n * math.log(2)
    )


def mcnemar_exact(wins: int, losses: int) -> float:
    """Two-sided exact McNemar p: binomial test of the discordant pairs at 1/2 (p = 1 with none)."""
    n = int(wins) + int(losses)
    if n == 0:
        return 1.0
    k = min(int(wins), int(losses))
    return float(min(1.0, 2.0 * _half_cdf(k, n)))


def mcnemar_midp(wins: int, losses: int) -> float:
    """Mid-p McNemar (Fagerland et al. 2013): the exact p minus the probability of the observed table."""
    n = int(wins) + int(losses)
    if n == 0:
        return 1.0
    k = min(int(wins), int(losses))
    return float(min(1.0, 2.0 * (_half_cdf(k, n) - 0.5 * _half_pmf(k, n))))


def _codes(clusters: Sequence | np.ndarray) -> tuple[np.ndarray, int]:
    """Cluster labels (any hashable kind) -> 0..K-1 codes and K."""
    arr = np.asarray(clusters)
    if arr.dtype.kind not in "iub":
        arr = arr.astype(str)
    _, codes = np.unique(arr, return_inverse=True)
    return codes.ravel(), int(codes.max()) + 1 if len(codes) else 0


def _percentile(stats: np.ndarray, level: float) -> tuple[float, float]:
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


def cluster_bootstrap_ci(
    diff: Sequence[float] | np.ndarray,
    clusters: Sequence | np.ndarray,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile CI of the mean difference, resampling whole clusters (workflows) with all their pairs.

    The statistic is the ratio estimator sum(diff in drawn clusters) / (pairs in drawn clusters), from
    per-cluster sums via bincount; draws are a (B, K) index array, in blocks to bound memory.
    """
    d = np.asarray(diff, dtype=float)
    if d.size == 0:
        return (math.nan, math.nan)
    codes, k = _codes(clusters)
    # one complex gather carries both the per-cluster sums (real) and pair counts (imaginary)
    packed = np.bincount(codes, weights=d, minlength=k) + 1j * np.bincount(codes, minlength=k)
    gen = np_rng(seed, "cluster_bootstrap", int(d.size), k)
    block = max(1, _MAX_BLOCK // k)
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        tot = packed[gen.integers(0, k, size=(stop - start, k))].sum(axis=1)
        out[start:stop] = tot.real / tot.imag
    return _percentile(out, level)


def paired_bootstrap_ci(
    diff: Sequence[float] | np.ndarray, n_resamples: int = 10_000, level: float = 0.95, seed: int = 0
) -> tuple[float, float]:
    """Percentile CI of the mean difference, resampling pairs independently (ignores clustering)."""
    d = np.asarray(diff, dtype=float)
    if d.size == 0:
        return (math.nan, math.nan)
    gen = np_rng(seed, "paired_bootstrap", int(d.size))
    block = max(1, _MAX_BLOCK // d.size)
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        out[start:stop] = d[gen.integers(0, d.size, size=(stop - start, d.size))].mean(axis=1)
    return _percentile(out, level)


def _signflip_exact_integer(sums: np.ndarray, observed: float) -> float:
    """Exact null distribution of sum(+-s_i) for integer cluster sums by convolution over clusters.

    Equivalent to enumerating all 2^K sign patterns, but costs O(K * total) instead of O(2^K).
    """
    vals = np.abs(sums.astype(np.int64))
    total = int(vals.sum())
    probs = np.zeros(2 * total + 1)
    probs[total] = 1.0  # index total is the sum 0
    for v in vals:
        if v == 0:
            continue
        nxt = np.zeros_like(probs)
        nxt[v:] += 0.5 * probs[:-v]
        nxt[:-v] += 0.5 * probs[v:]
        probs = nxt
    support = np.arange(-total, total + 1)
    return float(min(1.0, probs[np.abs(support) >= abs(observed) - 1e-9].sum()))


def signflip_test(
    diff: Sequence[float] | np.ndarray,
    clusters: Sequence | np.ndarray,
    n_flips: int = 100_000,
    seed: int = 0,
    exact_max_clusters: int = 20,
) -> float:
    """Two-sided cluster sign-flip randomization p for a zero mean difference.

    Under the null each workflow's summed difference is symmetric about 0, so its sign is flipped.
    Exact when the sums are integers (paired binaries: by convolution, any K) or when at most
    ``exact_max_clusters`` clusters have a nonzero sum (full enumeration); otherwise ``n_flips``
    seeded random flips with the (1 + hits) / (1 + flips) estimate.
    """
    d = np.asarray(diff, dtype=float)
    if d.size == 0:
        return 1.0
    codes, k = _codes(clusters)
    sums = np.bincount(codes, weights=d, minlength=k)
    sums = sums[np.abs(sums) > 1e-12]
    observed = float(sums.sum())
    if sums.size == 0:
        return 1.0
    if np.allclose(sums, np.round(sums)):
        return _signflip_exact_integer(np.round(sums), observed)
    if sums.size <= exact_max_clusters:
        signs = 1 - 2 * ((np.arange(2**sums.size)[:, None] >> np.arange(sums.size)) & 1)
        null = signs @ sums
        return float(np.mean(np.abs(null) >= abs(observed) - 1e-9))
    gen = np_rng(seed, "signflip", int(d.size), int(sums.size))
    hits = 0
    block = max(1, _MAX_BLOCK // sums.size)
    for start in range(0, n_flips, block):
        stop = min(n_flips, start + block)
        signs = gen.integers(0, 2, size=(stop - start, sums.size)) * 2 - 1
        hits += int(np.sum(np.abs(signs @ sums) >= abs(observed) - 1e-9))
    return (1 + hits) / (1 + n_flips)


@lru_cache(maxsize=64)
def _critical_counts(n: int, alpha: float, midp: bool) -> np.ndarray:
    """For d = 0..n discordant pairs, the largest min(b, d-b) the test rejects at ``alpha`` (-1: none).

    The exact McNemar p is symmetric and falls as min(b, d-b) falls, so the rejection region is the
    two tails b <= c_d and b >= d - c_d.
    """
    crit = np.full(n + 1, -1, dtype=np.int64)
    for d in range(1, n + 1):
        m = np.arange(d // 2 + 1)
        p = 2.0 * _half_cdf(m, d)
        if midp:
            p = p - _half_pmf(m, d)
        ok = np.nonzero(np.minimum(p, 1.0) <= alpha)[0]
        if ok.size:
            crit[d] = int(ok[-1])
    return crit


def mcnemar_exact_power(n: int, p10: float, p01: float, alpha: float = 0.05, midp: bool = False) -> float:
    """Exact power of the McNemar test with n pairs: D ~ Bin(n, psi) discordant, then b | D ~ Bin(D, p10/psi).

    ``p10`` is P(treatment succeeds, baseline fails), ``p01`` the reverse.
    """
    psi = p10 + p01
    if n <= 0 or psi <= 0:
        return 0.0
    q = min(1.0, max(0.0, p10 / psi))
    crit = _critical_counts(int(n), float(alpha), bool(midp))
    d = np.arange(n + 1)
    has = crit >= 0
    lower = np.where(has, special.bdtr(np.maximum(crit, 0), d, q), 0.0)
    # P(b >= d - c) = 1 - P(b <= d - c - 1)
    upper = np.where(has, 1.0 - special.bdtr(d - np.maximum(crit, 0) - 1, d, q), 0.0)
    upper = np.where(has & (d - crit - 1 < 0), 1.0, upper)
    return float(np.sum(_discordant_pmf(int(n), float(psi)) * np.minimum(1.0, lower + upper)))


@lru_cache(maxsize=256)
def _discordant_pmf(n: int, psi: float) -> np.ndarray:
    """P(D = d), d = 0..n: the same for every delta a root search tries at one (n, psi)."""
    pmf = sps.binom.pmf(np.arange(n + 1), n, psi)
    pmf.flags.writeable = False
    return pmf


@lru_cache(maxsize=1024)  # tables ask again for the same (n, psi): every contrast of a model has its n
def mde_exact(n: int, psi: float, power: float = 0.8, alpha: float = 0.05, midp: bool = False) -> float:
    """Smallest delta = p10 - p01 (a proportion) that the exact McNemar test detects with ``power``.

    ``psi`` is the discordance p10 + p01 (realized, or planned). NaN when even delta = psi is not
    enough (too few pairs or too little discordance).
    """
    if n <= 0 or not (0 < psi <= 1):
        return math.nan

    def gap(delta: float) -> float:
        return mcnemar_exact_power(n, (psi + delta) / 2, (psi - delta) / 2, alpha, midp) - power

    if gap(psi) < 0:
        return math.nan
    return float(optimize.brentq(gap, 1e-9, psi, xtol=1e-6))


def design_mde(n_pairs: int, discordance: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Design-stage MDE (a proportion): what a study of ``n_pairs`` can detect, fixed before it runs.

    The planned discordance comes from outside the run (e.g. the paper's (wins + losses) / n), so this
    is what prespecification needs; :func:`mde_exact` at the realized discordance is post-hoc. Same
    exact McNemar power. For clustered pairs pass the number of clusters when pairs within a cluster
    are strongly correlated (a conservative bound); pass pairs when they are close to independent.
    """
    if n_pairs < 1:
        raise ValueError(f"n_pairs must be at least 1, got {n_pairs}")
    if not 0 < discordance <= 1:
        raise ValueError(f"discordance must be in (0, 1], got {discordance}")
    return mde_exact(int(n_pairs), float(discordance), power, alpha)


def connor_n(p10: float, p01: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Connor (1987) normal-approximation number of pairs for a two-sided McNemar test (rounded up)."""
    psi, delta = p10 + p01, p10 - p01
    za, zb = sps.norm.ppf(1 - alpha / 2), sps.norm.ppf(power)
    n = (za * math.sqrt(psi) + zb * math.sqrt(psi - delta**2)) ** 2 / delta**2
    return math.ceil(n - 1e-9)


def connor_mde(n: int, psi: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Connor's approximate MDE (root in delta of his sample-size formula); ~3-4% optimistic vs exact."""
    za, zb = sps.norm.ppf(1 - alpha / 2), sps.norm.ppf(power)

    def gap(delta: float) -> float:
        return (za * math.sqrt(psi) + zb * math.sqrt(max(psi - delta**2, 0.0))) ** 2 / delta**2 - n

    if gap(psi) > 0:
        return math.nan
    return float(optimize.brentq(gap, 1e-9, psi))


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (NaN entries stay NaN and do not count toward the family)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, math.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


def paired_effect(
    y_base: Sequence | np.ndarray,
    y_treat: Sequence | np.ndarray,
    clusters: Sequence | np.ndarray,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    seed: int = 0,
    level: float = 0.95,
    power: float = 0.8,
) -> dict:
    """Every paired-completion figure for one comparison; rates and deltas in percentage points."""
    yb = np.asarray(y_base, dtype=int)
    yt = np.asarray(y_treat, dtype=int)
    n = int(yb.size)
    d = yt - yb
    wins, losses = int(np.sum(d > 0)), int(np.sum(d < 0))
    lo, hi = cluster_bootstrap_ci(d, clusters, n_resamples, level, seed)
    ilo, ihi = paired_bootstrap_ci(d, n_resamples, level, seed)
    psi = (wins + losses) / n if n else math.nan
    mde = mde_exact(n, psi, power) if n and psi > 0 else math.nan  # post-hoc: at the realized discordance
    pct = 100.0 / n if n else math.nan
    return {
        "n": n,
        "n_clusters": len(set(map(str, np.asarray(clusters, dtype=object)))) if n else 0,
        "baseline_successes": int(yb.sum()),
        "monitor_successes": int(yt.sum()),
        "baseline_pct": float(yb.sum() * pct),
        "monitor_pct": float(yt.sum() * pct),
        "delta_points": float((yt.sum() - yb.sum()) * pct),
        "wins": wins,
        "losses": losses,
        "ci_low": lo * 100,
        "ci_high": hi * 100,
        "ci_iid_low": ilo * 100,
        "ci_iid_high": ihi * 100,
        "p_mcnemar": mcnemar_exact(wins, losses),
        "p_midp": mcnemar_midp(wins, losses),
        "p_signflip": signflip_test(d, clusters, n_flips, seed) if n else 1.0,
        "discordance": psi,
        "mde_points": mde * 100 if not math.isnan(mde) else math.nan,
    }
