"""return_delivered_order_items: request a return of items of a delivered order; write.

Side effects: status -> "return requested", ``return_items`` (sorted ids) and
``return_payment_method_id`` set. No money moves.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.retail.tools._common import missing_item
from environments.taubench.tools._base import Tool, dump, obj, string, strings


class ReturnDeliveredOrderItems(Tool):
    name = "return_delivered_order_items"
    category = "write"
    description = (
        "Return some items of a delivered order. The refund goes to the original payment method or an "
        "existing gift card. The agent must first list the details and obtain the user's explicit "
        "confirmation (yes). The user will receive an email about how to return the items."
    )
    parameters = obj(
        order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."),
        item_ids=strings("The item ids to return, e.g. ['1008292230']; an id may repeat."),
        payment_method_id=string(
            "The id of the payment method that receives the refund: the original method or a gift card."
        ),
    )

    @staticmethod
    def invoke(db: Any, order_id: Any, item_ids: Any, payment_method_id: Any) -> str:
        if order_id not in db.orders:
            return "Error: order not found"
        order = db.orders[order_id]
        if order["status"] != "delivered":
            return "Error: non-delivered order cannot be returned"
        if payment_method_id not in db.users[order["user_id"]]["payment_methods"]:
            return "Error: payment method not found"
        if (
            "gift_card" not in payment_method_id
            and payment_method_id != order["payment_history"][0]["payment_method_id"]
        ):
            return "Error: payment method should be either the original payment method or a gift card"
        if missing_item(order, item_ids) is not None:
            return "Error: some item not found"

        order = db.writable("orders", order_id)
        order["status"] = "return requested"
        order["return_items"] = sorted(item_ids)
        order["return_payment_method_id"] = payment_method_id
        return dump(order)
