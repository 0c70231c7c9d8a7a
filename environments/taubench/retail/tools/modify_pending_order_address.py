"""modify_pending_order_address: replace a pending order's shipping address; write."""

from __future__ import annotations

from typing import Any

from environments.taubench.retail.tools._common import ADDRESS_PARAMS, address
from environments.taubench.tools._base import Tool, dump, obj, string


class ModifyPendingOrderAddress(Tool):
    name = "modify_pending_order_address"
    category = "write"
    description = (
        "Change the shipping address of a pending order. The agent must first list the details and "
        "obtain the user's explicit confirmation (yes)."
    )
    parameters = obj(order_id=string("The order id with its '#' prefix, e.g. '#W0000000'."), **ADDRESS_PARAMS)

    @staticmethod
    def invoke(
        db: Any, order_id: Any, address1: Any, address2: Any, city: Any, state: Any, country: Any, zip: Any
    ) -> str:
        if order_id not in db.orders:
            return "Error: order not found"
        if db.orders[order_id]["status"] != "pending":
            return "Error: non-pending order cannot be modified"
        order = db.writable("orders", order_id)
        order["address"] = address(address1, address2, city, state, country, zip)
        return dump(order)
