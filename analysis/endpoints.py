"""Secondary per-episode endpoints and receipts on perturbed results, from records alone.

A world may grade more than one thing per episode: besides ``success`` (its endpoint) it can put booleans in
its outcome details (a record's ``outcome``) and name them in its presentation (``world.json``'s
``endpoints``: key -> label, e.g. an attack's success under prompt injection). For each declared endpoint and
for ``success``, :func:`endpoint_table` gives, per model and pooled, the rate in each arm and the paired
monitor - baseline difference (cluster-bootstrap CI by group, exact McNemar and sign-flip p, discordant
pairs), the same statistics as Table 1 (:func:`analysis.stats.paired_effect`).

:func:`perturbed_receipts` counts, on the monitor arm, how often receipts fired on results the world marked
perturbed (``tool_calls[].perturbed``: an injected or planted fault the agent saw) against the others, by
rule class and rule. The monitor never sees that mark; the records hold both, so the comparison is made here.

Knows no particular world. :func:`write` is the one call ``python -m analysis figures`` makes.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.load import WORLD_FILE
from analysis.stats import paired_effect
from analysis.tables import RUN_LABEL, SCRIPTED_LABEL, Table

SCORED = ("completed", "agent_failed")
EXECUTED = ("ok", "error")


def declared(run_dir: str | Path) -> dict[str, str]:
    """The endpoints a run's ``world.json`` declares beside ``success`` (key -> label); {} without any."""
    path = Path(run_dir) / WORLD_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    got = data.get("endpoints") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}


def _value(row: pd.Series, key: str) -> float:
    if key == "success":
        return float(bool(row["success"]))
    got = (row["outcome"] or {}).get(key) if isinstance(row["outcome"], dict) else None
    return float(got) if isinstance(got, bool) else math.nan


def paired(
    records: pd.DataFrame, key: str, baseline: str = "baseline", treatment: str = "monitor"
) -> pd.DataFrame:
    """One row per scored pair: model, group_id, y_base, y_treat (0/1) of ``key``; pairs lacking it dropped."""
    sub = records[records["arm"].isin([baseline, treatment]) & records["status"].isin(SCORED)]
    sub = sub.drop_duplicates(subset=["pair_id", "arm"], keep="last").copy()
    sub["y"] = sub.apply(lambda r: _value(r, key), axis=1) if len(sub) else pd.Series(dtype=float)
    base = sub[sub["arm"] == baseline].set_index("pair_id")
    treat = sub[sub["arm"] == treatment].set_index("pair_id")
    both = base.index.intersection(treat.index)
    out = pd.DataFrame(
        {
            "model": base.loc[both, "model"],
            "group_id": base.loc[both, "group_id"],
            "y_base": base.loc[both, "y"],
            "y_treat": treat.loc[both, "y"],
        }
    )
    return out.dropna(subset=["y_base", "y_treat"]).astype({"y_base": int, "y_treat": int})


def endpoint_table(
    records: pd.DataFrame,
    endpoints: dict[str, str],
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
) -> Table:
    """Per endpoint and model (and pooled): each arm's rate and the paired monitor - baseline difference."""
    rows = []
    for key, label in {"success": "success (the world's endpoint)", **endpoints}.items():
        pairs = paired(records, key)
        groups = [(m, g) for m, g in pairs.groupby("model", sort=True)]
        if pairs["model"].nunique() > 1:
            groups.append(("pooled", pairs))
        for model, g in groups:
            e = paired_effect(g["y_base"], g["y_treat"], g["group_id"], n_resamples, n_flips, seed)
            rows.append(
                {
                    "endpoint": key,
                    "label": label,
                    "model": model,
                    "n": e["n"],
                    "baseline_pct": e["baseline_pct"],
                    "monitor_pct": e["monitor_pct"],
                    "delta_points": e["delta_points"],
                    "ci_low": e["ci_low"],
                    "ci_high": e["ci_high"],
                    "monitor_only": e["wins"],  # pairs where only the monitor arm has the endpoint
                    "baseline_only": e["losses"],
                    "p_mcnemar": e["p_mcnemar"],
                    "p_signflip": e["p_signflip"],
                }
            )
    scripted = bool(records["scripted"].any()) if len(records) else False
    title = "Endpoints per arm: baseline vs monitor, paired by pair_id"
    notes = [
        f"{RUN_LABEL}: each row's pairs are the scored baseline/monitor pairs of that model (pooled: all models, "
        "clustered by group); ci_low/ci_high: 95% cluster-bootstrap CI of monitor - baseline (points); "
        "monitor_only/baseline_only: the discordant pairs; p_mcnemar exact, p_signflip clustered",
    ]
    if endpoints:
        notes.append(
            "endpoints besides success are the world's, from each record's outcome: "
            + "; ".join(f"{k}: {v}" for k, v in endpoints.items())
        )
    return Table(
        "endpoints",
        f"{title} ({SCRIPTED_LABEL})" if scripted else title,
        pd.DataFrame(rows),
        notes,
    )


