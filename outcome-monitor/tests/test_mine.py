"""Mining: every rule class is learned from synthetic clean traces, learned rules never fire on
their own data, each corruption class fires its intended rule, and vacuous rules are refused."""

from __future__ import annotations

import copy
import math

import fixtures as syn
from outcome_monitor import Registry, learn
from outcome_monitor.learning.mine import mine_tool
from outcome_monitor.registry import learn_schema_only
from outcome_monitor.thresholds import coincidence_floor

TRACES = syn.traces(n_workflows=45, calls_per_workflow=6, seed=0)
REG = learn(TRACES)


def _ids(tool: str) -> set[str]:
    return {r.rule_id for r in REG.rules_for(tool)}


def _first(tool: str) -> dict:
    return next(t for t in TRACES if t["tool"] == tool)


def test_coincidence_floor_is_the_smallest_count_below_the_confidence_limit():
    n = coincidence_floor(0.99, 0.5)
    assert 0.5**n < 0.01 <= 0.5 ** (n - 1)


def test_all_seven_classes_are_learned():
    # the paper's vocabulary is exactly its seven classes; the wide one (the default) adds its own
    assert set(learn(TRACES, vocabulary="paper").counts_by_class()) == {
        "required",
        "type",
        "positive",
        "domain",
        "echo",
        "date_order",
        "relation",
    }


def test_generator_contracts_are_found():
    order = _ids("place_order")
    assert "place_order:relation:product:$:total|arg.quantity|unit_price" in order
    assert "place_order:date_order:$:created|ships" in order
    eqs = {frozenset(r.fields) for r in REG.rules_for("place_order") if r.params.get("form") == "eq"}
    assert frozenset({"n_items", "len(items)"}) in eqs
    assert frozenset({"subtotal", "sum(items[*].amount)"}) in eqs
    assert "place_order:positive:$.items[*]:amount" in order
    assert "get_quote:echo:$:ticker|arg.ticker" in _ids("get_quote")
    affine = [r for r in REG.rules_for("get_weather") if r.params.get("form") == "affine"]
    assert (
        len(affine) == 1
        and math.isclose(affine[0].params["k"], 1.8)
        and math.isclose(affine[0].params["c"], 32)
    )
    dom = [r for r in REG.rules_for("place_order") if r.cls == "domain"]
    assert dom and set(dom[0].params["values"]) == {"pending", "shipped", "delivered"}


def test_learned_rules_never_fire_on_their_training_data():
    assert not [v for t in TRACES for v in REG.check(t["tool"], t["arguments"], t["result"])]


def _fires(tool: str, mutate, rule_class: str) -> bool:
    row = _first(tool)
    result, args = copy.deepcopy(row["result"]), dict(row["arguments"])
    mutate(result, args)
    return rule_class in {v.rule_class for v in REG.check(tool, args, result)}


def test_each_corruption_class_fires_its_rule():
    assert _fires("get_quote", lambda r, a: r.pop("price"), "required")
    assert _fires("get_quote", lambda r, a: r.update(volume="many"), "type")
    assert _fires("get_quote", lambda r, a: r.update(price=-r["price"]), "positive")
    assert _fires("get_quote", lambda r, a: r.update(currency="XXX"), "domain")
    assert _fires("get_quote", lambda r, a: r.update(ticker="ZZZ999"), "echo")
    assert _fires("place_order", lambda r, a: r.update(ships="2024-01-01"), "date_order")
    assert _fires("place_order", lambda r, a: r.update(total=r["total"] * 2 + 1), "relation")
    assert _fires("place_order", lambda r, a: r["items"].append({"sku": "S1", "amount": 3.0}), "relation")
    assert _fires("get_weather", lambda r, a: r.update(fahrenheit=r["fahrenheit"] + 10), "relation")
    assert _fires("place_order", lambda r, a: r["items"][0].update(amount=-1.0), "positive")
    # a cached error page in place of the object breaks the root type
    assert _fires("get_quote", lambda r, a: r.clear(), "required")
    assert REG.check("get_quote", {"ticker": "T001"}, "<html>502 Bad Gateway</html>")[0].rule_class == "type"


