"""Brackets that close (``text`` form ``balanced``, wide vocabulary), and the error check of a tool
called a few times in a large recording: each with the clean answer that passes and the fault that
fires."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.text.balance import balance_params, balanced


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _factors(rng: random.Random, n: int, tool: str = "factor") -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        a, b = rng.randrange(1, 40), rng.randrange(1, 40)
        text = f"(x - {a})*(x + {b})" if i % 3 else f"{a * b}"
        rows.append({"tool": tool, "arguments": {"expr": f"e{i}"}, "result": {"result": text}})
    return rows


def test_balanced_reads_nesting_and_order() -> None:
    assert balanced("Matrix([[1, 2], [3, 4]])")
    assert balanced("no brackets at all")
    assert not balanced("(x - 3)*(x")
    assert not balanced("f(x]")
    assert not balanced(")(")


def test_expressions_cut_short_fire() -> None:
    reg = learn(_factors(random.Random(1), 40))
    assert not _ids(reg, "factor", {"expr": "q"}, {"result": "(x - 7)*(x + 9)"})
    assert _ids(reg, "factor", {"expr": "q"}, {"result": "(x - 7)*(x"})


def test_no_rule_where_clean_values_were_cut_for_display_or_rarely_held_a_bracket() -> None:
    values = [f"Request number {i} (urgent)" for i in range(30)]
    assert balance_params(values) == {"form": "balanced"}
    assert balance_params([*values, "Retire the legacy export (rou..."]) is None
    assert balance_params([f"plain {i}" for i in range(25)] + ["(a)", "(b)"]) is None


def test_a_tool_called_twice_speaks_with_its_namesakes_values() -> None:
    rng = random.Random(2)
    rows = _factors(rng, 40, "factor") + _factors(rng, 3, "expand")
    reg = learn(rows)
    assert _ids(reg, "expand", {"expr": "q"}, {"result": "(x + 1)*(x"})
    assert not _ids(reg, "expand", {"expr": "q"}, {"result": "(x + 1)*(x + 2)"})


def test_a_tool_called_a_few_times_in_a_large_recording_keeps_errors_out() -> None:
    rng = random.Random(3)
    rows = _factors(rng, 60) + [
        {"tool": "limit", "arguments": {"expr": f"l{i}"}, "result": {"result": str(rng.randrange(1, 9))}}
        for i in range(3)
    ]
    reg = learn(rows)
    assert not _ids(reg, "limit", {"expr": "q"}, {"result": "4"})
    assert _ids(reg, "limit", {"expr": "q"}, {"result": "Internal Server Error"})
    # a tool one of whose recorded calls was set aside as an error keeps no such rule on few calls
    errs = [*rows, {"tool": "limit", "arguments": {"expr": "bad"}, "result": "Error: cannot take the limit"}]
    assert not _ids(learn(errs), "limit", {"expr": "q"}, {"result": "Internal Server Error"})
