"""Rules over collections: maps keyed by ids are mined over their entries (``$.variants.*``), a
violation names the entry; domains from a database; coverage. (``learn --env`` at a world's own
sources and detection on tau-bench's held-out split: tests/harness/monitor/test_collections_retail.py.)"""

from __future__ import annotations

import copy

from fixtures import rng
from outcome_monitor import Registry, learn
from outcome_monitor.checking.coverage import generalise, path_coverage
from outcome_monitor.checking.paths import KEY, concrete, context_steps, iter_context
from outcome_monitor.learning.derive import from_records
from outcome_monitor.learning.mine import detect_maps


def _catalog(n_products: int = 30, seed: int = 0) -> list[dict]:
    """get_product rows: variants keyed by fresh ids per product (no id recurs), values of one shape."""
    r = rng("test-collections", seed)
    rows = []
    for p in range(n_products):
        variants = {}
        for _ in range(r.randint(1, 6)):
            vid = f"{r.randrange(10**9):09d}"
            variants[vid] = {
                "item_id": vid,
                "price": round(r.uniform(1, 500), 2),
                "available": r.random() < 0.7,
                "options": {"color": r.choice(["red", "blue", "black"]), "size": r.choice(["S", "M", "L"])},
            }
        pid = f"P{p:04d}"
        rows.append(
            {
                "tool": "get_product",
                "arguments": {"product_id": pid},
                "result": {"product_id": pid, "variants": variants},
            }
        )
    return rows


def test_maps_are_recognised_by_shape_and_records_are_not():
    rows = _catalog()
    maps = detect_maps([r["result"] for r in rows])
    assert set(maps) == {"$.variants"}  # product_id / options have few, recurring keys: records
    assert maps["$.variants"] == frozenset()  # no id recurs in 7 results: no rule of its own
    # a record whose fields are optional is not a map: most objects hold most of its keys
    recs = [{"a": 1, "b": "x", "c": [1], **({"d": 2} if i % 2 else {})} for i in range(20)]
    assert detect_maps(recs) == {}
    # values of mixed shapes are not one collection
    mixed = [{f"k{i}_{j}": (j if j % 2 else str(j)) for j in range(3)} for i in range(10)]
    assert detect_maps(mixed) == {}


def test_entries_are_mined_pooled_and_a_violation_names_the_entry():
    rows = _catalog()
    reg = learn(rows)
    ids = {r.rule_id for r in reg.rules_for("get_product")}
    assert "get_product:positive:$.variants.*:price" in ids
    assert f"get_product:echo:$.variants.*:item_id|{KEY}" in ids
    assert "get_product:type:$.variants.*:available" in ids  # both booleans seen: a type rule, no domain
    assert not [i for i in ids if any(c.isdigit() for c in i.split(":")[-1])]  # nothing per id
    # a variant id no clean trace ever held: its negative price and its wrong id are both flagged
    bad = copy.deepcopy(rows[0]["result"])
    bad["variants"]["123456789"] = {"item_id": "987654321", "price": -4.5, "available": True, "options": {}}
    found = reg.check("get_product", rows[0]["arguments"], bad)
    by_rule = {v.rule_id: v for v in found}
    neg = by_rule["get_product:positive:$.variants.*:price"]
    assert neg.path == "$.variants['123456789'].price" and neg.observed == -4.5
    assert "(at $.variants['123456789'].price)" in neg.sentence
    assert f"get_product:echo:$.variants.*:item_id|{KEY}" in by_rule
    assert not reg.check("get_product", rows[0]["arguments"], rows[0]["result"])


def test_context_paths_with_map_entries():
    ctx = "$.a.items[*].variants.*"
    assert context_steps(ctx) == [(["a", "items"], False), (["variants"], True)]
    result = {"a": {"items": [{"variants": {"x": 1, "y": 2}}, {"variants": {"z": 3}}]}}
    assert list(iter_context(result, context_steps(ctx))) == [(1, (0, "x")), (2, (0, "y")), (3, (1, "z"))]
    assert concrete(ctx + ".price", (1, "z")) == "$.a.items[1].variants['z'].price"
    assert concrete("len($.items[*].variants)", (2,)) == "len($.items[2].variants)"


def test_database_domains_are_closed_sets_listed_bounded():
    states = [f"S{i:02d}" for i in range(13)]
    users = {
        f"u{i}": {"user_id": f"u{i}", "address": {"state": states[i % 13], "zip": f"{i:05d}"}}
        for i in range(200)
    }
    rules = from_records({"users": users})["users"]
    dom = next(r for r in rules if r.cls == "domain" and r.fields == ("address.state",))
    assert dom.params["values"] == states  # 13 values: more than a trace sample may hold (10)
    assert not any(r.cls == "domain" and r.fields == ("address.zip",) for r in rules)  # 200 distinct
    reg = Registry([r for r in rules if r.cls == "domain"])
    found = reg.check("@users", {}, {"address": {"state": "ZZ", "zip": "00001"}})
    assert [v.observed for v in found] == ["ZZ"]
    assert found[0].sentence.endswith("(or 3 other known values)") and '"S09"' in found[0].sentence
    assert '"S10"' not in found[0].sentence


