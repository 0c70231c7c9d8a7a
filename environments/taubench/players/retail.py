"""The retail plan of the scripted agents: authenticate, read, resolve ids from names and options, confirm, write.

Each request: the user's identity and one goal in product names and option values (``REQUEST``
line). The agent finds the user id (by email, or name and zip), reads the user and the order (and
the products for new items), resolves item and payment ids, asks the user to confirm, then writes.
An order status that forbids the goal ends it ("cannot"), unless the order read is not believed
(``flagged``: then the write tool, which checks the stored record, decides). The skeptic knows the
four order statuses the policy names (pending, processed, delivered, cancelled) by name, and what
its own writes reported; any other status is implausible to it. Knows nothing about the harness,
the database or the ground truth.
"""

from __future__ import annotations

import json
from typing import Any

from environments.taubench.players._base import Turn, text

KNOWN_STATUSES = ("pending", "processed", "delivered", "cancelled")
WRITES = frozenset(
    (
        "cancel_pending_order",
        "modify_pending_order_address",
        "modify_pending_order_payment",
        "modify_pending_order_items",
        "return_delivered_order_items",
        "exchange_delivered_order_items",
        "modify_user_address",
    )
)
NEEDS = {
    "cancel_pending_order": "pending",
    "modify_pending_order_address": "pending",
    "modify_pending_order_payment": "pending",
    "modify_pending_order_items": "pending",
    "return_delivered_order_items": "delivered",
    "exchange_delivered_order_items": "delivered",
}
GREETING = "Hello! Could you give me your email, or your name and zip code, and what you need?"
STATUS_FIELD = "status"


def odd(tool: str, result: Any, seen: frozenset[str]) -> bool:
    """An order status outside the four the policy names and those this conversation's writes reported."""
    return (
        tool == "get_order_details"
        and isinstance(result, dict)
        and result.get("status") not in KNOWN_STATUSES + tuple(seen)
    )


def plan(t: Turn) -> dict:
    req = t.req
    assert req is not None
    user_id = next(
        (
            c["result"]
            for c in reversed(t.calls)
            if c["name"].startswith("find_user_id")
            and isinstance(c["result"], str)
            and not c["result"].startswith("Error")
        ),
        None,
    )
    if user_id is None:
        if [c for c in t.seg if c["name"].startswith("find_user_id")]:
            return text("I cannot find your account with those details. Is there anything else?")
        ident = req["identity"]
        if "email" in ident:
            return t.call("find_user_id_by_email", {"email": ident["email"]})
        return t.call("find_user_id_by_name_zip", dict(ident))
    action = req["action"]
    reads: list[tuple[str, dict]] = [("get_user_details", {"user_id": user_id})]
    if "order_id" in req:
        reads.append(("get_order_details", {"order_id": req["order_id"]}))
    views: dict[str, Any] = {}
    flagged: set[str] = set()
    note = ""
    for name, args in reads:
        got = t.read(name, args)
        if isinstance(got, dict):
            return got
        view, bad, extra = got
        note += extra
        if bad == "abandon":
            return text(f"{note}I'm sorry, I cannot rely on our records right now. Is there anything else?")
        views[name] = view
        if bad:
            flagged.add(name)
    order = views.get("get_order_details")
    if "order_id" in req:
        if not isinstance(order, dict):
            return text(f"{note}I cannot find order {req['order_id']}. Is there anything else?")
        if order.get("user_id") not in (None, user_id):
            return text(
                f"{note}Order {req['order_id']} is not on your account, so I cannot change it. "
                "Is there anything else?"
            )
        status = order.get("status")
        if action in NEEDS and status != NEEDS[action] and "get_order_details" not in flagged:
            return text(
                f"{note}I'm sorry, order {req['order_id']} is {status}, so I cannot do that. Is there anything else?"
            )
    products: dict[str, Any] = {}
    for new in req.get("new_items", []):
        pid = next(
            (it["product_id"] for it in (order or {}).get("items", []) if it["name"] == new["product"]),
            None,
        )
        if pid is None:
            return text(f"{note}I cannot find {new['product']} in that order. Is there anything else?")
        if pid not in products:
            got = t.read("get_product_details", {"product_id": pid})
            if isinstance(got, dict):
                return got
            products[pid] = got[0]
    args = resolve(req, user_id, views.get("get_user_details"), order, products)
    if isinstance(args, str):
        return text(f"{note}I'm sorry, {args}. Is there anything else?")
    return confirm_and_write(t, action, args, note)


def confirm_and_write(t: Turn, action: str, args: dict, note: str) -> dict:
    """Report a write already made; else ask for confirmation once; else make the write."""
    wrote = [c for c in t.seg if c["name"] == action]
    if wrote:
        res = wrote[-1]["result"]
        if isinstance(res, str) and res.startswith("Error"):
            return text(f"Sorry, that did not work ({res}). Is there anything else?")
        return text("Done: your request is complete. Is there anything else I can help you with?")
    if not t.asked("Please confirm"):
        return text(
            f"{note}Please confirm: I will call {action} with {json.dumps(args, sort_keys=True)}. "
            "Shall I proceed (yes/no)?"
        )
    return t.call(action, args, note)


def resolve(req: dict, user_id: str, user: Any, order: Any, products: dict) -> dict | str:
    action = req["action"]
    addr = ("address1", "address2", "city", "state", "country", "zip")
    if action == "modify_user_address":
        return {"user_id": user_id, **{k: req["address"][k] for k in addr}}
    args: dict[str, Any] = {"order_id": req["order_id"]}
    if action == "cancel_pending_order":
        args["reason"] = req["reason"]
    if action == "modify_pending_order_address":
        args.update({k: req["address"][k] for k in addr})
    if "items" in req:
        items = list((order or {}).get("items", []))
        pool, ids = list(items), []
        for want in req["items"]:

            def same(it: dict, want: dict = want) -> bool:
                return it.get("name") == want["product"] and it.get("options") == want["options"]

            hit = next((it for it in pool if same(it)), None) or next((it for it in items if same(it)), None)
            if hit is None:
                return f"I cannot find the {want['product']} you describe in order {req['order_id']}"
            if hit in pool:
                pool.remove(hit)
            ids.append(hit["item_id"])
        args["item_ids"] = ids
    if "new_items" in req:
        new_ids = []
        for want in req["new_items"]:
            prod = next(
                (p for p in products.values() if isinstance(p, dict) and p.get("name") == want["product"]),
                None,
            )
            hit = next(
                (
                    vid
                    for vid, v in (prod or {}).get("variants", {}).items()
                    if v.get("options") == want["options"]
                ),
                None,
            )
            if hit is None:
                return f"I cannot find a {want['product']} with those options"
            new_ids.append(hit)
        args["new_item_ids"] = new_ids
    if "payment" in req:
        pay = req["payment"]
        methods = (user or {}).get("payment_methods", {}) if isinstance(user, dict) else {}
        hit = pay.get("id") or next(
            (
                pid
                for pid, pm in methods.items()
                if pm.get("source") == pay["source"]
                and (pay["source"] != "credit_card" or pm.get("last_four") == pay.get("last_four"))
            ),
            None,
        )
        if hit is None:
            return "I cannot find that payment method on your account"
        args["payment_method_id"] = hit
    return args
