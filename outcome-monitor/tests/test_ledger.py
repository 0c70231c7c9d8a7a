"""Guarded, signed ledger relations on synthetic records: mined where they hold (and only there),
checked with their guard, explained in words; merged domains and shared-trail domain widening."""

from __future__ import annotations

import copy
import random

import pytest
from outcome_monitor import Registry
from outcome_monitor.checking.paths import field_getter, net_field, parse_net
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import MISSING
from outcome_monitor.learning.derive import bind_records, from_records
from outcome_monitor.learning.mine import mine_tool

NET = net_field("history", "amount", "kind", "charge", "credit")


def _order(rng: random.Random, i: int, status: str) -> dict:
    items = [
        {"sku": f"S{rng.randrange(100)}", "price": round(rng.uniform(5, 300), 2)}
        for _ in range(rng.randint(1, 4))
    ]
    total = round(sum(it["price"] for it in items), 2)
    history = [{"kind": "charge", "amount": total}]
    if status == "void":
        history.append({"kind": "credit", "amount": total})  # a voided order nets to 0
    elif rng.random() < 0.4:
        # a price change: an extra charge, then a credit of the same size (still balanced)
        bump = round(rng.uniform(1, 20), 2)
        history += [{"kind": "charge", "amount": bump}, {"kind": "credit", "amount": bump}]
    return {"id": f"O{i:04d}", "status": status, "items": items, "history": history}


def _orders(
    n: int = 60, seed: int = 0, statuses: tuple[str, ...] = ("open", "shipped", "void")
) -> list[dict]:
    rng = random.Random(seed)
    return [_order(rng, i, statuses[i % len(statuses)]) for i in range(n)]


def _ledger_rules(rules: list[Rule]) -> dict[str, Rule]:
    return {r.params["form"]: r for r in rules if r.cls == "relation" and r.fields[0] == NET}


def test_net_field_round_trips_and_sums_signed():
    assert parse_net(NET) == ("history", "amount", "kind", "charge", "credit")
    get = field_getter(NET)
    assert get({"history": [{"kind": "charge", "amount": 10.0}, {"kind": "credit", "amount": 2.5}]}) == 7.5
    assert get({"history": []}) == 0
    # a third category, or a non-number, cannot be netted: the getter says nothing
    assert get({"history": [{"kind": "fee", "amount": 1.0}]}) is MISSING
    assert get({"history": [{"kind": "charge", "amount": "1"}]}) is MISSING


def test_ledger_is_mined_with_a_guard_per_partition():
    rules = mine_tool("@orders", [({}, o) for o in _orders()])
    led = _ledger_rules(rules)
    eq, zero = led["eq"], led["const"]
    assert eq.fields == (NET, "sum(items[*].price)")
    assert eq.params["guard"] == {"field": "status", "values": ["open", "shipped"]}
    assert zero.params["c"] == 0 and zero.params["guard"] == {"field": "status", "values": ["void"]}
    assert eq.params["quanta"] == [0.01, 0.01]  # half a cent of tolerance, from the data's cents
    assert 'must equal 0 when status is "void"' in zero.sentence()
    assert '"charge" minus those with kind "credit"' in eq.sentence()


def test_ledger_holding_everywhere_has_no_guard_and_thin_partitions_are_left_out():
    # only open orders: the ledger equals the items' total everywhere, no guard needed
    led = _ledger_rules(mine_tool("@orders", [({}, o) for o in _orders(statuses=("open",))]))
    assert "guard" not in led["eq"].params and "const" not in led
    # three void orders are too few (min_per_category = 4) for the 0 rule to speak for them
    orders = _orders(40, statuses=("open",)) + [_order(random.Random(9), 100 + i, "void") for i in range(3)]
    led = _ledger_rules(mine_tool("@orders", [({}, o) for o in orders]))
    assert "const" not in led
    assert led["eq"].params["guard"]["values"] == ["open"]


def test_no_ledger_without_a_two_valued_sign():
    orders = _orders()
    for o in orders:
        for h in o["history"]:
            h["kind"] = "charge"  # one category: nothing to sign by
    assert not _ledger_rules(mine_tool("@orders", [({}, o) for o in orders]))


@pytest.fixture(scope="module")
def registry() -> Registry:
    rules = from_records({"orders": _orders()})
    return Registry(bind_records(rules["orders"], "get_order"))


def _ledger_violations(reg: Registry, result: dict) -> list:
    return [v for v in reg.check("get_order", {}, result) if v.rule_class == "relation" and "net(" in v.path]


