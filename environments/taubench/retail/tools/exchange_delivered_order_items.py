"""exchange_delivered_order_items: request an exchange of items of a delivered order; write.

Side effects: status -> "exchange requested"; ``exchange_items`` and ``exchange_new_items``
(each sorted), ``exchange_payment_method_id`` and ``exchange_price_difference`` (rounded to 2
decimals) set. No money moves and the items stay as they are; a gift card is checked, not charged.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.retail.tools._common import missing_item, price_difference
from environments.taubench.tools._base import Tool, dump, obj, string, strings


class ExchangeDeliveredOrderItems(Tool):
    name = "exchange_delivered_order_items"
    category = "write"
    description = (
        "Exchange items of a delivered order for other options of the same product type. Can be done "
        "only once per order, so collect every item to exchange first. The agent must first list the "
        "details and obtain the user's explicit confirmation (yes)."
    )
    parameters = obj(
        order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."),
        item_ids=strings("The item ids to exchange, e.g. ['1008292230']; an id may repeat."),
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
        if order["status"] != "delivered":
            return "Error: non-delivered order cannot be exchanged"
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
            return "Error: insufficient gift card balance to pay for the price difference"

        order = db.writable("orders", order_id)
        order["status"] = "exchange requested"
        order["exchange_items"] = sorted(item_ids)
        order["exchange_new_items"] = sorted(new_item_ids)
        order["exchange_payment_method_id"] = payment_method_id
        order["exchange_price_difference"] = round(diff, 2)
        return dump(order)
