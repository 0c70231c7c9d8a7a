"""Tables from records: Table 1 and its strata, ablations, boundaries, receipts, cost, fire rates.

Each table is a :class:`Table` (a DataFrame for the CSV, a title, notes, optionally the paper's
figures) written as ``<name>.csv`` and ``<name>.md``. Every number is computed from records; the
paper's published numbers stand beside them, labelled "paper". Runs of scripted policies say so in
every title. This module knows nothing about plotting, running or litellm.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import paper
from analysis.load import INFRA_STATUSES, PairedFrame, build_pairs
from analysis.stats import holm, paired_effect

SCRIPTED_LABEL = "scripted policies (not the paper's models)"
PAPER_LABEL = "paper"
RUN_LABEL = "this run"
TABLE1_COLUMNS: tuple[str, ...] = (
    "model", "n", "baseline_successes", "monitor_successes", "baseline_pct", "monitor_pct", "delta_points",
    "wins", "losses", "ci_low", "ci_high", "p_mcnemar", "p_signflip",
)  # fmt: skip
# (label, treatment arm, baseline arm): the ablation family Holm corrects over.
CONTRASTS: tuple[tuple[str, str, str], ...] = (
    ("recovery list restored", "monitor", "no-tools"),
    ("full vs baseline", "monitor", "baseline"),
    ("stripped vs baseline", "no-tools", "baseline"),
    ("localized vs generic", "monitor", "generic"),
    ("immediate vs deferred", "monitor", "deferred"),
)
NEXT_ACTIONS: tuple[str, ...] = ("switched_listed", "other_tool", "retried_same", "stopped")
# Counts: printed as integers even when a column also holds blanks (pandas stores those as floats).
COUNT_COLUMNS = frozenset(
    {"n", "n_clusters", "wins", "losses", "baseline_successes", "monitor_successes", "episodes", "matched_pairs",
     "receipt_events", "events_with_at_least_two", "dropped_infra", "receipts", "tool_calls",
     "episodes_with_receipt", *NEXT_ACTIONS}
)  # fmt: skip


@dataclass
class Table:
    name: str
    title: str
    frame: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    paper: pd.DataFrame | None = None  # shown under the run's table in the Markdown, labelled "paper"
    paper_title: str = ""
    detail: pd.DataFrame | None = None  # every computed column, written as <name>_detail.csv

    def to_markdown(self) -> str:
        parts = [f"## {self.title}", "", markdown_table(self.frame)]
        if self.paper is not None and len(self.paper):
            parts += [
                "",
                f"**{PAPER_LABEL}** ({self.paper_title or 'as published'}):",
                "",
                markdown_table(self.paper),
            ]
        if self.notes:
            parts += [""] + [f"- {n}" for n in self.notes]
        return "\n".join(parts) + "\n"

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        csv, md = out / f"{self.name}.csv", out / f"{self.name}.md"
        self.frame.to_csv(csv, index=False)
        if self.detail is not None:
            self.detail.to_csv(out / f"{self.name}_detail.csv", index=False)
        md.write_text(self.to_markdown(), encoding="utf-8")
        return csv, md


def _fmt(v: object, col: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool | np.bool_):
        return str(bool(v))
    if isinstance(v, float | np.floating):
        if col in COUNT_COLUMNS and float(v).is_integer():
            return str(int(v))
        if col == "p" or col.startswith("p_") or col.startswith("paper_p"):
            return f"{v:.2g}" if v < 0.001 else f"{v:.3f}"
        return f"{v:.3f}" if "usd" in col or col == "discordance" else f"{v:.1f}"
    return str(v).replace("|", "/")


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub Markdown table (no tabulate dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v, c) for v, c in zip(row, cols, strict=True)) + " |")
    return "\n".join(lines)


def titled(base: str, scripted: bool) -> str:
    return f"{base} ({SCRIPTED_LABEL})" if scripted else base


def _select_study(records: pd.DataFrame, study: str | None) -> pd.DataFrame:
    return records if study is None else records[records["study"] == study]


def _drop_notes(pf: PairedFrame) -> list[str]:
    notes = [
        f"pairs dropped because either arm ended in an infrastructure error: {pf.dropped_infra} (never scored)",
        f"pairs dropped because one arm has no record: {pf.dropped_missing}",
    ]
    if pf.duplicates:
        notes.append(f"repeated records of one (pair, arm), last kept: {pf.duplicates}")
    return notes


def effect(pairs: pd.DataFrame, **kw) -> dict:
    """:func:`analysis.stats.paired_effect` on a pair frame, clustered by workflow."""
    return paired_effect(pairs["y_base"], pairs["y_treat"], pairs["group_id"], **kw)


def _stat_kw(seed: int, n_resamples: int, n_flips: int) -> dict:
    return {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}


def table1(
    records: pd.DataFrame,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
) -> Table:
    """A row per model, the pooled row (model ``pooled``; replication models not pooled), then replication rows."""
    repl = set(replication)
    pf = build_pairs(_select_study(records, study), "monitor", "baseline")
    kw = _stat_kw(seed, n_resamples, n_flips)
    rows = []
    primary = sorted(m for m in pf.pairs["model"].unique() if m not in repl)
    for m in primary:
        rows.append({"model": m, **effect(pf.pairs[pf.pairs["model"] == m], **kw)})
    pooled = pf.pairs[pf.pairs["model"].isin(primary)]
    if len(pooled):
        rows.append({"model": "pooled", **effect(pooled, **kw)})
    for m in sorted(repl & set(pf.pairs["model"])):
        rows.append({"model": m, **effect(pf.pairs[pf.pairs["model"] == m], **kw)})
    full = pd.DataFrame(rows)
    frame = full[list(TABLE1_COLUMNS)] if len(full) else pd.DataFrame(columns=list(TABLE1_COLUMNS))
    notes = _drop_notes(pf)
    studies = sorted(pf.pairs["study"].dropna().astype(str).unique()) if len(pf.pairs) else []
    if len(studies) > 1:
        notes.append(f"pairs from {len(studies)} studies pooled here: {studies} (choose one with --study)")
    if len(full):
        k = pooled["group_id"].nunique() if len(pooled) else 0
        notes.append(
            f"95% CI: task-clustered percentile bootstrap over {k} workflows, {n_resamples} resamples, seed {seed}; "
            "p_mcnemar: exact two-sided; p_signflip: cluster sign-flip randomization (exact)"
        )
        iid = full[full["model"] == "pooled"]
        if len(iid):
            r = iid.iloc[0]
            mde = (
                f"{r.mde_points:.1f} points"
                if not math.isnan(r.mde_points)
                else f"not reached with {r.n} pairs"
            )
            notes.append(
                f"pooled iid paired-bootstrap CI [{r.ci_iid_low:.1f}, {r.ci_iid_high:.1f}]; mid-p McNemar "
                f"{r.p_midp:.3g}; exact-power MDE at 80% for the realized discordance {r.discordance:.3f}: {mde}"
            )
        notes.append(
            "every computed column (iid CI, mid-p, clusters, discordance, MDE) is in table1_detail.csv"
        )
    else:
        notes.append("no complete baseline/monitor pairs in these records")
    if repl:
        notes.append(f"replication model(s) {sorted(repl)}: rows below pooled, not pooled")
    p1 = paper.paper_table1()
    prow = [dict(r) for r in p1["rows"]] + [dict(p1["pooled"])] + [dict(r) for r in p1["replication"]]
    for r in prow:
        r.setdefault("baseline_pct", 100.0 * r["baseline_successes"] / r["n"])
        r.setdefault("monitor_pct", 100.0 * r["monitor_successes"] / r["n"])
    paper_frame = pd.DataFrame(prow).reindex(columns=list(TABLE1_COLUMNS))
    title = titled(
        f"Table 1: paired completion, monitor vs baseline{f' ({study})' if study else ''}",
        pf.scripted or _scripted(records),
    )
    return Table(
        "table1",
        title,
        frame,
        notes,
        paper_frame,
        p1["study"] + "; MiniMax M3 is the replication row",
        detail=full if len(full) else None,
    )


def table1_strata(
    records: pd.DataFrame,
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 2_000,
    n_flips: int = 100_000,
) -> Table:
    """Per model and stratum (the world's strata; fault class), with the all-nonnegative check."""
    pf = build_pairs(_select_study(records, study), "monitor", "baseline")
    pairs = pf.pairs.copy()
    pairs["fault_class"] = pairs["fault_class"].fillna("none").astype(str) if len(pairs) else []
    kw = _stat_kw(seed, n_resamples, n_flips)
    rows = []
    for kind in ("stratum", "fault_class"):
        for (model, stratum), g in pairs.groupby(["model", kind], sort=True):
            e = effect(g, **kw)
            rows.append({"model": model, "stratum_by": kind, "stratum": stratum} | {
                k: e[k] for k in ("n", "baseline_successes", "monitor_successes", "baseline_pct", "monitor_pct",
                                  "delta_points", "wins", "losses",
                                  "ci_low", "ci_high", "p_mcnemar")
            })  # fmt: skip
    frame = pd.DataFrame(rows)
    nonneg = bool(len(frame)) and bool((frame["delta_points"] >= 0).all())
    notes = [f"every model, every stratum nonnegative: {str(nonneg).lower()} ({PAPER_LABEL} claims: true)"]
    notes.append(f"stratum CIs use {n_resamples} cluster-bootstrap resamples, seed {seed}")
    notes += _drop_notes(pf)
    return Table(
        "table1_strata",
        titled("Table 1 strata: monitor vs baseline", pf.scripted or _scripted(records)),
        frame,
        notes,
    )


def every_stratum_nonnegative(strata: Table) -> bool:
    f = strata.frame
    return bool(len(f)) and bool((f["delta_points"] >= 0).all())


def ablations(
    records: pd.DataFrame,
    contrasts: Sequence[tuple[str, str, str]] = CONTRASTS,
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
) -> Table:
    """Each contrast pooled over models with CIs, exact and Holm-adjusted McNemar p, and the exact MDE."""
    recs = _select_study(records, study)
    arms = set(recs["arm"])
    rows, notes, scripted = [], [], False
    kw = _stat_kw(seed, n_resamples, n_flips)
    for label, treat, base in contrasts:
        if treat not in arms or base not in arms:
            missing = sorted({treat, base} - arms)
            notes.append(f"skipped {label!r} ({treat} vs {base}): no records of arm(s) {missing}")
            continue
        pf = build_pairs(recs, treat, base)
        scripted |= pf.scripted
        if pf.n == 0:
            notes.append(f"skipped {label!r} ({treat} vs {base}): no complete pairs")
            continue
        e = effect(pf.pairs, **kw)
        pp = paper.paper_ablation(treat, base) or {}
        rows.append(
            {"contrast": label, "treatment": treat, "baseline": base}
            | {k: e[k] for k in ("n", "n_clusters", "delta_points", "ci_low", "ci_high", "ci_iid_low", "ci_iid_high",
                                 "wins", "losses", "p_mcnemar", "p_signflip", "discordance", "mde_points")}
            | {"dropped_infra": pf.dropped_infra, "paper_delta_points": pp.get("delta_points", math.nan),
               "paper_ci_low": pp.get("ci_low", math.nan), "paper_ci_high": pp.get("ci_high", math.nan)}
        )  # fmt: skip
    frame = pd.DataFrame(rows)
    if len(frame):
        frame.insert(frame.columns.get_loc("p_mcnemar") + 1, "p_holm", holm(frame["p_mcnemar"].to_numpy()))
    notes.append(
        f"Holm across the {len(frame)} contrast(s) present; CIs task-clustered percentile bootstrap, "
        f"{n_resamples} resamples, seed {seed}; MDE: exact McNemar power 80% at the realized discordance"
    )
    notes.append(f"{PAPER_LABEL}: {paper.paper_ablations()['paired_workflows']} paired workflows, "
                 f"MDE about {paper.paper_ablations()['mde_points']} points")  # fmt: skip
    return Table("ablations", titled("Ablation contrasts", scripted), frame, notes)


def boundaries(
    records: pd.DataFrame, seed: int = 0, n_resamples: int = 10_000, n_flips: int = 100_000
) -> Table:
    """Baseline completion vs the monitor's delta per study (``source`` says run or paper)."""
    rows, scripted, dropped = [], False, 0
    kw = _stat_kw(seed, n_resamples, n_flips)
    for study in sorted(records["study"].dropna().astype(str).unique()):
        pf = build_pairs(records[records["study"] == study], "monitor", "baseline")
        scripted |= pf.scripted
        dropped += pf.dropped_infra
        if pf.n == 0:
            continue
        e = effect(pf.pairs, **kw)
        rows.append({"source": RUN_LABEL, "study": study} | {
            k: e[k] for k in ("n", "baseline_pct", "monitor_pct", "delta_points", "wins", "losses", "ci_low",
                              "ci_high", "p_mcnemar")})  # fmt: skip
    for r in paper.paper_boundaries():
        rows.append({"source": PAPER_LABEL, "study": r["study"], "note": r.get("note", "")} | {
            k: r.get(k, math.nan) for k in ("baseline_pct", "monitor_pct", "delta_points", "wins", "losses",
                                            "p_mcnemar")})  # fmt: skip
    frame = pd.DataFrame(rows)
    notes = [f"pairs dropped for infrastructure errors across studies: {dropped}",
             f"{PAPER_LABEL}: {paper.load_paper().get('gains_boundary', 'gains hold where the baseline completes at most 16%')}"]  # fmt: skip
    return Table(
        "boundaries", titled("Boundaries: baseline completion vs monitor delta", scripted), frame, notes
    )


def _receipts(records: pd.DataFrame) -> pd.DataFrame:
    ok = records[~records["status"].isin(INFRA_STATUSES)]
    rows = [
        {"arm": arm, "model": model, **r}
        for arm, model, rec in zip(ok["arm"], ok["model"], ok["receipts"], strict=True)
        for r in rec
        if isinstance(r, dict)
    ]
    return pd.DataFrame(rows, columns=["arm", "model", "call_index", "tool", "violated", "rule_class",
                                       "recovery_tools", "n_admissible", "next_action"])  # fmt: skip


def _scripted(records: pd.DataFrame) -> bool:
    return bool(len(records)) and bool(records["scripted"].any())


def post_receipt_actions(records: pd.DataFrame) -> Table:
    """What the agent did next after each receipt, per arm, beside the paper's shares."""
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        counts = g["next_action"].value_counts()
        n = len(g)
        row = {"source": RUN_LABEL, "arm": arm, "receipt_events": n}
        row |= {f"{a}_pct": 100.0 * counts.get(a, 0) / n for a in NEXT_ACTIONS}
        row |= {a: int(counts.get(a, 0)) for a in NEXT_ACTIONS}
        rows.append(row)
    pp = paper.paper_post_receipt_actions()
    rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pp["receipt_events"]}
                | {f"{a}_pct": pp["pct"][a] for a in NEXT_ACTIONS})  # fmt: skip
    notes = ["infra-error episodes excluded; other next_action values are counted in receipt_events only"]
    return Table(
        "post_receipt_actions", titled("Post-receipt actions", _scripted(records)), pd.DataFrame(rows), notes
    )


