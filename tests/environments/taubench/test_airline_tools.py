"""The 14 airline tools on the shared data: upstream's error strings and check order, no change on error,
side effects (refunds, debits, fixed ids, kept prices) and the quirks kept on purpose."""

from __future__ import annotations

import json
import re

import pytest

from environments.taubench.airline import DOMAIN


@pytest.fixture
def db(airline_env):
    return airline_env.data.base.fresh()


def run(db, name, **kwargs):
    """Run a call; an error result must leave the database exactly as it was."""
    before = db.digest()
    out = DOMAIN.execute(db, name, kwargs)
    if out.startswith("Error:") or out.startswith("Unknown action"):
        assert db.digest() == before, f"{name} changed the database although it failed: {out}"
    return out


def a_reservation(db, pred=lambda r: True):
    return next(r for r in db.reservations.values() if pred(r))


def method_of(db, user_id, source):
    return next(k for k, m in db.users[user_id]["payment_methods"].items() if m["source"] == source)


def bookable(db, cabin="economy", seats=1):
    """(flight_number, date, price) of some flight available after 2024-05-15 with seats in ``cabin``."""
    for number, f in db.flights.items():
        for day, entry in sorted(f["dates"].items()):
            if entry["status"] == "available" and entry["available_seats"][cabin] >= seats:
                return number, day, entry["prices"][cabin]
    raise AssertionError("no bookable flight")


def test_catalogue_matches_upstreams_fourteen(data_dir):
    listed = re.search(r"14 tools \(([^)]*)\)", (data_dir.parent / "airline" / "SOURCE.md").read_text())
    assert set(DOMAIN.tools) == {n.strip() for n in listed.group(1).replace("\n", " ").split(",")}
    cats = {
        c: sorted(n for n, t in DOMAIN.tools.items() if t.category == c)
        for c in ("read", "write", "terminal")
    }
    assert cats["terminal"] == ["transfer_to_human_agents"]
    assert cats["write"] == [
        "book_reservation",
        "cancel_reservation",
        "send_certificate",
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_passengers",
    ]
    assert all(spec.domain == "airline" for spec in DOMAIN.specs().values())


def test_reads_and_their_errors(db):
    res = a_reservation(db)
    assert json.loads(run(db, "get_reservation_details", reservation_id=res["reservation_id"])) == res
    assert (
        run(db, "get_reservation_details", reservation_id="NOPE00") == "Error: user not found"
    )  # upstream's text
    assert run(db, "get_user_details", user_id="nobody_0000") == "Error: user not found"
    airports = json.loads(run(db, "list_all_airports"))
    assert len(airports) == 20 and airports["JFK"] == "New York" and airports["LGA"] == "LaGuardia"
    assert run(db, "frobnicate") == "Unknown action frobnicate"
    assert run(db, "get_user_details", uid="x").startswith("Error: ") and "unexpected keyword" in run(
        db, "get_user_details", uid="x"
    )


def test_search_direct_lists_only_available_flights_of_that_day(db):
    number, day, _ = bookable(db)
    f = db.flights[number]
    found = json.loads(
        run(db, "search_direct_flight", origin=f["origin"], destination=f["destination"], date=day)
    )
    assert found and all(x["status"] == "available" and "dates" not in x for x in found)
    hit = next(x for x in found if x["flight_number"] == number)
    assert hit["prices"] == f["dates"][day]["prices"]
    landed = next(d for d, e in f["dates"].items() if e["status"] != "available")
    again = json.loads(
        run(db, "search_direct_flight", origin=f["origin"], destination=f["destination"], date=landed)
    )
    assert number not in {x["flight_number"] for x in again}


def test_search_onestop_quirks(db):
    """Legs connect at an airport, the second leg shows the first leg's date entry, dates per upstream."""
    number, day, _ = bookable(db)
    f1 = db.flights[number]
    second = next(f for f in db.flights.values() if f["origin"] == f1["destination"])
    pairs = json.loads(
        run(db, "search_onestop_flight", origin=f1["origin"], destination=second["destination"], date=day)
    )
    assert pairs
    for leg1, leg2 in pairs:
        assert leg1["destination"] == leg2["origin"] and leg1["date"] == day
        assert leg1["scheduled_arrival_time_est"] <= leg2["scheduled_departure_time_est"]
        assert leg2 == {**{k: v for k, v in db.flights[leg2["flight_number"]].items() if k != "dates"},
                        **db.flights[leg2["flight_number"]]["dates"][day], "date": leg2["date"]}  # fmt: skip


