"""Parameter schemas and small helpers the airline tools share."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import string

CABINS = ("basic_economy", "economy", "business")
RESERVATION_ID = string("The reservation id, e.g. 'ZFA04Y'.")
USER_ID = string("The user id, e.g. 'sara_doe_496'.")
PAYMENT_ID = string(
    "A payment method id from the user's profile, e.g. 'credit_card_7815826', 'gift_card_7815826' "
    "or 'certificate_7815826'."
)
CABIN = {"type": "string", "enum": list(CABINS)}
AIRPORT = "The airport's three-letter IATA code, e.g. 'JFK'."
DATE = "The date as 'YYYY-MM-DD', e.g. '2024-05-01'."

FLIGHTS: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "flight_number": string("The flight number, e.g. 'HAT001'."),
            "date": string(DATE),
        },
        "required": ["flight_number", "date"],
    },
}
PASSENGERS: dict[str, Any] = {
    "type": "array",
    "description": "Each passenger's first name, last name and date of birth.",
    "items": {
        "type": "object",
        "properties": {
            "first_name": string("First name, e.g. 'Noah'."),
            "last_name": string("Last name, e.g. 'Brown'."),
            "dob": string("Date of birth as 'YYYY-MM-DD', e.g. '1990-01-01'."),
        },
        "required": ["first_name", "last_name", "dob"],
    },
}


def seat_error(db: Any, flight: dict[str, Any], cabin: Any, passengers: Any) -> str | None:
    """Upstream's checks of a flight to book or change to, in its order; None when it can be flown.

    On success the flight gets its current price in ``cabin`` and its origin and destination.
    ``len(passengers)`` is taken only at the seat check, where upstream takes it.
    """
    number = flight["flight_number"]
    if number not in db.flights:
        return f"Error: flight {number} not found"
    record = db.flights[number]
    if flight["date"] not in record["dates"]:
        return f"Error: flight {number} not found on date {flight['date']}"
    day = record["dates"][flight["date"]]
    if day["status"] != "available":
        return f"Error: flight {number} not available on date {flight['date']}"
    if day["available_seats"][cabin] < len(passengers):
        return f"Error: not enough seats on flight {number}"
    flight["price"] = day["prices"][cabin]
    flight["origin"] = record["origin"]
    flight["destination"] = record["destination"]
    return None


def payment_error(method: dict[str, Any], total: Any) -> str | None:
    """The checks of a payment method for a change (baggage or flights): no certificate, enough on a gift card."""
    if method["source"] == "certificate":
        return "Error: certificate cannot be used to update reservation"
    if method["source"] == "gift_card" and method["amount"] < total:
        return "Error: gift card balance is not enough"
    return None
