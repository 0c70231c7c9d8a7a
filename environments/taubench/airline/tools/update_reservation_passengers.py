"""update_reservation_passengers: replace a reservation's passengers (the number must stay); write."""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import PASSENGERS, RESERVATION_ID
from environments.taubench.db import copy_json
from environments.taubench.tools._base import Tool, dump, obj


class UpdateReservationPassengers(Tool):
    name = "update_reservation_passengers"
    category = "write"
    description = (
        "Update the passengers of a reservation; their number cannot change. The agent must first list the "
        "details and obtain the user's explicit confirmation (yes)."
    )
    parameters = obj(reservation_id=RESERVATION_ID, passengers=PASSENGERS)

    @staticmethod
    def invoke(db: Any, reservation_id: Any, passengers: Any) -> str:
        if reservation_id not in db.reservations:
            return "Error: reservation not found"
        if len(passengers) != len(db.reservations[reservation_id]["passengers"]):
            return "Error: number of passengers does not match"
        reservation = db.writable("reservations", reservation_id)
        reservation["passengers"] = copy_json(passengers)
        return dump(reservation)
