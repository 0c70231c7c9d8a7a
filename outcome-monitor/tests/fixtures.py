"""Clean tool results with known contracts, for the library's own tests: ``outcome_monitor.examples``
(three tools whose results carry every rule class of the paper's vocabulary), plus the README's
``get_order`` rows and a catalog with a declared substitute and two read tools that carry the same
fields, so receipts have recovery tools to name.
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
    rng,
    stable_int,
    traces,
    weather,
    workflows,
)
from outcome_monitor.receipts.tools import ToolInfo


def order_rows(order_ids: list[str], seed: int = 0) -> list[dict[str, Any]]:
    """Clean ``get_order`` rows (the README's tool): an order per id, echoing it as ``order_id``, with
    ``order``'s contracts. Each row has its own generator (seed, position, id), so an id listed twice
    is two clean results of that order."""
    rows = []
    for i, order_id in enumerate(order_ids):
        r = rng(seed, "get-order", i, order_id)
        result = {**order(r, f"I{r.randint(0, 500):03d}", r.randint(1, 9)), "order_id": order_id}
        rows.append(
            {"tool": "get_order", "arguments": {"order_id": order_id}, "result": result, "status": "ok"}
        )
    return rows


def catalog() -> dict[str, ToolInfo]:
    """The tools as a catalog: get_quote_alt a declared substitute of get_quote, get_price_history a
    read tool that carries ``price``, place_order a write (never offered as a recovery)."""
    return {
        "get_quote": ToolInfo(
            "get_quote", substitutes=("get_quote_alt",), output_fields=("$.price", "$.ticker")
        ),
        "get_quote_alt": ToolInfo(
            "get_quote_alt", substitutes=("get_quote",), output_fields=("$.price", "$.ticker")
        ),
        "get_price_history": ToolInfo("get_price_history", output_fields=("$.price", "$.date")),
        "place_order": ToolInfo(
            "place_order", category="write", output_fields=("$.total", "$.unit_price", "$.price")
        ),
        "get_weather": ToolInfo("get_weather", output_fields=("$.celsius", "$.fahrenheit")),
    }


__all__ = [
    "CITIES",
    "TICKERS",
    "TOOLS",
    "call",
    "catalog",
    "order",
    "order_rows",
    "quote",
    "random_args",
    "rng",
    "stable_int",
    "traces",
    "weather",
    "workflows",
]