def test_a_catalog_value_seen_once_still_belongs_to_the_database_domain():
    # Good-Turing: one singleton among 300 records leaves an estimated unseen mass of 1/300 < 1%
    recs = [{"id": f"r{i}", "color": ["red", "blue", "green"][i % 3]} for i in range(299)]
    recs.append({"id": "r299", "color": "teal"})
    dom = next(r for r in from_records({"things": recs})["things"] if r.cls == "domain")
    assert "teal" in dom.params["values"]
    # ...but from a small sample (clean traces) a singleton still keeps the domain out
    assert not [
        r
        for r in learn(
            [{"tool": "t", "arguments": {"i": i}, "result": rec} for i, rec in enumerate(recs[-20:])]
        ).rules_for("t")
        if r.cls == "domain"
    ]


def test_coverage_names_unread_paths_and_why():
    rows = _catalog()
    rows += [
        {
            "tool": "get_product",
            "arguments": {"product_id": "P9"},
            "result": {"product_id": "P9", "variants": {}, "note": "rare", "weight": 2},
        }
    ]
    reg = learn(rows)
    cov = path_coverage(reg, rows)
    paths = {p.path: p for p in cov.paths}
    assert paths["$.variants.*.price"].value_rule
    assert paths["$.variants.*.options.color"].covered
    # seen once: only the recording's evidence that no field held an HTML page speaks to a string
    assert paths["$.note"].classes == ["text"]
    assert not paths["$.weight"].covered and paths["$.weight"].reason.startswith("too little support")
    assert 0 < cov.share() < 1 and cov.value_share() <= cov.share()
    assert any("no rule      $.weight" in line for line in cov.lines())
    assert (
        generalise("$.variants.123.options.color", {"$.variants": frozenset()})
        == "$.variants.*.options.color"
    )


def test_merging_keeps_the_weaker_sign_rule():
    from outcome_monitor.checking.rules import Rule

    strict = Rule("t", "positive", "$.m.*", ("balance",), {"strict": True}, {}, "traces")
    loose = Rule("t", "positive", "$.m.*", ("balance",), {"strict": False}, {}, "records")
    for a, b in ((strict, loose), (loose, strict)):
        merged = Registry([a]).merged(Registry([b]))
        assert [r.params["strict"] for r in merged.rules_for("t")] == [False]
        assert not merged.check("t", {}, {"m": {"x": {"balance": 0}}})
        assert merged.check("t", {}, {"m": {"x": {"balance": -1}}})[0].path == "$.m['x'].balance"


def test_a_result_that_is_itself_a_map():
    r = rng("test-collections", "root")
    rows = []
    for i in range(20):
        res = {
            f"#W{r.randrange(10**7):07d}": {"total": round(r.uniform(1, 9), 2)}
            for _ in range(r.randint(1, 4))
        }
        for k, v in res.items():
            v["order_id"] = k
        rows.append({"tool": "list_orders", "arguments": {"user": i}, "result": res})
    reg = learn(rows)
    found = reg.check("list_orders", {}, {"#W1": {"order_id": "#W2", "total": -1.0}})
    # the map's entries are one context for every class: the ids' shape (#W and 7 digits) too
    assert [(v.rule_class, v.path) for v in found] == [
        ("positive", "$['#W1'].total"),
        ("echo", "$['#W1'].order_id"),
        ("shape", "$['#W1'].order_id"),
    ]
    assert "the key of its entry in the result" in found[1].sentence


