"""Synthetic clean tool traces with known contracts, for tests and the benchmark script.

Four tools whose results carry every rule class (required, types, positive values, categorical
domains, echoed arguments, ordered dates, equality/affine/product/sum relations, nested lists).
Seeded only through ``core.seeding``. Not a model of any real environment.
"""

from __future__ import annotations

import random
from typing import Any

from core.protocol import ToolSpec
from core.seeding import rng

TICKERS = [f"T{i:03d}" for i in range(60)]
CITIES = [f"city_{i}" for i in range(40)]


def _date(r: random.Random, lo: int = 1, hi: int = 28) -> str:
    return f"2025-{r.randint(1, 12):02d}-{r.randint(lo, hi):02d}"


def quote(r: random.Random, ticker: str) -> dict[str, Any]:
    return {
        "ticker": ticker,
        "price": round(r.uniform(1, 500), 2),
        "currency": r.choice(["USD", "EUR", "GBP"]),
        "as_of": _date(r),
        "volume": r.randint(100, 10**6),
    }


def order(r: random.Random, item_id: str, quantity: int) -> dict[str, Any]:
    unit = round(r.uniform(2, 90), 2)
    items: list[dict[str, Any]] = [
        {"sku": f"S{r.randint(0, 999):03d}", "amount": round(r.uniform(1, 50), 2)}
        for _ in range(r.randint(1, 4))
    ]
    day = r.randint(1, 20)
    return {
        "order_id": f"O{r.randint(0, 10**6):06d}",
        "item_id": item_id,
        "quantity": quantity,
        "unit_price": unit,
        "total": round(unit * quantity, 2),
        "status": r.choice(["pending", "shipped", "delivered"]),
        "created": f"2025-03-{day:02d}",
        "ships": f"2025-03-{day + r.randint(0, 8):02d}",
        "items": items,
        "subtotal": round(sum(i["amount"] for i in items), 2),
        "n_items": len(items),
    }


def weather(r: random.Random, city: str) -> dict[str, Any]:
    c = round(r.uniform(-20, 40), 1)
    return {
        "city": city,
        "celsius": c,
        "fahrenheit": round(c * 1.8 + 32, 2),
        "condition": r.choice(["sunny", "rain", "snow"]),
    }


def call(tool: str, args: dict[str, Any], r: random.Random) -> dict[str, Any]:
    if tool == "get_quote":
        return quote(r, args["ticker"])
    if tool == "place_order":
        return order(r, args["item_id"], args["quantity"])
    if tool == "get_weather":
        return weather(r, args["city"])
    raise KeyError(tool)


def random_args(tool: str, r: random.Random) -> dict[str, Any]:
    if tool == "get_quote":
        return {"ticker": r.choice(TICKERS)}
    if tool == "place_order":
        return {"item_id": f"I{r.randint(0, 500):03d}", "quantity": r.randint(1, 9)}
    return {"city": r.choice(CITIES)}


TOOLS = ("get_quote", "place_order", "get_weather")


def traces(n_workflows: int = 60, calls_per_workflow: int = 6, seed: int = 0) -> list[dict[str, Any]]:
    """Clean trace rows ``{workflow_id, tool, arguments, result, status}`` in the trace format."""
    rows = []
    for w in range(n_workflows):
        wid = f"C3_task_{w:03d}"
        r = rng(seed, "synthetic-traces", wid)
        for i in range(calls_per_workflow):
            tool = TOOLS[(w + i) % len(TOOLS)]
            args = random_args(tool, r)
            rows.append(
                {
                    "task_id": f"{wid}_P0",
                    "workflow_id": wid,
                    "complexity": "C3",
                    "mode": "P0",
                    "tool": tool,
                    "arguments": args,
                    "result": call(tool, args, r),
                    "status": "ok",
                }
            )
    return rows


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
