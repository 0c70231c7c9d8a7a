"""Repeated trials (a study run with ``trials: k``): how stable an arm is, and how honest an effect's CI is.

With a sampled model an episode is one draw; a run that plays each pair k times gives, from its records:

- ``trials_pass``: per model and arm, tau-bench's pass^k (every one of k trials drawn from a task's n
  succeeds: the mean over tasks of C(c, k) / C(n, k)) and pass@k (at least one does: the mean of
  1 - C(n - c, k) / C(n, k)), for k = 1 .. the trials run; a task enters k's row when it has n >= k
  scored trials.
- ``trials_flips``: the share of tasks whose outcome differs across their trials, per arm, and of pairs
  whose paired difference (monitor minus baseline) differs across trials.
- ``trials_effect``: the paired effect over every trial with a nested bootstrap (resample the clusters,
  i.e. the tasks' groups, with all their tasks, then each task's trials with replacement), beside the
  single-trial effect of trial 0 with the cluster bootstrap Table 1 uses.
- ``trials_ci_width``: the nested CI from the first m trials, m = 1 .. k: how the CI narrows with trials.
- ``trials_design``: tasks needed to detect an effect at 80% power for a number of trials, from the run's
  own between-task and within-task (trial-to-trial: flips) variance of the paired difference.

A task is (study, model, task, fault, replicate); trials are its repetitions. Nothing here is written
for a run whose records hold one trial (every table is then as it was before trials existed).
Reads the records frame only; knows nothing of how episodes were run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from analysis.load import INFRA_STATUSES, World
from analysis.stats import _MAX_BLOCK, _codes, _percentile, cluster_bootstrap_ci
from analysis.view import View, resolve
from core.seeding import np_rng

TASK_KEY: tuple[str, ...] = ("study", "model", "task_id", "fault_class", "replicate")
DESIGN_TRIALS: tuple[int, ...] = (1, 2, 3, 4, 5, 8, 10)
PAIR_ARMS = ("monitor", "baseline")  # the paired effect's (treatment, baseline), as Table 1's


def trials_of(records: pd.DataFrame) -> pd.Series:
    """Each record's trial (0 for frames without the column: runs from before trials existed)."""
    if "trial" not in records.columns:
        return pd.Series(0, index=records.index, dtype=int)
    return records["trial"].fillna(0).astype(int)


def n_trials(records: pd.DataFrame) -> int:
    """How many distinct trials the records hold (1 for a run without trials)."""
    return int(trials_of(records).nunique()) if len(records) else 0


def has_trials(records: pd.DataFrame) -> bool:
    return n_trials(records) > 1


