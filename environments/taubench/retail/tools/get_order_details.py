"""get_order_details: an order record (items, status, fulfillments, payment history); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj, string


class GetOrderDetails(Tool):
    name = "get_order_details"
    category = "read"
    description = "Get an order's details: status, address, items, fulfillments and payment history."
    parameters = obj(order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."))

    @staticmethod
    def invoke(db: Any, order_id: Any) -> str:
        if order_id in db.orders:
            return dump(db.orders[order_id])
        return "Error: order not found"
