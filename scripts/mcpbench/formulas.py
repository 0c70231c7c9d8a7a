"""clinical-calc-mcp (PyPI, FastMCP 4.x on the SDK 2.x): a burns unit's training cases, worked through three
documented formulas.

Its results are structured content with an ``outputSchema`` (an object of numbers and strings) beside a text
block of the same object as compact JSON: the formula's name as text, the inputs echoed back, results rounded to two
places (Parkland's 24-hour volume with its first-eight-hour and next-sixteen-hour halves and their mL/hr rates;
Mosteller's body surface area in m²; an infusion's mL/hr and drops per minute, rounded and exact), units in
strings. The fixture holds no file: a seeded roster of forty cases (adults and children, weights, heights, burn
sizes, prescribed volumes and times) that the workload draws from, now and then with a fresh value.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture


def formulas_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    cases = []
    for _ in range(40):
        child = rng.random() < 0.3
        weight = round(rng.uniform(8, 45) if child else rng.uniform(45, 130), 1)
        height = round(rng.uniform(70, 150) if child else rng.uniform(150, 200), 1)
        cases.append({"name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "weight_kg": weight, "height_cm": height,
                      "tbsa_percentage": round(rng.uniform(2, 70), 1)})  # fmt: skip
    return Fixture([*binary], {"cases": cases})


def formulas_call(rng: random.Random, fx: Fixture) -> Call:
    case = dict(rng.choice(fx.facts["cases"]))
    if rng.random() < 0.2:  # a fresh value: a case re-weighed or re-measured
        case["weight_kg"] = round(case["weight_kg"] * rng.uniform(0.9, 1.1), 1)
    r = rng.random()
    if r < 0.35:
        return "parkland_formula", {
            "weight_kg": case["weight_kg"],
            "tbsa_percentage": case["tbsa_percentage"],
        }
    if r < 0.65:
        return "bsa_mosteller", {"weight_kg": case["weight_kg"], "height_cm": case["height_cm"]}
    args: dict[str, float | int] = {
        "volume_ml": float(rng.choice((50, 100, 250, 500, 1000, 1500)) + rng.choice((0, 0, 0, 25))),
        "time_hours": rng.choice((0.5, 1, 2, 4, 6, 8, 12, 24)),
    }
    if rng.random() < 0.7:
        args["drop_factor"] = rng.choice((10, 15, 20, 60))
    return "drip_rate_calculator", args
