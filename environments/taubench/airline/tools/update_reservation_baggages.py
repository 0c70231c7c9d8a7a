"""update_reservation_baggages: set a reservation's checked bags and charge the new paid ones; write.

The charge is 50 per paid bag above the paid bags already in the reservation (never negative; the
tool does not stop a removal). Checks in upstream's order: the reservation exists; the payment
method is the reservation owner's; it is no certificate; a gift card covers the charge. Then the
bag counts are set, a gift card debited, and a non-zero charge appended to the payment history.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import PAYMENT_ID, RESERVATION_ID, payment_error
from environments.taubench.tools._base import Tool, dump, obj


class UpdateReservationBaggages(Tool):
    name = "update_reservation_baggages"
    category = "write"
    description = (
        "Update the checked bags of a reservation (total and paid); new paid bags cost 50 each, charged to "
        "the payment method given. The agent must first list the details and obtain the user's explicit "
        "confirmation (yes)."
    )
    parameters = obj(
        reservation_id=RESERVATION_ID,
        total_baggages={"type": "integer", "description": "The new total number of checked bags."},
        nonfree_baggages={"type": "integer", "description": "The new number of paid checked bags."},
        payment_id=PAYMENT_ID,
    )

    @staticmethod
    def invoke(
        db: Any, reservation_id: Any, total_baggages: Any, nonfree_baggages: Any, payment_id: Any
    ) -> str:
        if reservation_id not in db.reservations:
            return "Error: reservation not found"
        reservation = db.reservations[reservation_id]
        charge = 50 * max(0, nonfree_baggages - reservation["nonfree_baggages"])
        owner = reservation["user_id"]
        if payment_id not in db.users[owner]["payment_methods"]:
            return "Error: payment method not found"
        error = payment_error(db.users[owner]["payment_methods"][payment_id], charge)
        if error:
            return error
        reservation = db.writable("reservations", reservation_id)
        reservation["total_baggages"] = total_baggages
        reservation["nonfree_baggages"] = nonfree_baggages
        if db.users[owner]["payment_methods"][payment_id]["source"] == "gift_card":
            db.writable("users", owner)["payment_methods"][payment_id]["amount"] -= charge
        if charge != 0:
            reservation["payment_history"].append({"payment_id": payment_id, "amount": charge})
        return dump(reservation)
