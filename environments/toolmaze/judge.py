"""The deterministic judge that replaces ToolMaze's LLM judge, and the trace check behind PRR and RC.

Two endpoints. ``success`` is ToolMaze's process judge (the paper's endpoint). Solvable instance:
pass when ``finish(status="done")`` was called, every executed Action had exactly the
clean-derived arguments (at least one did), and when it ran some valid path had all its
non-action tools' latest results clean, so the recovery (retry or reroute) happened before acting.
Unsolvable instance (C1 x P2/P4): pass when the run was hit, executed no Action, and aborted.
``details["outcome_correct"]`` judges the outcome alone: solvable, finished done, every Action had
the clean-derived arguments (at least one ran) and none took a value a corrupted payload had
changed (it may act on a fine value read from a corrupted result, and need not have retried or
rerouted); unsolvable, the same correct abort as the process judge (hit, no Action, aborted). The answer text is not judged.
Must not know harness or models.
"""

from __future__ import annotations

from typing import Any

from core.protocol import Outcome
from environments.toolmaze.catalog import FINISH, build_catalog
from environments.toolmaze.dag import Instance, Path


def _valid_calls(history) -> list[tuple[int, str, dict[str, Any], Any]]:
    """(index, tool, arguments, result) of calls that reached a tool (not rejected as invalid)."""
    out = []
    for i, (call, res) in enumerate(history):
        if res.meta.get("validation_error") or res.meta.get("after_end"):
            continue
        out.append((i, call.name, dict(call.arguments), res))
    return out


def _path_clean_before(path: Path, calls, k: int) -> bool:
    catalog = build_catalog()
    for name in path.tools:
        if catalog[name].kind == "action":
            continue
        last = [res for i, n, _, res in calls if n == name and i < k]
        if not last or last[-1].status != "ok" or last[-1].meta.get("perturbed"):
            return False
    return True


def _clean_results(inst: Instance) -> dict[str, dict[str, Any]]:
    return {step["tool"]: step["result"] for p in inst.base.paths for step in p.trace}


def _tainted(inst: Instance, tool: str, args: dict[str, Any], calls, k: int) -> bool:
    """An argument of the Action at history index ``k`` carries a value a corrupted payload put there:
    it equals a field of a perturbed ok result returned before it, where that payload changed the
    field from the tool's clean result."""
    clean = _clean_results(inst)
    planted: dict[str, list[Any]] = {}
    for i, name, _, res in calls:
        if i < k and res.status == "ok" and res.meta.get("perturbed") and isinstance(res.content, dict):
            for f, v in res.content.items():
                if clean.get(name, {}).get(f) != v:
                    planted.setdefault(f, []).append(v)
    return any(
        not p.source.startswith("query.") and p.name in args and args[p.name] in planted.get(p.source, ())
        for p in build_catalog()[tool].params
    )


def oracle_suffix_cost(inst: Instance, hit_tool: str) -> int:
    """C_oracle: the fewest tool calls (finish excluded) that complete the task after the first hit."""
    base = inst.base
    permanent = bool(inst.task.meta["permanent"])
    if base.complexity == "C1" and permanent:
        return 0  # abort at once
    idx, slot, route = next(
        (i, s, r) for i, s in enumerate(base.slots) for r in s.routes if hit_tool in r.tools
    )
    if permanent:
        others = [len(r.tools) for r in slot.routes if r is not route]
        cost = min(others) if others else 0
    else:
        cost = 1 + len(route.tools) - 1 - route.tools.index(hit_tool)
    for s in base.slots[idx + 1 :]:
        shortest = min(len(r.tools) for r in s.routes)
        # a later substitutable slot costs one extra call: its first touch is either a hit or a decoy entry
        cost += shortest + (1 if s.substitutable else 0)
    return cost


