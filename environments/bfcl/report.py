"""How a BFCL faults run's failures look to the agent: silent, or loud (a tool said something was wrong).

    python -m environments.bfcl failures RUN_DIR [--json]

Reads the run's ``episodes.jsonl`` and transcripts as plain JSON (no harness code). For every failed
episode of each arm and player, from the first faulted result on: ``dropped`` when a tool result says a
required argument is missing (the old players dropped a field they could not find), ``tool error`` when a
later tool answered with an error (the world's own reaction to a wrong value: an unknown symbol, a tank
over capacity), else ``silent`` (every later result looked fine). Also the player's own stops (a turn
ended with "I stop here").
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

_DROPPED = re.compile(r"missing \d* ?required (positional )?argument", re.I)


def _tool_text(m: dict[str, Any]) -> str:
    return str(m.get("content") or "")


def classify(transcript: dict[str, Any]) -> str:
    """dropped | tool error | silent, from the first faulted result on."""
    metas = transcript.get("results_meta") or []
    first = next((i for i, x in enumerate(metas) if x.get("injected_fault")), 0)
    results = [m for m in transcript.get("messages") or [] if m.get("role") == "tool"][first + 1 :]
    texts = [_tool_text(m) for m in results]
    if any(_DROPPED.search(t) for t in texts):
        return "dropped"
    if any(t.startswith("Error during execution") or '"error"' in t for t in texts):
        return "tool error"
    return "silent"


def failures(run: Path) -> dict[str, dict[str, Counter]]:
    """arm -> player -> Counter of failure kinds (and ``stopped``: the player ended a turn itself)."""
    out: dict[str, dict[str, Counter]] = {}
    for line in (run / "episodes.jsonl").read_text().splitlines():
        r = json.loads(line)
        if r.get("success") or r.get("status") != "agent_failed":
            continue
        t = json.loads((run / r["transcript"]).read_text())
        c = out.setdefault(r["arm"], {}).setdefault(r["model"], Counter())
        c[classify(t)] += 1
        said = " ".join(str(m.get("content") or "") for m in t["messages"] if m.get("role") == "assistant")
        c["stopped"] += "I stop here" in said
        c["failed"] += 1
    return out


def render(table: dict[str, dict[str, Counter]]) -> str:
    lines = [
        "| arm | player | failed | dropped argument | tool error | silent | player stopped |",
        "|---" * 7 + "|",
    ]
    for arm in sorted(table):
        for player, c in sorted(table[arm].items()):
            lines.append(
                f"| {arm} | {player} | {c['failed']} | {c['dropped']} | {c['tool error']} | {c['silent']} "
                f"| {c['stopped']} |"
            )
    return "\n".join(lines)
