"""Retail user cards: the identity the instruction gives and one goal per ground-truth write.

Goals are in the user's terms: order ids, product names with option values, payment methods by
kind (and last four digits; a gift card or PayPal id only when the user holds two of that kind),
addresses and reasons as text. Items are never named by item id. Built by one rule from the
ground-truth writes replayed on the public database (the same rule for every split). Knows nothing
about the harness or about agents.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.cards import instruction_key, no_card

WRITES = (
    "cancel_pending_order",
    "modify_pending_order_address",
    "modify_pending_order_payment",
    "modify_pending_order_items",
    "return_delivered_order_items",
    "exchange_delivered_order_items",
    "modify_user_address",
)
READS = (
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "get_user_details",
    "get_order_details",
    "get_product_details",
    "list_all_product_types",
    "calculate",
    "think",
)
ADDRESS = ("address1", "address2", "city", "state", "country", "zip")


def _item(order: dict, item_id: str) -> dict:
    for it in order["items"]:
        if it["item_id"] == item_id:
            return {"product": it["name"], "options": dict(it["options"])}
    raise KeyError(item_id)


def _variant(products: dict, item_id: str) -> dict:
    for p in products.values():
        if item_id in p["variants"]:
            return {"product": p["name"], "options": dict(p["variants"][item_id]["options"])}
    raise KeyError(item_id)


def _payment(user: dict, pm_id: str) -> dict:
    pm = user["payment_methods"][pm_id]
    same = [m for m in user["payment_methods"].values() if m["source"] == pm["source"]]
    out = {"source": pm["source"]}
    if pm["source"] == "credit_card":
        out.update(brand=pm.get("brand"), last_four=pm.get("last_four"))
    elif len(same) > 1:  # several gift cards or PayPal accounts: only the id tells them apart
        out["id"] = pm_id
    return out


def _identity(record: Any, user: dict) -> dict:
    if user["email"].lower() in record.instruction.lower():
        return {"email": user["email"]}
    return {
        "first_name": user["name"]["first_name"],
        "last_name": user["name"]["last_name"],
        "zip": user["address"]["zip"],
    }


def build(env: Any, task_id: str) -> tuple[dict | None, str]:
    """The card of one task, or (None, why there is none)."""
    record = env.record(task_id)
    why = no_card(record, WRITES + READS)
    if why:
        return None, why
    db = env.data.base.fresh()
    domain = env.domain
    user = db.collection("users")[record.user_id]
    goals: list[dict] = []
    for a in record.actions:
        name, kw = a["name"], dict(a["kwargs"])
        if name in WRITES:
            goal: dict[str, Any] = {"action": name}
            try:
                if name == "modify_user_address":
                    goal["address"] = {k: kw[k] for k in ADDRESS}
                else:
                    order = db.collection("orders")[kw["order_id"]]
                    goal["order_id"] = kw["order_id"]
                    if name == "cancel_pending_order":
                        goal["reason"] = kw["reason"]
                    if name == "modify_pending_order_address":
                        goal["address"] = {k: kw[k] for k in ADDRESS}
                    if "item_ids" in kw:
                        goal["items"] = [_item(order, i) for i in kw["item_ids"]]
                    if "new_item_ids" in kw:
                        goal["new_items"] = [
                            _variant(db.collection("products"), i) for i in kw["new_item_ids"]
                        ]
                    if "payment_method_id" in kw:
                        goal["payment"] = _payment(user, kw["payment_method_id"])
            except (KeyError, TypeError) as e:
                return None, f"ground-truth write {name} refers to something missing: {e}"
            goals.append(goal)
        domain.execute(db, name, kw)
    if not goals:
        return None, "no write in the ground truth"
    card = {
        "task_id": task_id,
        "user_id": record.user_id,
        "instruction_sha256": instruction_key(record.instruction),
        "identity": _identity(record, user),
        "goals": goals,
        "unknown": ["item ids", "payment method ids", "order ids the instruction does not give"],
    }
    return card, ""
