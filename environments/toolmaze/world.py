"""World values: pure functions of (seed, capability, canonical arguments), and tool execution.

Providers of one capability compute from the capability, not from the provider, so alternatives
agree (ToolMaze's ``find_alternative_output``). Action tools append to the episode's state and
return confirmation codes derived from their arguments. Must not know tasks or faults.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.seeding import rng, sha256_hex
from environments.toolmaze.catalog import (
    MATCH_STATUS,
    ORDER_STATUS,
    QUOTE_SOURCES,
    RATE_STATUS,
    Tool,
    domain_of,
    kind_of,
    subject_of,
)

_EPOCH = dt.date(2026, 1, 5)


def iso(day_offset: int) -> str:
    return (_EPOCH + dt.timedelta(days=day_offset)).isoformat()


def money(x: float) -> float:
    return round(x + 0.0, 2)


def source_record(seed: int, domain: str, cap: str, key: str, quantity: int) -> dict[str, Any]:
    subject = subject_of(domain, cap)
    dom = domain_of(domain)
    r = rng(seed, "world.source", domain, cap, key)
    unit = money(r.uniform(4.0, 900.0))
    items = [
        {"label": label, "amount": money(r.uniform(0.5, 45.0))}
        for label in r.sample(list(dom.fee_labels), r.choice([2, 3]))
    ]
    start = r.randint(0, 300)
    subtotal = money(unit * quantity)
    fees = money(sum(i["amount"] for i in items))
    return {
        subject.key: key,
        "record_id": f"{dom.prefix.upper()}-{sha256_hex([seed, domain, cap, key])[:8].upper()}",
        subject.unit: unit,
        "price_currency": "USD",
        "quantity": quantity,
        "subtotal_usd": subtotal,
        "line_items": items,
        "fees_usd": fees,
        "total_due_usd": money(subtotal + fees),
        "availability": r.choice(list(dom.availability)),
        "valid_from": iso(start),
        "valid_to": iso(start + r.randint(1, 60)),
    }


def intermediate_id(seed: int, domain: str, cap: str, via: str, key: str) -> str:
    return f"{via.split('_')[-1].upper()}-{sha256_hex([seed, 'via', domain, cap, via, key])[:10]}"


def resolve(seed: int, domain: str, cap: str, via: str, key: str) -> dict[str, Any]:
    subject = subject_of(domain, cap)
    r = rng(seed, "world.resolve", domain, cap, via, key)
    return {
        subject.key: key,
        via: intermediate_id(seed, domain, cap, via, key),
        "match_score": round(r.uniform(0.8, 1.0), 3),
        "match_status": r.choice(list(MATCH_STATUS)),
        "resolved_on": iso(r.randint(0, 300)),
    }


def unresolve(seed: int, domain: str, cap: str, via: str, value: str) -> str | None:
    """The key an intermediate id stands for (None for an id the world never issued)."""
    for key in subject_of(domain, cap).values:
        if intermediate_id(seed, domain, cap, via, key) == value:
            return key
    return None


def factor_quote(seed: int, domain: str, cap: str, selector: str) -> dict[str, Any]:
    kind = kind_of(cap)
    r = rng(seed, "world.factor", domain, cap, selector)
    lo, hi = kind.factor_range
    start = r.randint(0, 300)
    return {
        kind.selector: selector,
        kind.factor: round(r.uniform(lo, hi), 4),
        "quote_source": r.choice(list(QUOTE_SOURCES)),
        "quoted_on": iso(start),
        "expires_on": iso(start + r.randint(1, 30)),
    }


def process(
    seed: int, domain: str, cap: str, amount: float, selector: str, factor: float | None = None
) -> dict[str, Any]:
    kind = kind_of(cap)
    quote = factor_quote(seed, domain, cap, selector)
    f = quote[kind.factor] if factor is None else factor
    r = rng(seed, "world.process", domain, cap, selector)
    start = r.randint(0, 300)
    return {
        "input_amount": amount,
        kind.selector: selector,
        kind.factor: f,
        kind.result: money(amount * f),
        "rate_status": r.choice(list(RATE_STATUS)),
        "computed_on": iso(start),
        "valid_until": iso(start + r.randint(1, 30)),
    }


def act(seed: int, tool: Tool, args: dict[str, Any]) -> dict[str, Any]:
    contact = tool.params[2].canonical
    digest = sha256_hex([seed, "action", tool.name, args])
    r = rng(seed, "world.action", tool.name, args)
    start = r.randint(0, 300)
    return {
        "confirmation_code": f"CF-{digest[:8].upper()}",
        "order_status": r.choice(list(ORDER_STATUS)),
        "record_id": args["record_id"],
        "charged_amount": args["amount"],
        contact: args[contact],
        "created_on": iso(start),
        "effective_on": iso(start + r.randint(0, 14)),
    }


def canonical_args(tool: Tool, arguments: dict[str, Any]) -> dict[str, Any]:
    """Provider argument names -> canonical names."""
    return {p.canonical: arguments[p.name] for p in tool.params if p.name in arguments}


def execute(
    seed: int, tool: Tool, arguments: dict[str, Any], state: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """Run a validated call in the clean world: (status, content)."""
    a = canonical_args(tool, arguments)
    domain, item = tool.ref
    if tool.kind == "source":
        subject = subject_of(domain, item)
        if tool.role == "step2":
            key = unresolve(seed, domain, item, tool.via, a[tool.via])
            if key is None:
                return "error", {"error": "not_found", "detail": f"unknown {tool.via} '{a[tool.via]}'"}
        else:
            key = a[subject.key]
            if key not in subject.values:
                return "error", {"error": "not_found", "detail": f"unknown {subject.key} '{key}'"}
        if tool.role == "step1":
            return "ok", resolve(seed, domain, item, tool.via, key)
        if a["quantity"] < 1:
            return "error", {"error": "invalid_argument", "detail": "quantity must be at least 1"}
        return "ok", source_record(seed, domain, item, key, int(a["quantity"]))
    if tool.kind == "processor":
        kind = kind_of(item)
        if tool.role == "step1":
            return "ok", factor_quote(seed, domain, item, a[kind.selector])
        factor = a.get(kind.factor) if tool.role == "step2" else None
        return "ok", process(seed, domain, item, a["total_due_usd"], a[kind.selector], factor)
    if tool.kind == "action":
        plain = {p.name: arguments[p.name] for p in tool.params}
        content = act(seed, tool, plain)
        state.setdefault("actions", []).append(
            {"tool": tool.name, "arguments": plain, "confirmation_code": content["confirmation_code"]}
        )
        return "ok", content
    raise ValueError(f"tool {tool.name} is not executable by the world")
