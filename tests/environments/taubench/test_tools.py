"""The 16 tools: upstream's error strings in upstream's check order, no mutation on error, side effects."""

from __future__ import annotations

import json

import pytest

from environments.taubench.retail import DOMAIN

TOOLS, execute, specs, to_result = DOMAIN.tools, DOMAIN.execute, DOMAIN.specs, DOMAIN.to_result

ALL_NAMES = {
    "calculate",
    "cancel_pending_order",
    "exchange_delivered_order_items",
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "get_order_details",
    "get_product_details",
    "get_user_details",
    "list_all_product_types",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "modify_user_address",
    "return_delivered_order_items",
    "think",
    "transfer_to_human_agents",
}


@pytest.fixture
def db(env):
    return env.data.base.fresh()


def run(db, name, **kwargs):
    """Run a call; an error result must leave the database exactly as it was."""
    before = db.digest()
    out = execute(db, name, kwargs)
    if out.startswith("Error:") or out.startswith("Unknown action"):
        assert db.digest() == before, f"{name} changed the database although it failed: {out}"
    return out


def orders_with(db, status, pred=lambda o: True):
    return [o for o in db.orders.values() if o["status"] == status and pred(o)]


def methods(db, order, source=None):
    pms = db.users[order["user_id"]]["payment_methods"]
    return [k for k, v in pms.items() if source is None or v["source"] == source]


def other_product_variant(db, item):
    return next(
        v for p in db.products.values() if p["product_id"] != item["product_id"] for v in p["variants"]
    )


def variant(db, item, available=True, other=True):
    vs = db.products[item["product_id"]]["variants"].values()
    return next(
        (
            v["item_id"]
            for v in vs
            if v["available"] is available and (not other or v["item_id"] != item["item_id"])
        ),
        None,
    )


def test_catalogue_and_specs():
    assert set(TOOLS) == ALL_NAMES
    s = specs()
    cats = {n: sp.category for n, sp in s.items()}
    assert cats["transfer_to_human_agents"] == "terminal"
    assert {n for n, c in cats.items() if c == "write"} == {
        "cancel_pending_order",
        "exchange_delivered_order_items",
        "modify_pending_order_address",
        "modify_pending_order_items",
        "modify_pending_order_payment",
        "modify_user_address",
        "return_delivered_order_items",
    }
    for sp in s.values():
        params = sp.parameters
        assert params["type"] == "object" and set(params["required"]) == set(params["properties"])
        assert sp.openai_schema()["function"]["name"] == sp.name
    assert s["cancel_pending_order"].parameters["properties"]["reason"]["enum"] == [
        "no longer needed",
        "ordered by mistake",
    ]
    assert s["modify_pending_order_items"].parameters["properties"]["item_ids"]["type"] == "array"


def test_unknown_tool_and_python_errors(db):
    assert run(db, "refund_everything") == "Unknown action refund_everything"
    assert to_result("refund_everything", "Unknown action refund_everything").status == "error"
    order = orders_with(db, "pending")[0]
    assert run(db, "cancel_pending_order", order_id=order["order_id"]) == (
        "Error: CancelPendingOrder.invoke() missing 1 required positional argument: 'reason'"
    )
    assert run(db, "get_user_details", user_id="x", foo=1) == (
        "Error: GetUserDetails.invoke() got an unexpected keyword argument 'foo'"
    )


def test_lookups(db, raw):
    uid, user = next(iter(raw["users"].items()))
    assert run(db, "find_user_id_by_email", email=user["email"].upper()) == uid
    assert run(db, "find_user_id_by_email", email="no.one0000@example.com") == "Error: user not found"
    name = user["name"]
    zip_ = user["address"]["zip"]
    assert (
        run(
            db,
            "find_user_id_by_name_zip",
            first_name=name["first_name"].lower(),
            last_name=name["last_name"].upper(),
            zip=zip_,
        )
        == uid
    )
    assert (
        run(
            db,
            "find_user_id_by_name_zip",
            first_name=name["first_name"],
            last_name=name["last_name"],
            zip=zip_ + "0",
        )
        == "Error: user not found"
    )
    assert run(db, "get_user_details", user_id="nobody_0000") == "Error: user not found"
    assert run(db, "get_order_details", order_id="#W0") == "Error: order not found"
    assert run(db, "get_product_details", product_id="6086499569") == "Error: product not found"


