"""Propagation tracking: does a corrupted value reach later tool arguments or the final answer?

Works from an episode's history of (ToolCall, ToolResult) pairs, reading the injector's
``meta["injected_fault"]`` labels; it knows nothing about environments or the monitor.

A fault is *trackable* when its corrupted value is a distinctive scalar that could be copied
verbatim (a changed string of 3+ characters, or a changed number other than 0/1). Structural
faults (missing or renamed fields, list length changes) have no value to follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core.protocol import ToolCall, ToolResult
from harness.faults import paths
from harness.faults.classes import MISSING
from harness.faults.values import is_number

UNTRACKABLE_CLASSES = frozenset(
    {"missing_field", "renamed_field", "empty_or_truncated_list", "duplicated_record"}
)


def trackable(fault: dict[str, Any]) -> bool:
    if fault.get("fault_class") in UNTRACKABLE_CLASSES:
        return False
    value, original = fault.get("corrupted"), fault.get("original")
    if value == original or value == MISSING:
        return False
    if isinstance(value, str):
        return len(value.strip()) >= 3
    return is_number(value) and value not in (0, 1)


def _number_forms(v: float) -> set[str]:
    forms = {repr(v), f"{v:.2f}", f"{v:,.2f}"}
    if float(v).is_integer():
        forms |= {str(int(v)), f"{int(v):,}"}
    return forms


def value_occurs(value: Any, haystack: Any) -> bool:
    """Whether ``value`` appears as a leaf of ``haystack`` (numbers within 1e-9 relative, or as text)."""
    for _, leaf in paths.walk(haystack):
        if isinstance(leaf, (dict, list)):
            continue
        if is_number(value) and is_number(leaf):
            if abs(leaf - value) <= 1e-9 * max(1.0, abs(value)):
                return True
        elif isinstance(value, str) and isinstance(leaf, str):
            if value == leaf or (len(value) >= 3 and value in leaf):
                return True
        elif is_number(value) and isinstance(leaf, str):
            if any(f in leaf for f in _number_forms(value)):
                return True
    return False


def track_episode(
    history: Sequence[tuple[ToolCall, ToolResult]],
    final_answer: str | None = None,
    terminal_tool: str | None = "finish",
) -> dict[str, Any]:
    """Per-episode propagation facts for every injected fault in ``history``.

    Returns ``{"n_injected", "trackable", "propagated", "to_arguments", "to_answer", "events"}`` where
    ``propagated`` means some trackable corrupted value reached a later non-terminal call's
    arguments, or the final answer (the terminal tool's arguments count as the answer).
    """
    events: list[dict[str, Any]] = []
    for i, (_call, result) in enumerate(history):
        fault = result.meta.get("injected_fault") if isinstance(result.meta, dict) else None
        if not fault:
            continue
        ev = {
            "call_index": i,
            "path": fault.get("path"),
            "trackable": trackable(fault),
            "to_arguments": False,
            "to_answer": False,
        }
        if ev["trackable"]:
            value = fault["corrupted"]
            later = [c for c, _ in history[i + 1 :]]
            ev["to_arguments"] = any(
                value_occurs(value, dict(c.arguments)) for c in later if c.name != terminal_tool
            )
            answers: list[Any] = [dict(c.arguments) for c in later if c.name == terminal_tool]
            if final_answer:
                answers.append(final_answer)
            ev["to_answer"] = any(value_occurs(value, a) for a in answers)
        events.append(ev)
    return {
        "n_injected": len(events),
        "trackable": any(e["trackable"] for e in events),
        "to_arguments": any(e["to_arguments"] for e in events),
        "to_answer": any(e["to_answer"] for e in events),
        "propagated": any(e["to_arguments"] or e["to_answer"] for e in events),
        "events": events,
    }


def summarise(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Pool per-episode rows (``track_episode`` output plus ``success``) into the study's figures."""
    rows = list(rows)
    tr = [r for r in rows if r["trackable"]]
    prop = [r for r in tr if r["propagated"]]
    passed = [r for r in prop if r.get("success")]
    return {
        "episodes": len(rows),
        "trackable": len(tr),
        "propagated": len(prop),
        "propagated_pct": 100.0 * len(prop) / len(tr) if tr else None,
        "propagated_and_passed": len(passed),
        "propagated_passed_pct": 100.0 * len(passed) / len(prop) if prop else None,
    }
