"""One table and the words every table repeats: the :class:`Table` (a DataFrame for the CSV, a title,
notes, optionally the paper's figures) written as ``<name>.csv`` and ``<name>.md``, its Markdown, the
labels ("scripted policies (not the paper's models)", "this run"), the units a p value is about, and
the helpers the tables of :mod:`analysis.table1`, :mod:`analysis.contrasts`, :mod:`analysis.receipts`,
:mod:`analysis.costs` and :mod:`analysis.trials` share (a paired effect, its headline test, the
notes on dropped pairs). Knows nothing about plotting, running or litellm.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import paper
from analysis.load import (
    PairedFrame,
    notice_lines,
)
from analysis.stats import paired_effect
from analysis.view import DEFAULT_ENDPOINT, PAPER_LABEL, View

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


def format_cell(v: object, col: str) -> str:
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
        lines.append("| " + " | ".join(format_cell(v, c) for v, c in zip(row, cols, strict=True)) + " |")
    return "\n".join(lines)


def titled(base: str, scripted: bool) -> str:
    return f"{base} ({SCRIPTED_LABEL})" if scripted else base


def scripted_run(records: pd.DataFrame) -> bool:
    return bool(len(records)) and bool(records["scripted"].any())


def select_study(records: pd.DataFrame, study: str | None) -> pd.DataFrame:
    return records if study is None else records[records["study"] == study]


def drop_notes(pf: PairedFrame) -> list[str]:
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


def stat_kw(seed: int, n_resamples: int, n_flips: int) -> dict:
    return {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}


def headline(e: dict, clusters: str = UNIT_CLUSTERS) -> tuple[str, float]:
    """The test a row headlines: exact McNemar when each cluster gives one pair, else the cluster sign-flip."""
    if e["n_clusters"] >= e["n"]:
        return UNIT_PAIRS, e["p_mcnemar"]
    return clusters, e["p_signflip"]


def headline_note(rows: pd.DataFrame, view: View, pooled: bool, row: str = "a model's row") -> str:
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


def endpoint_line(view: View, label: str) -> list[str]:
    """The table's endpoint note, unless the world's header line already names this very endpoint."""
    return [] if view.header and label == view.endpoint else [f"endpoint: {label}"]


def endpoint_labels(view: View) -> dict[str, str]:
    """Each endpoint's label in this run's tables: ``success`` is what the world's judge means."""
    return {**ENDPOINT_LABELS, "success": view.endpoint}


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


def fault_column(pairs: pd.DataFrame) -> pd.Series:
    """The pairs' fault classes as text, ``none`` for a clean pair."""
    return pairs["fault_class"].fillna("none").astype(str)


def injected_faults(pairs: pd.DataFrame) -> bool:
    """True when some task was played under two or more faults: faults injected across the study's tasks
    (a world's own planted faults, one per task, are the fault_class strata of ``table1_strata``)."""
    if not len(pairs):
        return False
    faulted = pairs[pairs["fault_class"].notna() & (pairs["fault_class"].astype(str) != "none")]
    if faulted["fault_class"].nunique() < 2:
        return False
    return bool((faulted.groupby("task_id")["fault_class"].nunique() > 1).any())
