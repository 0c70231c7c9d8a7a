"""Airline user cards: the user id the instruction gives and one goal per ground-truth write.

Goals are in the user's terms: reservation ids, flights by number and date (with each leg's
airports, which the public flight table gives), passengers by name and birth date, payment
methods by kind (a credit card by brand and last four digits; a gift card or certificate by id only
when the user holds several of that kind), bag counts, insurance, a certificate's amount. A
booking lists its payment methods in the order the user wants them used; the agent prices the
trip and fills each method up to its balance, the last one paying the rest (this reproduces every
carded booking's amounts). A flight change names the cabin only when it changes; the cabin kept is
the user's private knowledge (``private``), said only when the agent asks. Built by one rule from
the ground-truth writes replayed on the public database. Knows nothing about the harness or agents.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.cards import instruction_key, no_card

WRITES = (
    "book_reservation",
    "cancel_reservation",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
    "send_certificate",
)
READS = (
    "get_user_details",
    "get_reservation_details",
    "search_direct_flight",
    "search_onestop_flight",
    "list_all_airports",
    "calculate",
    "think",
)


def payment(user: dict, pm_id: str) -> dict:
    """A payment method in the user's terms."""
    pm = user["payment_methods"][pm_id]
    out = {"source": pm["source"]}
    if pm["source"] == "credit_card":
        out.update(brand=pm.get("brand"), last_four=pm.get("last_four"))
    elif sum(m["source"] == pm["source"] for m in user["payment_methods"].values()) > 1:
        out["id"] = pm_id  # several gift cards or certificates: only the id tells them apart
    return out


def _legs(db: Any, flights: list[dict]) -> list[dict]:
    return [
        {
            "flight_number": f["flight_number"],
            "date": f["date"],
            "origin": db.flights[f["flight_number"]]["origin"],
            "destination": db.flights[f["flight_number"]]["destination"],
        }
        for f in flights
    ]


def _goal(db: Any, user: dict, name: str, kw: dict) -> dict[str, Any]:
    goal: dict[str, Any] = {"action": name}
    if name == "send_certificate":
        goal["amount"] = kw["amount"]
        return goal
    if name == "book_reservation":
        goal.update(
            origin=kw["origin"],
            destination=kw["destination"],
            flight_type=kw["flight_type"],
            cabin=kw["cabin"],
            flights=_legs(db, kw["flights"]),
            passengers=[dict(p) for p in kw["passengers"]],
            payments=[payment(user, p["payment_id"]) for p in kw["payment_methods"]],
            total_baggages=kw["total_baggages"],
            nonfree_baggages=kw["nonfree_baggages"],
            insurance=kw["insurance"],
        )
        return goal
    reservation = db.reservations[kw["reservation_id"]]
    goal["reservation_id"] = kw["reservation_id"]
    if name == "update_reservation_baggages":
        goal.update(total_baggages=kw["total_baggages"], nonfree_baggages=kw["nonfree_baggages"])
    if name == "update_reservation_passengers":
        goal["passengers"] = [dict(p) for p in kw["passengers"]]
    if name == "update_reservation_flights":
        goal["flights"] = [{"flight_number": f["flight_number"], "date": f["date"]} for f in kw["flights"]]
        if kw["cabin"] != reservation["cabin"]:
            goal["cabin"] = kw["cabin"]
        else:  # the user keeps the cabin: known to the user, to be read by the agent
            goal["private"] = {"cabin": kw["cabin"]}
    if "payment_id" in kw:
        goal["payment"] = payment(user, kw["payment_id"])
    return goal


def build(env: Any, task_id: str) -> tuple[dict | None, str]:
    """The card of one airline task, or (None, why there is none)."""
    record = env.record(task_id)
    why = no_card(record, WRITES + READS)
    if why:
        return None, why
    db = env.data.base.fresh()
    goals: list[dict] = []
    for a in record.actions:
        name, kw = a["name"], dict(a["kwargs"])
        if name in WRITES:
            try:
                goals.append(_goal(db, db.users[record.user_id], name, kw))
            except (KeyError, TypeError) as e:
                return None, f"ground-truth write {name} refers to something missing: {e}"
        env.domain.execute(db, name, kw)
    if not goals:
        return None, "no write in the ground truth"
    card = {
        "task_id": task_id,
        "user_id": record.user_id,
        "instruction_sha256": instruction_key(record.instruction),
        "identity": {"user_id": record.user_id},
        "goals": goals,
        "unknown": ["payment method ids", "prices and amounts to pay"],
    }
    return card, ""