def perturbed_receipts(records: pd.DataFrame, arm: str = "monitor") -> Table:
    """Receipts on results the world marked perturbed vs on the others, on one arm: overall, by rule class
    and by rule (a result counts once per row; a receipt names its rules in ``violated``)."""
    counts: dict[tuple[str, str], list[int]] = {}  # (row kind, name) -> [perturbed n, fired, clean n, fired]
    sub = records[(records["arm"] == arm) & records["status"].isin(SCORED)]
    for calls, receipts in zip(sub["tool_calls"], sub["receipts"], strict=True):
        executed = [c for c in calls or [] if c.get("status") in EXECUTED]
        by_index = {int(r["call_index"]): r for r in receipts or []}
        for i, c in enumerate(executed):
            if c.get("status") != "ok":
                continue
            side = 0 if c.get("perturbed") else 2
            r = by_index.get(i)
            names = [("all", "every rule")]
            if r is not None:
                names += [("class", str(r.get("rule_class") or "?"))]
                names += [("rule", str(v)) for v in dict.fromkeys(r.get("violated") or [])]
            for j, name in enumerate(names):
                cell = counts.setdefault(name, [0, 0, 0, 0])
                if j == 0:
                    cell[side] += 1
                cell[side + 1] += r is not None
    total = counts.get(("all", "every rule"), [0, 0, 0, 0])
    rows = []
    for (kind, rule), (pn, pf, cn, cf) in sorted(counts.items(), key=lambda kv: (kv[0][0] != "all", kv[0])):
        pn, cn = (pn, cn) if kind == "all" else (total[0], total[2])
        rows.append(
            {
                "by": kind,
                "rule": rule,
                "perturbed_results": pn,
                "fired_on_perturbed": pf,
                "perturbed_fire_pct": 100.0 * pf / pn if pn else math.nan,
                "clean_results": cn,
                "fired_on_clean": cf,
                "clean_fire_pct": 100.0 * cf / cn if cn else math.nan,
            }
        )
    notes = [
        f"{RUN_LABEL}, arm {arm}: successful tool results, split by the world's mark (perturbed: the agent saw an "
        "injected or planted fault there; the monitor never sees the mark); a rule or class row counts the results "
        "whose receipt named it, over all results of that side"
    ]
    return Table(
        "receipts_perturbed", "Receipts on perturbed vs clean results, by rule", pd.DataFrame(rows), notes
    )


def figure(table: Table, out_dir: str | Path) -> list[Path]:
    """Each endpoint's rate per arm and model: baseline open, monitor filled, the delta and CI printed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    f = table.frame
    if not len(f):
        return []
    endpoints = list(dict.fromkeys(f["endpoint"]))
    fig, axes = plt.subplots(
        1,
        len(endpoints),
        figsize=(6.0 * len(endpoints), 0.45 * f["model"].nunique() + 1.6),
        squeeze=False,
        sharey=True,
    )
    fig.subplots_adjust(wspace=0.55)  # room for each panel's printed deltas
    for ax, key in zip(axes[0], endpoints, strict=True):
        g = f[f["endpoint"] == key].reset_index(drop=True)
        for i, r in g.iterrows():
            y = len(g) - 1 - int(i)
            ax.plot([r.baseline_pct, r.monitor_pct], [y, y], color="#1b9e4b", lw=1.5, zorder=1)
            ax.scatter([r.baseline_pct], [y], s=50, facecolors="white", edgecolors="black", zorder=2,
                       label="baseline" if i == 0 else None)  # fmt: skip
            ax.scatter(
                [r.monitor_pct], [y], s=50, color="#1b9e4b", zorder=3, label="monitor" if i == 0 else None
            )
            ax.text(
                102, y, f"{r.delta_points:+.1f} [{r.ci_low:+.1f}, {r.ci_high:+.1f}]", va="center", fontsize=7
            )
        ax.set_yticks(range(len(g)), list(reversed(g["model"].astype(str))), fontsize=7)
        ax.set_xlim(0, 100)
        ax.set_xlabel(f"{g['label'].iloc[0]} (%)", fontsize=8)
        ax.legend(loc="lower left", fontsize=7, frameon=False)
    fig.suptitle(table.title, fontsize=8)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext, meta in (("png", {}), ("pdf", {"CreationDate": None, "ModDate": None})):
        p = out / f"figure_endpoints.{ext}"
        fig.savefig(p, dpi=150, bbox_inches="tight", metadata=meta)
        paths.append(p)
    plt.close(fig)
    return paths


def write(records: pd.DataFrame, run_dir: str | Path, out_dir: str | Path, **kw: Any) -> list[Path]:
    """For a run whose world declares endpoints: the endpoint table and figure, and (some result marked
    perturbed, a monitor arm) the perturbed-receipts table; nothing for other runs. ``kw``: seed,
    n_resamples, n_flips."""
    ends = declared(run_dir)
    written: list[Path] = []
    if ends:
        stat = {k: kw[k] for k in ("seed", "n_resamples", "n_flips") if k in kw}
        table = endpoint_table(records, ends, **stat)
        written += [*table.write(out_dir), *figure(table, out_dir)]
        marked = any(c.get("perturbed") for calls in records["tool_calls"] for c in calls or [])
        if marked and (records["arm"] == "monitor").any():
            written += list(perturbed_receipts(records).write(out_dir))
    return written
