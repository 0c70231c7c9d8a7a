"""Perturbation payloads (explicit errors, implicit corruptions) and the contract checker.

Explicit payloads are error results; implicit payloads keep status ok, stay valid against the
tool's output schema, break at least one contract class, and change a value a later sub-task
consumes (``consumed_fields``), so an agent that trusts one and goes on acts wrongly.
``violations`` checks a result against the tool's declared contracts (used by the fault tests).
Must not know tasks or episodes.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any

from environments.toolmaze.catalog import Tool, subject_of
from environments.toolmaze.world import money, source_record

EXPLICIT_TRANSIENT = ("http_503", "http_429", "timeout")
EXPLICIT_PERMANENT = ("http_410", "http_404")
IMPLICIT_CLASS = {
    "negative_value": "positive",
    "out_of_domain_enum": "domain",
    "html_error_page": "echo",
    "date_order": "date_order",
    "echo_mismatch": "echo",
    "empty_list": "relation",
    "broken_relation": "relation",
    "stale_value": "relation",
}
_EXPLICIT_BODY = {
    "http_503": (
        503,
        "503 Service Unavailable: the upstream provider is temporarily overloaded",
        {"retry_after_s": 1},
    ),
    "http_429": (429, "429 Too Many Requests: rate limit exceeded", {"retry_after_s": 2}),
    "timeout": (504, "504 Gateway Timeout: the upstream provider did not answer within 30s", {}),
    "http_410": (410, "410 Gone: this endpoint is deprecated and no longer served", {}),
    "http_404": (404, "404 Not Found: this tool has been removed", {}),
}
HTML_PAGE = (
    "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
    "<p>The server returned an invalid response. (cached by edge-proxy)</p></body></html>"
)
_ODD_TOKENS = ("status_pending_void", "ERR_UNMAPPED", "unknown_state", "n/a")
MODES = ("P0", "P1", "P2", "P3", "P4")


@dataclass(frozen=True)
class Fault:
    """The payload served when a victim call is perturbed."""

    tool: str
    kind: str
    contract_class: str | None
    status: str  # "ok" | "error"
    content: dict[str, Any]


def mode_flags(mode: str) -> dict[str, bool]:
    return {
        "explicit": mode in ("P1", "P2"),
        "implicit": mode in ("P3", "P4"),
        "permanent": mode in ("P2", "P4"),
        "transient": mode in ("P1", "P3"),
    }


def explicit_fault(tool: Tool, kind: str) -> Fault:
    code, text, extra = _EXPLICIT_BODY[kind]
    return Fault(tool.name, kind, None, "error", {"error": text, "code": code, "tool": tool.name, **extra})


def supported_kinds(tool: Tool) -> tuple[str, ...]:
    if tool.kind == "source":
        kinds = [
            "negative_value",
            "out_of_domain_enum",
            "date_order",
            "echo_mismatch",
            "empty_list",
            "broken_relation",
            "stale_value",
        ]
        if tool.role == "direct":
            kinds.append("html_error_page")
        return tuple(kinds)
    if tool.kind == "processor" and tool.role in ("direct", "step2"):
        return (
            "negative_value",
            "out_of_domain_enum",
            "html_error_page",
            "date_order",
            "echo_mismatch",
            "broken_relation",
            "stale_value",
        )
    return ()


def _earlier(iso_date: str, days: int) -> str:
    return (dt.date.fromisoformat(iso_date) - dt.timedelta(days=days)).isoformat()


def consumed_fields(tool: Tool) -> tuple[str, ...]:
    """Output fields of a victim that later sub-tasks take as arguments (what a payload must corrupt).

    A Source record feeds the Processor its ``total_due_usd`` and the Action its ``record_id``; a
    Processor feeds the Action its result. Chain step 1 tools are never victims.
    """
    if tool.kind == "source" and tool.role in ("direct", "step2"):
        return ("record_id", "total_due_usd")
    if tool.kind == "processor" and tool.role in ("direct", "step2"):
        from environments.toolmaze.catalog import kind_of

        return (kind_of(tool.ref[1]).result,)
    return ()


def _source_payload(
    tool: Tool, out: dict[str, Any], clean: dict[str, Any], kind: str, r: random.Random, seed: int
) -> None:
    domain, item = tool.ref
    subject = subject_of(domain, item)
    unit, key, q = subject.unit, subject.key, clean["quantity"]

    def totals(subtotal: float) -> None:
        out["subtotal_usd"] = money(subtotal)
        out["total_due_usd"] = money(out["subtotal_usd"] + out["fees_usd"])

    if kind == "negative_value":  # a sign error upstream, carried consistently into the totals
        out[unit] = -abs(out[unit])
        totals(out[unit] * q)
    elif kind == "out_of_domain_enum":  # an unmapped record: odd status and a null placeholder record id
        out["availability"] = r.choice(_ODD_TOKENS)
        out["record_id"] = clean["record_id"].split("-")[0] + "-00000000"
    elif kind == "html_error_page":  # the edge proxy's cached 502 page in place of the record's identifiers
        out[key] = HTML_PAGE
        out["record_id"] = HTML_PAGE
    elif kind == "date_order":  # an old snapshot: its window is out of order and its prices are the old ones
        out["valid_to"] = _earlier(out["valid_from"], r.randint(1, 30))
        out[unit] = money(out[unit] * r.uniform(0.6, 0.9))
        totals(out[unit] * q)
    elif kind == "echo_mismatch":
        if tool.role == "direct":  # a cache-key mix-up: the full, consistent record of another key
            other = r.choice([v for v in subject.values if v != clean[key]])
            out.update(source_record(seed, domain, item, other, q))
        else:  # step 2 echoes only the quantity: the record priced for another quantity
            out["quantity"] = q + r.randint(1, 5)
            totals(out[unit] * out["quantity"])
    elif kind == "empty_list":  # the fee list came back empty and the total was summed from it
        out["line_items"] = []
        out["total_due_usd"] = out["subtotal_usd"]
    elif kind == "broken_relation":
        out["total_due_usd"] = money(out["total_due_usd"] * 1.37 + 1.0)
    elif (
        kind == "stale_value"
    ):  # a cached subtotal and total from an older price next to the fresh unit price
        totals(out[unit] * q * r.uniform(0.6, 0.9))
    else:
        raise ValueError(kind)


def _processor_payload(tool: Tool, out: dict[str, Any], kind: str, r: random.Random) -> None:
    from environments.toolmaze.catalog import kind_of

    pk = kind_of(tool.ref[1])
    if kind == "negative_value":
        out[pk.result] = -abs(out[pk.result])
    elif kind == "out_of_domain_enum":  # an unmapped rate: the provider passes the amount through unchanged
        out["rate_status"] = r.choice(_ODD_TOKENS)
        # a clean factor of exactly 1 would make the pass-through right; then it drops the amount instead
        fallback = 1.0 if out[pk.factor] != 1.0 else 0.0
        out[pk.factor] = fallback
        out[pk.result] = money(out["input_amount"] * fallback)
    elif kind == "html_error_page":  # the cached 502 page in place of the selector, and no figures parsed
        out[pk.selector] = HTML_PAGE
        out[pk.factor] = 0.0
        out[pk.result] = 0.0
    elif kind == "date_order":  # an expired quote: its window is out of order and its factor is the old one
        out["valid_until"] = _earlier(out["computed_on"], r.randint(1, 30))
        out[pk.factor] = round(out[pk.factor] * r.uniform(0.8, 0.95), 4)
        out[pk.result] = money(out["input_amount"] * out[pk.factor])
    elif kind == "echo_mismatch":
        out["input_amount"] = money(out["input_amount"] * r.uniform(1.1, 1.5))
        out[pk.result] = money(out["input_amount"] * out[pk.factor])
    elif kind == "broken_relation":
        out[pk.result] = money(out[pk.result] * 1.37 + 1.0)
    elif kind == "stale_value":  # a result computed with an old factor next to the fresh factor
        out[pk.result] = money(out["input_amount"] * out[pk.factor] * r.uniform(0.8, 0.95))
    else:
        raise ValueError(kind)


def implicit_fault(tool: Tool, clean: dict[str, Any], kind: str, r: random.Random, seed: int = 0) -> Fault:
    """Corrupt a copy of the clean result: the named contract class breaks (at least), and so does a
    value a later sub-task consumes (``consumed_fields``), so trusting the payload leads to a wrong
    action. ``seed`` is the world seed (a mixed-up record is another key's real record)."""
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in clean.items()}
    if tool.kind == "source":
        _source_payload(tool, out, clean, kind, r, seed)
    else:
        _processor_payload(tool, out, kind, r)
    if all(out.get(f) == clean.get(f) for f in consumed_fields(tool)):
        raise AssertionError(f"{kind} payload of {tool.name} leaves every consumed field clean")
    return Fault(tool.name, kind, IMPLICIT_CLASS[kind], "ok", out)


