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
from analysis.load import (
    ENDPOINTS,
    INFRA_STATUSES,
    PairedFrame,
    World,
    build_pairs,
    has_endpoint,
    notice_lines,
)
from analysis.stats import design_mde, holm, paired_effect
from analysis.trials import n_trials, trials_tables
from analysis.view import DEFAULT_ENDPOINT, PAPER_LABEL, View, resolve

SCRIPTED_LABEL = "scripted policies (not the paper's models)"
RUN_LABEL = "this run"
TABLE1_COLUMNS: tuple[str, ...] = (
    "model", "n", "baseline_successes", "monitor_successes", "baseline_pct", "monitor_pct", "delta_points",
    "wins", "losses", "ci_low", "ci_high", "p_mcnemar", "p_signflip",
)  # fmt: skip
# Beyond TABLE1_COLUMNS (whose names users rely on): the headline test, its unit and the Holm-adjusted p.
TABLE1_EXTRA: tuple[str, ...] = ("headline_unit", "p_headline", "p_holm")
# The default labels (runs without world.json); a run's world.json names what success means (View.endpoint).
ENDPOINT_LABELS: dict[str, str] = {
    "success": DEFAULT_ENDPOINT,
    "outcome_correct": "outcome correct",
}
TABLE1_NAMES: dict[str, str] = {"success": "table1", "outcome_correct": "table1_outcome"}
UNIT_PAIRS = "pairs (iid)"
UNIT_CLUSTERS = "workflows as clusters"
# The behaviour of each scripted instrument that makes its monitor-vs-baseline delta what it is.
POLICY_CAPTIONS: dict[str, str] = {
    "trusting": "ignores receipts and believes every result by design, so its delta is 0 by construction "
    "(a pairing check, not a finding).",
    "receipt-aware": "believes implausible results without a receipt and, on a receipt, switches to the first "
    "listed recovery tool (retries when none is listed), so its delta is what following receipts buys.",
    "skeptic": "follows receipts like receipt-aware and also retries implausible results without a receipt, so "
    "its baseline already recovers some faults without any receipt.",
    "noisy": "notices an implausible result with p_notice=0.15 and, on a receipt, abandons the task with "
    "p_overreact=0.20, else follows it with p_follow=0.70, else ignores it, so its delta is a diluted "
    "receipt-aware delta and overreacting can lose a pair the baseline won.",
    "reviewer": "is the scripted reviewer of the reviewer arm, not an agent.",
}
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
     "episodes_with_receipt", *NEXT_ACTIONS,
     # the trials tables (analysis.trials)
     "tasks", "pairs", "trials", "k", "flipping_tasks", "trials_used", "tasks_needed", "episodes_needed",
     "calls", "prompt_tokens", "completion_tokens"}
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
    endpoints: dict[str, str] = field(default_factory=lambda: dict(ENDPOINT_LABELS))  # endpoint -> its label
    clusters: str = UNIT_CLUSTERS  # the clustered unit's label ("workflows as clusters")

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
    return notes + notice_lines(pf.notices)


def effect(pairs: pd.DataFrame, **kw) -> dict:
    """:func:`analysis.stats.paired_effect` on a pair frame, clustered by workflow."""
    return paired_effect(pairs["y_base"], pairs["y_treat"], pairs["group_id"], **kw)


def _stat_kw(seed: int, n_resamples: int, n_flips: int) -> dict:
    return {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}


def _headline(e: dict, clusters: str = UNIT_CLUSTERS) -> tuple[str, float]:
    """The test a row headlines: exact McNemar when each cluster gives one pair, else the cluster sign-flip."""
    if e["n_clusters"] >= e["n"]:
        return UNIT_PAIRS, e["p_mcnemar"]
    return clusters, e["p_signflip"]


def _headline_note(rows: pd.DataFrame, view: View, pooled: bool, row: str = "a model's row") -> str:
    """What p_headline is on these rows, said from their own counts: pairs where every cluster gives one
    pair, the cluster sign-flip where some cluster gives several (a model's row, too, when its tasks share
    a cluster)."""
    u, us = view.unit, view.units
    one = rows[rows["n_clusters"] >= rows["n"]]
    several = rows[rows["n_clusters"] < rows["n"]]
    parts = []
    if len(one) and not len(several):
        parts.append(f"{row} has one pair per {u}, so pairs are its unit")
    elif len(several) and not len(one):
        span = ", ".join(
            f"{r.model}: {int(r.n)} pairs in {int(r.n_clusters)} {us}" for r in several.itertuples()
        )
        parts.append(f"{row} has several pairs per {u} ({span}), so its headline is the cluster "
                     f"sign-flip over {us}, not the exact McNemar (which treats the pairs as independent)")  # fmt: skip
    elif len(one):
        parts.append(f"one pair per {u}, pairs as the unit: {', '.join(map(str, one['model']))}; several pairs per "
                     f"{u}, the cluster sign-flip over {us}: {', '.join(map(str, several['model']))}")  # fmt: skip
    if pooled:
        parts.append(
            f"the pooled row pools models that share {us}, so its headline is the cluster sign-flip over {us}"
        )
    return "p_headline: the test each row headlines, its unit in headline_unit; " + "; ".join(parts)


