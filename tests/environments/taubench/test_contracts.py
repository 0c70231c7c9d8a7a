"""Contracts from train (traces + database): the legitimate oddities of held-out results do not fire."""

from __future__ import annotations

import copy

import pytest


@pytest.fixture(scope="module")
def registry(env):
    from environments.registry import get_plugin
    from harness.monitor.derive import bind_records, from_records
    from harness.monitor.registry import Registry, learn

    plugin = get_plugin("taubench")
    db = plugin.database(env, split="train")
    rules = from_records(db.collections)
    bound = [r for tool, places in sorted(db.bindings.items()) for coll, ctx in places
             for r in bind_records(rules[coll], tool, ctx)]
    return learn(list(plugin.clean_traces(env, split="train"))).merged(Registry(bound, {"source": "database"}))


@pytest.fixture(scope="module")
def held_out(env):
    from environments.registry import get_plugin

    plugin = get_plugin("taubench")
    return [r for s in ("test", "dev") for r in plugin.clean_traces(env, split=s)
            if r["status"] == "ok" and isinstance(r["result"], dict)]


def _fires_on(registry, row, needle: str) -> list:
    return [v for v in registry.check(row["tool"], row["arguments"], row["result"]) if needle in v.path]


def test_oddities_do_not_fire(registry, held_out, env):
    gift = [r for r in held_out if r["tool"] == "get_user_details"
            and any(m.get("balance", 0) > 100 for m in r["result"]["payment_methods"].values())]
    unrounded = [r for r in held_out if r["tool"] == "get_order_details"
                 and any(round(p["amount"], 2) != p["amount"] for p in r["result"]["payment_history"])]
    assert gift and unrounded  # the held-out results do contain them
    assert not any(_fires_on(registry, r, "balance") for r in gift)
    assert not any(_fires_on(registry, r, "payment_history") for r in unrounded)
    # a 0.0 refund (what modifying an item to a variant of the same price writes: the ledger still
    # balances) and another shipping address, made from clean results
    order = next(r for r in held_out if r["tool"] == "get_order_details" and r["result"]["status"] == "cancelled")
    for status in ("cancelled", "pending"):
        base = next(r for r in held_out if r["tool"] == "get_order_details" and r["result"]["status"] == status)
        zero = copy.deepcopy(base)
        first = zero["result"]["payment_history"][0]
        zero["result"]["payment_history"].append({**first, "transaction_type": "refund", "amount": 0.0})
        assert not _fires_on(registry, zero, "payment_history"), status
    moved = copy.deepcopy(order)
    other = next(u for u in env.data.base.collections["users"].values() if u["address"] != order["result"]["address"])
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
    from environments.seeding import rng
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
