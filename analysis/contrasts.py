"""Comparisons beyond Table 1: the ablation contrasts (each arm against another, per model and
pooled, Holm within a model) and the boundaries (baseline completion vs the monitor's delta, per
study), each beside the paper's rows of the same unit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from analysis import paper
from analysis.load import (
    ENDPOINTS,
    World,
    build_pairs,
    has_endpoint,
)
from analysis.stats import design_mde, holm
from analysis.table import (
    RUN_LABEL,
    UNIT_PAIRS,
    Table,
    effect,
    endpoint_labels,
    endpoint_line,
    fault_column,
    fault_names,
    headline,
    injected_faults,
    select_study,
    stat_kw,
    titled,
)
from analysis.view import PAPER_LABEL, View, resolve

# (label, treatment arm, baseline arm): the ablation family Holm corrects over.
CONTRASTS: tuple[tuple[str, str, str], ...] = (
    ("recovery list restored", "monitor", "no-tools"),
    ("full vs baseline", "monitor", "baseline"),
    ("stripped vs baseline", "no-tools", "baseline"),
    ("localized vs generic", "monitor", "generic"),
    ("immediate vs deferred", "monitor", "deferred"),
    # the monitor's wider vocabulary (detector wide) against the paper's seven classes, same folds
    ("wide vs paper vocabulary", "monitor-wide", "monitor"),
)


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
    recs = select_study(records, study)
    arms = set(recs["arm"])
    rows, notes, scripted = [], list(view.header), False
    kw = stat_kw(seed, n_resamples, n_flips)
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
                unit, p_head = headline(e, view.clusters)
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
    kw = stat_kw(seed, n_resamples, n_flips)
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
    notes = [*view.header, *endpoint_line(view, view.endpoint),
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
