"""modify_pending_order_items: swap items of a pending order for other variants of the same products; write.

Side effects: one transaction for the unrounded price difference (a "payment" when it is above 0,
else a "refund" of its absolute value, 0.0 included) via the given method; a gift card's balance
moves by the difference (rounded); each item, taken as the first with its id, gets the new
variant's id, price and options; status -> "pending (item modified)", which allows no further
change.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.retail.tools._common import first_item, missing_item, price_difference
from environments.taubench.tools._base import Tool, dump, obj, string, strings


class ModifyPendingOrderItems(Tool):
    name = "modify_pending_order_items"
    category = "write"
    description = (
        "Modify items of a pending order to other options of the same product type. Can be done only "
        "once per order, so collect every item to change first. The agent must first list the "
        "details and obtain the user's explicit confirmation (yes)."
    )
    parameters = obj(
        order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."),
        item_ids=strings("The item ids to modify, e.g. ['1008292230']; an id may repeat."),
        new_item_ids=strings(
            "The new item ids, one per item id above and in the same order, each a variant of the same product."
        ),
        payment_method_id=string(
            "The id of the payment method that pays or receives the price difference, e.g. 'gift_card_0000000'."
        ),
    )

    @staticmethod
    def invoke(db: Any, order_id: Any, item_ids: Any, new_item_ids: Any, payment_method_id: Any) -> str:
        if order_id not in db.orders:
            return "Error: order not found"
        order = db.orders[order_id]
        if order["status"] != "pending":
            return "Error: non-pending order cannot be modified"
        missing = missing_item(order, item_ids)
        if missing is not None:
            return f"Error: {missing} not found"
        if len(item_ids) != len(new_item_ids):
            return "Error: the number of items to be exchanged should match"
        diff, error = price_difference(db, order, item_ids, new_item_ids)
        if error:
            return error
        methods = db.users[order["user_id"]]["payment_methods"]
        if payment_method_id not in methods:
            return "Error: payment method not found"
        if (
            methods[payment_method_id]["source"] == "gift_card"
            and methods[payment_method_id]["balance"] < diff
        ):
            return "Error: insufficient gift card balance to pay for the new item"

        order = db.writable("orders", order_id)
        order["payment_history"].append(
            {
                "transaction_type": "payment" if diff > 0 else "refund",
                "amount": abs(diff),
                "payment_method_id": payment_method_id,
            }
        )
        if methods[payment_method_id]["source"] == "gift_card":
            card = db.writable("users", order["user_id"])["payment_methods"][payment_method_id]
            card["balance"] = round(card["balance"] - diff, 2)
        for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
            item = first_item(order, item_id)
            variant = db.products[item["product_id"]]["variants"][new_item_id]
            item["item_id"] = new_item_id
            item["price"] = variant["price"]
            item["options"] = dict(variant["options"])  # a copy: never alias the catalog
        order["status"] = "pending (item modified)"
        return dump(order)
