"""The paper's published figures, read from the project's own data file under ``results/paper/``.

Tables print these beside "this run", always labelled "paper". Nothing here is computed and
nothing anywhere is tuned to these numbers. This module knows nothing about records or runs.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

PAPER_DIR = Path(__file__).resolve().parents[1] / "results" / "paper"
PAPER_FILE = PAPER_DIR / "outcome_monitors.json"


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load_paper(path: str | Path | None = None) -> dict[str, Any]:
    """The whole data file (a fresh copy is not made: treat it as read-only)."""
    return _load(str(path or PAPER_FILE))


def paper_table1() -> dict[str, Any]:
    """``{"rows": [...], "pooled": {...}, "replication": [...], "claim": str}`` with counts and points."""
    return load_paper()["table1"]


def paper_ablations() -> dict[str, Any]:
    return load_paper()["ablations"]


def paper_ablation(treatment: str, baseline: str) -> dict[str, Any] | None:
    """The paper's row for the contrast ``treatment`` vs ``baseline`` (arm names), if it reported one."""
    for row in paper_ablations()["rows"]:
        if row["treatment"] == treatment and row["baseline"] == baseline:
            return row
    return None


def paper_boundaries() -> list[dict[str, Any]]:
    return load_paper()["boundaries"]


def paper_post_receipt_actions() -> dict[str, Any]:
    return load_paper()["post_receipt_actions"]


def paper_admissible() -> dict[str, Any]:
    return load_paper()["admissible"]


def paper_cost() -> dict[str, Any]:
    return load_paper()["cost"]


def paper_fire_rates() -> dict[str, Any]:
    return load_paper()["fire_rates"]


def paper_discordance() -> dict[str, float]:
    """The paper's Table 1 discordance, (wins + losses) / n, per model and ``pooled`` (the design input)."""
    t1 = paper_table1()
    rows = [*t1["rows"], t1["pooled"], *t1["replication"]]
    return {r["model"]: (r["wins"] + r["losses"]) / r["n"] for r in rows}


def paper_mean_model_discordance() -> float:
    """The mean of the paper's four primary models' discordance: the planning value for one model's pairs."""
    rows = paper_table1()["rows"]
    return sum((r["wins"] + r["losses"]) / r["n"] for r in rows) / len(rows)


# --- per world: the data file's ``worlds`` sections, keyed by a world's paper key (world.json's ``paper``) ---


def world_keys() -> list[str]:
    """The paper keys that have a section of figures."""
    return sorted(load_paper().get("worlds", {}))


def section(key: str | None) -> dict[str, Any] | None:
    """The section of the world whose paper key is ``key``; None for no key or a key without a section."""
    return load_paper().get("worlds", {}).get(key) if key else None


def figures(key: str | None, name: str) -> Any:
    """The figures of table ``name`` for this world, or None: the section's own entry, else the top-level
    entry the section claims in ``top_level`` (the figures that were the whole file before worlds had
    sections)."""
    sec = section(key)
    if sec is None:
        return None
    if name in sec:
        return sec[name]
    return load_paper().get(name) if name in sec.get("top_level", ()) else None


def world_boundaries(key: str | None) -> list[dict[str, Any]]:
    """The paper's Figure 2 rows shown beside this world's runs, in the file's order: every row where the
    world's section claims the whole figure (``boundaries`` in its ``top_level``: the first world, whose tables
    always showed the paper's Figure 2), else only the rows tagged with its key."""
    sec = section(key)
    if sec is None:
        return []
    if "boundaries" in sec.get("top_level", ()):
        return list(paper_boundaries())
    return [r for r in paper_boundaries() if r.get("world") == key]


def fault_rows(key: str | None) -> list[dict[str, Any]]:
    """The paper's single-fault rows of this world: its own boundary rows (tagged with its key) that name a
    ``fault``."""
    return [r for r in world_boundaries(key) if r.get("fault") and r.get("world") == key]


def fault_labels(key: str | None) -> dict[str, str]:
    """Fault class in the records (a fault config's name) -> the paper's name of that fault, for this world."""
    sec = section(key) or {}
    return {cls: label for label, classes in sec.get("faults", {}).items() for cls in classes}


def runs_without_world_json() -> dict[str, Any]:
    """How a run folder without ``world.json`` (written before the runner wrote one) reads: ``paper`` (its
    paper key) for records of ``world`` (or of no recorded world)."""
    return dict(load_paper().get("runs_without_world_json", {}))


def world_discordance(key: str | None) -> dict[str, Any]:
    """The paper's discordance, (wins + losses) / n, on this world, for design-stage MDEs.

    ``per_model``: the mean over its single-model rows with counts (Table 1's rows, else its per-fault
    rows); ``pooled``: its pooled row's, else None; ``source``: what they were taken from. Both None when
    the paper gives no counts for this world.
    """
    t1 = figures(key, "table1") or {}
    rows = [r for r in t1.get("rows", []) if {"n", "wins", "losses"} <= set(r)]
    source = "mean (wins+losses)/n of its {} models"
    if not rows:
        rows = [r for r in fault_rows(key) if {"n", "wins", "losses"} <= set(r)]
        source = "mean (wins+losses)/n of its {} single-fault rows"
    per_model = sum((r["wins"] + r["losses"]) / r["n"] for r in rows) / len(rows) if rows else None
    pooled = t1.get("pooled")
    return {
        "per_model": per_model,
        "pooled": (pooled["wins"] + pooled["losses"]) / pooled["n"] if pooled else None,
        "source": source.format(len(rows)) if rows else "",
    }