def _paper_design_notes(primary_n: Sequence[int], pooled_n: int, pooled_k: int, view: View) -> list[str]:
    """Design-stage MDEs from the study's size and the paper's discordance on this world (prespecification,
    not post-hoc); none where the paper gives no counts for this world."""
    disc = paper.world_discordance(view.paper)
    d_model, d_pool = disc["per_model"], disc["pooled"]
    if d_model is None:
        return [
            "design-stage MDE: the paper gives no discordance for this world; print one for a planned discordance "
            "with `python -m analysis design --pairs N --discordance D`"
        ]
    notes = []
    sizes = sorted(set(int(n) for n in primary_n))
    if sizes:
        per = ", ".join(f"{n} pairs: {100 * design_mde(n, d_model):.1f} points" for n in sizes)
        notes.append(
            f"design-stage MDE (80% power, alpha 0.05, exact McNemar; fixed before the run from the study's size and "
            f"the paper's discordance {d_model:.3f} = {disc['source']}): per model, {per}"
        )
    if pooled_n:
        if d_pool is None:  # no pooled row for this world: plan the pooled pairs at the per-model value
            d_pool, source = d_model, f"no pooled row here: the paper's per-model discordance {d_model:.3f}"
        else:
            source = f"paper's pooled discordance {d_pool:.3f}"
        notes.append(
            f"design-stage MDE, pooled: {100 * design_mde(pooled_n, d_pool):.1f} points with {pooled_n} pairs "
            f"({source}); {100 * design_mde(pooled_k, d_pool):.1f} points if the "
            f"{pooled_k} shared {view.units} were the unit (the conservative bound); print others with "
            "`python -m analysis design --pairs N`"
        )
    return notes


def table1(
    records: pd.DataFrame,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    endpoint: str = "success",
    world: World | View | None = None,
) -> Table:
    """A row per model, the pooled row (model ``pooled``; replication models not pooled), then replication rows.

    ``endpoint`` "success" gives ``table1`` (the world's endpoint); "outcome_correct" gives ``table1_outcome``
    with the same columns. Beyond :data:`TABLE1_COLUMNS` each row has ``headline_unit``, ``p_headline`` and
    ``p_holm`` (Holm over the per-model rows and the pooled clustered test). ``world`` (the run's
    ``world.json``) names the endpoint, the clustered unit and which paper figures stand beside the rows.
    """
    view = resolve(world, records)
    labels = endpoint_labels(view)
    repl = set(replication)
    pf = build_pairs(_select_study(records, study), "monitor", "baseline", endpoint=endpoint)
    kw = _stat_kw(seed, n_resamples, n_flips)
    rows = []
    primary = sorted(m for m in pf.pairs["model"].unique() if m not in repl)
    for m in primary:
        rows.append({"model": m, **effect(pf.pairs[pf.pairs["model"] == m], **kw)})
    pooled = pf.pairs[pf.pairs["model"].isin(primary)]
    if len(pooled):
        e = effect(pooled, **kw)
        rows.append({"model": "pooled", **e})
    for m in sorted(repl & set(pf.pairs["model"])):
        rows.append({"model": m, **effect(pf.pairs[pf.pairs["model"] == m], **kw)})
    full = pd.DataFrame(rows)
    if len(full):
        heads = [_headline(r, view.clusters) for r in rows]
        full["headline_unit"] = [u for u, _ in heads]
        full["p_headline"] = [p for _, p in heads]
        in_family = ~full["model"].isin(repl)
        full["p_holm"] = math.nan
        full.loc[in_family, "p_holm"] = holm(full.loc[in_family, "p_headline"].to_numpy())
        full = full.rename(columns={"mde_points": "mde_posthoc_points"})
    cols = [*TABLE1_COLUMNS, *TABLE1_EXTRA]
    frame = full[cols] if len(full) else pd.DataFrame(columns=cols)
    notes = [*view.header, *_endpoint_line(view, labels[endpoint]), *_drop_notes(pf)]
    if pf.dropped_no_endpoint:
        notes.append(
            f"pairs dropped because an arm's record has no {endpoint!r} value: {pf.dropped_no_endpoint}"
        )
    studies = sorted(pf.pairs["study"].dropna().astype(str).unique()) if len(pf.pairs) else []
    if len(studies) > 1:
        notes.append(f"pairs from {len(studies)} studies pooled here: {studies} (choose one with --study)")
    scripted = pf.scripted or _scripted(records)
    us = view.units
    if len(full):
        k = pooled["group_id"].nunique() if len(pooled) else 0
        fam = int((~full["model"].isin(repl)).sum())
        notes += [
            f"ci_low, ci_high: 95% CI, unit = {view.clusters} (cluster bootstrap over {k} {us} with all their "
            f"pairs, {n_resamples} resamples, seed {seed})",
            f"p_mcnemar: unit = {UNIT_PAIRS}, exact two-sided; p_signflip: unit = {view.clusters} (exact cluster "
            f"sign-flip over {us})",
            _headline_note(full[full["model"] != "pooled"], view, pooled=bool(len(pooled)))
            + f"; p_holm: Holm over these {fam} headline tests"
            + (" (replication rows outside the family)" if repl else ""),
        ]
        iid = full[full["model"] == "pooled"]
        if len(iid):
            r = iid.iloc[0]
            mde = (
                f"{r.mde_posthoc_points:.1f} points"
                if not math.isnan(r.mde_posthoc_points)
                else f"not reached with {r.n} pairs"
            )
            notes.append(
                f"pooled headline ({view.clusters}, sign-flip): p = {r.p_signflip:.3g}; pooled exact McNemar "
                f"p = {r.p_mcnemar:.3g} (pairs, ignores shared {us}); pooled iid paired-bootstrap CI "
                f"[{r.ci_iid_low:.1f}, {r.ci_iid_high:.1f}] (pairs, ignores shared {us}); mid-p McNemar "
                f"{r.p_midp:.3g} (pairs)"
            )
            notes.append(
                f"post-hoc MDE (exact McNemar power 80% at this run's realized discordance {r.discordance:.3f}, pooled "
                f"pairs): {mde}; it describes this run, not what the design could detect"
            )
        notes += _paper_design_notes(
            [int(n) for n in full.loc[full["model"].isin(primary), "n"]], int(len(pooled)), int(k), view
        )
        notes.append(
            "every computed column (iid CI, mid-p, clusters, discordance, post-hoc MDE) is in "
            f"{TABLE1_NAMES[endpoint]}_detail.csv"
        )
    else:
        notes.append("no complete baseline/monitor pairs in these records")
    if repl:
        notes.append(f"replication model(s) {sorted(repl)}: rows below pooled, not pooled")
    if scripted:
        notes += policy_captions(primary + sorted(repl))
    paper_frame, paper_title = None, ""
    if endpoint != "success":  # the paper reports its world's judge only
        notes.append(f"{PAPER_LABEL}: reports the world's own judge only; no paper figures for this endpoint")
    else:
        paper_frame, paper_title, said = _paper_table1(view, pf.pairs)
        notes += said
    title = titled(
        f"Table 1: paired completion, monitor vs baseline; endpoint: {labels[endpoint]}"
        f"{f' ({study})' if study else ''}",
        scripted,
    )
    return Table(
        TABLE1_NAMES[endpoint],
        title,
        frame,
        notes,
        paper_frame,
        paper_title,
        detail=full if len(full) else None,
        endpoints=labels,
        clusters=view.clusters,
    )