def admissible(records: pd.DataFrame) -> Table:
    """Admissible recovery actions per receipt event, per arm."""
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        k = pd.to_numeric(g["n_admissible"], errors="coerce").dropna()
        rows.append({"source": RUN_LABEL, "arm": arm, "receipt_events": len(g), "mean_admissible": float(k.mean()),
                     "median_admissible": float(k.median()), "events_with_at_least_two": int((k >= 2).sum()),
                     "pct_with_at_least_two": 100.0 * float((k >= 2).sum()) / len(g)})  # fmt: skip
    pa = paper.paper_admissible()
    rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pa["receipt_events"],
                 "events_with_at_least_two": pa["events_with_at_least_two"],
                 "pct_with_at_least_two": pa["pct_with_at_least_two"]})  # fmt: skip
    return Table("admissible", titled("Admissible recovery actions per receipt event", _scripted(records)),
                 pd.DataFrame(rows))  # fmt: skip


def cost(records: pd.DataFrame, baseline: str = "baseline") -> Table:
    """Cost per episode by arm (agent + reviewer) and the cost added over the baseline on the same pairs."""
    ok = records[~records["status"].isin(INFRA_STATUSES)].copy()
    ok["total_usd"] = ok["cost_usd"] + ok["reviewer_cost_usd"]
    base = ok[ok["arm"] == baseline].drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
    rows = []
    for arm, g in ok.groupby("arm", sort=True):
        row = {"source": RUN_LABEL, "arm": arm, "episodes": len(g), "usd_per_episode": float(g["total_usd"].mean()),
               "agent_usd_per_episode": float(g["cost_usd"].mean()),
               "reviewer_usd_per_episode": float(g["reviewer_cost_usd"].mean()),
               "reviewer_calls_per_episode": float(g["reviewer_calls"].mean())}  # fmt: skip
        t = g.drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
        common = t.index.intersection(base.index)
        if arm != baseline and len(common):
            added = float(t[common].mean() - base[common].mean())
            b = float(base[common].mean())
            row |= {"matched_pairs": len(common), "added_usd_per_episode": added,
                    "added_pct": 100.0 * added / b if b > 0 else math.nan}  # fmt: skip
        rows.append(row)
    for arm, c in paper.paper_cost().items():
        rows.append({"source": PAPER_LABEL, "arm": arm, "added_usd_per_episode": c["added_usd_per_episode"],
                     "added_pct": c["added_pct"]})  # fmt: skip
    notes = [
        f"added cost: mean over pairs that have both this arm and {baseline!r}; infra-error episodes excluded"
    ]
    return Table("cost", titled("Cost per episode by arm", _scripted(records)), pd.DataFrame(rows), notes)


