"""Quality measurements of a monitor on ToolMaze: held-out false alarms on clean traces, and the
task-disjoint detection audit of implicit (silent) payloads, by contract class and complexity.

Reads fault labels (``ToolResult.meta``) only to *score* the monitor after it has decided; the
monitor itself never sees them. Imports ``environments.toolmaze`` lazily.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.monitor.crossfit import CrossFit, workflow_of
from harness.monitor.receipt import Monitor


def toolmaze_traces(mode: str = "P0", complexity: str | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """Trace rows of the ToolMaze ``traces`` command (its documented interface), read back."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "traces.jsonl"
        cmd = [sys.executable, "-m", "environments.toolmaze", "traces", "--mode", mode, "--out", str(out), "--seed", str(seed)]
        if complexity:
            cmd += ["--complexity", complexity]
        subprocess.run(cmd, check=True, capture_output=True)
        return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


def false_alarms(crossfit: CrossFit, rows: Iterable[Mapping[str, Any]], by: str = "complexity") -> dict[str, Any]:
    """Fire rate on clean responses, each checked by the registry that never saw its workflow."""
    n, fired = Counter(), Counter()
    classes: Counter = Counter()
    for r in rows:
        if r.get("status", "ok") == "error":
            continue
        key = str(r.get(by, "all"))
        v = crossfit.registry_for(workflow_of(r)).check(r["tool"], r.get("arguments") or {}, r.get("result"))
        n[key] += 1
        n["all"] += 1 if key != "all" else 0
        if v:
            fired[key] += 1
            fired["all"] += 1 if key != "all" else 0
            classes.update({x.rule_class for x in v})
    rates = {k: fired[k] / n[k] for k in sorted(n)}
    return {"responses": dict(sorted(n.items())), "fired": dict(sorted(fired.items())), "rate": rates,
            "fired_by_class": dict(sorted(classes.items()))}


def detection_audit(crossfit: CrossFit, env: Any, modes: tuple[str, ...] = ("P3", "P4"),
                    complexities: tuple[str, ...] = ("C1", "C2", "C3", "C4")) -> dict[str, Any]:
    """Run the oracle policy on implicit-fault tasks; score each distinct perturbed outcome and each
    clean response seen on the way, with the fold registry that never saw the workflow."""
    from environments.toolmaze.policies import run_policy

    catalog = env.tool_specs()
    outcomes: dict[tuple, dict[str, Any]] = {}
    clean_n = clean_fired = 0
    admissible: list[int] = []
    for c in complexities:
        for m in modes:
            for task in env.tasks(f"{c}/{m}"):
                reg = crossfit.registry_for(task.workflow_id)
                monitor = Monitor(reg, catalog)
                exposed = [s.name for s in env.start(task.task_id).tools()]
                _, history = run_policy(env, task.task_id, "oracle")
                for call, res in history:
                    if call.name == "finish" or res.status == "error":
                        continue
                    ann = monitor.annotate(call.name, call.arguments, res.content, exposed)
                    if ann.fired:
                        admissible.append(ann.n_admissible)
                    if not res.meta.get("perturbed"):
                        clean_n += 1
                        clean_fired += ann.fired
                        continue
                    key = (task.workflow_id, call.name, json.dumps(res.content, sort_keys=True, default=str))
                    cls = str(res.meta.get("contract_class", "?"))
                    have = any(r.cls == cls for r in reg.rules_for(call.name))
                    outcomes[key] = {"complexity": c, "mode": m, "contract_class": cls,
                                     "fault_kind": str(res.meta.get("fault_kind", "?")),
                                     "flagged": ann.fired, "contract_available": have,
                                     "caught_by_class": cls in {v.rule_class for v in ann.violations}}
    return summarize(list(outcomes.values()), clean_n, clean_fired, admissible)


def summarize(outcomes: list[dict[str, Any]], clean_n: int, clean_fired: int, admissible: list[int]) -> dict[str, Any]:
    def rate(rows: list[dict[str, Any]], key: str) -> float:
        return sum(bool(r[key]) for r in rows) / len(rows) if rows else float("nan")

    groups: dict[str, dict[str, list[dict[str, Any]]]] = {"contract_class": defaultdict(list), "complexity": defaultdict(list),
                                                          "fault_kind": defaultdict(list)}
    for o in outcomes:
        for g in groups:
            groups[g][o[g]].append(o)
    c34 = [o for o in outcomes if o["complexity"] in ("C3", "C4")]
    return {
        "fault_outcomes": len(outcomes),
        "flagged": rate(outcomes, "flagged"),
        "contract_available": rate(outcomes, "contract_available"),
        "c3c4": {"fault_outcomes": len(c34), "flagged": rate(c34, "flagged"), "contract_available": rate(c34, "contract_available")},
        "by": {g: {k: {"n": len(v), "flagged": rate(v, "flagged"), "contract_available": rate(v, "contract_available")}
                   for k, v in sorted(d.items())} for g, d in groups.items()},
        "clean_responses": clean_n,
        "clean_fire_rate": clean_fired / clean_n if clean_n else float("nan"),
        "receipt_events": len(admissible),
        "events_with_2plus_recovery": sum(a >= 2 for a in admissible) / len(admissible) if admissible else float("nan"),
    }