def _endpoint_line(view: View, label: str) -> list[str]:
    """The table's endpoint note, unless the world's header line already names this very endpoint."""
    return [] if view.header and label == view.endpoint else [f"endpoint: {label}"]


def endpoint_labels(view: View) -> dict[str, str]:
    """Each endpoint's label in this run's tables: ``success`` is what the world's judge means."""
    return {**ENDPOINT_LABELS, "success": view.endpoint}


def _paper_table1(view: View, pairs: pd.DataFrame) -> tuple[pd.DataFrame | None, str, list[str]]:
    """The paper's Table 1 rows of this world (frame, title, notes); none where the paper has none, or where
    its rows cover other faults than this run's pairs (a clean run beside a faults study's rows)."""
    p1 = view.figures("table1")
    if not p1:
        return None, "", view.no_figures("paired table")
    run_faults = sorted(set(fault_names(pairs["fault_class"], view))) if len(pairs) else []
    if p1.get("faults") and run_faults != sorted(p1["faults"]):
        said = (
            f"{PAPER_LABEL}: its rows ({p1['study']}) cover the faults {sorted(p1['faults'])}; this run's pairs "
            f"hold {run_faults}: not the same comparison, so not shown"
        )
        return None, "", [said]
    prow = [dict(r) for r in p1["rows"]]
    prow += [dict(p1["pooled"])] if p1.get("pooled") else []
    prow += [dict(r) for r in p1.get("replication", ())]
    for r in prow:
        if "baseline_successes" in r:
            r.setdefault("baseline_pct", 100.0 * r["baseline_successes"] / r["n"])
            r.setdefault("monitor_pct", 100.0 * r["monitor_successes"] / r["n"])
    extra = [c for c in ("p",) if any(c in r for r in prow)]  # a p value whose test the paper does not name
    frame = pd.DataFrame(prow).reindex(columns=[*TABLE1_COLUMNS, *extra]).dropna(axis=1, how="all")
    title = p1["study"] + (f"; {', '.join(r['model'] for r in p1['replication'])} is the replication row"
                           if p1.get("replication") else "")  # fmt: skip
    return frame, title, []


def fault_names(fault_classes: Iterable[object], view: View) -> list[str]:
    """The paper's name of each fault class (a fault config's name in the records), else the class itself;
    a missing class is ``none`` (a clean episode)."""
    names = paper.fault_labels(view.paper)
    out = []
    for fc in fault_classes:
        key = "none" if fc is None or (isinstance(fc, float) and math.isnan(fc)) else str(fc)
        out.append(names.get(key, key))
    return out


def policy_captions(models: Iterable[str]) -> list[str]:
    """One sentence per scripted policy present: the behaviour that makes its delta what it is."""
    out = []
    for m in models:
        name = str(m).removeprefix("scripted/").removeprefix("scripted-")
        if name in POLICY_CAPTIONS:
            out.append(f"{m}: {POLICY_CAPTIONS[name]}")
    return out


def table1_strata(
    records: pd.DataFrame,
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 2_000,
    n_flips: int = 100_000,
    world: World | View | None = None,
) -> Table:
    """Per model and stratum (the world's strata; fault class), with the all-nonnegative check."""
    view = resolve(world, records)
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
    claim = (view.figures("table1") or {}).get("claim")
    claimed = f" ({PAPER_LABEL} claims: true)" if claim else ""
    notes = [*view.header, f"every model, every stratum nonnegative: {str(nonneg).lower()}{claimed}"]
    if not claim:
        notes += view.no_figures("claim about strata")
    notes.append(f"stratum CIs use {n_resamples} cluster-bootstrap resamples ({view.clusters}), seed {seed}")
    notes += _drop_notes(pf)
    return Table(
        "table1_strata",
        titled("Table 1 strata: monitor vs baseline", pf.scripted or _scripted(records)),
        frame,
        notes,
    )


