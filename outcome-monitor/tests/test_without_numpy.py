"""numpy is optional: learning without it gives the registry learning with it gives, byte for byte.

Mining compares dense numeric columns in array passes when numpy is importable and in plain Python
passes otherwise (``outcome_monitor.learning.relations``); both do the same float arithmetic element
for element, prefilters included. The rows here come from a small seeded generator of this file
(exact equalities, an affine conversion with rounding, products, sums, sparse and null columns,
lists, ints beyond 2**53), learned once through each path. A last test runs a fresh interpreter in
which numpy cannot be imported at all, as in a venv holding only the wheel.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from itertools import combinations
from typing import Any

import pytest
from outcome_monitor import learn
from outcome_monitor.learning import relations

HAS_NUMPY = importlib.util.find_spec("numpy") is not None
needs_numpy = pytest.mark.skipif(not HAS_NUMPY, reason="numpy is not installed: no array path to compare")


def _weather(r: random.Random) -> dict[str, Any]:
    city = f"city_{r.randrange(25)}"
    c = round(r.uniform(-25, 40), 1)
    result = {
        "city": city,
        "celsius": c,
        "fahrenheit": round(1.8 * c + 32, 1),  # affine, rounded to its own step
        "kelvin": round(c + 273.15, 2),
        "humidity": r.randint(5, 100),
    }
    return {"tool": "get_weather", "arguments": {"city": city}, "result": result}


def _order(r: random.Random) -> dict[str, Any]:
    qty = r.randint(1, 12)
    price = round(r.uniform(0.5, 400), 2)
    total = round(qty * price, 2)
    shipping = round(r.choice([0.0, 4.99, 9.5, r.uniform(1, 30)]), 2)
    lines = []
    for _ in range(r.randint(0, 6)):  # a list of records: its own context, many rows
        q, p = r.randint(1, 5), round(r.uniform(1, 60), 2)
        net = round(q * p, 2)
        tax = round(net * 0.08, 2)
        lines.append({"sku": f"S{r.randrange(500):03d}", "qty": q, "price": p, "net": net, "tax": tax})
        lines[-1]["gross"] = round(net + tax, 2)
    result: dict[str, Any] = {
        "order_id": f"O{r.randrange(10**6):06d}",
        "item_id": f"I{r.randrange(99)}",
        "quantity": qty,
        "unit_price": price,
        "total": total,  # product
        "paid": total,  # equality
        "shipping": shipping,
        "grand_total": round(total + shipping, 2),  # sum
        "lines": lines,
        "n_lines": len(lines),
        "status": r.choice(["pending", "shipped", "delivered"]),
    }
    if r.random() < 0.6:  # sparse columns: absent on some rows, null on others
        result["discount"] = round(total * 0.1, 2) if r.random() < 0.8 else None
        result["coupon_value"] = result["discount"]
    args = {"item_id": result["item_id"], "quantity": qty}
    return {"tool": "place_order", "arguments": args, "result": result}


def _stats(r: random.Random) -> dict[str, Any]:
    base = r.randrange(-(10**6), 10**6)
    big = 2**60 + r.randrange(10**6)  # floats cannot tell these apart one by one
    result = {
        "base": base,
        "double": 2 * base,
        "shifted": base + 7,
        "big": big,
        "big_copy": big,
        "zero": 0,
        "few": r.choice([0, 0, 1]),
        "values": [r.randint(0, 9) for _ in range(r.randint(1, 5))],
        "mean": round(r.uniform(0, 1), 3),
    }
    return {"tool": "get_stats", "arguments": {"base": base}, "result": result}


def rows_for(seed: int) -> list[dict[str, Any]]:
    r = random.Random(seed)
    rows = []
    for _ in range(r.randint(25, 90)):
        rows += [_weather(r), _order(r), _stats(r)]
    return rows


def _forms(reg_json: dict[str, Any]) -> set[str]:
    return {
        rule["params"]["form"]
        for rules in reg_json["tools"].values()
        for rule in rules
        if rule["class"] == "relation" and "form" in rule["params"]
    }


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the instances of relations.<name> made while learning (which path ran)."""
    made: list[int] = []
    cls = getattr(relations, name)

    class Counted(cls):
        def __init__(self, *a: Any) -> None:
            made.append(1)
            super().__init__(*a)

    monkeypatch.setattr(relations, name, Counted)
    return made