def test_reads_return_the_record_as_upstream_json(db, raw):
    oid = next(iter(raw["orders"]))
    out = run(db, "get_order_details", order_id=oid)
    assert out == json.dumps(raw["orders"][oid])
    res = to_result("get_order_details", out)
    assert res.status == "ok" and res.content == raw["orders"][oid] and res.text() == out
    listing = json.loads(run(db, "list_all_product_types"))
    assert listing == dict(sorted((p["name"], pid) for pid, p in raw["products"].items()))
    assert list(listing) == sorted(listing) and len(listing) == len(raw["products"])
    assert to_result("find_user_id_by_email", "a_b_1234").content == "a_b_1234"


def test_calculate_think_transfer(db):
    assert run(db, "calculate", expression="(10 + 5) * 2 / 4") == "7.5"
    assert run(db, "calculate", expression="2 + 2") == "4.0"
    assert run(db, "calculate", expression="1 / 3") == "0.33"
    assert run(db, "calculate", expression="2 x 3") == "Error: invalid characters in expression"
    assert run(db, "calculate", expression="1 / 0") == "Error: division by zero"
    assert run(db, "calculate", expression="9 ** 9 ** 9").startswith("Error: exponent")
    assert run(db, "think", thought="hmm") == ""
    assert run(db, "transfer_to_human_agents", summary="help") == "Transfer successful"
    res = to_result("transfer_to_human_agents", "Transfer successful")
    assert res.terminal and res.status == "ok"
    assert to_result("calculate", "4.0").content == "4.0"  # text tools stay text


def test_cancel_checks_in_order_and_effects(db):
    delivered = orders_with(db, "delivered")[0]["order_id"]
    assert run(db, "cancel_pending_order", order_id="#W0000000", reason="bogus") == "Error: order not found"
    assert run(db, "cancel_pending_order", order_id=delivered, reason="bogus") == (
        "Error: non-pending order cannot be cancelled"
    )
    order = orders_with(db, "pending", lambda o: "gift_card" in o["payment_history"][0]["payment_method_id"])[
        0
    ]
    oid, pm = order["order_id"], order["payment_history"][0]["payment_method_id"]
    assert run(db, "cancel_pending_order", order_id=oid, reason="bogus") == "Error: invalid reason"
    balance = db.users[order["user_id"]]["payment_methods"][pm]["balance"]
    amount = order["payment_history"][0]["amount"]
    out = json.loads(run(db, "cancel_pending_order", order_id=oid, reason="ordered by mistake"))
    assert out["status"] == "cancelled" and out["cancel_reason"] == "ordered by mistake"
    assert out["payment_history"][-1] == {
        "transaction_type": "refund",
        "amount": amount,
        "payment_method_id": pm,
    }
    assert db.users[order["user_id"]]["payment_methods"][pm]["balance"] == round(balance + amount, 2)
    assert db.orders[oid] == out
    assert db.base.collections["orders"][oid]["status"] == "pending"  # the base is never written


def test_modify_address(db):
    processed = orders_with(db, "processed")[0]["order_id"]
    addr = {
        "address1": "1 A St",
        "address2": "",
        "city": "X",
        "state": "CA",
        "country": "USA",
        "zip": "00001",
    }
    assert run(db, "modify_pending_order_address", order_id="#W1", **addr) == "Error: order not found"
    assert run(db, "modify_pending_order_address", order_id=processed, **addr) == (
        "Error: non-pending order cannot be modified"
    )
    oid = orders_with(db, "pending")[0]["order_id"]
    out = json.loads(run(db, "modify_pending_order_address", order_id=oid, **addr))
    assert out["address"] == addr and list(out["address"]) == list(addr) and out["status"] == "pending"
    uid = next(iter(db.users))
    assert run(db, "modify_user_address", user_id="nobody_1", **addr) == "Error: user not found"
    user = json.loads(run(db, "modify_user_address", user_id=uid, **addr))
    assert list(user["address"]) == ["address1", "address2", "city", "state", "country", "zip"]


