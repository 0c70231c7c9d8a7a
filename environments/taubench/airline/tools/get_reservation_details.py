"""get_reservation_details: a reservation record (flights, passengers, payments, baggage, insurance); read.

An unknown id answers ``Error: user not found``, as upstream's tool does.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import RESERVATION_ID
from environments.taubench.tools._base import Tool, dump, obj


class GetReservationDetails(Tool):
    name = "get_reservation_details"
    category = "read"
    description = (
        "Get a reservation's details: trip type, cabin, flights with the prices paid, passengers, payment "
        "history, creation time, baggage and travel insurance."
    )
    parameters = obj(reservation_id=RESERVATION_ID)

    @staticmethod
    def invoke(db: Any, reservation_id: Any) -> str:
        if reservation_id in db.reservations:
            return dump(db.reservations[reservation_id])
        return "Error: user not found"  # upstream's text for a missing reservation
