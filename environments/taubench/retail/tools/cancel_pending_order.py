"""cancel_pending_order: cancel a pending order and refund every payment-history entry; write.

Side effects: status -> "cancelled", ``cancel_reason`` set, one refund appended per existing
history entry (same amount and method; a previous refund is refunded again, as upstream does),
gift-card refunds credited to the card at once (balance rounded to 2 decimals).
"""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj, string

REASONS = ("no longer needed", "ordered by mistake")


class CancelPendingOrder(Tool):
    name = "cancel_pending_order"
    category = "write"
    description = (
        "Cancel a pending order. Only pending orders can be cancelled; the agent must first list the "
        "order details and obtain the user's explicit confirmation (yes). Refunds to a gift card are "
        "immediate; other refunds take 5 to 7 business days."
    )
    parameters = obj(
        order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."),
        reason=string("The reason for cancellation.", enum=list(REASONS)),
    )

    @staticmethod
    def invoke(db: Any, order_id: Any, reason: Any) -> str:
        if order_id not in db.orders:
            return "Error: order not found"
        if db.orders[order_id]["status"] != "pending":
            return "Error: non-pending order cannot be cancelled"
        if reason not in REASONS:
            return "Error: invalid reason"
        order = db.writable("orders", order_id)
        refunds = []
        for entry in order["payment_history"]:
            method_id = entry["payment_method_id"]
            refunds.append(
                {"transaction_type": "refund", "amount": entry["amount"], "payment_method_id": method_id}
            )
            if "gift_card" in method_id:
                card = db.writable("users", order["user_id"])["payment_methods"][method_id]
                card["balance"] = round(card["balance"] + entry["amount"], 2)
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        order["payment_history"].extend(refunds)
        return dump(order)
