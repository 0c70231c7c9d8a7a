"""Airline user cards, the card user and the scripted agents on the airline domain (offline, shared data)."""

from __future__ import annotations

import json
import random

from tests.environments.taubench.test_players import interleave, play, steps


def _carry_out(env, card: dict):
    """Carry out a card's goals on a fresh database, resolving payment ids, prices and amounts independently."""
    db = env.data.base.fresh()
    user_id = card["user_id"]

    def pay_id(p):
        methods = db.users[user_id]["payment_methods"]
        return p.get("id") or next(
            k
            for k, m in methods.items()
            if m["source"] == p["source"] and m.get("last_four") == p.get("last_four")
        )

    for g in card["goals"]:
        action = g["action"]
        if action == "send_certificate":
            kw = {"user_id": user_id, "amount": g["amount"]}
        elif action == "book_reservation":
            n = len(g["passengers"])
            total = (
                sum(
                    db.flights[f["flight_number"]]["dates"][f["date"]]["prices"][g["cabin"]]
                    for f in g["flights"]
                )
                * n
            )
            total += 30 * n * (g["insurance"] == "yes") + 50 * g["nonfree_baggages"]
            pays, left = [], total
            for i, p in enumerate(g["payments"]):
                pid = pay_id(p)
                m = db.users[user_id]["payment_methods"][pid]
                amount = (
                    left
                    if i == len(g["payments"]) - 1 or m["source"] == "credit_card"
                    else min(m["amount"], left)
                )
                pays.append({"payment_id": pid, "amount": amount})
                left -= amount
            kw = {k: g[k] for k in ("origin", "destination", "flight_type", "cabin", "passengers", "total_baggages",
                                    "nonfree_baggages", "insurance")}  # fmt: skip
            kw.update(
                user_id=user_id,
                payment_methods=pays,
                flights=[{k: f[k] for k in ("flight_number", "date")} for f in g["flights"]],
            )
        else:
            kw = {"reservation_id": g["reservation_id"]}
            for key in ("passengers", "total_baggages", "nonfree_baggages", "flights"):
                if key in g:
                    kw[key] = g[key]
            if action == "update_reservation_flights":
                kw["cabin"] = g.get("cabin") or g["private"]["cabin"]
            if "payment" in g:
                kw["payment_id"] = pay_id(g["payment"])
        out = env.domain.execute(db, action, kw)
        assert not out.startswith("Error"), (card["task_id"], action, out)
    return db


def test_cards_reproduce_ground_truth(airline_env):
    from environments.taubench import reward
    from environments.taubench.cards import cards_of

    data = cards_of("test", "airline")
    assert len(data["cards"]) == 27
    assert {c["task_id"] for c in data["cards"]} | set(data["missing"]) == {
        t.task_id for t in airline_env.tasks("test")
    }
    assert all(data["missing"].values())
    for card in data["cards"]:
        rec = airline_env.record(card["task_id"])
        got = reward.compute(_carry_out(airline_env, card), rec, airline_env.reference(rec.task_id), [])
        assert got["reward"] == 1.0, (card["task_id"], got)


def test_cards_keep_payment_ids_and_the_kept_cabin_out_of_the_request(airline_env):
    from environments.taubench.cards import cards_of, lookup
    from environments.taubench.users.card_user import request_text

    for card in cards_of("test", "airline")["cards"]:
        rec = airline_env.record(card["task_id"])
        assert lookup(rec.instruction)["task_id"] == card["task_id"]
        for i in range(len(card["goals"])):
            line = request_text(card, i)
            spec = json.loads(line.split("REQUEST ", 1)[1])
            assert "private" not in spec and spec["identity"] == {"user_id": rec.user_id}
            ids = {p["payment_id"] for a in rec.actions for p in a["kwargs"].get("payment_methods", [])}
            ids |= {a["kwargs"]["payment_id"] for a in rec.actions if "payment_id" in a["kwargs"]}
            held = airline_env.data.base.collections["users"][rec.user_id]["payment_methods"]
            # an id only where the user holds several methods of its kind
            for pid in (pid for pid in ids if pid in line):
                assert sum(m["source"] == held[pid]["source"] for m in held.values()) > 1, (
                    card["task_id"],
                    pid,
                )