def test_modify_payment_checks_in_order(db):
    delivered = orders_with(db, "delivered")[0]["order_id"]
    assert (
        run(db, "modify_pending_order_payment", order_id="#W1", payment_method_id="x")
        == "Error: order not found"
    )
    assert run(db, "modify_pending_order_payment", order_id=delivered, payment_method_id="x") == (
        "Error: non-pending order cannot be modified"
    )
    order = orders_with(db, "pending", lambda o: len(methods(db, o)) >= 2)[0]
    oid, current = order["order_id"], order["payment_history"][0]["payment_method_id"]
    assert run(db, "modify_pending_order_payment", order_id=oid, payment_method_id="paypal_0000000") == (
        "Error: payment method not found"
    )
    assert run(db, "modify_pending_order_payment", order_id=oid, payment_method_id=current) == (
        "Error: the new payment method should be different from the current one"
    )
    new = next(m for m in methods(db, order) if m != current)
    amount = order["payment_history"][0]["amount"]
    out = (
        json.loads(run(db, "modify_pending_order_payment", order_id=oid, payment_method_id=new))
        if not ("gift_card" in new and db.users[order["user_id"]]["payment_methods"][new]["balance"] < amount)
        else None
    )
    if out is not None:
        assert out["payment_history"][1:] == [
            {"transaction_type": "payment", "amount": amount, "payment_method_id": new},
            {"transaction_type": "refund", "amount": amount, "payment_method_id": current},
        ]
        assert out["status"] == "pending"
        assert run(db, "modify_pending_order_payment", order_id=oid, payment_method_id=current) == (
            "Error: there should be exactly one payment for a pending order"
        )


def test_modify_payment_gift_card_balance(db):
    def poor_card(o):
        pms = db.users[o["user_id"]]["payment_methods"]
        return any(
            v["source"] == "gift_card"
            and v["balance"] < o["payment_history"][0]["amount"]
            and k != o["payment_history"][0]["payment_method_id"]
            for k, v in pms.items()
        )

    order = orders_with(db, "pending", poor_card)[0]
    pms = db.users[order["user_id"]]["payment_methods"]
    card = next(
        k
        for k, v in pms.items()
        if v["source"] == "gift_card" and v["balance"] < order["payment_history"][0]["amount"]
    )
    assert run(db, "modify_pending_order_payment", order_id=order["order_id"], payment_method_id=card) == (
        "Error: insufficient gift card balance to pay for the order"
    )


def test_modify_items_checks_in_order(db):
    delivered = orders_with(db, "delivered")[0]["order_id"]
    kw = {"payment_method_id": "x"}
    assert run(db, "modify_pending_order_items", order_id="#W1", item_ids=[], new_item_ids=[], **kw) == (
        "Error: order not found"
    )
    assert run(db, "modify_pending_order_items", order_id=delivered, item_ids=[], new_item_ids=[], **kw) == (
        "Error: non-pending order cannot be modified"
    )
    order = orders_with(db, "pending", lambda o: variant(db, o["items"][0]) is not None)[0]
    oid, item = order["order_id"], order["items"][0]
    iid = item["item_id"]
    assert run(
        db, "modify_pending_order_items", order_id=oid, item_ids=["0000000000"], new_item_ids=["1"], **kw
    ) == ("Error: 0000000000 not found")
    held = sum(i["item_id"] == iid for i in order["items"])
    assert run(
        db, "modify_pending_order_items", order_id=oid, item_ids=[iid] * (held + 1), new_item_ids=[], **kw
    ) == (f"Error: {iid} not found")
    assert run(db, "modify_pending_order_items", order_id=oid, item_ids=[iid], new_item_ids=[], **kw) == (
        "Error: the number of items to be exchanged should match"
    )
    foreign = other_product_variant(db, item)
    assert run(
        db, "modify_pending_order_items", order_id=oid, item_ids=[iid], new_item_ids=[foreign], **kw
    ) == (f"Error: new item {foreign} not found or available")
    unavailable = variant(db, item, available=False)
    if unavailable:
        assert (
            run(
                db,
                "modify_pending_order_items",
                order_id=oid,
                item_ids=[iid],
                new_item_ids=[unavailable],
                **kw,
            )
            == f"Error: new item {unavailable} not found or available"
        )
    new = variant(db, item)
    assert run(db, "modify_pending_order_items", order_id=oid, item_ids=[iid], new_item_ids=[new], **kw) == (
        "Error: payment method not found"
    )


