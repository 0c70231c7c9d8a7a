"""Dates on the day an argument names (the events of a day, a booking's date): echo rules with
``part: date``, the wide vocabulary's.

An echo's support is 7 rows and 3 distinct values asked (Daikon's equality: fewer could be a
constant or a flag). A day is neither: where the field's dates over the whole recording (every
tool's results at the same place) fall on ``spread`` distinct days, a result that matched each of
``d`` asked days by chance has probability ``spread ** -d``; two asked days are enough once that is
below 1 - confidence (``spread`` >= 11 at 99%). Tools whose field of one place fell on the day
their own date argument named pool their evidence, as templates pool by name (``admit``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import cached_date_key
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds

MIN_ASKED_DAYS = 2  # one asked day is a constant, whatever the spread

Place = tuple[str, str]  # (context, field)


def _dates(executions: list[Execution]) -> dict[Place, list[str]]:
    """Date keys of every string field of the results that reads as a date, per place."""
    out: dict[Place, list[str]] = {}
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if f.startswith((ARG, "#")) or "(" in f or type(v) is not str:
                        continue
                    key = cached_date_key(v)
                    if key is not None:
                        out.setdefault((context, f), []).append(key)
    return out


def span_fields(row: Mapping[str, Any], fields: Iterable[str]) -> list[str]:
    """Those of ``fields`` that hold a date in ``row``, where they fall on more than one day (a span:
    an event of several days, an all-day event ending the next day), else none."""
    days = {
        f: k[:10] for f in fields if type(v := row.get(f)) is str and (k := cached_date_key(v)) is not None
    }
    return list(days) if len(set(days.values())) > 1 else []


def _spanning(executions: list[Execution]) -> set[Place]:
    """Places whose date shares a row with another date on another day: a span may hold the asked
    day without starting on it."""
    out: set[Place] = set()
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                fields = [f for f in row if not f.startswith((ARG, "#")) and "(" not in f]
                out.update((context, f) for f in span_fields(row, fields))
    return out


def recording_days(index: Mapping[str, list[Execution]]) -> dict[Place, int]:
    """Distinct days each place's dates fall on, over every tool of the recording."""
    days: dict[Place, set[str]] = {}
    for executions in index.values():
        for place, keys in _dates(executions).items():
            days.setdefault(place, set()).update(k[:10] for k in keys)
    return {place: len(d) for place, d in days.items()}


def asked_days_needed(spread: int, th: Thresholds) -> int:
    """Distinct asked days an echo of a day needs at a place whose dates span ``spread`` days."""
    for d in range(MIN_ASKED_DAYS, th.min_distinct_eq):
        if spread > 1 and spread**-d < 1 - th.confidence:
            return d
    return th.min_distinct_eq


def _day_pairs(executions: list[Execution]) -> dict[tuple[str, str, str], list[tuple[str, str]]]:
    """(date key of the result's field, date key of the argument) per (context, field, date argument)."""
    cols: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for ex in executions:
        days = {k: v for k, v in ex.args.items() if type(v) is str and cached_date_key(v) is not None}
        if not days:
            continue
        for (context, f), keys in _dates([ex]).items():
            for k, a in days.items():
                ka = cached_date_key(a) or ""
                cols.setdefault((context, f, k), []).extend((v, ka) for v in keys)
    return cols


def day_echoes(
    index: Mapping[str, list[Execution]], th: Thresholds, spread: Mapping[Place, int] | None = None
) -> list[Rule]:
    """Echo rules (``part: date``) of the date fields that always fell on the day a date argument
    named: 7 rows, and the distinct asked days ``asked_days_needed`` says. A tool with too few calls
    of its own pools with the tools whose field of the same place also always fell on the day their
    own date argument named (``get_day_calendar_events(day)`` beside ``search_calendar_events(date)``),
    unless some tool with a date argument had that field on another day (the place is then not a
    day asked for by name). No rule where a row of the recording held another date on another day
    beside the field (a span: the events of a day include those begun before it)."""
    spread = spread or recording_days(index)
    spans = {place for executions in index.values() for place in _spanning(executions)}
    holds: dict[Place, list[tuple[str, str, list[tuple[str, str]]]]] = {}
    contradicted: set[Place] = set()
    for tool, executions in sorted(index.items()):
        by_place: dict[Place, list[tuple[str, list[tuple[str, str]]]]] = {}
        for (context, f, k), pairs in _day_pairs(executions).items():
            by_place.setdefault((context, f), []).append((k, pairs))
        for place, args in by_place.items():
            good = [(k, pairs) for k, pairs in args if all(v[:10] == a[:10] for v, a in pairs)]
            if not good:
                contradicted.add(place)
            holds.setdefault(place, []).extend((tool, k, pairs) for k, pairs in good)
    out = []
    for (context, f), entries in sorted(holds.items()):
        if (context, f) in spans:
            continue
        need = asked_days_needed(spread.get((context, f), 0), th)
        # each tool's rows count once (its first matching argument), however many arguments match
        first: dict[str, list[tuple[str, str]]] = {}
        for tool, _, pairs in entries:
            first.setdefault(tool, pairs)
        pooled_n = sum(len(p) for p in first.values())
        pooled_days = {a[:10] for p in first.values() for _, a in p}
        pooled = (
            (context, f) not in contradicted
            and len(first) > 1
            and pooled_n >= th.min_pair_samples
            and len(pooled_days) >= need
        )
        for tool, k, pairs in entries:
            own = len(pairs) >= th.min_pair_samples and len({a[:10] for _, a in pairs}) >= need
            if not (own or pooled):
                continue
            support = {"n": len(pairs)}
            if not own:
                support.update(pooled_n=pooled_n, pooled_tools=len(first))
            out.append(Rule(tool, "echo", context, (f, ARG + k), {"part": "date"}, support))
    return out


__all__ = ["asked_days_needed", "day_echoes", "recording_days", "span_fields"]