def test_the_entry_an_argument_selects_must_be_there():
    r = rng("test-collections", "select")
    rows = []
    for i in range(20):
        methods = {
            f"pm_{r.randrange(10**6):06d}": {"kind": r.choice(["card", "cash"])}
            for _ in range(r.randint(1, 4))
        }
        for k, v in methods.items():
            v["id"] = k
        chosen = sorted(methods)[r.randrange(len(methods))]
        history = [{"method": chosen, "amount": 5.0}] + [
            {"method": m, "amount": 1.0} for m in sorted(methods)[:1]
        ]
        rows.append(
            {
                "tool": "pay",
                "arguments": {"user": f"u{i}", "method": chosen},
                "result": {"methods": methods, "history": history},
            }
        )
    reg = learn(rows)
    ids = {r.rule_id for r in reg.rules_for("pay")}
    assert "pay:relation:contains:$:keys(methods)|arg.method" in ids
    assert "pay:relation:contains:$:each(history[*].method)|arg.method" in ids
    bad = copy.deepcopy(rows[0]["result"])
    for h in bad["history"]:
        h["method"] = "pm_999999"
    found = reg.check("pay", {"method": "pm_424242"}, rows[0]["result"])
    assert {v.rule_id for v in found} >= {
        "pay:relation:contains:$:keys(methods)|arg.method",
        "pay:relation:contains:$:each(history[*].method)|arg.method",
    }
    assert "methods must hold an entry keyed by the argument method of the call" in {
        v.sentence for v in found
    }
    assert not reg.check("pay", rows[0]["arguments"], rows[0]["result"])


def test_map_entries_agree_with_the_databases_entry_of_the_same_key():
    r = rng("test-collections", "entries")
    users = {}
    for i in range(12):
        methods = {}
        for _ in range(r.randint(1, 3)):
            k = f"card_{r.randrange(10**6):06d}"
            methods[k] = {
                "id": k,
                "brand": r.choice(["visa", "mastercard", "amex"]),
                "balance": r.randint(0, 99),
            }
        users[f"u{i}"] = {"user_id": f"u{i}", "methods": methods}
    # a post-state: one balance spent (balances change; brands do not)
    spent = copy.deepcopy(users["u0"])
    next(iter(spent["methods"].values()))["balance"] = 0
    users["u0~task"] = spent
    rules = from_records({"users": users})["users"]
    lookups = {r.fields[0]: r for r in rules if r.params.get("form") == "lookup" and KEY in r.fields}
    assert set(lookups) == {"brand"}  # balance changes in a post-state; id is the key's own echo
    reg = Registry(rules)
    user = copy.deepcopy(users["u3"])
    key = next(iter(user["methods"]))
    assert not [v for v in reg.check("@users", {}, user) if v.rule_class == "relation"]
    user["methods"][key]["brand"] = next(b for b in ("visa", "amex") if b != user["methods"][key]["brand"])
    found = [v for v in reg.check("@users", {}, user) if v.rule_class == "relation"]
    assert [v.path for v in found] == [f"$.methods['{key}'].brand"]
    assert "users[*].methods[key].brand (the database's entry of the same key)" in found[0].sentence
    user["methods"]["card_new"] = {
        "id": "card_new",
        "brand": "visa",
        "balance": 1,
    }  # an unknown key: no verdict
    assert len([v for v in reg.check("@users", {}, user) if v.rule_class == "relation"]) == 1


def test_a_value_the_call_supplied_is_not_outside_the_domain():
    """A domain learned from results (a database's first names) does not fire on a value the call's own
    arguments carry (a new passenger booked by name); the same value arriving unasked does."""
    from outcome_monitor.checking.rules import Rule

    rule = Rule("book", "domain", "$.passengers[*]", ("first_name",), {"values": ["Mia", "Raj"]}, {})
    reg = Registry([rule])
    result = {"passengers": [{"first_name": "Mia"}, {"first_name": "Zed"}]}
    asked = {"passengers": [{"first_name": "Zed", "last_name": "Q"}]}
    assert reg.check("book", asked, result) == []
    fired = reg.check("book", {"passengers": [{"first_name": "Ann"}]}, result)
    assert [(v.rule_id, v.observed) for v in fired] == [("book:domain:$.passengers[*]:first_name", "Zed")]
    assert reg.check("book", {"n": 1}, {"passengers": [{"first_name": "1"}]}) != []  # "1" is not 1


def test_an_entry_an_argument_selects_is_mined_per_tool_not_pooled():
    """``contains`` (the entry an argument names is in the result) holds on a tool's own support: two
    tools of few calls each do not add up to one rule on either."""
    r = rng("test-contains", 0)
    rows = []
    for tool in ("charge_a", "charge_b"):
        for i in range(5):
            pid = f"pay_{r.randrange(10**6)}"
            rows.append(
                {
                    "tool": tool,
                    "arguments": {"payment_id": pid},
                    "result": {"history": [{"payment_id": pid, "i": i}]},
                }
            )
    assert not [x for rs in learn(rows).rules.values() for x in rs if x.params.get("form") == "contains"]
    more = rows + [
        {
            "tool": "charge_a",
            "arguments": {"payment_id": f"p{i}"},
            "result": {"history": [{"payment_id": f"p{i}"}]},
        }
        for i in range(5)
    ]
    kept = [x.tool for rs in learn(more).rules.values() for x in rs if x.params.get("form") == "contains"]
    assert kept == ["charge_a"]
