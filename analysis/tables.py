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
from analysis.load import ENDPOINTS, INFRA_STATUSES, PairedFrame, build_pairs, has_endpoint, notice_lines
from analysis.stats import design_mde, holm, paired_effect

SCRIPTED_LABEL = "scripted policies (not the paper's models)"
PAPER_LABEL = "paper"
RUN_LABEL = "this run"
TABLE1_COLUMNS: tuple[str, ...] = (
    "model", "n", "baseline_successes", "monitor_successes", "baseline_pct", "monitor_pct", "delta_points",
    "wins", "losses", "ci_low", "ci_high", "p_mcnemar", "p_signflip",
)  # fmt: skip
# Beyond TABLE1_COLUMNS (whose names users rely on): the headline test, its unit and the Holm-adjusted p.
TABLE1_EXTRA: tuple[str, ...] = ("headline_unit", "p_headline", "p_holm")
ENDPOINT_LABELS: dict[str, str] = {
    "success": "success (process judge, the paper's endpoint)",
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
    return notes + notice_lines(pf.notices)


def effect(pairs: pd.DataFrame, **kw) -> dict:
    """:func:`analysis.stats.paired_effect` on a pair frame, clustered by workflow."""
    return paired_effect(pairs["y_base"], pairs["y_treat"], pairs["group_id"], **kw)


def _stat_kw(seed: int, n_resamples: int, n_flips: int) -> dict:
    return {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}


def _headline(e: dict) -> tuple[str, float]:
    """The test a row headlines: exact McNemar when each workflow gives one pair, else the cluster sign-flip."""
    if e["n_clusters"] >= e["n"]:
        return UNIT_PAIRS, e["p_mcnemar"]
    return UNIT_CLUSTERS, e["p_signflip"]


def _paper_design_notes(primary_n: Sequence[int], pooled_n: int, pooled_k: int) -> list[str]:
    """Design-stage MDEs from the study's size and the paper's discordance (prespecification, not post-hoc)."""
    disc = paper.paper_discordance()
    d_model = paper.paper_mean_model_discordance()
    notes = []
    sizes = sorted(set(int(n) for n in primary_n))
    if sizes:
        per = ", ".join(f"{n} pairs: {100 * design_mde(n, d_model):.1f} points" for n in sizes)
        notes.append(
            f"design-stage MDE (80% power, alpha 0.05, exact McNemar; fixed before the run from the study's size and "
            f"the paper's discordance {d_model:.3f} = mean (wins+losses)/n of its four models): per model, {per}"
        )
    if pooled_n:
        d_pool = disc["pooled"]
        notes.append(
            f"design-stage MDE, pooled: {100 * design_mde(pooled_n, d_pool):.1f} points with {pooled_n} pairs "
            f"(paper's pooled discordance {d_pool:.3f}); {100 * design_mde(pooled_k, d_pool):.1f} points if the "
            f"{pooled_k} shared workflows were the unit (the conservative bound); print others with "
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
) -> Table:
    """A row per model, the pooled row (model ``pooled``; replication models not pooled), then replication rows.

    ``endpoint`` "success" gives ``table1`` (the paper's endpoint); "outcome_correct" gives ``table1_outcome``
    with the same columns. Beyond :data:`TABLE1_COLUMNS` each row has ``headline_unit``, ``p_headline`` and
    ``p_holm`` (Holm over the per-model rows and the pooled clustered test).
    """
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
        heads = [_headline(r) for r in rows]
        full["headline_unit"] = [u for u, _ in heads]
        full["p_headline"] = [p for _, p in heads]
        in_family = ~full["model"].isin(repl)
        full["p_holm"] = math.nan
        full.loc[in_family, "p_holm"] = holm(full.loc[in_family, "p_headline"].to_numpy())
        full = full.rename(columns={"mde_points": "mde_posthoc_points"})
    cols = [*TABLE1_COLUMNS, *TABLE1_EXTRA]
    frame = full[cols] if len(full) else pd.DataFrame(columns=cols)
    notes = [f"endpoint: {ENDPOINT_LABELS[endpoint]}", *_drop_notes(pf)]
    if pf.dropped_no_endpoint:
        notes.append(
            f"pairs dropped because an arm's record has no {endpoint!r} value: {pf.dropped_no_endpoint}"
        )
    studies = sorted(pf.pairs["study"].dropna().astype(str).unique()) if len(pf.pairs) else []
    if len(studies) > 1:
        notes.append(f"pairs from {len(studies)} studies pooled here: {studies} (choose one with --study)")
    scripted = pf.scripted or _scripted(records)
    if len(full):
        k = pooled["group_id"].nunique() if len(pooled) else 0
        fam = int((~full["model"].isin(repl)).sum())
        notes += [
            f"ci_low, ci_high: 95% CI, unit = {UNIT_CLUSTERS} (cluster bootstrap over {k} workflows with all their "
            f"pairs, {n_resamples} resamples, seed {seed})",
            f"p_mcnemar: unit = {UNIT_PAIRS}, exact two-sided; p_signflip: unit = {UNIT_CLUSTERS} (exact cluster "
            "sign-flip over workflows)",
            "p_headline: the test each row headlines, its unit in headline_unit; a model's row has one pair per "
            "workflow, so pairs are its unit; the pooled row pools models that share workflows, so its headline "
            f"is the cluster sign-flip over workflows; p_holm: Holm over these {fam} headline tests"
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
                f"pooled headline (workflows as clusters, sign-flip): p = {r.p_signflip:.3g}; pooled exact McNemar "
                f"p = {r.p_mcnemar:.3g} (pairs, ignores shared workflows); pooled iid paired-bootstrap CI "
                f"[{r.ci_iid_low:.1f}, {r.ci_iid_high:.1f}] (pairs, ignores shared workflows); mid-p McNemar "
                f"{r.p_midp:.3g} (pairs)"
            )
            notes.append(
                f"post-hoc MDE (exact McNemar power 80% at this run's realized discordance {r.discordance:.3f}, pooled "
                f"pairs): {mde}; it describes this run, not what the design could detect"
            )
        notes += _paper_design_notes(
            [int(n) for n in full.loc[full["model"].isin(primary), "n"]], int(len(pooled)), int(k)
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
    p1 = paper.paper_table1()
    paper_frame = None
    if endpoint == "success":  # the paper reports the process judge only
        prow = [dict(r) for r in p1["rows"]] + [dict(p1["pooled"])] + [dict(r) for r in p1["replication"]]
        for r in prow:
            r.setdefault("baseline_pct", 100.0 * r["baseline_successes"] / r["n"])
            r.setdefault("monitor_pct", 100.0 * r["monitor_successes"] / r["n"])
        paper_frame = pd.DataFrame(prow).reindex(columns=list(TABLE1_COLUMNS))
    else:
        notes.append(
            f"{PAPER_LABEL}: reports the process-judge endpoint only; no paper figures for this endpoint"
        )
    title = titled(
        f"Table 1: paired completion, monitor vs baseline; endpoint: {ENDPOINT_LABELS[endpoint]}"
        f"{f' ({study})' if study else ''}",
        scripted,
    )
    return Table(
        TABLE1_NAMES[endpoint],
        title,
        frame,
        notes,
        paper_frame,
        p1["study"] + "; MiniMax M3 is the replication row",
        detail=full if len(full) else None,
    )


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
    endpoints: Sequence[str] = ENDPOINTS,
) -> Table:
    """Each contrast per model and pooled, per endpoint present, each row with its own MDEs.

    The paper's unit is one model's paired workflows, so its figures stand beside the per-model rows of the
    success endpoint (``paper_*`` columns, ``paper_comparable``), never beside the pooled row. Holm runs
    within each (endpoint, model) over the contrasts, on each row's headline test.
    """
    recs = _select_study(records, study)
    arms = set(recs["arm"])
    rows, notes, scripted = [], [], False
    kw = _stat_kw(seed, n_resamples, n_flips)
    pa = paper.paper_ablations()
    d_model = paper.paper_mean_model_discordance()
    for endpoint in endpoints:
        if not has_endpoint(recs, endpoint):
            notes.append(f"endpoint {ENDPOINT_LABELS[endpoint]!r}: no record carries it (older run or another "
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
            pp = paper.paper_ablation(treat, base) or {}
            models = sorted(pf.pairs["model"].unique())
            groups = [(m, pf.pairs[pf.pairs["model"] == m]) for m in models]
            if len(models) > 1:
                groups.append(("pooled", pf.pairs))
            for model, g in groups:
                e = effect(g, **kw)
                unit, p_head = _headline(e)
                per_model = model != "pooled"
                comparable = per_model and endpoint == "success"
                rows.append(
                    {"endpoint": endpoint, "contrast": label, "treatment": treat, "baseline": base, "model": model}
                    | {k: e[k] for k in ("n", "n_clusters", "delta_points", "ci_low", "ci_high", "ci_iid_low",
                                         "ci_iid_high", "wins", "losses", "p_mcnemar", "p_signflip")}
                    | {"headline_unit": unit, "p_headline": p_head, "discordance": e["discordance"],
                       "mde_posthoc_points": e["mde_points"],
                       "mde_design_points": 100 * design_mde(e["n"], d_model),
                       "dropped_infra": pf.dropped_infra,
                       "paper_delta_points": pp.get("delta_points", math.nan) if comparable else math.nan,
                       "paper_ci_low": pp.get("ci_low", math.nan) if comparable else math.nan,
                       "paper_ci_high": pp.get("ci_high", math.nan) if comparable else math.nan,
                       "paper_mde_points": pa["mde_points"] if comparable else math.nan,
                       "paper_comparable": (f"per-model row ({pa['paired_workflows']} paired workflows, one model)"
                                            if comparable else "")}
                )  # fmt: skip
    frame = pd.DataFrame(rows)
    if len(frame):
        frame.insert(frame.columns.get_loc("p_headline") + 1, "p_holm", math.nan)
        for _, idx in frame.groupby(["endpoint", "model"], sort=False).groups.items():
            frame.loc[idx, "p_holm"] = holm(frame.loc[idx, "p_headline"].to_numpy())
    notes += [
        f"endpoints: {'; '.join(f'{k} = {v}' for k, v in ENDPOINT_LABELS.items())}",
        f"ci_low, ci_high: 95% CI, unit = {UNIT_CLUSTERS} (cluster bootstrap, {n_resamples} resamples, seed {seed}); "
        f"ci_iid_*: unit = {UNIT_PAIRS} (iid bootstrap); p_mcnemar: unit = {UNIT_PAIRS} (exact); "
        f"p_signflip: unit = {UNIT_CLUSTERS} (cluster sign-flip)",
        "p_headline: exact McNemar on a model's row (one pair per workflow), the cluster sign-flip on the pooled "
        "row (models share workflows; its McNemar ignores that); p_holm: Holm within each (endpoint, model) over "
        "the contrasts present",
        "mde_posthoc_points: exact McNemar power 80% at the row's realized discordance (post-hoc); "
        f"mde_design_points: the same at the paper's discordance {d_model:.3f} and the row's n (design-stage); "
        "blank: undefined (no discordant pairs) or no delta reaches 80% power with that many pairs",
        f"{PAPER_LABEL}: {pa['paired_workflows']} paired workflows for one model at a time, MDE about "
        f"{pa['mde_points']} points; its figures sit on the per-model rows of the success endpoint (the "
        "comparable unit), not on the pooled row, which pools models over the same workflows",
    ]
    return Table("ablations", titled("Ablation contrasts, per model and pooled", scripted), frame, notes)


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
    workers: int = 1,
) -> list[Table]:
    """Every table. With ``workers`` > 1 the ablation contrasts (the heaviest table: a bootstrap per
    contrast and model) are computed in a forked child while this process computes the rest; the
    tables are the same either way (every draw comes from its own seeded generator)."""
    kw = {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}
    pool = _forked_pool() if workers > 1 else None
    abl = pool.submit(ablations, records, study=study, **kw) if pool is not None else None
    try:
        t1 = [table1(records, replication, study, **kw)]
        if has_endpoint(_select_study(records, study), "outcome_correct"):
            t1.append(table1(records, replication, study, endpoint="outcome_correct", **kw))
        else:
            t1[0].notes.append(
                "no record carries outcome_correct (an older run or another world): no table1_outcome"
            )
        strata = table1_strata(
            records, study, seed=seed, n_resamples=min(n_resamples, 2_000), n_flips=n_flips
        )
        rest = [
            boundaries(records, **kw),
            post_receipt_actions(records),
            admissible(records),
            cost(records),
            fire_rates(records),
        ]
        abl_table = abl.result() if abl is not None else ablations(records, study=study, **kw)
    finally:
        if pool is not None:
            pool.shutdown()
    return [*t1, strata, abl_table, *rest]


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
