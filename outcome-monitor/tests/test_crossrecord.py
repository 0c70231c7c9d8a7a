"""Cross-record contracts from a database: items agree with the catalog record their ids point at,
and ids belong to the record of their owner."""

from __future__ import annotations

import copy
import random

from outcome_monitor import Registry
from outcome_monitor.learning.derive import bind_records, from_records


def _database(seed: int = 0) -> dict:
    rnd = random.Random(seed)
    products = {}
    for p in range(12):
        pid = f"P{p:03d}"
        variants = {
            f"I{p:03d}{v}": {
                "item_id": f"I{p:03d}{v}",
                "price": round(rnd.uniform(5, 500), 2),
                "options": {"size": s, "colour": rnd.choice(["red", "blue", "green"])},
            }
            for v, s in enumerate(["S", "M", "L"])
        }
        products[pid] = {"product_id": pid, "name": f"product {p}", "variants": variants}
    users = {
        f"u{i:03d}": {
            "user_id": f"u{i:03d}",
            "payment_methods": {f"card_{i}{j}": {"id": f"card_{i}{j}"} for j in range(2)},
            "orders": [],
        }
        for i in range(40)
    }
    orders = {}
    for o in range(120):
        uid = f"u{rnd.randrange(40):03d}"
        items = []
        for _ in range(rnd.randint(1, 3)):
            pid = rnd.choice(sorted(products))
            iid = rnd.choice(sorted(products[pid]["variants"]))
            v = products[pid]["variants"][iid]
            items.append(
                {
                    "product_id": pid,
                    "item_id": iid,
                    "name": products[pid]["name"],
                    "price": v["price"],
                    "options": dict(v["options"]),
                }
            )
        oid = f"#O{o:04d}"
        pm = rnd.choice(sorted(users[uid]["payment_methods"]))
        orders[oid] = {
            "order_id": oid,
            "user_id": uid,
            "items": items,
            "payments": [{"method_id": pm, "amount": round(sum(i["price"] for i in items), 2)}],
            "note": rnd.choice(["a", "b", "c", "d", "e", "f", "g", "h"]),
        }
        users[uid]["orders"].append(oid)
    return {"products": products, "users": users, "orders": orders}


def _registry(db: dict) -> Registry:
    rules = from_records(db)
    return Registry(bind_records(rules["orders"], "get_order"), {"source": "database"})


def _cross(reg: Registry) -> dict[tuple[str, tuple[str, ...]], dict]:
    return {
        (r.context, r.fields): r.params
        for r in reg.rules_for("get_order")
        if r.cls == "relation" and r.params.get("form") in ("lookup", "member")
    }


def test_lookups_and_memberships_are_mined_with_their_tables():
    db = _database()
    cross = _cross(_registry(db))
    assert cross[("$.items[*]", ("price", "product_id", "item_id"))]["sub"] == "variants"
    assert ("$.items[*]", ("options", "product_id", "item_id")) in cross
    name = cross[("$.items[*]", ("name", "product_id"))]
    assert name["table"]["P003"] == "product 3" and "sub" not in name
    member = cross[("$", ("each(payments[*].method_id)", "user_id"))]
    assert member["reference"] == "users" and member["table"]["u001"] == ["card_10", "card_11"]
    assert ("$", ("order_id", "user_id")) in cross  # an order is among its user's orders
    assert not any(f[0] == "note" for _, f in cross)  # no lookup for what the referenced records lack


def test_a_relation_that_fails_once_is_not_mined():
    db = _database()
    order = next(iter(db["orders"].values()))
    order["items"][0]["price"] = round(order["items"][0]["price"] + 1, 2)  # one item off its catalog price
    order["payments"][0]["method_id"] = "card_999"  # and one payment with nobody's card
    cross = _cross(_registry(db))
    assert ("$.items[*]", ("price", "product_id", "item_id")) not in cross
    assert ("$", ("each(payments[*].method_id)", "user_id")) not in cross
    assert ("$.items[*]", ("options", "product_id", "item_id")) in cross


def test_violations_name_the_referenced_record_and_survive_a_json_round_trip():
    db = _database()
    reg = Registry.from_json(_registry(db).to_json())
    order = copy.deepcopy(next(iter(db["orders"].values())))
    assert reg.check("get_order", {}, order) == []
    bad = copy.deepcopy(order)
    bad["items"][0]["price"] = round(bad["items"][0]["price"] * 1.1, 2)
    v = [x for x in reg.check("get_order", {}, bad) if x.path == "$.items[0].price"]
    assert v and "products[product_id].variants[item_id].price" in v[0].expected
    other = next(u for u in db["users"] if u != order["user_id"])
    stolen = copy.deepcopy(order)
    stolen["payments"][0]["method_id"] = sorted(db["users"][other]["payment_methods"])[0]
    hits = [x for x in reg.check("get_order", {}, stolen) if "method_id" in x.path]
    assert (
        hits
        and hits[0].observed == stolen["payments"][0]["method_id"]
        and "users[user_id]" in hits[0].sentence
    )
    # an unknown product id is left to the reference rules: the lookup says nothing
    unknown = copy.deepcopy(order)
    unknown["items"][0]["product_id"] = "P999"
    assert not [x for x in reg.check("get_order", {}, unknown) if x.rule_class == "relation"]
