"""Word sets (wide vocabulary only): names built from a closed vocabulary of words keep to it; a
vocabulary still growing keeps no rule."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.text.wordsets import word_params

ADJ = ("Compact", "Red", "Solar", "Smart", "Classic", "Deluxe")
NOUN = ("Speaker", "Lamp", "Drill", "Kettle", "Tent", "Camera")


def _names(n: int, seed: int = 2) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(ADJ)} {rng.choice(NOUN)}" for _ in range(n)]


def _fired(reg: Any, name: str) -> bool:
    return Monitor(reg).annotate("get_product", {"sku": "S1"}, {"sku": "S1", "name": name}).fired


def test_a_name_cut_short_or_from_elsewhere_fires_and_a_new_combination_passes() -> None:
    names = _names(120)
    rows = [
        {"tool": "get_product", "arguments": {"sku": f"S{i}"}, "result": {"sku": f"S{i}", "name": v}}
        for i, v in enumerate(names)
    ]
    reg = learn(rows)
    unseen = next(f"{a} {b}" for a in ADJ for b in NOUN if f"{a} {b}" not in names)
    assert not _fired(reg, unseen)
    assert _fired(reg, "Compa")
    assert _fired(reg, "Smart B")
    assert _fired(reg, "Compact")  # fewer words than any clean name
    assert _fired(reg, "Lorem Ipsum")
    assert not _fired(learn(rows, vocabulary="paper"), "Compa")


def test_guards() -> None:
    assert word_params(_names(120))["least"] == 2
    assert word_params(_names(10)) is None  # too few distinct names
    rng = random.Random(3)
    growing = [f"{rng.choice(ADJ)} Item{i}" for i in range(60)]
    assert word_params([g.replace("Item", "Item ") for g in growing]) is not None  # digits are no words
    # a new surname in every name: words met once, a vocabulary still growing
    open_names = [
        f"{ADJ[i % 6]} {''.join(chr(97 + (i * 7 + k * 3) % 26) for k in range(6)).title()}" for i in range(60)
    ]
    assert word_params(open_names) is None  # words met once: a vocabulary still growing
    assert word_params(["Speaker"] * 40) is None  # one word each: a domain's business
    # cell ranges in formulas: letters are columns, not words (excel-mcp-server's trace_formula)
    formulas = [f"SUM({c}{i}:{c}{i + 9})" for i in range(2, 14) for c in "BDE"]
    assert word_params(formulas) is None


def test_a_word_set_is_in_the_registry_schema(tmp_path: Any) -> None:
    import json

    import pytest
    from outcome_monitor.registry_format import schema

    jsonschema = pytest.importorskip("jsonschema")
    names = _names(120)
    rows = [{"tool": "t", "arguments": {"k": i}, "result": {"name": v}} for i, v in enumerate(names)]
    reg = learn(rows)
    assert any(r.params.get("form") == "words" for r in reg.rules_for("t"))
    reg.save(tmp_path / "r.json")
    jsonschema.validate(json.loads((tmp_path / "r.json").read_text()), schema())
