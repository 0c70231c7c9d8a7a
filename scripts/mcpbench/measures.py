"""eggcalc (PyPI, ``calc --mcp``): exact measures worked out from the arguments alone, by a server that speaks MCP
with its own stdio code (no SDK, no dependencies).

Its results are structured content with an ``outputSchema``, and a text block that is not the same object but
an envelope around it: ``{"ok": true, "tool": "...", "result": <the structured content>}``, with ``warnings``
and a ``recommended_next_tool`` where it has them. The values: converted quantities as floats with their
factor, arithmetic answers as strings (``"17.5"``) with a unit and a display text where the expression had
units, timestamps in RFC 3339 at several offsets beside unix counts as strings, the next runs of a cron
schedule, networks with their first, last and broadcast addresses and their size as a string, addresses as
hex and as a decimal string, version orderings as -1, 0 or 1 with a summary, parsed version constraints, JSON
values found (or not, with where the pointer stopped) in a shipment document, radix conversions and physical
constants. The fixture is what the calls carry: a seeded set of shipment documents (JSON text) and the
values drawn per call; nothing is read from or written to a file, and no answer depends on the clock (the
server's limit of 10 calls a second is lifted, so a fast session is never refused).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

UNITS = {
    "length": ("km", "mi", "m", "ft", "in", "cm", "yd", "mm", "nmi"),
    "mass": ("kg", "lb", "g", "oz", "st", "mg"),
    "temperature": ("C", "F", "K"),
    "volume": ("L", "gal", "mL", "cup", "floz", "pt", "qt", "tbsp", "tsp"),
    "time": ("h", "min", "s", "day", "week", "ms"),
    "speed": ("km/h", "mph", "m/s", "kn"),
    "energy": ("J", "kcal", "kWh", "cal"),
    "pressure": ("Pa", "psi", "bar", "atm", "kPa"),
    "power": ("W", "hp"),
    "area": ("acre", "ha", "m2", "sqft"),
    "data": ("B", "KB", "MB"),
}
# units math_eval reads inside an expression, by kind: quantities of one kind add up
SPOKEN = {"length": ("km", "m", "ft", "mi", "cm"), "mass": ("kg", "g", "lb"), "time": ("hours", "min", "s")}
CONSTANTS = ("avogadro", "planck", "boltzmann", "c", "gravitationalconstant", "gasconstant", "faraday", "elementarycharge",
             "standardgravity", "amu")  # fmt: skip
CRON = ("*/15 9-17 * * 1-5", "0 2 * * *", "30 6 1 * *", "0 */4 * * *", "5 0 * * 0", "0 9,13 * * 1-5",
        "45 23 * * 5", "0 0 1 1 *", "10 8 * * 1,3,5", "0 12 15 * *")  # fmt: skip
OFFSETS = ("Z", "+01:00", "+02:00", "-05:00", "+05:30", "-08:00", "+09:00", "+10:00")
STATUS = ("packed", "shipped", "delivered", "returned", "held")
CARRIERS = ("DHL", "UPS", "PostNL", "DPD", "GLS")
SKUS = ("KET", "LMP", "DRL", "TNT", "FAN", "CHR", "CAM", "SPK")
T0 = dt.datetime(2023, 1, 1, tzinfo=dt.UTC)
SPAN = 3 * 365 * 86400  # seconds: 2023 to 2025


def _shipment(rng: random.Random, k: int) -> dict[str, Any]:
    lines: list[dict[str, Any]] = [{"sku": f"{rng.choice(SKUS)}-{rng.randrange(100, 999)}", "qty": rng.randrange(1, 12),
              "unit_price": round(rng.uniform(3, 250), 2), "weight_kg": round(rng.uniform(0.1, 18), 3)}
             for _ in range(rng.randrange(1, 5))]  # fmt: skip
    placed = T0 + dt.timedelta(seconds=rng.randrange(SPAN))
    return {
        "id": f"SHP-{40000 + k}",
        "customer": {"name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "tier": rng.choice(("basic", "plus", None))},
        "placed": placed.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "status": rng.choice(STATUS),
        "carrier": rng.choice(CARRIERS),
        "lines": lines,
        "totals": {"items": sum(line["qty"] for line in lines),
                   "amount": round(sum(line["qty"] * line["unit_price"] for line in lines), 2)},
        "tracking": [{"at": (placed + dt.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ"), "event": e}
                     for h, e in zip((2, 20, 44), ("label", "picked up", "in transit"), strict=False)
                     if rng.random() < 0.8],
    }  # fmt: skip


def measures_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    docs = [json.dumps(_shipment(rng, k), indent=rng.choice((None, 2))) for k in range(40)]
    command = ["env", "EGGCALC_MCP_MAX_REQUESTS_PER_SECOND=1000", *binary, "--mcp"]
    return Fixture(command, {"docs": docs})


def _pointer(rng: random.Random, doc: dict[str, Any]) -> str:
    n = len(doc["lines"])
    return rng.choice((
        "/status", "/carrier", "/customer", "/customer/name", "/customer/tier", "/totals", "/totals/amount",
        "/lines", f"/lines/{rng.randrange(n)}", f"/lines/{rng.randrange(n)}/qty", f"/lines/{rng.randrange(n)}/sku",
        f"/lines/{n + rng.randrange(3)}", "/tracking", "/tracking/0/at", "/refund", "/customer/email", "",
    ))  # fmt: skip


def _expression(rng: random.Random) -> str:
    a, b, c = rng.randrange(2, 900), rng.randrange(2, 900), rng.randrange(2, 40)
    kind = rng.choice(sorted(SPOKEN))
    u, v = rng.sample(SPOKEN[kind], 2)
    return rng.choice((
        f"{a} + {b} * {c}", f"({a} - {b}) / {c}", f"{a} * {b}", f"sqrt({a * c})", f"{c}% of {a}",
        f"{a} {u} + {b} {v}", f"{round(rng.uniform(0.5, 90), 2)} {u} in {v}", f"{a} mod {c}", f"{c} ^ 3",
        f"{a} / {c} + {b}", f"round({a} / {c}, 2)", f"{b} * pi",
    ))  # fmt: skip


def _network(rng: random.Random) -> tuple[str, str]:
    prefix = rng.randrange(16, 31)
    first = rng.choice((10, 172, 192))
    second = {10: rng.randrange(256), 172: rng.randrange(16, 32), 192: 168}[first]
    net = (first << 24) | (second << 16) | (rng.randrange(256) << 8) | rng.randrange(256)
    net &= (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    size = 1 << (32 - prefix)
    inside = net + rng.randrange(size) if rng.random() < 0.6 else net + size + rng.randrange(1, 4000)

    def dotted(x: int) -> str:
        return ".".join(str((x >> s) & 255) for s in (24, 16, 8, 0))

    return f"{dotted(net)}/{prefix}", dotted(inside & 0xFFFFFFFF)


def _version(rng: random.Random) -> str:
    core = f"{rng.randrange(0, 4)}.{rng.randrange(0, 15)}.{rng.randrange(0, 30)}"
    return core + (rng.choice(("-alpha.1", "-beta.2", "-rc.1")) if rng.random() < 0.15 else "")


def _when(rng: random.Random) -> str:
    t = T0 + dt.timedelta(seconds=rng.randrange(SPAN))
    offset = rng.choice(OFFSETS)
    if offset == "Z":
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    sign = 1 if offset[0] == "+" else -1
    tz = dt.timezone(sign * dt.timedelta(hours=int(offset[1:3]), minutes=int(offset[4:])))
    return t.astimezone(tz).isoformat()


def measures_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.22:
        kind = rng.choice(sorted(UNITS))
        a, b = rng.sample(UNITS[kind], 2)
        value = rng.choice((rng.randrange(1, 5000), round(rng.uniform(-40, 400), 2)))
        if kind != "temperature":
            value = abs(value) or 1
        return "unit_convert", {"value": value, "from_unit": a, "to_unit": b}
    if r < 0.38:
        return "math_eval", {"expression": _expression(rng)}
    if r < 0.5:
        if rng.random() < 0.6:
            seconds = int(T0.timestamp()) + rng.randrange(SPAN)
            fmt = rng.choice(("unix_seconds", "unix_milliseconds"))
            stamp = str(seconds * 1000 + rng.randrange(1000) if fmt == "unix_milliseconds" else seconds)
            args: dict[str, Any] = {"value": stamp, "format": fmt}
        else:
            args = {"value": _when(rng), "format": "rfc3339"}
        if rng.random() < 0.7:
            args["output_offset"] = rng.choice(OFFSETS)
        return "datetime_convert", args
    if r < 0.58:
        after = _when(rng)
        return "cron_inspect", {"expression": rng.choice(CRON), "after": after, "count": rng.randrange(1, 8)}
    if r < 0.66:
        cidr, address = _network(rng)
        return "cidr_inspect", {"cidr": cidr, **({"contains": address} if rng.random() < 0.7 else {})}
    if r < 0.71:
        return "ip_inspect", {"address": _network(rng)[1]}
    if r < 0.79:
        a, b = _version(rng), _version(rng)
        return "version_compare", {"a": a, "b": b, **({"scheme": "loose"} if rng.random() < 0.2 else {})}
    if r < 0.84:
        v = _version(rng).split("-")[0]
        major, minor = v.split(".")[:2]
        constraint = rng.choice((f"^{major}.{minor}.0", f"~{major}.{minor}", f">={major}.0,<{int(major) + 1}.0",
                                 f"{major}.*", f">={v}", f"<{major}.{int(minor) + 1}.0"))  # fmt: skip
        return "version_constraint_check", {"version": _version(rng), "constraint": constraint}
    if r < 0.95:
        text = rng.choice(fx.facts["docs"])
        tool = "json_extract" if rng.random() < 0.8 else "json_query"
        return tool, {"text": text, "pointer": _pointer(rng, json.loads(text))}
    if r < 0.98:
        base = rng.choice((2, 8, 10, 16))
        digits = format(rng.randrange(1, 1 << 24), {2: "b", 8: "o", 10: "d", 16: "x"}[base])
        to = rng.choice((2, 8, 10, 16, 36))
        return "radix_convert", {"value": digits, "from_base": base, "to_base": to}
    if rng.random() < 0.5:
        return "constant_lookup", {"name": rng.choice(CONSTANTS)}
    return "unit_info", {"unit": rng.choice([u for units in UNITS.values() for u in units])}
