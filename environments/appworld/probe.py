"""Probe calls for a seeded offline world: arguments for AppWorld's read APIs, filled from the API's
parameter schema and the world's seeded users, tokens and object ids.

Used by the offline tests and the benchmark to draw real responses (200, 401, 409, 422) from the
real app code without the benchmark's task data. Pure: no I/O, no ``appworld``; draws come from a
seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

SKIP_APPS = ("supervisor",)  # needs a task's supervisor; absent in a seeded world


def _camel(name: str) -> str:
    return "".join(p.title() for p in name.split("_"))


def _value(
    name: str, schema: Mapping[str, Any], app: str, world: Mapping[str, Any], rng: random.Random
) -> Any:
    user = (world.get("users") or {}).get(app) or {}
    ids = (world.get("ids") or {}).get(app) or {}
    if name.endswith("_id") and schema.get("type") == "integer":
        pool = ids.get(_camel(name.removesuffix("_id"))) or []
        if name == "user_id" and user.get("id"):
            pool = [user["id"]]
        # mostly known ids (200s), sometimes an unknown one (a genuine 409/422)
        return rng.choice(pool) if pool and rng.random() < 0.8 else rng.randint(1, 50)
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    if "default" in schema and schema["default"] is not None and rng.random() < 0.5:
        return schema["default"]
    t = schema.get("type")
    if t == "integer":
        lo = int(schema.get("minimum", 0))
        hi = int(schema.get("maximum", lo + 10))
        return rng.randint(lo, min(hi, lo + 10))
    if t == "number":
        return round(rng.uniform(float(schema.get("minimum", 0)), 50.0), 2)
    if t == "boolean":
        return rng.random() < 0.5
    if t == "array":
        return []
    if name in ("email", "user_email") and user.get("email"):
        return user["email"]
    if name == "phone_number" and user.get("phone_number"):
        return user["phone_number"]
    if schema.get("format") == "email":
        return user.get("email", "someone@example.com")
    return rng.choice(["", "a", "the", user.get("first_name", "x")])


def probe_calls(
    apis: list[Mapping[str, Any]],
    world: Mapping[str, Any],
    rng: random.Random,
    variants: int = 3,
    methods: tuple[str, ...] = ("get",),
) -> list[tuple[str, str, dict[str, Any]]]:
    """``variants`` argument sets per API of ``methods`` (reads by default: the world stays as seeded)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    tokens = world.get("tokens") or {}
    for row in apis:
        if row["method"] not in methods or row["app"] in SKIP_APPS:
            continue
        params = row["parameters"]
        props: Mapping[str, Any] = params.get("properties") or {}
        required = set(params.get("required") or [])
        for _ in range(variants):
            args: dict[str, Any] = {}
            for name, sch in props.items():
                if name == "access_token":
                    if row["app"] in tokens:
                        args[name] = tokens[row["app"]]
                    continue
                if name in required or rng.random() < 0.3:
                    args[name] = _value(name, sch, row["app"], world, rng)
            out.append((row["app"], row["api"], args))
    return out
