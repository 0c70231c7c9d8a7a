"""Table 1 from records: monitor vs baseline per model and pooled, per stratum, and per fault.

Every number is computed from records; the paper's rows stand beside them, labelled "paper", only
where they are the same comparison (the same world, the same faults). Runs of scripted policies say
so in every title.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pandas as pd

from analysis import paper
from analysis.load import (
    World,
    build_pairs,
)
from analysis.stats import design_mde, holm
from analysis.table import (
    TABLE1_COLUMNS,
    TABLE1_EXTRA,
    TABLE1_NAMES,
    UNIT_PAIRS,
    Table,
    drop_notes,
    effect,
    endpoint_labels,
    endpoint_line,
    fault_column,
    fault_names,
    headline,
    headline_note,
    policy_captions,
    scripted_run,
    select_study,
    stat_kw,
    titled,
)
from analysis.view import PAPER_LABEL, View, resolve


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
    pf = build_pairs(select_study(records, study), "monitor", "baseline", endpoint=endpoint)
    kw = stat_kw(seed, n_resamples, n_flips)
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
        heads = [headline(r, view.clusters) for r in rows]
        full["headline_unit"] = [u for u, _ in heads]
        full["p_headline"] = [p for _, p in heads]
        in_family = ~full["model"].isin(repl)
        full["p_holm"] = math.nan
        full.loc[in_family, "p_holm"] = holm(full.loc[in_family, "p_headline"].to_numpy())
        full = full.rename(columns={"mde_points": "mde_posthoc_points"})
    cols = [*TABLE1_COLUMNS, *TABLE1_EXTRA]
    frame = full[cols] if len(full) else pd.DataFrame(columns=cols)
    notes = [*view.header, *endpoint_line(view, labels[endpoint]), *drop_notes(pf)]
    if pf.dropped_no_endpoint:
        notes.append(
            f"pairs dropped because an arm's record has no {endpoint!r} value: {pf.dropped_no_endpoint}"
        )
    studies = sorted(pf.pairs["study"].dropna().astype(str).unique()) if len(pf.pairs) else []
    if len(studies) > 1:
        notes.append(f"pairs from {len(studies)} studies pooled here: {studies} (choose one with --study)")
    scripted = pf.scripted or scripted_run(records)
    us = view.units
    if len(full):
        k = pooled["group_id"].nunique() if len(pooled) else 0
        fam = int((~full["model"].isin(repl)).sum())
        notes += [
            f"ci_low, ci_high: 95% CI, unit = {view.clusters} (cluster bootstrap over {k} {us} with all their "
            f"pairs, {n_resamples} resamples, seed {seed})",
            f"p_mcnemar: unit = {UNIT_PAIRS}, exact two-sided; p_signflip: unit = {view.clusters} (exact cluster "
            f"sign-flip over {us})",
            headline_note(full[full["model"] != "pooled"], view, pooled=bool(len(pooled)))
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
    pf = build_pairs(select_study(records, study), "monitor", "baseline")
    pairs = pf.pairs.copy()
    pairs["fault_class"] = pairs["fault_class"].fillna("none").astype(str) if len(pairs) else []
    kw = stat_kw(seed, n_resamples, n_flips)
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
    notes += drop_notes(pf)
    return Table(
        "table1_strata",
        titled("Table 1 strata: monitor vs baseline", pf.scripted or scripted_run(records)),
        frame,
        notes,
    )


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
    recs = select_study(records, study)
    pf = build_pairs(recs, "monitor", "baseline")
    kw = stat_kw(seed, n_resamples, n_flips)
    flagged = _flagged(recs)
    pairs = pf.pairs.copy()
    pairs["fault_class"] = fault_column(pairs)
    rows = []
    for (fault, model), g in pairs.groupby(["fault_class", "model"], sort=True):
        e = effect(g, **kw)
        unit, p_head = headline(e, view.clusters)
        rows.append({"fault": fault, "paper_fault": fault_names([fault], view)[0], "model": model}
                    | {k: e[k] for k in ("n", "n_clusters", "baseline_successes", "monitor_successes", "baseline_pct",
                                         "monitor_pct", "delta_points", "wins", "losses", "ci_low", "ci_high",
                                         "p_mcnemar", "p_signflip")}
                    | {"headline_unit": unit, "p_headline": p_head,
                       "monitor_flagged_pct": 100.0 * float(g["pair_id"].isin(flagged).mean())})  # fmt: skip
    frame = pd.DataFrame(rows, columns=FAULT_COLUMNS)
    named = set(paper.fault_labels(view.paper).values())
    frame["paper_fault"] = [f if f in named else "" for f in frame["paper_fault"]]
    notes = [*view.header, *endpoint_line(view, view.endpoint), *drop_notes(pf)]
    if len(frame):
        notes += [
            "a row per fault (the fault config's name in the records) and model: one model's pairs under one fault",
            f"ci_low, ci_high: 95% CI, unit = {view.clusters} (cluster bootstrap, {n_resamples} resamples, seed "
            f"{seed}); p_mcnemar: unit = {UNIT_PAIRS}; p_signflip: unit = {view.clusters}",
            headline_note(frame.assign(model=frame["fault"] + " / " + frame["model"]), view, False, "a row"),
            "monitor_flagged_pct: share of the row's pairs whose monitor episode got at least one receipt",
        ]
    paper_frame, paper_title, said = _paper_faults(view, set(frame["paper_fault"]) - {""})
    notes += said
    scripted = pf.scripted or scripted_run(records)
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
