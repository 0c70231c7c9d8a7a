"""Synthetic clean tool traces with known contracts, for tests and the benchmark script: the rows of
``outcome_monitor.examples`` in the trace format, and the tools as the harness's catalog (``ToolSpec``).
Not a model of any real environment.
"""

from __future__ import annotations

from typing import Any

from outcome_monitor.examples import (
    CITIES,
    TICKERS,
    TOOLS,
    call,
    order,
    quote,
    random_args,
    weather,
    workflows,
)

from core.protocol import ToolSpec


def traces(n_workflows: int = 60, calls_per_workflow: int = 6, seed: int = 0) -> list[dict[str, Any]]:
    """Clean trace rows ``{task_id, workflow_id, complexity, mode, tool, arguments, result, status}``:
    the library's example rows in the trace format (one task per workflow, named C3_task_NNN_P0)."""
    return [
        {"task_id": f"{wid}_P0", "workflow_id": wid, "complexity": "C3", "mode": "P0", **row}
        for wid, rows in workflows(n_workflows, calls_per_workflow, seed)
        for row in rows
    ]


def catalog() -> dict[str, ToolSpec]:
    """Public specs for the synthetic tools, with one declared substitute and shared fields."""
    obj = {"type": "object"}
    return {
        "get_quote": ToolSpec(
            "get_quote",
            "Stock quote",
            {**obj, "properties": {"ticker": {"type": "string"}}},
            category="read",
            substitutes=("get_quote_alt",),
            output_fields=("$.price", "$.ticker"),
        ),
        "get_quote_alt": ToolSpec(
            "get_quote_alt",
            "Stock quote (other provider)",
            {**obj, "properties": {"symbol": {"type": "string"}}},
            category="read",
            substitutes=("get_quote",),
            output_fields=("$.price", "$.ticker"),
        ),
        "get_price_history": ToolSpec(
            "get_price_history", "Past prices", obj, category="read", output_fields=("$.price", "$.date")
        ),
        "place_order": ToolSpec(
            "place_order", "Buy", obj, category="write", output_fields=("$.total", "$.unit_price", "$.price")
        ),
        "get_weather": ToolSpec(
            "get_weather",
            "Weather",
            {**obj, "properties": {"city": {"type": "string"}}},
            category="read",
            output_fields=("$.celsius", "$.fahrenheit"),
        ),
    }


__all__ = [
    "CITIES",
    "TICKERS",
    "TOOLS",
    "call",
    "catalog",
    "order",
    "quote",
    "random_args",
    "traces",
    "weather",
]