def pass_hat_k(n: int, c: int, k: int) -> float:
    """tau-bench's pass^k for one task: the chance that k of its n trials, drawn without replacement, all succeed."""
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k for one task: the chance that at least one of k of its n trials, drawn without replacement, succeeds."""
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _key(frame: pd.DataFrame) -> list[str]:
    return [c for c in TASK_KEY if c in frame.columns]


def scored(records: pd.DataFrame, endpoint: str = "success") -> pd.DataFrame:
    """Scored episodes (no infrastructure status, a value for the endpoint), the last record of each."""
    latest = records.drop_duplicates("episode_id", keep="last")  # a retried episode: its last record
    ok = latest[~latest["status"].isin(INFRA_STATUSES) & latest[endpoint].notna()].copy()
    ok["trial"] = trials_of(ok)
    ok["y"] = ok[endpoint].astype(bool).astype(int)
    for c in ("fault_class", "study"):
        if c in ok.columns:
            ok[c] = ok[c].fillna("none").astype(str)
    return ok


def task_counts(records: pd.DataFrame, endpoint: str = "success") -> pd.DataFrame:
    """(model, arm, task) -> n scored trials and c successes."""
    ok = scored(records, endpoint)
    key = _key(ok)
    g = ok.groupby([*key, "arm"], sort=True, dropna=False)["y"]
    return pd.DataFrame({"n": g.size(), "c": g.sum()}).reset_index()


def pass_rows(counts: pd.DataFrame, max_k: int) -> list[dict]:
    """A row per (model, arm, k): tasks with n >= k, pass^k and pass@k in percent."""
    rows = []
    for (model, arm), g in counts.groupby(["model", "arm"], sort=True):
        for k in range(1, max_k + 1):
            h = g[g["n"] >= k]
            if not len(h):
                continue
            hat = [pass_hat_k(int(n), int(c), k) for n, c in zip(h["n"], h["c"], strict=True)]
            at = [pass_at_k(int(n), int(c), k) for n, c in zip(h["n"], h["c"], strict=True)]
            rows.append({"model": model, "arm": arm, "k": k, "tasks": len(h),
                         "pass_hat_k_pct": 100.0 * float(np.mean(hat)), "pass_at_k_pct": 100.0 * float(np.mean(at))})  # fmt: skip
    return rows


def paired_trials(
    records: pd.DataFrame,
    treatment: str = PAIR_ARMS[0],
    baseline: str = PAIR_ARMS[1],
    endpoint: str = "success",
) -> pd.DataFrame:
    """One row per (pair, trial) both of whose arms were scored: task key, group, trial and d = y_treat - y_base."""
    ok = scored(records[records["arm"].isin([treatment, baseline])], endpoint)
    key = _key(ok)
    cols = [*key, "group_id", "trial", "pair_id", "y"]
    base = ok[ok["arm"] == baseline][cols].drop_duplicates("pair_id", keep="last")
    treat = ok[ok["arm"] == treatment][["pair_id", "y"]].drop_duplicates("pair_id", keep="last")
    pairs = base.merge(treat, on="pair_id", suffixes=("_base", "_treat"))
    pairs["d"] = pairs["y_treat"] - pairs["y_base"]
    pairs["task"] = pairs[key].astype(str).agg("|".join, axis=1) if len(pairs) else pd.Series(dtype=str)
    return pairs.sort_values([*key, "trial"], kind="stable").reset_index(drop=True)


def nested_bootstrap_ci(
    diff: Iterable[float] | np.ndarray,
    clusters: Iterable | np.ndarray,
    units: Iterable | np.ndarray,
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile CI of the mean difference with trials nested in tasks nested in clusters.

    Each resample draws clusters with replacement (with all their tasks), then, inside every drawn task,
    as many trials as it has with replacement; the statistic is the drawn differences' sum over their
    count (the ratio estimator of :func:`analysis.stats.cluster_bootstrap_ci`). Resampling both levels
    carries the trial-to-trial variance and the between-task variance into the interval.
    """
    d = np.asarray(list(diff) if not isinstance(diff, np.ndarray) else diff, dtype=float)
    if d.size == 0:
        return (math.nan, math.nan)
    ucodes, n_units = _codes(np.asarray(list(units), dtype=object).astype(str))
    ccodes, n_clusters = _codes(np.asarray(list(clusters), dtype=object).astype(str))
    unit_cluster = np.zeros(n_units, dtype=int)
    unit_cluster[ucodes] = ccodes
    counts = np.bincount(ucodes, minlength=n_units)
    width = int(counts.max())
    order = np.argsort(ucodes, kind="stable")
    starts = np.cumsum(counts) - counts
    pad = np.zeros((n_units, width))
    pad[ucodes[order], np.arange(d.size) - np.repeat(starts, counts)] = d[order]
    onehot = np.zeros((n_units, n_clusters))
    onehot[np.arange(n_units), unit_cluster] = 1.0
    cluster_n = counts @ onehot
    live = np.arange(width)[None, :] < counts[:, None]  # (units, width): the trials a task has
    gen = np_rng(seed, "nested_bootstrap", int(d.size), n_units, n_clusters)
    block = max(1, _MAX_BLOCK // max(1, n_units * width + n_clusters))
    out = np.empty(n_resamples)
    rows = np.arange(n_units)[None, :, None]
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        b = stop - start
        pick = (gen.random((b, n_units, width)) * counts[None, :, None]).astype(int)
        unit_sums = (pad[rows, pick] * live[None]).sum(axis=2)  # (b, units)
        cluster_sums = unit_sums @ onehot  # (b, clusters)
        drawn = gen.integers(0, n_clusters, size=(b, n_clusters))
        tot = np.take_along_axis(cluster_sums, drawn, axis=1).sum(axis=1)
        out[start:stop] = tot / cluster_n[drawn].sum(axis=1)
    return _percentile(out, level)


def _by_model(pairs: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    out = [(str(m), g) for m, g in pairs.groupby("model", sort=True)]
    if len(out) > 1:
        out.append(("pooled", pairs))
    return out


def effect_rows(pairs: pd.DataFrame, seed: int, n_resamples: int) -> list[dict]:
    """Per model (and pooled): the effect over every trial with its nested CI, beside trial 0's alone."""
    rows = []
    for model, g in _by_model(pairs):
        lo, hi = nested_bootstrap_ci(g["d"], g["group_id"], g["task"], n_resamples, seed=seed)
        first = g[g["trial"] == g["trial"].min()]
        slo, shi = cluster_bootstrap_ci(first["d"].to_numpy(float), first["group_id"], n_resamples, seed=seed)
        rows.append({
            "model": model, "tasks": int(g["task"].nunique()), "trials": int(g["trial"].nunique()), "pairs": len(g),
            "delta_points": 100.0 * float(g["d"].mean()), "ci_low": 100.0 * lo, "ci_high": 100.0 * hi,
            "ci_width_points": 100.0 * (hi - lo),
            "single_trial_delta_points": 100.0 * float(first["d"].mean()),
            "single_ci_low": 100.0 * slo, "single_ci_high": 100.0 * shi, "single_ci_width_points": 100.0 * (shi - slo),
        })  # fmt: skip
    return rows


def width_rows(pairs: pd.DataFrame, seed: int, n_resamples: int) -> list[dict]:
    """Per model (and pooled) and m = 1 .. k: the nested CI from the first m trials of every task."""
    rows = []
    trials = sorted(pairs["trial"].unique())
    for model, g in _by_model(pairs):
        for m in range(1, len(trials) + 1):
            h = g[g["trial"].isin(trials[:m])]
            lo, hi = nested_bootstrap_ci(h["d"], h["group_id"], h["task"], n_resamples, seed=seed)
            rows.append({"model": model, "trials_used": m, "pairs": len(h), "delta_points": 100.0 * float(h["d"].mean()),
                         "ci_low": 100.0 * lo, "ci_high": 100.0 * hi, "ci_width_points": 100.0 * (hi - lo)})  # fmt: skip
    return rows


def flip_rows(counts: pd.DataFrame, pairs: pd.DataFrame) -> list[dict]:
    """Per model and arm: tasks with at least two trials and the share whose outcome flips across them;
    then the same for the paired difference (``arm``: ``monitor - baseline``)."""
    rows = []
    for (model, arm), g in counts.groupby(["model", "arm"], sort=True):
        h = g[g["n"] >= 2]
        flips = int(((h["c"] > 0) & (h["c"] < h["n"])).sum())
        rows.append({"model": model, "arm": arm, "tasks": len(h), "flipping_tasks": flips,
                     "flip_pct": 100.0 * flips / len(h) if len(h) else math.nan,
                     "always_pct": 100.0 * float((h["c"] == h["n"]).mean()) if len(h) else math.nan,
                     "never_pct": 100.0 * float((h["c"] == 0).mean()) if len(h) else math.nan})  # fmt: skip
    for model, g in pairs.groupby("model", sort=True):
        per = g.groupby("task")["d"].agg(["nunique", "size"])
        per = per[per["size"] >= 2]
        flips = int((per["nunique"] > 1).sum())
        rows.append({"model": model, "arm": f"{PAIR_ARMS[0]} - {PAIR_ARMS[1]}", "tasks": len(per), "flipping_tasks": flips,
                     "flip_pct": 100.0 * flips / len(per) if len(per) else math.nan})  # fmt: skip
    return rows


def flip_marks(records: pd.DataFrame, endpoint: str = "success") -> dict[str, str]:
    """episode_id -> a mark for the transcript list: ``flips c/n`` when its task's outcome in this arm
    differs across trials, ``stable c/n`` when it does not; nothing for a run without trials."""
    if not has_trials(records):
        return {}
    ok = scored(records, endpoint)
    key = [*_key(ok), "arm"]
    stats = ok.groupby(key, sort=False, dropna=False)["y"].agg(["sum", "size"]).reset_index()
    merged = ok[[*key, "episode_id"]].merge(stats, on=key, how="left")
    out = {}
    for eid, c, n in zip(merged["episode_id"], merged["sum"], merged["size"], strict=True):
        if n >= 2:
            out[str(eid)] = f"{'flips' if 0 < c < n else 'stable'} {int(c)}/{int(n)}"
    return out


@dataclass(frozen=True)
class Variance:
    """The paired difference's variance split: between tasks (their true effects) and within (trial to trial)."""

    tasks: int
    mean_trials: float
    within: float  # pooled within-task variance of d across trials
    between: float  # variance of the tasks' own effects (moment estimate, floored at 0)
    delta: float  # the run's mean difference (a proportion)


def variance_parts(pairs: pd.DataFrame) -> Variance:
    """One-way random-effects moments of d = y_treat - y_base with tasks as groups (unequal trials allowed)."""
    per = pairs.groupby("task")["d"]
    n, means, var = per.size(), per.mean(), per.var(ddof=1)
    multi = n >= 2
    dof = float((n[multi] - 1).sum())
    within = float(((n[multi] - 1) * var[multi]).sum() / dof) if dof > 0 else math.nan
    inv = float((1.0 / n).mean()) if len(n) else math.nan
    spread = float(means.var(ddof=1)) if len(means) > 1 else math.nan
    between = max(0.0, spread - within * inv) if not math.isnan(within) else spread
    return Variance(
        len(n), float(n.mean()) if len(n) else math.nan, within, between, float(pairs["d"].mean())
    )


def tasks_needed(v: Variance, effect: float, trials: int, power: float = 0.8, alpha: float = 0.05) -> float:
    """Tasks for a two-sided z test of the mean paired difference to reach ``power`` at ``effect`` (a proportion)
    with ``trials`` trials per task: (z_{1-alpha/2} + z_power)^2 (between + within / trials) / effect^2."""
    if not effect or math.isnan(v.within) or math.isnan(v.between):
        return math.nan
    z = sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)
    return float(math.ceil(z**2 * (v.between + v.within / trials) / effect**2 - 1e-9))


def design_rows(
    pairs: pd.DataFrame, effect: float | None = None, trials: Iterable[int] = DESIGN_TRIALS, power: float = 0.8,
    alpha: float = 0.05,
) -> list[dict]:  # fmt: skip
    """Per model (and pooled) and number of trials: tasks and episodes needed at ``power`` for ``effect``
    (a proportion; None: the run's own delta), from the run's variance parts."""
    rows = []
    for model, g in _by_model(pairs):
        v = variance_parts(g)
        target = abs(effect) if effect is not None else abs(v.delta)
        for k in sorted(set(trials) | {int(g["trial"].nunique())}):
            n = tasks_needed(v, target, k, power, alpha)
            rows.append({"model": model, "effect_points": 100.0 * target, "trials": k, "tasks_needed": n,
                         "episodes_needed": 2 * n * k if not math.isnan(n) else math.nan,
                         "between_sd_points": 100.0 * math.sqrt(v.between) if not math.isnan(v.between) else math.nan,
                         "within_sd_points": 100.0 * math.sqrt(v.within) if not math.isnan(v.within) else math.nan})  # fmt: skip
    return rows


def trials_tables(
    records: pd.DataFrame,
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    world: World | View | None = None,
    endpoint: str = "success",
) -> list:
    """Every trials table, or [] when the records hold one trial (a run's tables are then as before)."""
    from analysis.tables import Table, titled  # tables imports this module lazily: no cycle at import

    recs = records if study is None else records[records["study"] == study]
    if not has_trials(recs):
        return []
    view = resolve(world, recs)
    scripted = bool(recs["scripted"].any()) if "scripted" in recs.columns else False
    k = n_trials(recs)
    head = [
        *view.header,
        f"{k} trials per pair; endpoint: {endpoint}; a task is (study, model, task, fault, replicate)",
    ]
    counts = task_counts(recs, endpoint)
    pairs = paired_trials(recs, endpoint=endpoint)
    out = [
        Table("trials_pass", titled(f"pass^k and pass@k by arm (k = 1..{k})", scripted), pd.DataFrame(pass_rows(counts, k)),
              [*head, "pass_hat_k_pct: tau-bench's pass^k, the mean over tasks of C(c,k)/C(n,k) (all k drawn trials "
               "succeed); pass_at_k_pct: the mean of 1 - C(n-c,k)/C(n,k) (at least one does); a task enters row k "
               "when it has n >= k scored trials"]),
        Table("trials_flips", titled("Tasks whose outcome flips across trials", scripted), pd.DataFrame(flip_rows(counts, pairs)),
              [*head, "flip_pct: tasks with at least two scored trials whose outcome differs between them; the "
               f"row '{PAIR_ARMS[0]} - {PAIR_ARMS[1]}' counts pairs whose paired difference differs across trials"]),
    ]  # fmt: skip
    if len(pairs):
        out += [
            Table("trials_effect", titled("Paired effect over trials: nested bootstrap beside one trial", scripted),
                  pd.DataFrame(effect_rows(pairs, seed, n_resamples)),
                  [*head, f"ci_low/ci_high: 95% percentile bootstrap, {n_resamples} resamples, seed {seed}: {view.units} "
                   "resampled with their tasks, each task's trials resampled inside it (trials nested); single_*: "
                   f"trial 0 alone with Table 1's cluster bootstrap over {view.units}, what a one-trial run would say"]),
            Table("trials_ci_width", titled("How the effect's CI narrows with trials", scripted),
                  pd.DataFrame(width_rows(pairs, seed, min(n_resamples, 2_000))),
                  [*head, "each row: the nested bootstrap (2,000 resamples at most) from the first trials_used trials of every task"]),
            Table("trials_design", titled("Tasks needed at 80% power, from this run's flip rates", scripted),
                  pd.DataFrame(design_rows(pairs)),
                  [*head, "tasks_needed: two-sided z test (alpha 0.05, power 0.8) of the mean paired difference, "
                   "(z_0.975 + z_0.8)^2 (between_sd^2 + within_sd^2 / trials) / effect^2, with between_sd (the spread of "
                   "tasks' own effects) and within_sd (trial to trial: what flips make) estimated from this run's pairs "
                   "(one-way random-effects moments); effect: "
                   "the run's own delta (python -m analysis design --run DIR --effect POINTS for another); a "
                   "normal approximation, optimistic for few tasks"]),
        ]  # fmt: skip
    return out