def _airline_task(airline_env, keeps_cabin=True):
    from environments.taubench.cards import cards_of

    return next(
        c["task_id"]
        for c in cards_of("test", "airline")["cards"]
        if len(c["goals"]) == 1
        and c["goals"][0]["action"] == "update_reservation_flights"
        and ("private" in c["goals"][0]) == keeps_cabin
    )


def _cabin_fault(call, content):
    """The status-like fault at observation level: the reservation's cabin outside its domain."""
    if call.name != "get_reservation_details" or content.startswith("Error"):
        return content
    obj = json.loads(content)
    obj["cabin"] = obj["cabin"] + "_legacy"
    return json.dumps(obj)


def _cabin_receipt(call, content):
    faulty = _cabin_fault(call, content)
    if faulty == content:
        return content
    return json.dumps(
        {
            "tool_result": json.loads(faulty),
            "outcome_monitor": {
                "violated": "cabin outside its domain",
                "observed": json.loads(faulty)["cabin"],
                "recovery_tools": ["get_reservation_details"],
            },
        }
    )


def test_every_player_solves_every_carded_task_clean(airline_env):
    from environments.taubench.cards import cards_of
    from environments.taubench.players import POLICIES

    ids = [c["task_id"] for c in cards_of("test", "airline")["cards"]]
    for name, cls in POLICIES.items():
        solved = [t for t in ids if play(airline_env, t, cls())[0].success]
        assert solved == ids, (name, sorted(set(ids) - set(solved)))


def test_cabin_fault_harms_trusting_and_receipts_or_skepticism_recover(airline_env):
    from environments.taubench.players import POLICIES

    tid = _airline_task(airline_env)
    assert not play(airline_env, tid, POLICIES["trusting"](), wrap=_cabin_fault)[0].success
    assert not play(airline_env, tid, POLICIES["trusting"](), wrap=_cabin_receipt)[
        0
    ].success  # ignores receipts
    assert not play(airline_env, tid, POLICIES["receipt-aware"](), wrap=_cabin_fault)[0].success  # no receipt
    outcome, msgs = play(airline_env, tid, POLICIES["receipt-aware"](), wrap=_cabin_receipt)
    assert outcome.success
    said = [m["content"] for m in msgs if m["role"] == "user"]
    assert any("FACT " in (t or "") for t in said)  # the user said which cabin
    assert play(airline_env, tid, POLICIES["skeptic"](), wrap=_cabin_fault)[0].success  # re-checks, then asks
    # a change of cabin needs no cabin read: the fault does no harm there
    changes = _airline_task(airline_env, keeps_cabin=False)
    assert play(airline_env, changes, POLICIES["trusting"](), wrap=_cabin_fault)[0].success


def test_airline_players_keep_no_state_across_episodes(airline_env):
    from environments.taubench.players import POLICIES

    a, b = _airline_task(airline_env), _airline_task(airline_env, keeps_cabin=False)
    runs = [(a, _cabin_fault), (b, None), (a, _cabin_receipt), (b, _cabin_receipt)]
    for name, cls in POLICIES.items():
        fresh = [play(airline_env, t, cls(), wrap=w) for t, w in runs]
        shared = cls()
        together = interleave(*(steps(airline_env, t, shared, wrap=w) for t, w in runs))
        assert [m for _, m in together] == [m for _, m in fresh], name
        assert vars(shared) == {}


def test_the_player_picks_its_domain_from_the_request_or_the_tools():
    from environments.taubench.players import POLICIES

    agent = POLICIES["trusting"]()
    hello = [{"role": "system", "content": "policy"}, {"role": "user", "content": "Hi"}]
    airline_tools = [{"type": "function", "function": {"name": "get_reservation_details"}}]
    assert "user id" in agent.respond(hello, airline_tools, random.Random(0))["content"]
    assert "zip code" in agent.respond(hello, [], random.Random(0))["content"]
    asked = hello[:1] + [
        {
            "role": "user",
            "content": 'REQUEST {"action": "cancel_reservation", "reservation_id": "ZZZ999", '
            '"identity": {"user_id": "a_b_1234"}}',
        }  # fmt: skip
    ]
    reply = agent.respond(asked, [], random.Random(0))
    assert reply["tool_calls"][0]["function"]["name"] == "get_user_details"  # airline authenticates so
