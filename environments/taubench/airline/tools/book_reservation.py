"""book_reservation: book a new reservation for a user and charge its payment methods; write.

Checks in upstream's order, nothing changed until all pass: the user exists; each flight exists,
flies on its date, is available and has enough seats in the cabin (each flight then gets its
current price and its airports); every payment method is the user's and a gift card or certificate
covers its part; the parts add up to the total (flight prices x passengers, 30 per passenger with
insurance, 50 per non-free bag). Then gift cards are debited, certificates used up (removed), the
reservation stored under the first free id of HATHAT, HATHAU, HATHAV (upstream's fixed ids; a
fourth booking replaces HATHAV) with creation time 2024-05-15T15:00:00 and added to the user's list.
The passenger and payment lists are stored as copies (upstream stores the caller's own lists).
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import CABIN, FLIGHTS, PASSENGERS, USER_ID, seat_error
from environments.taubench.db import copy_json
from environments.taubench.tools._base import Tool, dump, obj, string

IDS = ("HATHAT", "HATHAU", "HATHAV")
NOW = "2024-05-15T15:00:00"

PAYMENTS: dict[str, Any] = {
    "type": "array",
    "description": "The payment methods and the amount each pays; together they must pay the whole price.",
    "items": {
        "type": "object",
        "properties": {
            "payment_id": string("A payment method id from the user's profile, e.g. 'credit_card_7815826'."),
            "amount": {"type": "number", "description": "The amount this method pays."},
        },
        "required": ["payment_id", "amount"],
    },
}


class BookReservation(Tool):
    name = "book_reservation"
    category = "write"
    description = (
        "Book a reservation for a user: trip type, cabin, flights, passengers, payment methods with the "
        "amount each pays, baggage and insurance. The agent must first list the details and obtain the "
        "user's explicit confirmation (yes)."
    )
    parameters = obj(
        user_id=USER_ID,
        origin=string("The origin airport's IATA code, e.g. 'SFO'."),
        destination=string("The destination airport's IATA code, e.g. 'JFK'."),
        flight_type={"type": "string", "enum": ["one_way", "round_trip"]},
        cabin=CABIN,
        flights=dict(FLIGHTS, description="Every flight of the trip, each with its number and date."),
        passengers=PASSENGERS,
        payment_methods=PAYMENTS,
        total_baggages={"type": "integer", "description": "The number of checked bags in the reservation."},
        nonfree_baggages={"type": "integer", "description": "How many of those bags are paid for."},
        insurance={"type": "string", "enum": ["yes", "no"]},
    )

    @staticmethod
    def invoke(
        db: Any,
        user_id: Any,
        origin: Any,
        destination: Any,
        flight_type: Any,
        cabin: Any,
        flights: Any,
        passengers: Any,
        payment_methods: Any,
        total_baggages: Any,
        nonfree_baggages: Any,
        insurance: Any,
    ) -> str:
        if user_id not in db.users:
            return "Error: user not found"
        user = db.users[user_id]
        reservation_id = next((i for i in IDS if i not in db.reservations), IDS[-1])
        reservation = {
            "reservation_id": reservation_id,
            "user_id": user_id,
            "origin": origin,
            "destination": destination,
            "flight_type": flight_type,
            "cabin": cabin,
            "flights": copy_json(flights),
            "passengers": copy_json(passengers),
            "payment_history": copy_json(payment_methods),
            "created_at": NOW,
            "total_baggages": total_baggages,
            "nonfree_baggages": nonfree_baggages,
            "insurance": insurance,
        }
        total: Any = 0
        for flight in reservation["flights"]:
            error = seat_error(db, flight, cabin, passengers)
            if error:
                return error
            total += flight["price"] * len(passengers)
        if insurance == "yes":
            total += 30 * len(passengers)
        total += 50 * nonfree_baggages
        for payment in payment_methods:
            payment_id, amount = payment["payment_id"], payment["amount"]
            if payment_id not in user["payment_methods"]:
                return f"Error: payment method {payment_id} not found"
            method = user["payment_methods"][payment_id]
            if method["source"] in ("gift_card", "certificate") and method["amount"] < amount:
                return f"Error: not enough balance in payment method {payment_id}"
        paid = sum(payment["amount"] for payment in payment_methods)
        if paid != total:
            return f"Error: payment amount does not add up, total price is {total}, but paid {paid}"
        user = db.writable("users", user_id)
        for payment in payment_methods:
            payment_id = payment["payment_id"]
            source = user["payment_methods"][payment_id]["source"]
            if source == "gift_card":
                user["payment_methods"][payment_id]["amount"] -= payment["amount"]
            elif source == "certificate":
                del user["payment_methods"][payment_id]  # a certificate is used up whatever it had left
        db.insert("reservations", reservation_id, reservation)
        user["reservations"].append(reservation_id)
        return dump(reservation)
