"""cancel_reservation: cancel a whole reservation and refund every payment; write.

No policy check (upstream's tool leaves the rules to the agent): each payment-history entry gets a
refund entry with the negated amount and the same method (a refund already there is refunded
again, negated back), then status -> "cancelled". No balance changes: refunds reach the original
methods later, as the policy says.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import RESERVATION_ID
from environments.taubench.tools._base import Tool, dump, obj


class CancelReservation(Tool):
    name = "cancel_reservation"
    category = "write"
    description = (
        "Cancel a whole reservation; every payment is refunded to its original method. The tool checks no "
        "policy: the agent must make sure the cancellation is allowed and confirmed first."
    )
    parameters = obj(reservation_id=RESERVATION_ID)

    @staticmethod
    def invoke(db: Any, reservation_id: Any) -> str:
        if reservation_id not in db.reservations:
            return "Error: reservation not found"
        reservation = db.writable("reservations", reservation_id)
        refunds = [
            {"payment_id": payment["payment_id"], "amount": -payment["amount"]}
            for payment in reservation["payment_history"]
        ]
        reservation["payment_history"].extend(refunds)
        reservation["status"] = "cancelled"
        return dump(reservation)
