"""Synthetic clean tool results with known contracts: to try the monitor, and for its tests and benchmarks.

Three tools whose results carry every rule class of the paper's vocabulary: required fields, types,
positive values, small domains, echoed arguments, ordered dates and relations (equality, affine,
product, sum; nested lists). Every draw comes from a ``random.Random`` seeded by hashing its parts,
so rows are the same on every run and machine (never ``hash()``, which is salted per process). Not
a model of any real service.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

TICKERS = [f"T{i:03d}" for i in range(60)]
CITIES = [f"city_{i}" for i in range(40)]
TOOLS = ("get_quote", "place_order", "get_weather")


def stable_int(*parts: Any) -> int:
    """A 64-bit integer from JSON-able parts (a seed, a purpose, ids)."""
    text = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], 16)


def rng(*parts: Any) -> random.Random:
    """A generator seeded from (seed, purpose, ids ...)."""
    return random.Random(stable_int(*parts))


def _date(r: random.Random) -> str:
    return f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def quote(r: random.Random, ticker: str) -> dict[str, Any]:
    """echo (ticker), positive (price, volume), domain (currency), a date."""
    return {
        "ticker": ticker,
        "price": round(r.uniform(1, 500), 2),
        "currency": r.choice(["USD", "EUR", "GBP"]),
        "as_of": _date(r),
        "volume": r.randint(100, 10**6),
    }


def order(r: random.Random, item_id: str, quantity: int) -> dict[str, Any]:
    """total == quantity * unit_price, created <= ships, subtotal == sum(items[*].amount),
    n_items == len(items), a status domain, positive amounts inside a list."""
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
    """fahrenheit == 1.8 * celsius + 32 (affine), a condition domain."""
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


def workflows(
    n_workflows: int = 60, calls_per_workflow: int = 6, seed: int = 0
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``(workflow id, its rows)``: ``calls_per_workflow`` calls in each of ``n_workflows`` groups,
    the tools taken in turn, each group drawn from its own generator."""
    for w in range(n_workflows):
        wid = f"C3_task_{w:03d}"
        r = rng(seed, "synthetic-traces", wid)
        rows = []
        for i in range(calls_per_workflow):
            tool = TOOLS[(w + i) % len(TOOLS)]
            args = random_args(tool, r)
            rows.append({"tool": tool, "arguments": args, "result": call(tool, args, r), "status": "ok"})
        yield wid, rows


def traces(n_workflows: int = 60, calls_per_workflow: int = 6, seed: int = 0) -> list[dict[str, Any]]:
    """Clean rows ``{tool, arguments, result, status}`` of every workflow, in order."""
    return [row for _, rows in workflows(n_workflows, calls_per_workflow, seed) for row in rows]
