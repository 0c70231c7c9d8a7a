"""The airline plan of the scripted agents: read the user, the reservation or the flights, resolve, confirm, write.

Each request: the user id and one goal (``REQUEST`` line). The agent reads the user (payment ids
come from the profile: a credit card by its last four digits, a gift card or certificate by kind or
id). Reservation goals read the reservation and check that it is the user's; a flight change
without a cabin in the request keeps the reservation's cabin, taken from that read. A booking
searches each leg (``search_direct_flight`` on the leg's airports and date) for its current price
in the cabin, prices the trip (legs x passengers, 30 per passenger with insurance, 50 per paid
bag) and fills the payment methods in the order given, each up to its balance, the last one paying
the rest. Then it asks the user to confirm and writes.

A reservation read that is not believed (``flagged``) never gives its cabin to a write: the agent
asks the user which cabin the reservation is in (the card user answers with a ``FACT`` line). The
skeptic knows the three cabins (basic_economy, economy, business), the flight statuses the policy
names (available, delayed, on time, flying) and what its own writes reported (a cancelled
reservation); anything else is implausible to it. Knows nothing about the harness, the database or
the ground truth.
"""

from __future__ import annotations

import json
from typing import Any

from environments.taubench.players._base import Turn, text
from environments.taubench.players.retail import confirm_and_write

CABINS = ("basic_economy", "economy", "business")
FLIGHT_STATUSES = ("available", "delayed", "on time", "flying")
WRITES = frozenset(
    (
        "book_reservation",
        "cancel_reservation",
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_passengers",
        "send_certificate",
    )
)
GREETING = "Hello! Could you give me your user id and what you need?"
ASK_CABIN = "Which cabin is reservation {rid} booked in?"
STATUS_FIELD = "status"


def odd(tool: str, result: Any, seen: frozenset[str]) -> bool:
    """A cabin or status outside the names the skeptic knows (and its own writes reported)."""
    if tool == "get_reservation_details" and isinstance(result, dict):
        status = result.get("status")
        return result.get("cabin") not in CABINS or (status is not None and status not in seen)
    if tool in ("search_direct_flight", "search_onestop_flight") and isinstance(result, list):
        legs = [leg for item in result for leg in (item if isinstance(item, list) else [item])]
        return any(
            isinstance(leg, dict) and leg.get("status") not in FLIGHT_STATUSES + tuple(seen) for leg in legs
        )
    return False


def plan(t: Turn) -> dict:
    req = t.req
    assert req is not None
    user_id = req["identity"]["user_id"]
    got = t.read("get_user_details", {"user_id": user_id})
    if isinstance(got, dict):
        return got
    user, bad, note = got
    if bad == "abandon":
        return text(f"{note}I'm sorry, I cannot rely on our records right now. Is there anything else?")
    if not isinstance(user, dict):
        return text("I cannot find your account with that user id. Is there anything else?")
    action = req["action"]
    if action == "send_certificate":
        return confirm_and_write(t, action, {"user_id": user_id, "amount": req["amount"]}, note)
    if action == "book_reservation":
        return _book(t, req, user_id, user, note)
    rid = req["reservation_id"]
    got = t.read("get_reservation_details", {"reservation_id": rid})
    if isinstance(got, dict):
        return got
    res, bad, extra = got
    note += extra
    if bad == "abandon":
        return text(f"{note}I'm sorry, I cannot rely on our records right now. Is there anything else?")
    if not isinstance(res, dict):
        return text(f"{note}I cannot find reservation {rid}. Is there anything else?")
    if res.get("user_id") not in (None, user_id):
        return text(
            f"{note}Reservation {rid} is not on your account, so I cannot change it. Is there anything else?"
        )
    args: dict[str, Any] = {"reservation_id": rid}
    if action == "update_reservation_passengers":
        args["passengers"] = req["passengers"]
    if action == "update_reservation_baggages":
        args.update(total_baggages=req["total_baggages"], nonfree_baggages=req["nonfree_baggages"])
    if action == "update_reservation_flights":
        cabin = req.get("cabin") or (None if bad else res.get("cabin")) or _stated_cabin(t)
        if cabin is None:  # the record is not believed: the user says which cabin it is
            if t.asked(ASK_CABIN.format(rid=rid)):
                return text(f"{note}I'm sorry, I cannot confirm the cabin of {rid}. Is there anything else?")
            return text(f"{note}I could not verify your reservation's cabin. {ASK_CABIN.format(rid=rid)}")
        args.update(
            cabin=cabin,
            flights=[{"flight_number": f["flight_number"], "date": f["date"]} for f in req["flights"]],
        )
    if "payment" in req:
        pay = _payment_id(user, req["payment"])
        if pay is None:
            return text(
                f"{note}I'm sorry, I cannot find that payment method on your account. Is there anything else?"
            )
        args["payment_id"] = pay
    return confirm_and_write(t, action, args, note)