def test_violation_carries_path_witness_and_sentence():
    row = _first("place_order")
    bad = copy.deepcopy(row["result"])
    bad["items"][-1]["amount"] = -2.5
    v = [x for x in REG.check("place_order", row["arguments"], bad) if x.rule_class == "positive"][0]
    assert v.path == f"$.items[{len(bad['items']) - 1}].amount"
    assert v.observed == -2.5 and v.expected == "> 0" and v.sentence == "items[*].amount must be positive"


def test_constant_fields_yield_no_vacuous_equalities_or_domains_from_copies():
    ex = [({"x": i}, {"a": 0, "b": 0, "id": f"name-{i}", "x": i, "unit": "USD"}) for i in range(40)]
    rules = mine_tool("t", ex)
    assert not [r for r in rules if r.cls == "relation" and set(r.fields) == {"a", "b"}]
    # ``id`` copies its input one-to-one: not a categorical domain; ``unit`` is a constant domain
    assert not [r for r in rules if r.cls == "domain" and r.fields == ("id",)]
    assert [r for r in rules if r.cls == "domain" and r.fields == ("unit",)]


def test_too_little_evidence_yields_no_rule():
    floor = coincidence_floor()
    few = [({"q": i}, {"p": 1.5 + i}) for i in range(floor - 1)]
    assert not [r for r in mine_tool("t", few) if r.cls == "positive"]
    enough = [({"q": i}, {"p": 1.5 + i}) for i in range(floor)]
    assert [r for r in mine_tool("t", enough) if r.cls == "positive"]


def test_orderings_between_non_overlapping_ranges_are_dropped():
    ex = [({}, {"a": f"2020-01-{i + 1:02d}", "b": f"2030-02-{i + 1:02d}"}) for i in range(20)]
    assert not [r for r in mine_tool("t", ex) if r.cls == "date_order"]
    ex = [({}, {"a": f"2020-01-{i + 1:02d}", "b": f"2020-01-{i + 3:02d}"}) for i in range(20)]
    assert [r for r in mine_tool("t", ex) if r.cls == "date_order"]


def test_equalities_are_reduced_to_a_spanning_set():
    ex = [({"x": i}, {"a": i * 1.5 + 1, "b": i * 1.5 + 1, "c": i * 1.5 + 1}) for i in range(20)]
    eq = [r for r in mine_tool("t", ex) if r.cls == "relation" and r.params["form"] == "eq"]
    assert len(eq) == 2  # a==b and b==c (or equivalent), never also a==c


def test_schema_only_learns_required_and_types_only():
    reg = learn_schema_only(TRACES)
    assert set(reg.counts_by_class()) == {"required", "type"}
    row = _first("get_quote")
    assert not reg.check("get_quote", row["arguments"], {**row["result"], "price": -1.0})
    assert reg.check("get_quote", row["arguments"], {**row["result"], "price": "n/a"})


def test_error_rows_are_skipped():
    bad = [{"tool": "get_quote", "arguments": {}, "result": {"error": "x"}, "status": "error"}] * 50
    assert learn(TRACES + bad).to_json()["tools"] == REG.to_json()["tools"]


def test_sum_of_two_fields_is_learned_and_fires():
    ex = [
        ({"k": i}, {"sub": round(10 + 3.7 * i, 2), "fee": round(1 + (i * 7919 % 13) * 0.31, 2)})
        for i in range(30)
    ]
    for _args, res in ex:
        res["total"] = round(res["sub"] + res["fee"], 2)
    rules = mine_tool("t", ex)
    add = [r for r in rules if r.params.get("form") == "add"]
    assert [(r.fields, r.sentence()) for r in add] == [
        (("total", "fee", "sub"), "total must equal fee + sub")
    ]
    reg = Registry(rules)
    args, res = ex[3]
    assert not reg.check("t", args, res)
    assert "relation" in {v.rule_class for v in reg.check("t", args, {**res, "total": res["total"] + 5})}