def make_fault(tool: Tool, mode: str, clean: dict[str, Any], r: random.Random, seed: int = 0) -> Fault:
    if mode == "P1":
        return explicit_fault(tool, r.choice(EXPLICIT_TRANSIENT))
    if mode == "P2":
        return explicit_fault(tool, r.choice(EXPLICIT_PERMANENT))
    if mode in ("P3", "P4"):
        return implicit_fault(tool, clean, r.choice(supported_kinds(tool)), r, seed)
    raise ValueError(f"mode {mode} has no faults")


# --------------------------------------------------------------------------------------------

_TOL = 0.011  # results are rounded to cents


def violations(tool: Tool, canonical_args: dict[str, Any], content: dict[str, Any]) -> set[str]:
    """Contract classes the result breaks (empty for every clean result)."""
    c = tool.contracts
    broken: set[str] = set()
    for f in tool.returns:
        if f.name not in content:
            broken.add("required")
    for name in c.positive:
        if "." in name:
            lst, item = name.split(".")
            vals = [i.get(item) for i in content.get(lst, [])]
        else:
            vals = [content.get(name)]
        if any(not isinstance(v, (int, float)) or v <= 0 for v in vals):
            broken.add("positive")
    for name, allowed in c.domains:
        if content.get(name) not in allowed:
            broken.add("domain")
    for out_field, param in c.echoes:
        if param in canonical_args and content.get(out_field) != canonical_args[param]:
            broken.add("echo")
    for early, late in c.date_pairs:
        if not str(content.get(early, "")) <= str(content.get(late, "")):
            broken.add("date_order")
    for rel in c.relations:
        op, out_field = rel[0], rel[1]
        try:
            if op == "mul":
                want = content[rel[2]] * content[rel[3]]
            elif op == "add":
                want = content[rel[2]] + content[rel[3]]
            else:
                want = sum(i[rel[3]] for i in content[rel[2]])
            if abs(content[out_field] - want) > _TOL:
                broken.add("relation")
        except (KeyError, TypeError):
            broken.add("relation")
    return broken