def test_cancel_negates_every_payment_and_moves_no_money(db):
    res = a_reservation(db)
    user_before = json.dumps(db.users[res["user_id"]])
    out = json.loads(run(db, "cancel_reservation", reservation_id=res["reservation_id"]))
    paid = res["payment_history"]
    assert out["status"] == "cancelled"
    assert out["payment_history"] == paid + [
        {"payment_id": p["payment_id"], "amount": -p["amount"]} for p in paid
    ]
    assert json.dumps(db.users[res["user_id"]]) == user_before
    assert run(db, "cancel_reservation", reservation_id="NOPE00") == "Error: reservation not found"


def test_book_checks_in_order_and_charges(db):
    uid = next(u for u, x in db.users.items() if any(m["source"] == "certificate" for m in x["payment_methods"].values())
               and any(m["source"] == "credit_card" for m in x["payment_methods"].values()))  # fmt: skip
    user = db.users[uid]
    cert = method_of(db, uid, "certificate")
    card = method_of(db, uid, "credit_card")
    number, day, price = bookable(db, "economy", 2)
    f = db.flights[number]
    passengers = [
        {"first_name": "A", "last_name": "B", "dob": "1990-01-01"},
        {"first_name": "C", "last_name": "D", "dob": "1991-01-01"},
    ]
    total = 2 * price + 2 * 30 + 50 * 1
    cert_amount = min(user["payment_methods"][cert]["amount"], total)
    pays = [{"payment_id": cert, "amount": cert_amount}, {"payment_id": card, "amount": total - cert_amount}]
    args = dict(user_id=uid, origin=f["origin"], destination=f["destination"], flight_type="one_way", cabin="economy",
                flights=[{"flight_number": number, "date": day}], passengers=passengers, payment_methods=pays,
                total_baggages=3, nonfree_baggages=1, insurance="yes")  # fmt: skip
    assert run(db, "book_reservation", **dict(args, user_id="nobody_0000")) == "Error: user not found"
    assert run(db, "book_reservation", **dict(args, flights=[{"flight_number": "HAT999", "date": day}])) == (
        "Error: flight HAT999 not found"
    )
    assert run(
        db, "book_reservation", **dict(args, flights=[{"flight_number": number, "date": "2024-06-01"}])
    ) == (f"Error: flight {number} not found on date 2024-06-01")
    short = [dict(pays[0]), dict(pays[1], amount=pays[1]["amount"] - 1)]
    assert run(db, "book_reservation", **dict(args, payment_methods=short)) == (
        f"Error: payment amount does not add up, total price is {total}, but paid {total - 1}"
    )
    assert run(db, "book_reservation", **dict(args, payment_methods=[{"payment_id": "gift_card_0000000", "amount": total}])) == (
        "Error: payment method gift_card_0000000 not found"
    )  # fmt: skip
    out = json.loads(run(db, "book_reservation", **args))
    assert out["reservation_id"] == "HATHAT" and out["created_at"] == "2024-05-15T15:00:00"
    assert out["flights"] == [{"flight_number": number, "date": day, "price": price, "origin": f["origin"], "destination": f["destination"]}]  # fmt: skip
    assert cert not in db.users[uid]["payment_methods"]  # a certificate is used up
    assert db.users[uid]["reservations"][-1] == "HATHAT" and db.reservations["HATHAT"] == out
    passengers[0]["first_name"] = "Z"  # the caller's list is not the stored one
    assert db.reservations["HATHAT"]["passengers"][0]["first_name"] == "A"
    assert json.loads(run(db, "book_reservation", **dict(args, payment_methods=[{"payment_id": card, "amount": total}])))[
        "reservation_id"
    ] == "HATHAU"  # fmt: skip