def test_check_holds_violates_and_guard_skips(registry):
    held_out = _orders(30, seed=1)
    assert not any(_ledger_violations(registry, o) for o in held_out)
    open_order = next(o for o in held_out if o["status"] == "open")
    void = next(o for o in held_out if o["status"] == "void")
    # a payment that no longer matches the items
    bad = copy.deepcopy(open_order)
    bad["history"][0]["amount"] = round(bad["history"][0]["amount"] * 1.07, 2)
    (v,) = _ledger_violations(registry, bad)
    assert 'when status is one of "open", "shipped"' in v.sentence and v.expected.startswith("== sum(")
    # a voided order whose credit is short
    short = copy.deepcopy(void)
    short["history"][1]["amount"] -= 1.0
    (v,) = _ledger_violations(registry, short)
    assert v.expected == '== 0 when status is "void"' and abs(v.observed - 1.0) < 1e-9
    # a legitimate 0.0 credit keeps the ledger balanced
    zero = copy.deepcopy(open_order)
    zero["history"].append({"kind": "credit", "amount": 0.0})
    assert not _ledger_violations(registry, zero)
    # an unrounded amount (float noise) is no violation; two cents off is one (tolerance: half a
    # cent for each side of the equation)
    noisy = copy.deepcopy(open_order)
    noisy["history"][0]["amount"] += 1e-11
    assert not _ledger_violations(registry, noisy)
    noisy["history"][0]["amount"] += 0.02
    assert _ledger_violations(registry, noisy)
    # outside the guard (a status the rule has no word on) the broken ledger is not this rule's call
    other = copy.deepcopy(bad)
    other["status"] = "archived"
    assert not _ledger_violations(registry, other)


def test_guard_survives_json_and_closure_equals_generated_plan(registry):
    again = Registry.from_json(registry.to_json())
    at_root = [r for r in registry.rules_for("get_order") if r.context == "$"]
    rng = random.Random(3)
    shifted = caught = 0
    for o in _orders(30, seed=2):
        o = copy.deepcopy(o)
        if rng.random() < 0.5:
            o["history"][0]["amount"] += rng.choice([-5.0, 5.0])
            shifted += 1
        got = [(v.rule_id, v.observed) for v in again.check("get_order", {}, o)]
        assert got == [(v.rule_id, v.observed) for v in registry.check("get_order", {}, o)]
        caught += bool(_ledger_violations(registry, o))
        # the generated plan decides as each rule's own compiled closure does
        closure = []
        for r in at_root:
            vals = dict(o)
            for f in (*r.fields, r.params.get("guard", {}).get("field", "")):
                if f:
                    vals[f] = field_getter(f)(o)
            if r.compile()(vals, {}) is not None:
                closure.append(r.rule_id)
        ids = {r.rule_id for r in at_root}
        assert sorted(closure) == sorted(rid for rid, _ in got if rid in ids)
    assert shifted and caught == shifted


def test_merged_domains_keep_the_union_of_values():
    a = Registry([Rule("t", "domain", "$", ("size",), {"values": ["M", "S"], "nullable": True})])
    b = Registry(
        [Rule("t", "domain", "$", ("size",), {"values": ["L", "M"], "nullable": True}, source="records")]
    )
    m = a.merged(b)
    (r,) = m.rules_for("t")
    assert r.params["values"] == ["L", "M", "S"] and r.source == "traces+records"
    assert not m.check("t", {}, {"size": "L"}) and m.check("t", {}, {"size": "XL"})


def test_a_sampled_domain_yields_to_records_that_show_the_field_open():
    sampled = Registry([Rule("t", "domain", "$", ("kind",), {"values": ["a", "b"], "nullable": True})])
    records = Registry([Rule("t", "type", "$", ("kind",), {"types": ["string"]}, source="records")])
    schema = Registry([Rule("t", "type", "$", ("kind",), {"types": ["string"]}, source="schema")])
    assert not sampled.merged(records).check("t", {}, {"kind": "zz"})
    # a schema's type says nothing about openness: the domain stays
    assert sampled.merged(schema).check("t", {}, {"kind": "zz"})


def test_domains_widen_to_a_catalogs_values_under_the_same_keys():
    rng = random.Random(0)
    sizes = ["S", "M"]
    orders = [
        {
            "id": f"O{i}",
            "status": ["open", "done"][i % 2],
            "items": [
                {"sku": f"K{rng.randrange(9)}", "options": {"size": sizes[rng.randrange(2)]}}
                for _ in range(3)
            ],
        }
        for i in range(40)
    ]
    catalog = [
        {
            "id": f"P{i}",
            "status": "listed",
            "variants": {f"K{i}{j}": {"options": {"size": s}} for j, s in enumerate(["S", "M", "L", "XL"])},
        }
        for i in range(3)
    ]
    rules = from_records({"orders": orders, "products": catalog})
    size = next(r for r in rules["orders"] if r.cls == "domain" and r.fields == ("options.size",))
    assert size.params["values"] == ["L", "M", "S", "XL"] and size.support["widened_from"] == 2
    # one-key fields are not widened by another collection's field of the same name
    status = next(r for r in rules["orders"] if r.cls == "domain" and r.fields == ("status",))
    assert status.params["values"] == ["done", "open"]
