"""Seeded random retail calls for clean traces: valid reads of a customer's own records, and invalid calls.

Valid reads: the profile, the customer's orders and the products in them, look-ups by email or by
name and zip (any letter case), the catalogue list, arithmetic over the customer's prices. Invalid
calls fail before any write: unknown ids, a wrong order status, a payment method the customer
lacks, bad expression characters. Knows nothing about monitors.
"""

from __future__ import annotations

import random
from typing import Any

from environments.taubench.db import DB


def _own_orders(db: DB, user_id: str) -> list[str]:
    return [o for o in db.users[user_id]["orders"] if o in db.orders]


def _recase(text: str, r: random.Random) -> str:
    return r.choice([text, text.lower(), text.upper(), text.title()])


def valid_read(db: DB, user_id: str, r: random.Random) -> tuple[str, dict[str, Any]]:
    user = db.users[user_id]
    orders = _own_orders(db, user_id)
    kind = r.choice(["user", "order", "product", "email", "name_zip", "list", "calculate"])
    if kind == "order" and orders:
        return "get_order_details", {"order_id": r.choice(orders)}
    if kind == "product":
        items = [i for o in orders for i in db.orders[o]["items"]]
        pid = r.choice(items)["product_id"] if items and r.random() < 0.8 else r.choice(sorted(db.products))
        return "get_product_details", {"product_id": pid}
    if kind == "email":
        return "find_user_id_by_email", {"email": _recase(user["email"], r)}
    if kind == "name_zip":
        name = user["name"]
        return "find_user_id_by_name_zip", {
            "first_name": _recase(name["first_name"], r),
            "last_name": _recase(name["last_name"], r),
            "zip": user["address"]["zip"],
        }
    if kind == "list":
        return "list_all_product_types", {}
    if kind == "calculate":
        prices = [i["price"] for o in orders for i in db.orders[o]["items"]] or [r.randint(1, 999) / 4]
        a, b = r.choice(prices), r.choice(prices)
        return "calculate", {
            "expression": r.choice([f"{a} + {b}", f"{a} - {b}", f"{a} * 0.9", f"({a} + {b}) / 2"])
        }
    return "get_user_details", {"user_id": user_id}


def invalid_call(db: DB, user_id: str, r: random.Random) -> tuple[str, dict[str, Any]]:
    orders = _own_orders(db, user_id)
    not_pending = [o for o in orders if db.orders[o]["status"] != "pending"]
    not_delivered = [o for o in orders if db.orders[o]["status"] != "delivered"]
    kind = r.choice(["order", "user", "product", "email", "cancel", "return", "payment", "calculate"])
    if kind == "cancel" and not_pending:
        return "cancel_pending_order", {"order_id": r.choice(not_pending), "reason": "no longer needed"}
    if kind == "return" and not_delivered:
        order = db.orders[r.choice(not_delivered)]
        return "return_delivered_order_items", {
            "order_id": order["order_id"],
            "item_ids": [order["items"][0]["item_id"]],
            "payment_method_id": order["payment_history"][0]["payment_method_id"],
        }
    if kind == "payment" and orders:
        return "modify_pending_order_payment", {
            "order_id": r.choice(orders),
            "payment_method_id": _absent(
                lambda: f"{r.choice(['gift_card', 'credit_card', 'paypal'])}_{r.randint(0, 9_999_999):07d}",
                db.users[user_id]["payment_methods"],
            ),
        }
    if kind == "user":
        return "get_user_details", {
            "user_id": _absent(lambda: f"{user_id.rsplit('_', 1)[0]}_{r.randint(0, 9999):04d}", db.users)
        }
    if kind == "product":
        return "get_product_details", {
            "product_id": _absent(lambda: f"{r.randint(0, 9_999_999_999):010d}", db.products)
        }
    if kind == "email":
        return "find_user_id_by_email", {"email": f"nobody{r.randint(0, 9999):04d}@example.org"}
    if kind == "calculate":
        return "calculate", {"expression": r.choice(["2 x 3", "sqrt(4)", "1/0", "10 % 3"])}
    return "get_order_details", {"order_id": _absent(lambda: f"#W{r.randint(0, 9_999_999):07d}", db.orders)}


def _absent(draw: Any, existing: Any) -> str:
    for _ in range(100):
        value = draw()
        if value not in existing:
            return value
    raise RuntimeError("could not draw an absent id")  # never with these id spaces