def test_update_flights_keeps_paid_prices_refunds_and_leaves_the_cabin_field(db):
    def ok(r):
        pays = db.users[r["user_id"]]["payment_methods"].values()
        return r["cabin"] == "business" and any(m["source"] == "gift_card" for m in pays)

    res = a_reservation(db, ok)
    rid, uid, n = res["reservation_id"], res["user_id"], len(res["passengers"])
    gift = method_of(db, uid, "gift_card")
    balance = db.users[uid]["payment_methods"][gift]["amount"]
    legs = [{"flight_number": f["flight_number"], "date": f["date"]} for f in res["flights"]]
    same = json.loads(
        run(
            db,
            "update_reservation_flights",
            reservation_id=rid,
            cabin="business",
            flights=legs,
            payment_id=gift,
        )
    )
    assert (
        same["flights"] == res["flights"] and same["payment_history"] == res["payment_history"]
    )  # nothing to pay
    cert = next(
        (k for k, m in db.users[uid]["payment_methods"].items() if m["source"] == "certificate"), None
    )
    if cert:
        assert run(
            db,
            "update_reservation_flights",
            reservation_id=rid,
            cabin="business",
            flights=legs,
            payment_id=cert,
        ) == ("Error: certificate cannot be used to update reservation")
    assert run(db, "update_reservation_flights", reservation_id=rid, cabin="business", flights=legs, payment_id="credit_card_0000000") == (
        "Error: payment method not found"
    )  # fmt: skip
    down = run(
        db, "update_reservation_flights", reservation_id=rid, cabin="economy", flights=legs, payment_id=gift
    )
    out = json.loads(down)
    diff = sum(f["price"] for f in out["flights"]) * n - sum(f["price"] for f in res["flights"]) * n
    assert out["cabin"] == "business"  # upstream leaves the field as it was
    assert out["payment_history"][-1] == {"payment_id": gift, "amount": diff} and diff < 0
    assert (
        db.users[uid]["payment_methods"][gift]["amount"] == balance - diff
    )  # the refund reaches the gift card


def test_update_baggages_charges_new_paid_bags_only(db):
    res = a_reservation(db, lambda r: r["nonfree_baggages"] == 0)
    rid, uid = res["reservation_id"], res["user_id"]
    card = next(k for k, m in db.users[uid]["payment_methods"].items() if m["source"] != "certificate")
    out = json.loads(run(db, "update_reservation_baggages", reservation_id=rid, total_baggages=res["total_baggages"] + 2,
                         nonfree_baggages=2, payment_id=card))  # fmt: skip
    assert out["payment_history"][-1] == {"payment_id": card, "amount": 100}
    again = json.loads(
        run(
            db,
            "update_reservation_baggages",
            reservation_id=rid,
            total_baggages=0,
            nonfree_baggages=0,
            payment_id=card,
        )
    )
    assert (
        again["payment_history"] == out["payment_history"] and again["total_baggages"] == 0
    )  # no charge, no check
    assert run(db, "update_reservation_baggages", reservation_id="NOPE00", total_baggages=1, nonfree_baggages=1,
               payment_id=card) == "Error: reservation not found"  # fmt: skip


def test_gift_card_must_cover_a_bag_charge(db):
    def poor(r):
        return any(
            m["source"] == "gift_card" and m["amount"] < 50
            for m in db.users[r["user_id"]]["payment_methods"].values()
        )

    res = a_reservation(db, poor)
    gift = next(
        k
        for k, m in db.users[res["user_id"]]["payment_methods"].items()
        if m["source"] == "gift_card" and m["amount"] < 50
    )
    assert run(db, "update_reservation_baggages", reservation_id=res["reservation_id"], total_baggages=9,
               nonfree_baggages=res["nonfree_baggages"] + 1, payment_id=gift) == "Error: gift card balance is not enough"  # fmt: skip


def test_passengers_keep_their_number(db):
    res = a_reservation(db, lambda r: len(r["passengers"]) == 2)
    rid = res["reservation_id"]
    assert run(db, "update_reservation_passengers", reservation_id=rid, passengers=res["passengers"][:1]) == (
        "Error: number of passengers does not match"
    )
    new = [{"first_name": "X", "last_name": "Y", "dob": "2000-01-01"}, res["passengers"][1]]
    assert (
        json.loads(run(db, "update_reservation_passengers", reservation_id=rid, passengers=new))["passengers"]
        == new
    )


def test_send_certificate_takes_upstreams_ids_then_refuses(db):
    uid = next(iter(db.users))
    for n, number in enumerate((3221322, 3221323, 3221324)):
        assert run(db, "send_certificate", user_id=uid, amount=100 + n) == (
            f"Certificate certificate_{number} added to user {uid} with amount {100 + n}."
        )
        assert db.users[uid]["payment_methods"][f"certificate_{number}"] == {
            "source": "certificate",
            "amount": 100 + n,
            "id": f"certificate_{number}",
        }
    assert run(db, "send_certificate", user_id=uid, amount=5).startswith(
        f"Error: user {uid} already holds certificates"
    )
    assert run(db, "send_certificate", user_id="nobody_0000", amount=5) == "Error: user not found"


def test_ground_truth_replays_score_one(airline_env):
    from environments.taubench.replay import run_ground_truth

    assert len(airline_env.tasks("test")) == 50
    for task in airline_env.tasks("test"):
        ep = run_ground_truth(airline_env, task.task_id)
        outcome = ep.outcome(require_done=False)
        assert outcome.score == 1.0, (task.task_id, outcome.details)
        assert set(ep.db.to_dict()) == {"flights", "reservations", "users"}