def _learned(rows: list[dict[str, Any]], vocabulary: str) -> str:
    return json.dumps(learn(rows, vocabulary=vocabulary).to_json(), sort_keys=True)


@needs_numpy
@pytest.mark.parametrize("cube_max", ["one-pass", "screened"])
@pytest.mark.parametrize("vocabulary", ["wide", "paper"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_plain_passes_learn_the_registry_the_array_passes_learn(monkeypatch, seed, vocabulary, cube_max):
    if cube_max == "screened":  # numpy's other branch: first row screened, survivors on the rest
        monkeypatch.setattr(relations, "_CUBE_MAX", 0)
    rows = rows_for(seed)
    array_made = _counting(monkeypatch, "_ArrayPasses")
    plain_made = _counting(monkeypatch, "_PlainPasses")
    with_numpy = _learned(rows, vocabulary)
    assert array_made and not plain_made
    monkeypatch.setattr(relations, "USE_NUMPY", False)
    without = _learned(rows, vocabulary)
    assert plain_made
    assert without == with_numpy
    # the relations the generator planted were learned, so the comparison covers them
    assert {"eq", "affine", "product", "add"} <= _forms(json.loads(without))


def _columns(seed: int, n: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Dense float columns with planted relations and the awkward cases: a constant column (no
    slope), ties at the lowest and highest rows, signed zeros, magnitudes where 1e-9 matters."""
    r = random.Random(seed)
    x = [round(r.uniform(-50, 50), 2) for _ in range(n)]
    qty = [float(r.randint(1, 9)) for _ in range(n)]
    price = [round(r.uniform(1, 80), 2) for _ in range(n)]
    cols = {
        "x": x,
        "copy": list(x),
        "near": [v * (1 + 1e-12) for v in x],
        "f": [round(1.8 * v + 32, 2) for v in x],
        "tenth": [round(0.1 * v, 3) for v in x],
        "qty": qty,
        "price": price,
        "line": [round(q * p, 2) for q, p in zip(qty, price, strict=True)],
        "sum": [round(q + p, 2) for q, p in zip(qty, price, strict=True)],
        "const": [5.0] * n,
        "ties": [float(r.choice([1, 2, 3])) for _ in range(n)],
        "zeros": [r.choice([0.0, -0.0]) for _ in range(n)],
        "huge": [1e15 + r.randrange(3) for _ in range(n)],
    }
    if n > 1:
        cols["near"][-1] += 1.0 if seed % 2 else 0.0  # sometimes broken on a later row only
    if n >= 5:
        # off the line a == b by just over the affine prefilter's tolerance, within its 0.1% margin
        mid = sorted(range(n), key=x.__getitem__)[n // 2]
        scale = max(max(1.0, abs(v)) for v in x)
        cols["edge"] = list(x)
        cols["edge"][mid] += (0.5 * (0.01 + 0.01) + 1e-6 * scale) * 1.0005
        # under 1 in magnitude: the tolerance's scale is 1, not the largest value (0.5 here)
        small = [round(r.uniform(-0.5, 0.5), 3) for _ in range(n)]
        small[0], small[1] = -0.5, 0.5
        cols["small"], cols["small_edge"] = small, list(small)
        cols["small_edge"][2] += 0.0010017  # within (0.001 + 1e-6) * 1.001, beyond (0.001 + 0.5e-6) * 1.001
    quanta = {f: 1.0 if f in ("qty", "const", "ties", "huge") else 0.01 for f in cols}
    quanta["tenth"] = quanta["small"] = quanta["small_edge"] = 0.001
    return cols, quanta


@needs_numpy
@pytest.mark.parametrize("cube_max", ["one-pass", "screened"])
def test_plain_and_array_passes_agree_on_every_pair_and_triple(monkeypatch, cube_max):
    import numpy as np

    if cube_max == "screened":
        monkeypatch.setattr(relations, "_CUBE_MAX", 0)
    for seed, n in ((0, 1), (1, 2), (2, 3), (3, 7), (4, 40), (5, 300)):
        floats, quanta = _columns(seed, n)
        names = sorted(floats)
        # two sparse columns ride along: the array passes see them as NaN, neither path compares them
        floats["gap"] = [float("nan") if i % 2 else 1.0 for i in range(n)]
        floats["gap2"] = list(floats["gap"])
        quanta["gap"] = quanta["gap2"] = 1.0
        dense = set(names)
        every = sorted(floats)
        array = relations._ArrayPasses(every, floats, dense, quanta)
        plain = relations._PlainPasses(floats, dense, quanta, n)
        for a in names:
            for b in names:
                assert plain.equal(a, b) == array.equal(a, b), (seed, n, a, b)
        for a in every:
            for b in every:
                assert plain.affine_ok(a, b) == array.affine_ok(a, b), (seed, n, a, b)
        dpairs = list(combinations(names, 2))
        assert plain.screen(names, dpairs) == array.screen(names, dpairs), (seed, n)
        # not vacuous: the planted relations pass both, the broken ones fail both
        mul, add = plain.screen(names, dpairs)
        assert plain.equal("copy", "x") and plain.equal("near", "x") == (n == 1 or seed % 2 == 0)
        assert dpairs.index(("price", "qty")) in mul["line"] and dpairs.index(("price", "qty")) in add["sum"]
        assert plain.affine_ok("f", "x") == (n >= 3) and not plain.affine_ok("x", "const")
        assert plain.affine_ok("gap", "x") and plain.affine_ok("gap", "gap2")
        assert n < 5 or plain.affine_ok("edge", "x") and plain.affine_ok("small_edge", "small")
        # k and c come through the first lowest and first highest row, as numpy's argmin / argmax
        for b, ends in plain._ends.items():
            assert ends == (int(np.argmin(floats[b])), int(np.argmax(floats[b]))), (seed, n, b)


_NO_NUMPY = r"""
import importlib, json, pkgutil, sys

sys.modules["numpy"] = None  # `import numpy` now raises ImportError, as in a venv without it
import outcome_monitor
from outcome_monitor import learn
from outcome_monitor.learning import relations

# every module of the library imports without numpy (the extras' own packages may be absent too)
for m in pkgutil.walk_packages(outcome_monitor.__path__, "outcome_monitor."):
    if m.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(m.name)
    except ImportError as e:
        if e.name == "numpy":
            raise
rows_path, clean_path, faulted_path = sys.argv[1:4]
with open(rows_path) as fh:
    rows = json.load(fh)
reg = learn(rows)
with open(clean_path) as fh:
    clean = json.load(fh)
with open(faulted_path) as fh:
    faulted = json.load(fh)
print(json.dumps({
    "registry": reg.to_json(),
    "plain": not relations._numpy_importable(),
    "clean": [v.to_json() for v in reg.check(clean["tool"], clean["arguments"], clean["result"])],
    "faulted": [v.to_json() for v in reg.check(faulted["tool"], faulted["arguments"], faulted["result"])],
}))
"""


def test_learns_and_checks_where_numpy_cannot_be_imported(tmp_path):
    rows = rows_for(7)
    clean = next(row for row in rows if row["tool"] == "place_order")
    faulted = json.loads(json.dumps(clean))
    faulted["result"]["total"] = round(faulted["result"]["total"] + 10.0, 2)  # breaks total == qty * price
    paths = []
    for name, obj in (("rows", rows), ("clean", clean), ("faulted", faulted)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(obj))
    proc = subprocess.run(
        [sys.executable, "-c", _NO_NUMPY, *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["plain"]
    # the same registry this process learns (through numpy when it has it)
    assert json.dumps(out["registry"], sort_keys=True) == _learned(rows, "wide")
    assert out["clean"] == []
    assert {v["rule_class"] for v in out["faulted"]} >= {"relation"}
    assert any("total" in v["rule_id"] for v in out["faulted"])