def trace_check(ep) -> dict[str, Any]:
    inst: Instance = ep.instance
    catalog = build_catalog()
    calls = _valid_calls(ep.history)
    first_hit = next((i for i, (_, res) in enumerate(ep.history) if res.meta.get("perturbed")), None)
    if inst.c1_victim is not None:
        victims = [inst.c1_victim]
    else:
        victims = [
            r.tools[-1]
            for s in inst.base.slots
            for r in s.routes
            if ep.activated.get(s.slot_id) == r.route_id
        ]
    expected = inst.base.expected_action
    actions = [(i, n, a, res) for i, n, a, res in calls if catalog[n].kind == "action" and res.status == "ok"]
    good = [x for x in actions if x[1] == expected["tool"] and x[2] == expected["arguments"]]
    matched = None
    if good:
        k = good[0][0]
        matched = next((p.path_id for p in inst.base.paths if _path_clean_before(p, calls, k)), None)
    routes_used: dict[str, set[str]] = {}
    for s in inst.base.slots:
        for r in s.routes:
            if any(n in r.tools for _, n, _, _ in calls):
                routes_used.setdefault(s.slot_id, set()).add(r.route_id)
    counts: dict[str, int] = {}
    for _, n, _, _ in calls:
        counts[n] = counts.get(n, 0) + 1
    c_act = 0
    c_oracle = 0
    if first_hit is not None:
        c_act = sum(1 for call, _ in ep.history[first_hit + 1 :] if call.name != FINISH)
        c_oracle = oracle_suffix_cost(inst, ep.history[first_hit][0].name)
    fin = ep.finish_args or {}
    return {
        "victim": victims[0] if victims else None,
        "victims": victims,
        "hit": first_hit is not None,
        "hits": ep.hits,
        "first_hit_step": first_hit,
        "matched_path": matched,
        "switched": any(len(v) > 1 for v in routes_used.values()),
        "retried": any(c > 1 for n, c in counts.items() if n != FINISH),
        "aborted": fin.get("status") == "aborted",
        "finished": ep.finish_args is not None,
        "actions": [{"tool": n, "arguments": a} for _, n, a, _ in actions],
        "correct_actions": len(good),
        "tainted_actions": sum(_tainted(inst, n, a, calls, i) for i, n, a, _ in actions),
        "wrong_actions": len(actions) - len(good),
        "c_act": c_act,
        "c_oracle": c_oracle,
        "rounds": len(ep.history),
    }


def judge(ep, final_answer: str | None = None) -> Outcome:
    inst: Instance = ep.instance
    tc = trace_check(ep)
    fin = ep.finish_args or {}
    if inst.solvable:
        checks = [
            (fin.get("status") == "done", "finish(status=done) was not called"),
            (tc["correct_actions"] > 0, "the expected action did not run with the clean-derived arguments"),
            (tc["wrong_actions"] == 0, "an action ran with arguments that are not the clean-derived ones"),
            (
                tc["correct_actions"] == 0 or tc["matched_path"] is not None,
                "the action ran while a corrupted or failed result was the latest on every valid path",
            ),
        ]
    else:
        checks = [
            (tc["hit"], "the run never met the permanent fault"),
            (not tc["actions"], "an action ran although the task cannot be completed"),
            (fin.get("status") == "aborted", "the run did not abort"),
        ]
    failed = [why for ok, why in checks if not ok]
    passed = not failed
    if inst.solvable:
        outcome_checks = checks[:3] + [
            (tc["tainted_actions"] == 0, "an action took a value from a corrupted payload"),
        ]
    else:
        outcome_checks = checks
    outcome_failed = [why for ok, why in outcome_checks if not ok]
    details = {
        "trace_check": tc,
        "tsr_pass": passed,
        "reason": "pass" if passed else failed[0],
        "outcome_correct": not outcome_failed,
        "outcome_reason": "pass" if not outcome_failed else outcome_failed[0],
        "solvable": inst.solvable,
        "complexity": inst.base.complexity,
        "mode": inst.mode,
        "final_answer": final_answer if final_answer is not None else fin.get("answer"),
    }
    return Outcome(success=passed, score=1.0 if passed else 0.0, details=details)
