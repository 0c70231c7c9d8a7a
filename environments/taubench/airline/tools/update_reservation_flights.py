"""update_reservation_flights: replace a reservation's flights (and the cabin they are priced in); write.

Upstream's rules, kept: a flight already in the reservation on the same date keeps the price paid
for it when the cabin is unchanged; any other flight is checked (exists, flies on its date, is
available, has seats for every passenger) and priced at its current price in the cabin given. The
difference between the new and the old flights' total (x passengers) is charged, or refunded when
negative, to the payment method given (a reservation owner's, no certificate; a gift card must cover
a charge and takes a refund). No policy check (basic economy, same route): the agent's job. The
reservation's ``cabin`` field itself is left as it was, as upstream leaves it.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import (
    CABIN,
    FLIGHTS,
    PAYMENT_ID,
    RESERVATION_ID,
    payment_error,
    seat_error,
)
from environments.taubench.db import copy_json
from environments.taubench.tools._base import Tool, dump, obj


class UpdateReservationFlights(Tool):
    name = "update_reservation_flights"
    category = "write"
    description = (
        "Update the flights of a reservation, or its cabin: give the cabin and EVERY flight of the new "
        "reservation (unchanged ones too), and a payment method for the difference or the refund. The tool "
        "checks no policy: the agent must make sure the change is allowed and confirmed first."
    )
    parameters = obj(
        reservation_id=RESERVATION_ID,
        cabin=CABIN,
        flights=dict(
            FLIGHTS, description="Every flight of the new reservation, each with its number and date."
        ),
        payment_id=PAYMENT_ID,
    )

    @staticmethod
    def invoke(db: Any, reservation_id: Any, cabin: Any, flights: Any, payment_id: Any) -> str:
        if reservation_id not in db.reservations:
            return "Error: reservation not found"
        reservation = db.reservations[reservation_id]
        passengers = reservation["passengers"]
        total: Any = 0
        flights = copy_json(flights)
        for flight in flights:
            kept = [
                old
                for old in reservation["flights"]
                if old["flight_number"] == flight["flight_number"]
                and old["date"] == flight["date"]
                and cabin == reservation["cabin"]
            ]
            if kept:  # the price paid stays
                total += kept[0]["price"] * len(passengers)
                flight["price"] = kept[0]["price"]
                flight["origin"] = kept[0]["origin"]
                flight["destination"] = kept[0]["destination"]
                continue
            error = seat_error(db, flight, cabin, passengers)
            if error:
                return error
            total += flight["price"] * len(passengers)
        total -= sum(old["price"] for old in reservation["flights"]) * len(passengers)
        owner = reservation["user_id"]
        if payment_id not in db.users[owner]["payment_methods"]:
            return "Error: payment method not found"
        error = payment_error(db.users[owner]["payment_methods"][payment_id], total)
        if error:
            return error
        if db.users[owner]["payment_methods"][payment_id]["source"] == "gift_card":
            db.writable("users", owner)["payment_methods"][payment_id]["amount"] -= total
        reservation = db.writable("reservations", reservation_id)
        reservation["flights"] = flights
        if total != 0:
            reservation["payment_history"].append({"payment_id": payment_id, "amount": total})
        return dump(reservation)