def _stated_cabin(t: Turn) -> str | None:
    """The cabin the user stated since the request (``FACT {"cabin": ...}``)."""
    for m in t.messages[t.req_at or 0 :]:
        content = m.get("content") or ""
        if m.get("role") == "user" and "FACT " in content:
            try:
                return json.loads(content.split("FACT ", 1)[1]).get("cabin")
            except ValueError:
                return None
    return None


def _payment_id(user: dict, pay: dict) -> str | None:
    if pay.get("id"):
        return pay["id"]
    return next(
        (
            pid
            for pid, pm in (user.get("payment_methods") or {}).items()
            if pm.get("source") == pay["source"]
            and (pay["source"] != "credit_card" or pm.get("last_four") == pay.get("last_four"))
        ),
        None,
    )


def _book(t: Turn, req: dict, user_id: str, user: dict, note: str) -> dict:
    cabin, n = req["cabin"], len(req["passengers"])
    total: Any = 0
    for leg in req["flights"]:
        got = t.read(
            "search_direct_flight",
            {"origin": leg["origin"], "destination": leg["destination"], "date": leg["date"]},
        )
        if isinstance(got, dict):
            return got
        found, bad, extra = got
        note += extra
        if bad == "abandon":
            return text(f"{note}I'm sorry, I cannot rely on our records right now. Is there anything else?")
        hit = next(
            (f for f in found if isinstance(f, dict) and f.get("flight_number") == leg["flight_number"]),
            None,
        ) if isinstance(found, list) else None  # fmt: skip
        if hit is None:
            return text(
                f"{note}I'm sorry, flight {leg['flight_number']} cannot be booked on {leg['date']}. Is there anything else?"
            )
        total += hit["prices"][cabin] * n
    total += (30 * n if req["insurance"] == "yes" else 0) + 50 * req["nonfree_baggages"]
    payments, left = [], total
    methods = user.get("payment_methods") or {}
    for i, pay in enumerate(req["payments"]):
        pid = _payment_id(user, pay)
        if pid is None:
            return text(
                f"{note}I'm sorry, I cannot find that payment method on your account. Is there anything else?"
            )
        last = i == len(req["payments"]) - 1
        method = methods.get(pid) or {}  # an id the user named may be gone: the write tool then says so
        balance = method.get("amount") if method.get("source") in ("gift_card", "certificate") else None
        amount = left if last or balance is None else min(balance, left)
        payments.append({"payment_id": pid, "amount": amount})
        left -= amount
    args = {
        "user_id": user_id,
        "origin": req["origin"],
        "destination": req["destination"],
        "flight_type": req["flight_type"],
        "cabin": cabin,
        "flights": [{"flight_number": f["flight_number"], "date": f["date"]} for f in req["flights"]],
        "passengers": req["passengers"],
        "payment_methods": payments,
        "total_baggages": req["total_baggages"],
        "nonfree_baggages": req["nonfree_baggages"],
        "insurance": req["insurance"],
    }
    return confirm_and_write(t, "book_reservation", args, note)
