"""Repeated trials (a study run with ``trials: k``): how stable an arm is, and how honest an effect's CI is.

With a sampled model an episode is one draw; a run that plays each pair k times gives, from its records:

- ``trials_pass``: per model and arm, tau-bench's pass^k (every one of k trials drawn from a task's n
  succeeds: the mean over tasks of C(c, k) / C(n, k)) and pass@k (at least one does: the mean of
  1 - C(n - c, k) / C(n, k)), for k = 1 .. the trials run; a task enters k's row when it has n >= k
  scored trials.
- ``trials_flips``: the share of tasks whose outcome differs across their trials, per arm, and of pairs
  whose paired difference (monitor minus baseline) differs across trials.
- ``trials_effect``: the paired effect over every trial with a nested bootstrap (resample the clusters,
  i.e. the tasks' groups, with all their tasks and each task with all its trials), beside the
  single-trial effect of trial 0 with the same cluster bootstrap (what a one-trial run would say).
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
from analysis.stats import cluster_bootstrap_ci, paired_bootstrap_ci
from analysis.table import Table, titled
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
    n_resamples: int = 10_000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile CI of the mean paired difference with trials nested in tasks nested in clusters.

    Each resample draws clusters (the tasks' groups) with replacement, each with all its tasks and every
    trial of them: a task's trials stay together, so their correlation (a task the monitor always wins
    is won in every trial) widens the interval as it should, where resampling pairs as if independent
    would narrow it. The trials are not resampled again inside a drawn task: the task's mean already
    carries their variance, and a second stage counts it twice (``python -m analysis.trials coverage``:
    nominal 95% intervals cover 98-99% two-stage, 92-96% this way, 87-93% resampling pairs as independent).
    """
    d = np.asarray(list(diff) if not isinstance(diff, np.ndarray) else diff, dtype=float)
    keys = np.asarray(list(clusters), dtype=object).astype(str)
    return cluster_bootstrap_ci(d, keys, n_resamples, level, seed)


def _by_model(pairs: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    out = [(str(m), g) for m, g in pairs.groupby("model", sort=True)]
    if len(out) > 1:
        out.append(("pooled", pairs))
    return out


def effect_rows(pairs: pd.DataFrame, seed: int, n_resamples: int) -> list[dict]:
    """Per model (and pooled): the effect over every trial with its nested CI, beside trial 0's alone."""
    rows = []
    for model, g in _by_model(pairs):
        lo, hi = nested_bootstrap_ci(g["d"], g["group_id"], n_resamples, seed=seed)
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
            lo, hi = nested_bootstrap_ci(h["d"], h["group_id"], n_resamples, seed=seed)
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
                   "resampled, each with its tasks and every trial of them (trials nested: a task's trials stay "
                   "together, never resampled as independent pairs); single_*: trial 0 alone with the same cluster "
                   f"bootstrap over {view.units}, what a one-trial run would say"]),
            Table("trials_ci_width", titled("How the effect's CI narrows with trials", scripted),
                  pd.DataFrame(width_rows(pairs, seed, min(n_resamples, 2_000))),
                  [*head, "each row: the nested bootstrap (2,000 resamples at most) from the first trials_used trials of every task; "
                   "trials narrow the CI as far as trial-to-trial noise (flips) widened it: the spread of the tasks' own "
                   "effects stays"]),
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


# --- the nested bootstrap's calibration, by simulation (python -m analysis.trials coverage) -------------------


def coverage(sims: int = 300, resamples: int = 1000, seed: int = 7) -> list[str]:
    """Coverage and mean width of three 95% intervals for the mean paired difference on simulated tasks x
    trials: tasks resampled with their trials kept (this module's), tasks then trials resampled (two-stage),
    pairs resampled as if independent. Tasks: baseline p ~ Beta(1, 3), monitor p = clip(p + N(0.15, 0.2));
    the estimand is the population mean difference (Monte Carlo)."""
    gen = np_rng(seed, "trials-coverage")
    pop = gen.beta(1, 3, 400_000)
    truth = float(np.mean(np.clip(pop + gen.normal(0.15, 0.2, pop.size), 0, 1) - pop))
    lines = [
        f"true mean difference {100 * truth:.1f} points; {sims} simulated studies each, {resamples} resamples"
    ]
    for tasks, k in ((20, 4), (40, 4), (40, 8)):
        hit = {"nested": [0, 0.0], "two-stage": [0, 0.0], "iid pairs": [0, 0.0]}
        for s in range(sims):
            pb = gen.beta(1, 3, tasks)
            pm = np.clip(pb + gen.normal(0.15, 0.2, tasks), 0, 1)
            m = (gen.random((tasks, k)) < pm[:, None]).astype(int) - (gen.random((tasks, k)) < pb[:, None])
            r = np_rng(seed, "two-stage", s)
            drawn = r.integers(0, tasks, (resamples, tasks))
            two = m[drawn[:, :, None], r.integers(0, k, (resamples, tasks, k))].mean(axis=(1, 2))
            for name, (lo, hi) in {
                "nested": nested_bootstrap_ci(m.ravel(), np.repeat(np.arange(tasks), k), resamples, seed=s),
                "two-stage": tuple(np.quantile(two, [0.025, 0.975])),
                "iid pairs": paired_bootstrap_ci(m.ravel(), resamples, seed=s),
            }.items():
                hit[name][0] += lo <= truth <= hi
                hit[name][1] += hi - lo
        lines.append(f"{tasks} tasks x {k} trials: " + "; ".join(
            f"{n} covers {h / sims:.3f} (width {100 * w / sims:.1f} points)" for n, (h, w) in hit.items()))  # fmt: skip
    return lines


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] != ["coverage"]:
        print(
            "usage: python -m analysis.trials coverage [SIMS]   (the nested bootstrap's calibration)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    for line in coverage(int(sys.argv[2]) if len(sys.argv) > 2 else 300):
        print(line)
