"""Candidate keys are named tuples: read by name, pooled as the plain tuples they replaced."""

from __future__ import annotations

from outcome_monitor.learning.admit import admit
from outcome_monitor.learning.candidates import DOMAIN_CANDIDATE, Candidate, DomainKey, TemplateKey, template
from outcome_monitor.learning.collect import collect
from outcome_monitor.learning.executions import Execution
from outcome_monitor.learning.mine import mine_tool


def test_a_relation_key_names_its_parts():
    key = template("relation", "$.items[*]", ("items[*].total", "items[*].price"), {"form": "eq"})
    assert isinstance(key, TemplateKey)
    assert (key.cls, key.context, key.fields, key.form) == (
        "relation",
        "$.items[*]",
        ("items[*].total", "items[*].price"),
        "eq",
    )
    # the same hash and equality as the tuple it replaced, so pooling and set order stay as they were
    plain = ("relation", "$.items[*]", ("items[*].total", "items[*].price"), ("eq", None, None))
    assert key == plain and hash(key) == hash(plain)


def test_only_relations_have_a_form():
    assert template("type", "$", ("price",), {"types": ["number"]}).form is None
    assert template("positive", "$", ("price",), {"strict": True}).extra == (True,)


def test_domain_evidence_pools_by_leaf_name_across_contexts():
    a = Candidate("t1", DOMAIN_CANDIDATE, "$", ("status",), {"counts": [], "nullable": False}, {"n": 1})
    b = Candidate("t2", DOMAIN_CANDIDATE, "$.orders[*]", ("orders[*].status",), {"counts": []}, {"n": 1})
    assert a.key == b.key == DomainKey(DOMAIN_CANDIDATE, "status")
    assert isinstance(a.key, DomainKey) and a.key.leaf == "status"


def test_a_product_one_tool_holds_is_falsified_by_another_holding_the_fields_densely():
    # admit reads the key's form by name: the other tool's three fields are numbers in every row and
    # its totals are 25 above the product, beyond the tolerance of the quantities' integer rounding step,
    # so it falsifies the template without listing it (Collected.dense)
    prices = (2.55, 4.15, 7.25, 9.99, 12.35, 3.15, 5.55, 8.85)
    rows = [
        ({"q": q}, {"total": round(q * p, 2), "quantity": q, "price": p})
        for q in range(1, 10)
        for p in prices
    ]
    other = [
        ({"q": q}, {"total": round(q * p + 25, 2), "quantity": q, "price": p})
        for q in range(1, 10)
        for p in prices
    ]

    def products(rules: list) -> list:
        return [r for r in rules if r.cls == "relation" and r.params.get("form") == "product"]

    assert products(mine_tool("shop", rows))
    shop, elsewhere = (
        collect("shop", [Execution(a, r) for a, r in rows]),
        collect("other", [Execution(a, r) for a, r in other]),
    )
    assert not any(isinstance(k, TemplateKey) and k.form == "product" for k in elsewhere.falsified)
    assert products(admit([shop])) and not products(admit([shop, elsewhere]))
