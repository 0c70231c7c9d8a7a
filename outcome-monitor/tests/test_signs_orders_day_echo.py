"""Dates on the day an argument named, pooled across tools (wide vocabulary only): a tool called on
two days only takes the rule of the tools whose field of the same place fell on their own asked day."""

from __future__ import annotations

from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.learning.day_echo import asked_days_needed
from outcome_monitor.thresholds import DEFAULT


def _fired(reg: Any, tool: str, result: Any, args: dict[str, Any]) -> bool:
    return Monitor(reg).annotate(tool, args, result).fired


def _events(day: str, hours: list[int]) -> list[dict[str, Any]]:
    return [{"title": f"e{h}", "start_time": f"{day}T{h:02d}:00:00"} for h in hours]


def _rows(extra: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    # the day tool: two calls, three events each (too few asked days for a rule of its own)
    rows = [
        {"tool": "day_events", "arguments": {"day": d}, "result": _events(d, [9, 12, 15])}
        for d in ("2024-05-15", "2024-05-19")
    ]
    # the search tool: one event per call on the date asked
    rows += [
        {"tool": "search_events", "arguments": {"query": f"q{i}", "date": d}, "result": _events(d, [10 + i])}
        for i, d in enumerate(("2024-05-03", "2024-05-24", "2024-05-26", "2024-05-28"))
    ]
    return rows + (extra or [])


MOVED = _events("2024-05-15", [9]) + [{"title": "e12", "start_time": "2024-05-02T12:00:00"}]


def test_a_day_tool_with_two_calls_pools_with_a_search_by_date():
    reg = learn(_rows())
    assert not _fired(reg, "day_events", _events("2024-05-15", [9, 12]), {"day": "2024-05-15"})
    assert _fired(reg, "day_events", MOVED, {"day": "2024-05-15"})
    assert not _fired(learn(_rows(), vocabulary="paper"), "day_events", MOVED, {"day": "2024-05-15"})


def test_a_tool_whose_dates_fall_after_its_date_argument_keeps_the_place_unpooled():
    since = [
        {"tool": "since_events", "arguments": {"since": "2024-05-01"}, "result": _events(d, [8])}
        for d in ("2024-05-04", "2024-05-09")
    ]
    reg = learn(_rows(since))
    assert not _fired(reg, "day_events", MOVED, {"day": "2024-05-15"})


def test_one_tool_alone_keeps_an_echos_support():
    alone = [r for r in _rows() if r["tool"] == "day_events"]
    assert not _fired(learn(alone), "day_events", MOVED, {"day": "2024-05-15"})


def test_two_asked_days_are_enough_only_where_the_field_spans_many_days():
    assert asked_days_needed(0, DEFAULT) == DEFAULT.min_distinct_eq
    assert asked_days_needed(5, DEFAULT) == DEFAULT.min_distinct_eq
    assert asked_days_needed(11, DEFAULT) == 2


def test_no_day_echo_where_a_row_spans_days():
    # an all-day event ends the next day: the events of a day include those begun the day before
    spans = [
        {
            "tool": "search_events",
            "arguments": {"query": "leave", "date": "2024-05-20"},
            "result": [{"title": "leave", "start_time": "2024-05-20", "end_time": "2024-05-21"}],
        }
    ]
    assert not _fired(learn(_rows(spans)), "day_events", MOVED, {"day": "2024-05-15"})


def test_an_asked_date_keeps_no_order_with_a_span():
    def rows(span: bool) -> list[dict[str, Any]]:
        out = []
        for i in range(12):
            day = f"2024-05-{10 + i:02d}"
            start = f"{day}T{8 + i % 7:02d}:00:00"
            end = f"2024-05-{11 + i:02d}T09:00:00" if span and i % 3 == 0 else f"{day}T20:00:00"
            event = {"title": f"e{i}", "start": start, "end": end}
            # one event alone, as a server sending a block per event gives it: the result's own fields
            out.append({"tool": "events_on", "arguments": {"date": day}, "result": event})
        return out

    def arg_orders(reg: Any) -> list[tuple[str, ...]]:
        return [
            r.fields for r in reg.rules_for("events_on") if r.cls == "date_order" and "arg.date" in r.fields
        ]

    assert arg_orders(learn(rows(span=False)))  # every event on its asked day: an order with the argument
    # an all-day event ends the next day: the events of a day may have begun before it; no rule of
    # any class (an order, a day echo, a text naming the date) ties the asked date to the event
    spans = learn(rows(span=True))
    assert arg_orders(spans) == []
    assert [r for r in spans.rules_for("events_on") if "arg.date" in r.fields] == []
