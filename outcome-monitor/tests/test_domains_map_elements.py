"""Names in the lists of a map keyed by names, pooled over its keys (wide vocabulary only): car types
per rental company, each company asked about once or twice."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn

TYPES = ["Sedan", "SUV", "Convertible"]
COMPANIES = [f"Company {c}" for c in "ABCDEFGHIJKLMNOP"]


def _fired(reg: Any, result: Any, args: dict[str, Any] | None = None) -> bool:
    return Monitor(reg).annotate("car_types", args or {"company_name": ["Company A"]}, result).fired


def _rows(rng: random.Random, n: int = 24, types: list[str] = TYPES) -> list[dict[str, Any]]:
    rows = []
    for _ in range(n):
        asked = rng.sample(COMPANIES, rng.randint(1, 3))
        result = {c: sorted(rng.sample(types, rng.randint(1, len(types)))) for c in asked}
        rows.append({"tool": "car_types", "arguments": {"company_name": asked}, "result": result})
    return rows


def test_a_name_outside_the_pooled_types_fires_under_any_key():
    reg = learn(_rows(random.Random(0)))
    assert not _fired(reg, {"Company Z": ["SUV", "Sedan"]}, {"company_name": ["Company Z"]})
    assert _fired(reg, {"Company A": ["SUV", "LEGACY"]})
    assert not _fired(learn(_rows(random.Random(0)), vocabulary="paper"), {"Company A": ["SUV", "LEGACY"]})


def test_many_names_seen_once_are_no_closed_set():
    rng = random.Random(1)
    rows = [
        {"tool": "car_types", "arguments": {"company_name": [c]}, "result": {c: [f"model-{i}-{c}"]}}
        for i, c in enumerate(COMPANIES)
    ]
    assert not _fired(learn(rows), {"Company A": ["model-new"]})
    # few executions (too little support for a domain of three values)
    assert not _fired(learn(_rows(rng, n=4)), {"Company A": ["SUV", "LEGACY"]})


def test_a_map_whose_names_copy_the_arguments_is_not_pooled():
    rows = [
        {"tool": "car_types", "arguments": {"company_name": [t]}, "result": {"Company A": [t]}}
        for t in TYPES * 6
    ] + _rows(random.Random(2))
    assert not _fired(learn(rows), {"Company A": ["LEGACY"]}, {"company_name": ["Company A"]})


def test_a_record_of_lists_beside_other_fields_is_not_a_map_of_names():
    rng = random.Random(3)
    rows = [
        {
            "tool": "car_types",
            "arguments": {"i": i},
            "result": {"types": sorted(rng.sample(TYPES, 2)), "count": 2},
        }
        for i in range(24)
    ]
    reg = learn(rows)
    assert not any(r.context.endswith(".*") for r in reg.rules.get("car_types", []))