def test_modify_items_effects_unrounded(db):
    order = orders_with(
        db,
        "pending",
        lambda o: (
            len(o["items"]) >= 2
            and all(variant(db, i) is not None for i in o["items"][:2])
            and methods(db, o, "credit_card") + methods(db, o, "paypal")
        ),
    )[0]
    oid = order["order_id"]
    pm = (methods(db, order, "credit_card") + methods(db, order, "paypal"))[0]
    olds = [i["item_id"] for i in order["items"][:2]]
    news = [variant(db, i) for i in order["items"][:2]]
    diff = 0
    for item, new in zip(order["items"][:2], news, strict=True):
        diff += db.products[item["product_id"]]["variants"][new]["price"] - item["price"]
    out = json.loads(
        run(
            db,
            "modify_pending_order_items",
            order_id=oid,
            item_ids=olds,
            new_item_ids=news,
            payment_method_id=pm,
        )
    )
    assert out["status"] == "pending (item modified)"
    assert out["payment_history"][-1] == {
        "transaction_type": "payment" if diff > 0 else "refund",
        "amount": abs(diff),
        "payment_method_id": pm,
    }
    for item, new in zip(out["items"][:2], news, strict=True):
        v = db.products[item["product_id"]]["variants"][new]
        assert (item["item_id"], item["price"], item["options"]) == (new, v["price"], v["options"])
    assert run(
        db, "modify_pending_order_items", order_id=oid, item_ids=[], new_item_ids=[], payment_method_id=pm
    ) == ("Error: non-pending order cannot be modified")
    assert run(db, "cancel_pending_order", order_id=oid, reason="no longer needed") == (
        "Error: non-pending order cannot be cancelled"
    )


def test_return_checks_in_order_and_effects(db):
    pending = orders_with(db, "pending")[0]["order_id"]
    kw = {"item_ids": ["0000000000"], "payment_method_id": "x"}
    assert run(db, "return_delivered_order_items", order_id="#W1", **kw) == "Error: order not found"
    assert run(db, "return_delivered_order_items", order_id=pending, **kw) == (
        "Error: non-delivered order cannot be returned"
    )
    order = orders_with(
        db,
        "delivered",
        lambda o: any(
            m != o["payment_history"][0]["payment_method_id"] and "gift_card" not in m for m in methods(db, o)
        ),
    )[0]
    oid, original = order["order_id"], order["payment_history"][0]["payment_method_id"]
    other = next(m for m in methods(db, order) if m != original and "gift_card" not in m)
    assert run(db, "return_delivered_order_items", order_id=oid, **kw) == "Error: payment method not found"
    assert run(
        db, "return_delivered_order_items", order_id=oid, item_ids=["0000000000"], payment_method_id=other
    ) == ("Error: payment method should be either the original payment method or a gift card")
    assert (
        run(
            db,
            "return_delivered_order_items",
            order_id=oid,
            item_ids=["0000000000"],
            payment_method_id=original,
        )
        == "Error: some item not found"
    )
    ids = [i["item_id"] for i in order["items"]][::-1]
    history = list(order["payment_history"])
    out = json.loads(
        run(db, "return_delivered_order_items", order_id=oid, item_ids=ids, payment_method_id=original)
    )
    assert out["status"] == "return requested" and out["return_items"] == sorted(ids)
    assert out["return_payment_method_id"] == original and out["payment_history"] == history