def injected_faults(pairs: pd.DataFrame) -> bool:
    """True when some task was played under two or more faults: faults injected across the study's tasks
    (a world's own planted faults, one per task, are the fault_class strata of ``table1_strata``)."""
    if not len(pairs):
        return False
    faulted = pairs[pairs["fault_class"].notna() & (pairs["fault_class"].astype(str) != "none")]
    if faulted["fault_class"].nunique() < 2:
        return False
    return bool((faulted.groupby("task_id")["fault_class"].nunique() > 1).any())


def _flagged(records: pd.DataFrame, arm: str = "monitor") -> set[str]:
    """Pair ids whose ``arm`` episode got at least one receipt (the latest record of a retried episode)."""
    sub = records[records["arm"] == arm].drop_duplicates(subset=["pair_id", "arm"], keep="last")
    return set(sub.loc[sub["n_receipts"] > 0, "pair_id"])


def table1_faults(
    records: pd.DataFrame,
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    world: World | View | None = None,
) -> Table:
    """A row per fault and model (the success endpoint), and the paper's single-fault rows beside them.

    One model's pairs under one fault are the paper's unit for its per-fault figures, so its row for a
    fault stands under the run's rows of that fault (``paper_fault`` names it); a fault the paper did not
    run has no paper row. Headline per row as in Table 1: the cluster sign-flip where a cluster gives
    several pairs.
    """
    view = resolve(world, records)
    recs = _select_study(records, study)
    pf = build_pairs(recs, "monitor", "baseline")
    kw = _stat_kw(seed, n_resamples, n_flips)
    flagged = _flagged(recs)
    pairs = pf.pairs.copy()
    pairs["fault_class"] = fault_column(pairs)
    rows = []
    for (fault, model), g in pairs.groupby(["fault_class", "model"], sort=True):
        e = effect(g, **kw)
        unit, p_head = _headline(e, view.clusters)
        rows.append({"fault": fault, "paper_fault": fault_names([fault], view)[0], "model": model}
                    | {k: e[k] for k in ("n", "n_clusters", "baseline_successes", "monitor_successes", "baseline_pct",
                                         "monitor_pct", "delta_points", "wins", "losses", "ci_low", "ci_high",
                                         "p_mcnemar", "p_signflip")}
                    | {"headline_unit": unit, "p_headline": p_head,
                       "monitor_flagged_pct": 100.0 * float(g["pair_id"].isin(flagged).mean())})  # fmt: skip
    frame = pd.DataFrame(rows, columns=FAULT_COLUMNS)
    named = set(paper.fault_labels(view.paper).values())
    frame["paper_fault"] = [f if f in named else "" for f in frame["paper_fault"]]
    notes = [*view.header, *_endpoint_line(view, view.endpoint), *_drop_notes(pf)]
    if len(frame):
        notes += [
            "a row per fault (the fault config's name in the records) and model: one model's pairs under one fault",
            f"ci_low, ci_high: 95% CI, unit = {view.clusters} (cluster bootstrap, {n_resamples} resamples, seed "
            f"{seed}); p_mcnemar: unit = {UNIT_PAIRS}; p_signflip: unit = {view.clusters}",
            _headline_note(frame.assign(model=frame["fault"] + " / " + frame["model"]), view, False, "a row"),
            "monitor_flagged_pct: share of the row's pairs whose monitor episode got at least one receipt",
        ]
    paper_frame, paper_title, said = _paper_faults(view, set(frame["paper_fault"]) - {""})
    notes += said
    scripted = pf.scripted or _scripted(records)
    title = titled(f"Table 1 per fault: monitor vs baseline per fault and model; endpoint: {view.endpoint}"
                   f"{f' ({study})' if study else ''}", scripted)  # fmt: skip
    return Table("table1_faults", title, frame, notes, paper_frame, paper_title,
                 endpoints=endpoint_labels(view), clusters=view.clusters)  # fmt: skip


FAULT_COLUMNS: tuple[str, ...] = (
    "fault", "paper_fault", "model", "n", "n_clusters", "baseline_successes", "monitor_successes", "baseline_pct",
    "monitor_pct", "delta_points", "wins", "losses", "ci_low", "ci_high", "p_mcnemar", "p_signflip",
    "headline_unit", "p_headline", "monitor_flagged_pct",
)  # fmt: skip
PAPER_FAULT_COLUMNS: tuple[str, ...] = (
    "fault", "model", "n", "baseline_successes", "monitor_successes", "baseline_pct", "monitor_pct",
    "delta_points", "wins", "losses", "p_mcnemar", "note",
)  # fmt: skip


def fault_column(pairs: pd.DataFrame) -> pd.Series:
    """The pairs' fault classes as text, ``none`` for a clean pair."""
    return pairs["fault_class"].fillna("none").astype(str)


