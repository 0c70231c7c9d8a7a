"""Quality measurements of a monitor on a world: held-out false alarms on clean traces, and the
task-disjoint detection audit of the silent payloads a world plants itself (e.g. implicit perturbation modes).

Reads fault labels (``ToolResult.meta``) only to *score* the monitor after it has decided; the
monitor itself never sees them. Asks the world's plugin for its planned faults and its oracle;
knows no particular world.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from outcome_monitor.receipts.monitor import Monitor

from core.protocol import Environment, ToolCall, ToolResult
from harness.monitor.crossfit import CrossFit, workflow_of

IMPLICIT_KINDS = ("implicit_transient", "implicit_permanent")


def false_alarms(
    crossfit: CrossFit, rows: Iterable[Mapping[str, Any]], by: str = "complexity"
) -> dict[str, Any]:
    """Fire rate on clean responses, each checked by the registry that never saw its group.

    ``by`` names a row key (or a key of the row's ``strata``) to break the rate down by.
    """
    n: Counter[str]
    fired: Counter[str]
    n, fired = Counter(), Counter()
    classes: Counter[str] = Counter()
    for r in rows:
        if r.get("status", "ok") == "error":
            continue
        key = str(r.get(by, (r.get("strata") or {}).get(by, "all")))
        v = crossfit.registry_for(workflow_of(r)).check(r["tool"], r.get("arguments") or {}, r.get("result"))
        n[key] += 1
        n["all"] += 1 if key != "all" else 0
        if v:
            fired[key] += 1
            fired["all"] += 1 if key != "all" else 0
            classes.update({x.rule_class for x in v})
    rates = {k: fired[k] / n[k] for k in sorted(n)}
    return {
        "responses": dict(sorted(n.items())),
        "fired": dict(sorted(fired.items())),
        "rate": rates,
        "fired_by_class": dict(sorted(classes.items())),
    }


def _replay(env: Environment, task_id: str, calls: list[ToolCall]) -> list[tuple[ToolCall, ToolResult]]:
    async def play() -> list[tuple[ToolCall, ToolResult]]:
        episode = env.episode(task_id)
        try:
            await episode.open()
            return [(c, await episode.call(c)) for c in calls]
        finally:
            await episode.close()

    return asyncio.run(play())


def detection_audit(
    crossfit: CrossFit,
    env: Environment,
    where: Mapping[str, Collection[str]] | None = None,
    kinds: Collection[str] = IMPLICIT_KINDS,
    focus: Mapping[str, Collection[str]] | None = None,
) -> dict[str, Any]:
    """Replay the world's oracle on the tasks that plant a fault of ``kinds`` (and match ``where``);
    score each distinct perturbed outcome and each clean response seen on the way, with the fold
    registry that never saw the group. ``focus`` (strata values) adds a summary of that subset."""
    from core.worlds import get_plugin

    plugin = get_plugin(env.name)
    catalog = env.tool_specs()
    outcomes: dict[tuple[str, str, str], dict[str, Any]] = {}
    clean_n = clean_fired = 0
    admissible: list[int] = []
    for task in env.tasks():
        if where and not all(str(task.strata.get(k)) in set(map(str, v)) for k, v in where.items()):
            continue
        planned = plugin.planned_fault(env, task)
        if planned is None or planned.fault_kind not in kinds:
            continue
        monitor = Monitor(crossfit.registry_for(task.group_id), catalog)
        reg = monitor.registry
        exposed = [s.name for s in env.episode(task.task_id).tools()]
        for call, res in _replay(env, task.task_id, plugin.oracle(env, task.task_id)):
            if res.status == "error" or (
                catalog.get(call.name) and catalog[call.name].category == "terminal"
            ):
                continue
            ann = monitor.annotate(call.name, call.arguments, res.content, exposed)
            if ann.fired:
                admissible.append(ann.n_admissible)
            if not res.meta.get("perturbed"):
                clean_n += 1
                clean_fired += ann.fired
                continue
            key = (task.group_id, call.name, json.dumps(res.content, sort_keys=True, default=str))
            cls = str(res.meta.get("contract_class", "?"))
            outcomes[key] = {
                **{f"stratum:{k}": str(v) for k, v in task.strata.items()},
                "strata": dict(task.strata),
                "contract_class": cls,
                "fault_kind": str(res.meta.get("fault_kind", "?")),
                "flagged": ann.fired,
                "contract_available": any(r.cls == cls for r in reg.rules_for(call.name)),
                "caught_by_class": cls in {v.rule_class for v in ann.violations},
            }
    return summarize(list(outcomes.values()), clean_n, clean_fired, admissible, focus)


def summarize(
    outcomes: list[dict[str, Any]],
    clean_n: int,
    clean_fired: int,
    admissible: list[int],
    focus: Mapping[str, Collection[str]] | None = None,
) -> dict[str, Any]:
    def rate(rows: list[dict[str, Any]], key: str) -> float:
        return sum(bool(r[key]) for r in rows) / len(rows) if rows else float("nan")

    keys = [
        "contract_class",
        "fault_kind",
        *sorted({k for o in outcomes for k in o if k.startswith("stratum:")}),
    ]
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {g: defaultdict(list) for g in keys}
    for o in outcomes:
        for g in groups:
            groups[g][o.get(g, "-")].append(o)
    sub = [
        o
        for o in outcomes
        if focus and all(str(o["strata"].get(k)) in set(map(str, v)) for k, v in focus.items())
    ]
    return {
        "fault_outcomes": len(outcomes),
        "flagged": rate(outcomes, "flagged"),
        "contract_available": rate(outcomes, "contract_available"),
        "focus": {
            "where": {k: list(v) for k, v in (focus or {}).items()},
            "fault_outcomes": len(sub),
            "flagged": rate(sub, "flagged"),
            "contract_available": rate(sub, "contract_available"),
        },
        "by": {
            g: {
                k: {
                    "n": len(v),
                    "flagged": rate(v, "flagged"),
                    "contract_available": rate(v, "contract_available"),
                }
                for k, v in sorted(d.items())
            }
            for g, d in groups.items()
        },
        "clean_responses": clean_n,
        "clean_fire_rate": clean_fired / clean_n if clean_n else float("nan"),
        "receipt_events": len(admissible),
        "events_with_2plus_recovery": sum(a >= 2 for a in admissible) / len(admissible)
        if admissible
        else float("nan"),
    }
