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