def _paper_faults(view: View, run_faults: set[str]) -> tuple[pd.DataFrame | None, str, list[str]]:
    """The paper's single-fault rows for the faults this run holds (frame, title, notes)."""
    rows = paper.fault_rows(view.paper)
    if not rows:
        return None, "", view.no_figures("per-fault figures")
    shown = [r for r in rows if r["fault"] in run_faults]
    notes = []
    if shown:
        notes.append(
            f"{PAPER_LABEL}: one model's pairs under one fault, the unit of the run's rows: each paper row stands "
            "for the run rows whose paper_fault is its fault"
        )
    missing = sorted({r["fault"] for r in rows} - run_faults)
    if missing:
        notes.append(f"{PAPER_LABEL}: its rows for faults this run did not play are not shown: {missing}")
    if not shown:
        return None, "", notes
    frame = pd.DataFrame([dict(r) for r in shown]).reindex(columns=list(PAPER_FAULT_COLUMNS))
    return frame.dropna(axis=1, how="all"), (paper.section(view.paper) or {}).get("title", ""), notes


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
    endpoints: Sequence[str] = ENDPOINTS,
    world: World | View | None = None,
) -> Table:
    """Each contrast per model and pooled, per endpoint present, each row with its own MDEs.

    The paper's unit is one model's paired workflows, so its figures stand beside the per-model rows of the
    success endpoint (``paper_*`` columns, ``paper_comparable``), never beside the pooled row. Holm runs
    within each (endpoint, model) over the contrasts, on each row's headline test.
    """
    view = resolve(world, records)
    labels = endpoint_labels(view)
    recs = _select_study(records, study)
    arms = set(recs["arm"])
    rows, notes, scripted = [], list(view.header), False
    kw = _stat_kw(seed, n_resamples, n_flips)
    pa = view.figures("ablations")
    d_model = paper.world_discordance(view.paper)["per_model"]
    for endpoint in endpoints:
        if not has_endpoint(recs, endpoint):
            notes.append(f"endpoint {labels[endpoint]!r}: no record carries it (older run or another "
                         "world); no rows")  # fmt: skip
            continue
        for label, treat, base in contrasts:
            if treat not in arms or base not in arms:
                if endpoint == endpoints[0]:
                    missing = sorted({treat, base} - arms)
                    notes.append(f"skipped {label!r} ({treat} vs {base}): no records of arm(s) {missing}")
                continue
            pf = build_pairs(recs, treat, base, endpoint=endpoint)
            scripted |= pf.scripted
            if pf.n == 0:
                notes.append(f"skipped {label!r} ({treat} vs {base}, {endpoint}): no complete pairs")
                continue
            pp = _paper_contrast(pa, treat, base)
            models = sorted(pf.pairs["model"].unique())
            groups = [(m, pf.pairs[pf.pairs["model"] == m]) for m in models]
            if len(models) > 1:
                groups.append(("pooled", pf.pairs))
            for model, g in groups:
                e = effect(g, **kw)
                unit, p_head = _headline(e, view.clusters)
                per_model = model != "pooled"
                comparable = per_model and endpoint == "success" and pa is not None
                rows.append(
                    {"endpoint": endpoint, "contrast": label, "treatment": treat, "baseline": base, "model": model}
                    | {k: e[k] for k in ("n", "n_clusters", "delta_points", "ci_low", "ci_high", "ci_iid_low",
                                         "ci_iid_high", "wins", "losses", "p_mcnemar", "p_signflip")}
                    | {"headline_unit": unit, "p_headline": p_head, "discordance": e["discordance"],
                       "mde_posthoc_points": e["mde_points"],
                       "mde_design_points": 100 * design_mde(e["n"], d_model) if d_model else math.nan,
                       "dropped_infra": pf.dropped_infra,
                       "paper_delta_points": pp.get("delta_points", math.nan) if comparable else math.nan,
                       "paper_ci_low": pp.get("ci_low", math.nan) if comparable else math.nan,
                       "paper_ci_high": pp.get("ci_high", math.nan) if comparable else math.nan,
                       "paper_mde_points": pa["mde_points"] if comparable else math.nan,
                       "paper_comparable": (f"per-model row ({pa['paired_workflows']} paired {view.units}, one model)"
                                            if comparable else "")}
                )  # fmt: skip
    frame = pd.DataFrame(rows)
    if len(frame):
        frame.insert(frame.columns.get_loc("p_headline") + 1, "p_holm", math.nan)
        for _, idx in frame.groupby(["endpoint", "model"], sort=False).groups.items():
            frame.loc[idx, "p_holm"] = holm(frame.loc[idx, "p_headline"].to_numpy())
    us = view.units
    one = bool(len(frame)) and bool(
        (frame.loc[frame["model"] != "pooled", "headline_unit"] == UNIT_PAIRS).all()
    )
    model_head = (f"exact McNemar on a model's row (one pair per {view.unit})" if one else
                  f"a model's row: exact McNemar where each {view.unit} gives one pair, else the cluster sign-flip "
                  f"(several pairs per {view.unit}; headline_unit says which)")  # fmt: skip
    mde_design = (f"the same at the paper's discordance {d_model:.3f} and the row's n (design-stage)" if d_model
                  else "blank here: the paper gives no discordance for this world")  # fmt: skip
    notes += [
        f"endpoints: {'; '.join(f'{k} = {v}' for k, v in labels.items())}",
        f"ci_low, ci_high: 95% CI, unit = {view.clusters} (cluster bootstrap, {n_resamples} resamples, seed {seed}); "
        f"ci_iid_*: unit = {UNIT_PAIRS} (iid bootstrap); p_mcnemar: unit = {UNIT_PAIRS} (exact); "
        f"p_signflip: unit = {view.clusters} (cluster sign-flip)",
        f"p_headline: {model_head}, the cluster sign-flip on the pooled "
        f"row (models share {us}; its McNemar ignores that); p_holm: Holm within each (endpoint, model) over "
        "the contrasts present",
        "mde_posthoc_points: exact McNemar power 80% at the row's realized discordance (post-hoc); "
        f"mde_design_points: {mde_design}; "
        "blank: undefined (no discordant pairs) or no delta reaches 80% power with that many pairs",
    ]
    if pa is not None:
        notes.append(
            f"{PAPER_LABEL}: {pa['paired_workflows']} paired {us} for one model at a time, MDE about "
            f"{pa['mde_points']} points; its figures sit on the per-model rows of the success endpoint (the "
            "comparable unit), not on the pooled row, which pools models over the same " + us
        )
    else:
        notes += view.no_figures("ablation contrasts")
    return Table("ablations", titled("Ablation contrasts, per model and pooled", scripted), frame, notes,
                 endpoints=labels, clusters=view.clusters)  # fmt: skip