def fire_rates(records: pd.DataFrame) -> Table:
    """How often receipts fire, per arm and fault class (fault class ``none`` = clean: false triggers)."""
    ok = records[~records["status"].isin(INFRA_STATUSES)].copy()
    ok["fault_class"] = ok["fault_class"].fillna("none").astype(str)
    rows = []
    for (arm, fc), g in ok.groupby(["arm", "fault_class"], sort=True):
        calls = int(g["n_tool_calls"].sum())
        rows.append({"arm": arm, "fault_class": fc, "episodes": len(g),
                     "episodes_with_receipt": int((g["n_receipts"] > 0).sum()),
                     "episode_fire_pct": 100.0 * float((g["n_receipts"] > 0).mean()),
                     "receipts": int(g["n_receipts"].sum()), "tool_calls": calls,
                     "receipts_per_call_pct": 100.0 * g["n_receipts"].sum() / calls if calls else math.nan})  # fmt: skip
    pf = paper.paper_fire_rates()
    notes = [f"{PAPER_LABEL}: implicit faults flagged {pf['implicit_faults_flagged_pct']}% and clean false positives "
             f"{pf['clean_false_positive_pct']}% per observed tool outcome; organic fire rate {pf['organic_fire_rate_pct']}%"]  # fmt: skip
    return Table("fire_rates", titled("Receipt fire rates", _scripted(records)), pd.DataFrame(rows), notes)


def all_tables(
    records: pd.DataFrame,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
) -> list[Table]:
    kw = {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}
    return [
        table1(records, replication, study, **kw),
        table1_strata(records, study, seed=seed, n_resamples=min(n_resamples, 2_000), n_flips=n_flips),
        ablations(records, study=study, **kw),
        boundaries(records, **kw),
        post_receipt_actions(records),
        admissible(records),
        cost(records),
        fire_rates(records),
    ]
