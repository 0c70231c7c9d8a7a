"""Seeded random airline calls: valid reads, invalid calls (for clean traces), valid writes (for post-states).

Valid reads of a customer's own world: the profile, its reservations, searches on the routes of its
reservations (direct and one-stop, any day of May 2024), the airport list, arithmetic over its
prices. Invalid calls fail before any write: unknown ids, a certificate or a foreign method paying a
change, a passenger count that differs, bad expression characters. Valid writes (``valid_write``)
change the customer's records the ways the tools can: cancel a reservation, add paid bags, change
the cabin, replace a passenger, book a direct flight, send a certificate; they feed the database
contract source with post-states without using any task's ground truth. Knows nothing about monitors.
"""

from __future__ import annotations

import random
from typing import Any

from environments.taubench.db import DB

CABINS = ("basic_economy", "economy", "business")
DAYS = tuple(f"2024-05-{d:02d}" for d in range(1, 31))


def _reservations(db: DB, user_id: str) -> list[str]:
    return [r for r in db.users[user_id]["reservations"] if r in db.reservations]


def _methods(db: DB, user_id: str, *sources: str) -> list[str]:
    return [k for k, m in db.users[user_id]["payment_methods"].items() if m["source"] in sources]


def valid_read(db: DB, user_id: str, r: random.Random) -> tuple[str, dict[str, Any]]:
    own = _reservations(db, user_id)
    kind = r.choice(["user", "reservation", "reservation", "direct", "onestop", "airports", "calculate"])
    if kind == "reservation" and own:
        return "get_reservation_details", {"reservation_id": r.choice(own)}
    if kind in ("direct", "onestop") and own:
        res = db.reservations[r.choice(own)]
        if kind == "direct":
            leg = r.choice(res["flights"])
            return "search_direct_flight", {
                "origin": leg["origin"],
                "destination": leg["destination"],
                "date": r.choice(DAYS),
            }
        return "search_onestop_flight", {
            "origin": res["origin"],
            "destination": res["destination"],
            "date": r.choice(DAYS[:-1]),  # the overnight rule writes the next day of May
        }
    if kind == "airports":
        return "list_all_airports", {}
    if kind == "calculate":
        prices = [f["price"] for res in own for f in db.reservations[res]["flights"]] or [r.randint(50, 900)]
        a, b = r.choice(prices), r.choice(prices)
        return "calculate", {"expression": r.choice([f"{a} + {b}", f"{a} - {b}", f"({a} + {b}) * 2"])}
    return "get_user_details", {"user_id": user_id}


def invalid_call(db: DB, user_id: str, r: random.Random) -> tuple[str, dict[str, Any]]:
    own = _reservations(db, user_id)
    kind = r.choice(["user", "reservation", "cancel", "bags", "passengers", "certificate", "calculate"])
    if kind == "bags" and own:
        res = db.reservations[r.choice(own)]
        certificates = _methods(db, user_id, "certificate")
        pay = r.choice(certificates) if certificates and r.random() < 0.5 else _absent_method(db, user_id, r)
        return "update_reservation_baggages", {
            "reservation_id": res["reservation_id"],
            "total_baggages": res["total_baggages"] + 1,
            "nonfree_baggages": res["nonfree_baggages"] + 1,
            "payment_id": pay,
        }
    if kind == "passengers" and own:
        res = db.reservations[r.choice(own)]
        return "update_reservation_passengers", {
            "reservation_id": res["reservation_id"],
            "passengers": res["passengers"] + [dict(res["passengers"][0])],
        }
    if kind == "user":
        return "get_user_details", {"user_id": _absent_user(db, user_id, r)}
    if kind == "certificate":
        return "send_certificate", {"user_id": _absent_user(db, user_id, r), "amount": 100}
    if kind == "calculate":
        return "calculate", {"expression": r.choice(["2 x 3", "sqrt(4)", "1/0", "10 % 3"])}
    tool = "cancel_reservation" if kind == "cancel" else "get_reservation_details"
    return tool, {
        "reservation_id": _absent(
            lambda: "".join(r.choices("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789", k=6)), db.reservations
        )
    }