def _paper_contrast(pa: dict | None, treatment: str, baseline: str) -> dict:
    """The paper's row for ``treatment`` vs ``baseline`` among this world's ablation figures, or {}."""
    for row in (pa or {}).get("rows", ()):
        if row["treatment"] == treatment and row["baseline"] == baseline:
            return row
    return {}


def boundaries(
    records: pd.DataFrame,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    world: World | View | None = None,
) -> Table:
    """Baseline completion vs the monitor's delta (``source`` says run or paper), like with like.

    The run's rows take the unit of this world's paper rows: per study pooled over models where the
    paper's rows pool models, per model otherwise; per fault where the study injected several or the
    paper's rows are single-fault ones. A single-fault paper row stands right after the run's rows of
    its fault; a paper row of a fault this run did not play is left out (and said).
    """
    view = resolve(world, records)
    prows = paper.world_boundaries(view.paper)
    by_model = not any(r.get("models_pooled") for r in prows)
    fault_rows = paper.fault_rows(view.paper)
    placed: set[int] = set()
    rows, scripted, dropped, split_fault = [], False, 0, False
    kw = _stat_kw(seed, n_resamples, n_flips)
    for study in sorted(records["study"].dropna().astype(str).unique()):
        pf = build_pairs(records[records["study"] == study], "monitor", "baseline")
        scripted |= pf.scripted
        dropped += pf.dropped_infra
        if pf.n == 0:
            continue
        pairs = pf.pairs.assign(fault_class=fault_column(pf.pairs))
        by_fault = bool(fault_rows) or injected_faults(pairs)
        split_fault |= by_fault
        for fault, fg in pairs.groupby("fault_class", sort=True) if by_fault else [(None, pairs)]:
            for model, g in fg.groupby("model", sort=True) if by_model else [(None, fg)]:
                e = effect(g, **kw)
                rows.append({"source": RUN_LABEL, "study": study}
                            | ({"fault": fault} if by_fault else {}) | ({"model": model} if by_model else {})
                            | {k: e[k] for k in ("n", "baseline_pct", "monitor_pct", "delta_points", "wins", "losses",
                                                 "ci_low", "ci_high", "p_mcnemar")})  # fmt: skip
            name = fault_names([fault], view)[0] if by_fault else None
            for r in fault_rows:  # the paper's row of this fault, right under the run's
                if r["fault"] == name and id(r) not in placed:
                    placed.add(id(r))
                    rows.append(_paper_boundary(r, by_fault, by_model))
    own_faults = {id(r) for r in fault_rows}
    rows += [_paper_boundary(r, split_fault, by_model) for r in prows if id(r) not in own_faults]
    frame = pd.DataFrame(rows)
    unit = f"per study{', fault' if split_fault else ''}{' and model' if by_model else ', models pooled'}"
    notes = [*view.header, *_endpoint_line(view, view.endpoint),
             f"pairs dropped for infrastructure errors across studies: {dropped}",
             f"{RUN_LABEL}: a row {unit}; ci_low, ci_high: 95% CI, unit = {view.clusters}"]  # fmt: skip
    if prows:
        kind = (
            "pooled over its models"
            if not by_model
            else "one model's pairs" + (" under one fault" if fault_rows else "")
        )
        if any(r.get("world") != view.paper for r in prows):  # the world's section claims the whole figure
            notes.append(f"{PAPER_LABEL}: every row of its Figure 2, each study as published (its note says the "
                         "models and size)")  # fmt: skip
        else:
            notes.append(f"{PAPER_LABEL}: this world's rows of its Figure 2 ({kind}), beside the run's rows of the "
                         "same unit")  # fmt: skip
        left = sorted({r["fault"] for r in fault_rows if id(r) not in placed})
        if left:
            notes.append(f"{PAPER_LABEL}: its rows for faults this run did not play are not shown: {left}")
        notes.append(f"{PAPER_LABEL}: {paper.load_paper().get('gains_boundary', 'gains hold where the baseline completes at most 16%')}")  # fmt: skip
    else:
        notes += view.no_figures("boundary rows")
    return Table(
        "boundaries", titled("Boundaries: baseline completion vs monitor delta", scripted), frame, notes,
        endpoints=endpoint_labels(view), clusters=view.clusters,
    )  # fmt: skip


def _paper_boundary(r: dict, by_fault: bool, by_model: bool) -> dict:
    """A paper row of Figure 2 in the boundaries frame's columns."""
    row = {"source": PAPER_LABEL, "study": r["study"], "note": r.get("note", "")}
    if by_fault:
        row["fault"] = r.get("fault", "")
    if by_model:
        row["model"] = r.get("model", "")
    return row | {k: r.get(k, math.nan) for k in ("n", "baseline_pct", "monitor_pct", "delta_points", "wins",
                                                  "losses", "p_mcnemar")}  # fmt: skip


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


