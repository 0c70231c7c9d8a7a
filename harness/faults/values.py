"""Value predicates and small edits the fault classes share: numbers, dates, ids, categorical
values, a schema lookup, the leaves of a result. Knows nothing about episodes, monitors or configs."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Mapping
from typing import Any

from core.protocol import ToolSpec
from harness.faults import paths

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
_TOKEN = re.compile(r"^[a-z][a-z0-9_\-]{0,31}$|^[A-Z][A-Z0-9_]{1,15}$")


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_id_name(name: str) -> bool:
    low = name.lower()
    return low == "id" or low.endswith("_id") or name.endswith("Id") or low.endswith("_code")


def parse_date(v: Any) -> dt.date | None:
    if not isinstance(v, str):
        return None
    m = _DATE.match(v)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def shift_date(v: str, days: int) -> str:
    """Move the leading ISO date of ``v`` by ``days``, keeping any time part as it was."""
    d = parse_date(v)
    assert d is not None
    return (d + dt.timedelta(days=days)).isoformat() + v[10:]


def schema_at(spec: ToolSpec | None, path: str) -> Mapping[str, Any]:
    """The output-schema node for ``path`` ({} when the tool publishes no schema for it)."""
    node: Any = spec.output_schema if spec is not None else None
    if not node:
        return {}
    for step in paths.parse(paths.generic(path).replace("[*]", "[0]")):
        if not isinstance(node, Mapping):
            return {}
        node = (
            node.get("items", {}) if isinstance(step, int) else (node.get("properties") or {}).get(step, {})
        )
    return node if isinstance(node, Mapping) else {}


def is_categorical(v: Any, path: str, spec: ToolSpec | None) -> bool:
    """A code-like string: an enum in the schema, or a short token with no spaces (``shipped``, ``USD``)."""
    if not isinstance(v, str):
        return False
    if "enum" in schema_at(spec, path):
        return True
    name = paths.field_name(path)
    return (
        bool(_TOKEN.match(v))
        and parse_date(v) is None
        and not is_id_name(name)
        and not any(c.isdigit() for c in v)
    )


def leaves(content: Any) -> list[tuple[str, Any]]:
    return [(p, v) for p, v in paths.walk(content) if not isinstance(v, (dict, list))]


def keyed_nodes(content: Any) -> list[tuple[str, Any]]:
    """Nodes that sit under an object key (what a missing/renamed-field fault can act on)."""
    return [(p, v) for p, v in paths.walk(content) if p != "$" and not p.endswith("]")]


def positive_numbers(content: Any) -> list[str]:
    return [p for p, v in leaves(content) if is_number(v) and v > 0 and not is_id_name(paths.field_name(p))]


def number_like(original: Any, new: float) -> Any:
    """Keep the original's number style: ints stay ints, floats keep their decimals."""
    if isinstance(original, int) and float(new).is_integer():
        return int(new)
    decimals = len(repr(float(original)).split(".")[1]) if isinstance(original, float) else 2
    return round(float(new), max(2, min(decimals, 6)))


def mutate_token(s: str, rng: random.Random) -> str:
    """Another value of the same shape: digits become other digits, letters other letters of the same case."""
    chars = list(s)
    spots = [i for i, c in enumerate(chars) if c.isalnum() and c.isascii()]
    if not spots:
        return s + "2"
    for i in rng.sample(spots, k=min(len(spots), max(1, len(spots) // 3))):
        c = chars[i]
        pool = (
            "0123456789"
            if c.isdigit()
            else ("ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c.isupper() else "abcdefghijklmnopqrstuvwxyz")
        )
        chars[i] = rng.choice([x for x in pool if x != c])
    return "".join(chars)


# Small pools of real-looking values by field-name stem, for "another valid name" corruptions.
PLAUSIBLE_POOLS: dict[str, tuple[str, ...]] = {
    "city": (
        "Paris",
        "London",
        "Tokyo",
        "Berlin",
        "Madrid",
        "Toronto",
        "Sydney",
        "Chicago",
        "Seoul",
        "Lisbon",
    ),
    "country": ("France", "Japan", "Canada", "Brazil", "Germany", "Spain", "India", "Kenya"),
    "product": ("Wireless Mouse", "Desk Lamp", "Water Bottle", "Running Shoes", "Backpack", "Headphones"),
    "airline": ("Delta", "Lufthansa", "Air France", "Qantas", "Emirates", "United"),
    "hotel": ("Grand Plaza", "Seaside Inn", "Park Hotel", "City Lodge", "Harbor Suites"),
    "name": ("Alice Martin", "Bruno Silva", "Chen Wei", "Dana Cohen", "Emma Novak", "Farid Haddad"),
    "company": ("Acme Corp", "Globex", "Initech", "Umbrella Ltd", "Hooli"),
    "condition": ("sunny", "cloudy", "rain", "snow", "fog", "clear"),
}


def pool_for(name: str) -> tuple[str, ...] | None:
    low = name.lower()
    for stem, pool in PLAUSIBLE_POOLS.items():
        if stem in low:
            return pool
    return None
