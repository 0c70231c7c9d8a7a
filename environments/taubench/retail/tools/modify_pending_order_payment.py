"""modify_pending_order_payment: pay a pending order with another of the user's methods; write.

Side effects: appends a payment of the first payment's amount via the new method and a refund of
it via the old one; a new gift card is charged, an old gift card credited (balances rounded to 2
decimals). The status stays "pending".
"""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj, string


class ModifyPendingOrderPayment(Tool):
    name = "modify_pending_order_payment"
    category = "write"
    description = (
        "Change the payment method of a pending order. The agent must first list the details and "
        "obtain the user's explicit confirmation (yes)."
    )
    parameters = obj(
        order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."),
        payment_method_id=string(
            "The id of one of the user's payment methods, e.g. 'gift_card_0000000' or 'credit_card_0000000'."
        ),
    )

    @staticmethod
    def invoke(db: Any, order_id: Any, payment_method_id: Any) -> str:
        if order_id not in db.orders:
            return "Error: order not found"
        order = db.orders[order_id]
        if order["status"] != "pending":
            return "Error: non-pending order cannot be modified"
        methods = db.users[order["user_id"]]["payment_methods"]
        if payment_method_id not in methods:
            return "Error: payment method not found"
        history = order["payment_history"]
        if len(history) > 1 or history[0]["transaction_type"] != "payment":
            return "Error: there should be exactly one payment for a pending order"
        old_id = history[0]["payment_method_id"]
        if old_id == payment_method_id:
            return "Error: the new payment method should be different from the current one"
        amount = history[0]["amount"]
        if (
            methods[payment_method_id]["source"] == "gift_card"
            and methods[payment_method_id]["balance"] < amount
        ):
            return "Error: insufficient gift card balance to pay for the order"

        order = db.writable("orders", order_id)
        order["payment_history"].extend(
            [
                {"transaction_type": "payment", "amount": amount, "payment_method_id": payment_method_id},
                {"transaction_type": "refund", "amount": amount, "payment_method_id": old_id},
            ]
        )
        methods = db.writable("users", order["user_id"])["payment_methods"]
        if methods[payment_method_id]["source"] == "gift_card":
            card = methods[payment_method_id]
            card["balance"] = round(card["balance"] - amount, 2)
        if "gift_card" in old_id:
            card = methods[old_id]
            card["balance"] = round(card["balance"] + amount, 2)
        return dump(order)