def post_receipt_actions(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """What the agent did next after each receipt, per arm, beside the paper's shares."""
    view = resolve(world, records)
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        counts = g["next_action"].value_counts()
        n = len(g)
        row = {"source": RUN_LABEL, "arm": arm, "receipt_events": n}
        row |= {f"{a}_pct": 100.0 * counts.get(a, 0) / n for a in NEXT_ACTIONS}
        row |= {a: int(counts.get(a, 0)) for a in NEXT_ACTIONS}
        rows.append(row)
    pp = view.figures("post_receipt_actions")
    notes = [*view.header,
             "infra-error episodes excluded; other next_action values are counted in receipt_events only"]  # fmt: skip
    if pp:
        rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pp["receipt_events"]}
                    | {f"{a}_pct": pp["pct"][a] for a in NEXT_ACTIONS})  # fmt: skip
    else:
        notes += view.no_figures("post-receipt actions")
    return Table(
        "post_receipt_actions", titled("Post-receipt actions", _scripted(records)), pd.DataFrame(rows), notes
    )


def admissible(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """Admissible recovery actions per receipt event, per arm."""
    view = resolve(world, records)
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        k = pd.to_numeric(g["n_admissible"], errors="coerce").dropna()
        rows.append({"source": RUN_LABEL, "arm": arm, "receipt_events": len(g), "mean_admissible": float(k.mean()),
                     "median_admissible": float(k.median()), "events_with_at_least_two": int((k >= 2).sum()),
                     "pct_with_at_least_two": 100.0 * float((k >= 2).sum()) / len(g)})  # fmt: skip
    pa = view.figures("admissible")
    notes = list(view.header)
    if pa:
        rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pa["receipt_events"],
                     "events_with_at_least_two": pa["events_with_at_least_two"],
                     "pct_with_at_least_two": pa["pct_with_at_least_two"]})  # fmt: skip
    else:
        notes += view.no_figures("admissible recovery actions")
    return Table("admissible", titled("Admissible recovery actions per receipt event", _scripted(records)),
                 pd.DataFrame(rows), notes)  # fmt: skip


# Who makes an episode's model calls, and the record fields that count and price each role's calls.
ROLES: dict[str, dict[str, str]] = {
    "agent": {"calls": "rounds", "prompt": "prompt_tokens", "completion": "completion_tokens", "usd": "cost_usd"},
    "user": {"calls": "user_calls", "prompt": "user_prompt_tokens", "completion": "user_completion_tokens",
             "usd": "user_cost_usd"},
    "reviewer": {"calls": "reviewer_calls", "prompt": "reviewer_prompt_tokens",
                 "completion": "reviewer_completion_tokens", "usd": "reviewer_cost_usd"},
}  # fmt: skip


def _role_column(records: pd.DataFrame, field_name: str) -> pd.Series:
    """A role's field as floats; 0 where records lack it (a frame from before the field existed)."""
    if field_name not in records.columns:
        return pd.Series(0.0, index=records.index)
    return records[field_name].fillna(0).astype(float)


def cost(records: pd.DataFrame, baseline: str = "baseline", world: World | View | None = None) -> Table:
    """Cost per episode by arm, every model call priced by role (agent, simulated user, reviewer; a column
    each), and the cost added over the baseline on the same pairs."""
    view = resolve(world, records)
    ok = records[~records["status"].isin(INFRA_STATUSES)].copy()
    for role, f in ROLES.items():
        ok[f"_{role}_usd"] = _role_column(ok, f["usd"])
        ok[f"_{role}_calls"] = _role_column(ok, f["calls"])
    ok["total_usd"] = sum(ok[f"_{role}_usd"] for role in ROLES)
    base = ok[ok["arm"] == baseline].drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
    rows = []
    for arm, g in ok.groupby("arm", sort=True):
        row = {"source": RUN_LABEL, "arm": arm, "episodes": len(g), "usd_per_episode": float(g["total_usd"].mean()),
               **{f"{role}_usd_per_episode": float(g[f"_{role}_usd"].mean()) for role in ROLES},
               **{f"{role}_calls_per_episode": float(g[f"_{role}_calls"].mean()) for role in ROLES}}  # fmt: skip
        t = g.drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
        common = t.index.intersection(base.index)
        if arm != baseline and len(common):
            added = float(t[common].mean() - base[common].mean())
            b = float(base[common].mean())
            row |= {"matched_pairs": len(common), "added_usd_per_episode": added,
                    "added_pct": 100.0 * added / b if b > 0 else math.nan}  # fmt: skip
        rows.append(row)
    pc = view.figures("cost")
    for arm, c in (pc or {}).items():
        rows.append({"source": PAPER_LABEL, "arm": arm, "added_usd_per_episode": c["added_usd_per_episode"],
                     "added_pct": c["added_pct"]})  # fmt: skip
    notes = [
        *view.header,
        "usd_per_episode: every model call of an episode priced, by role: agent (its loop's calls), user (the "
        "world's simulated user, where it has a model), reviewer (the reviewer arm's calls); calls: model calls "
        "answered per episode (agent: the loop's rounds)",
        f"added cost: mean over pairs that have both this arm and {baseline!r}; infra-error episodes excluded",
    ]
    if not pc:
        notes += view.no_figures("costs")
    return Table("cost", titled("Cost per episode by arm", _scripted(records)), pd.DataFrame(rows), notes)


