"""JSON Schemas of the airline's JSON tool results (users, reservations, flight search results, airports).

Written from the documented domains: id formats, the three cabins, trip types, membership tiers,
payment sources, flight statuses. Deliberately loose where post-states differ from the initial
database: a payment's amount may be negative (refunds, a cheaper flight change) and a gift card's
balance may be anything after debits; a reservation's ``status`` appears only after a cancellation.
Text results (calculate, think, send_certificate, transfer) have no schema. Knows nothing about tools' code.
"""

from __future__ import annotations

from typing import Any

CABINS = ("basic_economy", "economy", "business")
FLIGHT_STATUSES = ("available", "landed", "cancelled", "delayed", "on time", "flying")
USER_ID = {"type": "string", "pattern": r"^[a-z]+_[a-z]+_\d{4}$"}
RESERVATION_ID = {"type": "string", "pattern": r"^[A-Z0-9]{6}$"}
FLIGHT_NUMBER = {"type": "string", "pattern": r"^HAT\d{3}$"}
AIRPORT = {"type": "string", "pattern": r"^[A-Z]{3}$"}
DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
PAYMENT_ID = {"type": "string", "pattern": r"^(credit_card|gift_card|certificate)_\d{7}$"}
CABIN = {"type": "string", "enum": list(CABINS)}
PER_CABIN = {"type": "object", "properties": {c: {"type": "integer", "minimum": 0} for c in CABINS}}


def _object(required: tuple[str, ...], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required)}


PASSENGER = _object(
    ("first_name", "last_name", "dob"), first_name={"type": "string"}, last_name={"type": "string"}, dob=DATE
)

RESERVED_FLIGHT = _object(
    ("flight_number", "date", "price", "origin", "destination"),
    flight_number=FLIGHT_NUMBER,
    date=DATE,
    price={"type": "number", "exclusiveMinimum": 0},
    origin=AIRPORT,
    destination=AIRPORT,
)

PAYMENT = _object(("payment_id", "amount"), payment_id=PAYMENT_ID, amount={"type": "number"})

RESERVATION = _object(
    (
        "reservation_id",
        "user_id",
        "origin",
        "destination",
        "flight_type",
        "cabin",
        "flights",
        "passengers",
        "payment_history",
        "created_at",
        "total_baggages",
        "nonfree_baggages",
        "insurance",
    ),
    reservation_id=RESERVATION_ID,
    user_id=USER_ID,
    origin=AIRPORT,
    destination=AIRPORT,
    flight_type={"type": "string", "enum": ["one_way", "round_trip"]},
    cabin=CABIN,
    flights={"type": "array", "items": RESERVED_FLIGHT, "minItems": 1},
    passengers={"type": "array", "items": PASSENGER, "minItems": 1, "maxItems": 5},
    payment_history={"type": "array", "items": PAYMENT, "minItems": 1},
    created_at={"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"},
    total_baggages={"type": "integer", "minimum": 0},
    nonfree_baggages={"type": "integer", "minimum": 0},
    insurance={"type": "string", "enum": ["yes", "no"]},
    status={"type": "string", "enum": ["cancelled"]},
)

ADDRESS = _object(
    ("address1", "address2", "city", "country", "state", "zip"),
    address1={"type": "string"},
    address2={"type": "string"},
    city={"type": "string"},
    country={"type": "string"},
    state={"type": "string"},
    zip={"type": "string", "pattern": r"^\d{5}$"},
)

PAYMENT_METHOD = _object(
    ("source", "id"),
    source={"type": "string", "enum": ["credit_card", "gift_card", "certificate"]},
    id=PAYMENT_ID,
    brand={"type": "string"},
    last_four={"type": "string", "pattern": r"^\d{4}$"},
    amount={"type": "number"},
)

USER = _object(
    ("name", "address", "email", "dob", "payment_methods", "saved_passengers", "membership", "reservations"),
    name=_object(("first_name", "last_name"), first_name={"type": "string"}, last_name={"type": "string"}),
    address=ADDRESS,
    email={"type": "string", "pattern": r"^[a-z]+\.[a-z]+\d+@example\.com$"},
    dob=DATE,
    payment_methods={"type": "object", "additionalProperties": PAYMENT_METHOD},
    saved_passengers={"type": "array", "items": PASSENGER},
    membership={"type": "string", "enum": ["regular", "silver", "gold"]},
    reservations={"type": "array", "items": RESERVATION_ID},
)

FLIGHT_ON_DATE = _object(
    (
        "flight_number",
        "origin",
        "destination",
        "scheduled_departure_time_est",
        "scheduled_arrival_time_est",
        "status",
    ),
    flight_number=FLIGHT_NUMBER,
    origin=AIRPORT,
    destination=AIRPORT,
    scheduled_departure_time_est={"type": "string"},
    scheduled_arrival_time_est={"type": "string"},
    status={"type": "string", "enum": list(FLIGHT_STATUSES)},
    available_seats=PER_CABIN,
    prices=PER_CABIN,
    date=DATE,
)

RESULT_SCHEMAS: dict[str, dict[str, Any]] = {
    "get_user_details": USER,
    "list_all_airports": {"type": "object", "additionalProperties": {"type": "string"}},
    "search_direct_flight": {"type": "array", "items": FLIGHT_ON_DATE},
    "search_onestop_flight": {
        "type": "array",
        "items": {"type": "array", "items": FLIGHT_ON_DATE, "minItems": 2, "maxItems": 2},
    },
    **{
        t: RESERVATION
        for t in (
            "get_reservation_details",
            "book_reservation",
            "cancel_reservation",
            "update_reservation_baggages",
            "update_reservation_flights",
            "update_reservation_passengers",
        )
    },
}
