"""Echoes pooled across tools of one place, each through its own argument (wide vocabulary): a
message's ``recipient`` is the channel ``read_channel_messages(channel)`` asked for and the user
``read_inbox(user)`` asked for.

An echo of one tool needs 7 rows and 3 distinct values asked (``admit``), and pools only with tools
whose argument has the same name. Tools that return the same field at the same place, each equal to
an argument of its own call, show one property of that place: their rows pool, and every such tool
keeps the echo once the pooled rows and distinct values asked meet an echo's support. Guards: two
tools at least; values and arguments of one type (a string field is never compared with a number,
and a field that held both types against one argument is no echo of it);
and no tool with an argument of that type whose field at that place was never equal to any of them
(the place is then not an echo of what was asked). Tools that hold the echo on their own support
keep theirs (``admit``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds

Place = tuple[str, str]  # (context, field)
Pairs = list[tuple[Any, Any]]  # (the field's value, the argument's value)
_NEVER = object()  # equal to no argument


def _pairs(executions: list[Execution]) -> dict[tuple[str, str, str], Pairs]:
    """(value, argument) per (context, field, argument) where both are strings or both integers; a
    field that held the other type on some row of an argument it met in its own type gets a pair that
    can never be equal (the check compares the two whatever their types: mqtt-spec's ``id`` is a
    requirement's label, equal to the query, or a property's number, never equal to it)."""
    out: dict[tuple[str, str, str], Pairs] = {}
    crossed: set[tuple[str, str, str]] = set()
    for ex in executions:
        asked = {k: a for k, a in ex.args.items() if type(a) in (str, int)}
        if not asked:
            continue
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if f == "" or f.startswith((ARG, "#")) or "(" in f or type(v) not in (str, int):
                        continue
                    for k, a in asked.items():
                        if type(a) is type(v):
                            out.setdefault((context, f, k), []).append((v, a))
                        else:
                            crossed.add((context, f, k))
    for key in crossed & out.keys():
        out[key].append((_NEVER, None))
    return out


def pooled_echoes(index: Mapping[str, list[Execution]], existing: list[Rule], th: Thresholds) -> list[Rule]:
    """Echo rules of the places where tools echo each their own argument (see above), for the tools
    without an echo of that place yet."""
    holds: dict[Place, list[tuple[str, str, Pairs]]] = {}
    contradicted: set[Place] = set()
    for tool, executions in sorted(index.items()):
        by_place: dict[Place, list[tuple[str, Pairs]]] = {}
        for (context, f, k), pairs in _pairs(executions).items():
            by_place.setdefault((context, f), []).append((k, pairs))
        for place, args in by_place.items():
            good = [(k, pairs) for k, pairs in args if all(v == a for v, a in pairs)]
            if not good:
                contradicted.add(place)
                continue
            k, pairs = good[0]  # one argument per tool: its rows count once
            holds.setdefault(place, []).append((tool, k, pairs))
    echoed = {(r.tool, r.context, r.fields[0]) for r in existing if r.cls == "echo"}
    out = []
    for (context, f), entries in sorted(holds.items()):
        if (context, f) in contradicted or len(entries) < 2:
            continue
        pooled_n = sum(len(p) for _, _, p in entries)
        asked = {a for _, _, p in entries for _, a in p}
        if pooled_n < th.min_pair_samples or len(asked) < th.min_distinct_eq:
            continue
        for tool, k, pairs in entries:
            if (tool, context, f) in echoed:
                continue
            support = {"n": len(pairs), "pooled_n": pooled_n, "pooled_tools": len(entries)}
            out.append(Rule(tool, "echo", context, (f, ARG + k), {}, support))
    return out


__all__ = ["pooled_echoes"]