def cost_roles(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """Per model, arm and role: calls, tokens and USD in all, and the role's share of the USD: who pays for what."""
    view = resolve(world, records)
    ok = records[~records["status"].isin(INFRA_STATUSES)]
    rows = []
    for (model, arm), g in ok.groupby(["model", "arm"], sort=True):
        usd = {role: float(_role_column(g, f["usd"]).sum()) for role, f in ROLES.items()}
        total = sum(usd.values())
        for role, f in ROLES.items():
            calls = float(_role_column(g, f["calls"]).sum())
            if not calls and not usd[role]:
                continue  # a role this arm never called (no simulated user, no reviewer)
            rows.append({"model": model, "arm": arm, "role": role, "episodes": len(g), "calls": calls,
                         "prompt_tokens": float(_role_column(g, f["prompt"]).sum()),
                         "completion_tokens": float(_role_column(g, f["completion"]).sum()),
                         "usd": usd[role], "cost_share_pct": 100.0 * usd[role] / total if total > 0 else math.nan})  # fmt: skip
    notes = [*view.header, "a row per role that made calls: agent, user (the world's simulated user), reviewer; "
             "cost_share_pct: the role's share of the (model, arm)'s USD; infra-error episodes excluded"]  # fmt: skip
    return Table(
        "cost_roles", titled("Model calls and cost by role", _scripted(records)), pd.DataFrame(rows), notes
    )


def fire_rates(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """How often receipts fire, per arm and fault class (fault class ``none`` = clean: false triggers),
    beside the paper's rates (a note) or its counts for the fault classes this run holds (rows below)."""
    view = resolve(world, records)
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
    frame = pd.DataFrame(rows)
    pf = view.figures("fire_rates")
    notes, paper_frame = list(view.header), None
    if pf and "implicit_faults_flagged_pct" in pf:  # rates per observed tool outcome, said in a note
        notes.append(f"{PAPER_LABEL}: implicit faults flagged {pf['implicit_faults_flagged_pct']}% and clean false "
                     f"positives {pf['clean_false_positive_pct']}% per observed tool outcome; organic fire rate "
                     f"{pf['organic_fire_rate_pct']}%")  # fmt: skip
    held = set(frame["fault_class"]) if len(frame) else set()
    counted = list((pf or {}).get("rows", ()))
    shown = [r for r in counted if r["fault_class"] in held]
    if shown:  # counts of the same kind of episodes (clean ones: spurious receipts), beside the run's
        paper_frame = pd.DataFrame(shown)
        notes.append(f"{PAPER_LABEL}: {pf['text']}; beside this run's rows of fault class "
                     f"{', '.join(sorted({r['fault_class'] for r in shown}))} (receipts there are spurious)")  # fmt: skip
    elif counted:  # the paper's counts are of episodes this run does not hold: said, not set beside
        classes = ", ".join(sorted({str(r["fault_class"]) for r in counted}))
        notes.append(f"{PAPER_LABEL}: {pf['text']} (fault class {classes}); this run holds no episodes of that "
                     "class, so no row stands beside it")  # fmt: skip
    if not pf:
        notes += view.no_figures("receipt fire rates")
    return Table("fire_rates", titled("Receipt fire rates", _scripted(records)), frame, notes, paper_frame,
                 (paper.section(view.paper) or {}).get("title", ""))  # fmt: skip


def all_tables(
    records: pd.DataFrame,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    workers: int = 1,
    world: World | View | None = None,
) -> list[Table]:
    """Every table, read as the run's ``world.json`` (``world``; None: a run without one) says. A study
    that played several injected faults also gets ``table1_faults``. With ``workers`` > 1 the ablation
    contrasts (the heaviest table: a bootstrap per contrast and model) are computed in a forked child while
    this process computes the rest; the tables are the same either way (every draw comes from its own
    seeded generator)."""
    kw = {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}
    view = resolve(world, records)
    pool = _forked_pool() if workers > 1 else None
    abl = pool.submit(ablations, records, study=study, world=view, **kw) if pool is not None else None
    try:
        t1 = [table1(records, replication, study, world=view, **kw)]
        if has_endpoint(_select_study(records, study), "outcome_correct"):
            t1.append(table1(records, replication, study, endpoint="outcome_correct", world=view, **kw))
        else:
            t1[0].notes.append(
                "no record carries outcome_correct (an older run or another world): no table1_outcome"
            )
        if injected_faults(build_pairs(_select_study(records, study)).pairs):
            t1.append(table1_faults(records, study, world=view, **kw))
        strata = table1_strata(
            records, study, seed=seed, n_resamples=min(n_resamples, 2_000), n_flips=n_flips, world=view
        )
        rest = [
            boundaries(records, world=view, **kw),
            post_receipt_actions(records, world=view),
            admissible(records, world=view),
            cost(records, world=view),
            cost_roles(records, world=view),
            fire_rates(records, world=view),
        ]
        # repeated trials (trials: k): pass^k, flips, nested-bootstrap CIs; none for a one-trial run
        repeated = trials_tables(records, study, seed=seed, n_resamples=n_resamples, world=view)
        if repeated:  # said where the pairs are counted: a task's trials are pairs of one cluster here
            for t in t1:
                t.notes.append(
                    f"{n_trials(_select_study(records, study))} trials per pair: n counts every trial's pair, clustered "
                    f"with its {view.unit} (ci_low/ci_high resample {view.units} with all their trials, the sign-flip "
                    "flips them whole); pass^k, flips and the one-trial CI beside this one: trials_pass, trials_flips, trials_effect"
                )
        abl_table = abl.result() if abl is not None else ablations(records, study=study, world=view, **kw)
    finally:
        if pool is not None:
            pool.shutdown()
    return [*t1, strata, abl_table, *rest, *repeated]


def fork_context():
    """A fork context (a child inherits the records and every import), or None where there is none."""
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


def _forked_pool():
    """One forked worker, or None where fork does not exist."""
    from concurrent.futures import ProcessPoolExecutor

    ctx = fork_context()
    return ProcessPoolExecutor(max_workers=1, mp_context=ctx) if ctx is not None else None