def valid_write(db: DB, user_id: str, r: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A write the tools accept for this customer, or None when the draw finds none."""
    own = _reservations(db, user_id)
    cards = _methods(db, user_id, "credit_card")
    kind = r.choice(["cancel", "bags", "cabin", "passenger", "book", "certificate"])
    if kind == "certificate":
        return "send_certificate", {"user_id": user_id, "amount": r.choice([50, 100, 150, 200])}
    if kind == "book" and cards:
        return _booking(db, user_id, r, r.choice(cards))
    if not own:
        return None
    res = db.reservations[r.choice(own)]
    rid = res["reservation_id"]
    if kind == "cancel":
        return "cancel_reservation", {"reservation_id": rid}
    if kind == "bags" and cards:
        extra = r.randint(1, 2)
        return "update_reservation_baggages", {
            "reservation_id": rid,
            "total_baggages": res["total_baggages"] + extra,
            "nonfree_baggages": res["nonfree_baggages"] + extra,
            "payment_id": r.choice(cards),
        }
    if kind == "cabin" and cards:
        return "update_reservation_flights", {
            "reservation_id": rid,
            "cabin": r.choice([c for c in CABINS if c != res["cabin"]]),
            "flights": [{"flight_number": f["flight_number"], "date": f["date"]} for f in res["flights"]],
            "payment_id": r.choice(cards),
        }
    if kind == "passenger":
        saved = db.users[user_id]["saved_passengers"]
        if saved:
            passengers = [dict(p) for p in res["passengers"]]
            passengers[r.randrange(len(passengers))] = dict(r.choice(saved))
            return "update_reservation_passengers", {"reservation_id": rid, "passengers": passengers}
    return None


def _booking(db: DB, user_id: str, r: random.Random, card: str) -> tuple[str, dict[str, Any]] | None:
    """A one-way direct booking for the customer alone on an available flight, paid by one credit card."""
    day = r.choice(DAYS[15:])  # bookable days follow 2024-05-15
    cabin = r.choice(CABINS)
    open_flights = [
        f
        for f in db.flights.values()
        if day in f["dates"]
        and f["dates"][day]["status"] == "available"
        and f["dates"][day]["available_seats"][cabin]
    ]
    if not open_flights:
        return None
    flight = r.choice(open_flights)
    user = db.users[user_id]
    bags = r.randint(0, 2)
    insurance = r.choice(["yes", "no"])
    price = flight["dates"][day]["prices"][cabin] + (30 if insurance == "yes" else 0) + 50 * bags
    return "book_reservation", {
        "user_id": user_id,
        "origin": flight["origin"],
        "destination": flight["destination"],
        "flight_type": "one_way",
        "cabin": cabin,
        "flights": [{"flight_number": flight["flight_number"], "date": day}],
        "passengers": [{**user["name"], "dob": user["dob"]}],
        "payment_methods": [{"payment_id": card, "amount": price}],
        "total_baggages": bags,
        "nonfree_baggages": bags,
        "insurance": insurance,
    }


def _absent_user(db: DB, user_id: str, r: random.Random) -> str:
    return _absent(lambda: f"{user_id.rsplit('_', 1)[0]}_{r.randint(0, 9999):04d}", db.users)


def _absent_method(db: DB, user_id: str, r: random.Random) -> str:
    return _absent(
        lambda: f"{r.choice(['credit_card', 'gift_card'])}_{r.randint(0, 9_999_999):07d}",
        db.users[user_id]["payment_methods"],
    )


def _absent(draw: Any, existing: Any) -> str:
    for _ in range(100):
        value = draw()
        if value not in existing:
            return value
    raise RuntimeError("could not draw an absent id")  # never with these id spaces