def test_exchange_checks_in_order_and_effects(db):
    pending = orders_with(db, "pending")[0]["order_id"]
    kw = {"payment_method_id": "x"}
    assert run(db, "exchange_delivered_order_items", order_id="#W1", item_ids=[], new_item_ids=[], **kw) == (
        "Error: order not found"
    )
    assert run(
        db, "exchange_delivered_order_items", order_id=pending, item_ids=[], new_item_ids=[], **kw
    ) == ("Error: non-delivered order cannot be exchanged")
    order = orders_with(
        db,
        "delivered",
        lambda o: (
            variant(db, o["items"][0]) is not None
            and methods(db, o, "credit_card") + methods(db, o, "paypal")
        ),
    )[0]
    oid, item = order["order_id"], order["items"][0]
    iid = item["item_id"]
    assert (
        run(
            db,
            "exchange_delivered_order_items",
            order_id=oid,
            item_ids=["0000000000"],
            new_item_ids=["1"],
            **kw,
        )
        == "Error: 0000000000 not found"
    )
    assert run(db, "exchange_delivered_order_items", order_id=oid, item_ids=[iid], new_item_ids=[], **kw) == (
        "Error: the number of items to be exchanged should match"
    )
    foreign = other_product_variant(db, item)
    assert run(
        db, "exchange_delivered_order_items", order_id=oid, item_ids=[iid], new_item_ids=[foreign], **kw
    ) == (f"Error: new item {foreign} not found or available")
    new = variant(db, item)
    assert run(
        db, "exchange_delivered_order_items", order_id=oid, item_ids=[iid], new_item_ids=[new], **kw
    ) == ("Error: payment method not found")
    pm = (methods(db, order, "credit_card") + methods(db, order, "paypal"))[0]
    before = json.loads(json.dumps(order))
    out = json.loads(
        run(
            db,
            "exchange_delivered_order_items",
            order_id=oid,
            item_ids=[iid],
            new_item_ids=[new],
            payment_method_id=pm,
        )
    )
    diff = db.products[item["product_id"]]["variants"][new]["price"] - item["price"]
    assert out["status"] == "exchange requested"
    assert (out["exchange_items"], out["exchange_new_items"]) == ([iid], [new])
    assert out["exchange_price_difference"] == round(diff, 2) and out["exchange_payment_method_id"] == pm
    assert out["items"] == before["items"] and out["payment_history"] == before["payment_history"]


def test_exchange_gift_card_checked_not_charged(db):
    def case(o):
        pricier = [
            v
            for i in o["items"]
            for v in db.products[i["product_id"]]["variants"].values()
            if v["available"] and v["price"] > i["price"]
        ]
        return pricier and any(
            db.users[o["user_id"]]["payment_methods"][m]["balance"] < 1e9 for m in methods(db, o, "gift_card")
        )

    order = orders_with(db, "delivered", case)[0]
    card_id = methods(db, order, "gift_card")[0]
    card = db.users[order["user_id"]]["payment_methods"][card_id]
    item = next(
        i
        for i in order["items"]
        if any(
            v["available"] and v["price"] > i["price"]
            for v in db.products[i["product_id"]]["variants"].values()
        )
    )
    new = max(
        (v for v in db.products[item["product_id"]]["variants"].values() if v["available"]),
        key=lambda v: v["price"],
    )
    diff = new["price"] - item["price"]
    out = run(
        db,
        "exchange_delivered_order_items",
        order_id=order["order_id"],
        item_ids=[item["item_id"]],
        new_item_ids=[new["item_id"]],
        payment_method_id=card_id,
    )
    if card["balance"] < diff:
        assert out == "Error: insufficient gift card balance to pay for the price difference"
    else:
        balance = card["balance"]
        assert json.loads(out)["status"] == "exchange requested"
        assert db.users[order["user_id"]]["payment_methods"][card_id]["balance"] == balance
