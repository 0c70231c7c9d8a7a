"""Contracts from train (traces + database): the legitimate oddities of held-out results do not fire."""

from __future__ import annotations

import copy

import pytest


@pytest.fixture(scope="module")
def registry(env):
    from outcome_monitor.learning.derive import bind_records, from_records
    from outcome_monitor.registry import Registry, learn

    from core.worlds import get_plugin

    plugin = get_plugin("taubench")
    db = plugin.database(env, split="train")
    rules = from_records(db.collections)
    bound = [
        r
        for tool, places in sorted(db.bindings.items())
        for coll, ctx in places
        for r in bind_records(rules[coll], tool, ctx)
    ]
    return learn(list(plugin.clean_traces(env, split="train"))).merged(
        Registry(bound, {"source": "database"})
    )


@pytest.fixture(scope="module")
def held_out(env):
    from core.worlds import get_plugin

    plugin = get_plugin("taubench")
    return [
        r
        for s in ("test", "dev")
        for r in plugin.clean_traces(env, split=s)
        if r["status"] == "ok" and isinstance(r["result"], dict)
    ]


def _fires_on(registry, row, needle: str) -> list:
    return [v for v in registry.check(row["tool"], row["arguments"], row["result"]) if needle in v.path]


def test_oddities_do_not_fire(registry, held_out, env):
    gift = [
        r
        for r in held_out
        if r["tool"] == "get_user_details"
        and any(m.get("balance", 0) > 100 for m in r["result"]["payment_methods"].values())
    ]
    unrounded = [
        r
        for r in held_out
        if r["tool"] == "get_order_details"
        and any(round(p["amount"], 2) != p["amount"] for p in r["result"]["payment_history"])
    ]
    assert gift and unrounded  # the held-out results do contain them
    assert not any(_fires_on(registry, r, "balance") for r in gift)
    assert not any(_fires_on(registry, r, "payment_history") for r in unrounded)
    # a 0.0 refund (what modifying an item to a variant of the same price writes: the ledger still
    # balances) and another shipping address, made from clean results
    order = next(
        r for r in held_out if r["tool"] == "get_order_details" and r["result"]["status"] == "cancelled"
    )
    for status in ("cancelled", "pending"):
        base = next(
            r for r in held_out if r["tool"] == "get_order_details" and r["result"]["status"] == status
        )
        zero = copy.deepcopy(base)
        first = zero["result"]["payment_history"][0]
        zero["result"]["payment_history"].append({**first, "transaction_type": "refund", "amount": 0.0})
        assert not _fires_on(registry, zero, "payment_history"), status
    moved = copy.deepcopy(order)
    other = next(
        u for u in env.data.base.collections["users"].values() if u["address"] != order["result"]["address"]
    )
    moved["result"]["address"] = dict(other["address"])
    assert not _fires_on(registry, moved, "address")


def test_status_fault_fires_and_clean_status_does_not(registry, held_out):
    orders = [r for r in held_out if r["tool"] == "get_order_details"]
    assert not any(_fires_on(registry, r, "status") for r in orders)
    bad = copy.deepcopy(orders[0])
    bad["result"]["status"] = "pending_unknown"
    assert _fires_on(registry, bad, "status")


def test_clean_fire_rate_is_under_one_percent(registry, held_out):
    fired = [r for r in held_out if registry.check(r["tool"], r["arguments"], r["result"])]
    assert len(held_out) > 500
    assert len(fired) <= len(held_out) // 100


def test_conservation_fault_is_flagged_on_held_out_orders(registry, held_out):
    """The paper's conservation fault (a payment no longer matching the items' total), applied by
    the fault library's class to every held-out order it can touch, is flagged on >= 95% of them;
    open and cancelled orders both take part (the ledger nets to the items or to 0)."""
    from core.seeding import rng
    from harness.faults.classes import field_filter, get_class

    fc = get_class("broken_relation")
    touched, flagged, statuses = 0, 0, set()
    for i, r in enumerate(x for x in held_out if x["tool"] == "get_order_details"):
        content = copy.deepcopy(r["result"])
        paths = field_filter(fc.eligible(content, r["arguments"], None), "payment_history")
        if not paths:
            continue
        touched += 1
        statuses.add(r["result"]["status"])
        applied = fc.apply(content, paths[0], r["arguments"], rng(0, "conservation", i), {})
        flagged += bool(_fires_on(registry, {**r, "result": applied.content}, "payment_history"))
    assert touched >= 100 and {"cancelled", "pending"} <= statuses
    assert flagged >= 0.95 * touched


def _orders(held_out):
    return [r for r in held_out if r["tool"] == "get_order_details" and r["result"]["items"]]


def test_item_catalog_agreement_is_enforced(registry, held_out, env):
    """An item that no longer matches its catalog variant (a drifted price, another variant's
    options, another product's name) is flagged on every held-out order it touches; an item that
    is a real, other variant of the product (ids, options and price moved together) is not."""
    products = env.data.base.collections["products"]
    orders = _orders(held_out)
    assert len(orders) > 100
    other_name = {pid: next(p["name"] for q, p in products.items() if q != pid) for pid in products}
    swapped = 0
    for r in orders:
        item = r["result"]["items"][0]
        variants = products[item["product_id"]]["variants"]
        for change, needle in (
            (lambda it: it.update(price=round(it["price"] * 1.1, 2)), "price"),
            (lambda it: it.update(price=round(it["price"] + 0.01, 2)), "price"),
            (lambda it: it.update(name=other_name[it["product_id"]]), "name"),
        ):
            bad = copy.deepcopy(r)
            change(bad["result"]["items"][0])
            assert _fires_on(registry, bad, needle), (r["arguments"], needle)
        other = next((v for k, v in sorted(variants.items()) if v["options"] != item["options"]), None)
        if other is None:
            continue
        swapped += 1
        bad = copy.deepcopy(r)
        bad["result"]["items"][0]["options"] = dict(
            other["options"]
        )  # the tau2 bug: options of another variant
        assert _fires_on(registry, bad, "options"), r["arguments"]
        moved = copy.deepcopy(r)
        moved["result"]["items"][0].update(
            item_id=other["item_id"], options=dict(other["options"]), price=other["price"]
        )
        assert not _fires_on(registry, moved, "items"), r["arguments"]
    assert swapped > 100


def test_payment_method_ownership_is_enforced(registry, held_out, env):
    """A transaction paid with another user's payment method is flagged; the owner's other methods
    are not."""
    users = env.data.base.collections["users"]
    strangers = sorted(users)
    flagged = touched = 0
    for i, r in enumerate(_orders(held_out)):
        owner = r["result"]["user_id"]
        other = next(u for u in strangers[i % len(strangers) :] + strangers if u != owner)
        bad = copy.deepcopy(r)
        bad["result"]["payment_history"][0]["payment_method_id"] = sorted(users[other]["payment_methods"])[0]
        touched += 1
        flagged += bool(_fires_on(registry, bad, "payment_method_id"))
        own = sorted(users[owner]["payment_methods"])
        fine = copy.deepcopy(r)
        fine["result"]["payment_history"][0]["payment_method_id"] = own[-1]
        assert not _fires_on(registry, fine, "payment_method_id")
    assert touched > 100 and flagged == touched
