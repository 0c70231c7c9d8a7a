"""The card user: a scripted simulated customer that plays its task's user card (both domains).

It sees only the messages the environment builds for a user model: the system message holding
the instruction (the card is looked up by that text) and the conversation with roles flipped
(the agent's texts are ``user`` messages, its own replies ``assistant`` messages). It states its
identity and one goal at a time, each with a ``REQUEST {...}`` line (retail: product names and
option values, never item ids; airline: flights, passengers, payment methods by kind), says yes
to a confirmation, answers a question about the cabin its reservation keeps from the goal's
private knowledge (a ``FACT {...}`` line), moves to the next goal when the agent is done or cannot
help, and ends with ``###STOP###``. Knows nothing about tools, the database or the ground truth
beyond its card.
"""

from __future__ import annotations

import json
import random
import re

from environments.taubench.cards import lookup

STOP = "###STOP###"
_INSTRUCTION = re.compile(r"Instruction: (.*?)\n\nRules:", re.S)
PHRASE = {
    "cancel_pending_order": "cancel my order {order_id}",
    "modify_pending_order_address": "change the shipping address of my order {order_id}",
    "modify_pending_order_payment": "change the payment method of my order {order_id}",
    "modify_pending_order_items": "change some items in my pending order {order_id}",
    "return_delivered_order_items": "return some items from my order {order_id}",
    "exchange_delivered_order_items": "exchange some items from my order {order_id}",
    "modify_user_address": "update my default address",
    "book_reservation": "book a {flight_type} trip from {origin} to {destination}",
    "cancel_reservation": "cancel my reservation {reservation_id}",
    "update_reservation_flights": "change the flights of my reservation {reservation_id}",
    "update_reservation_baggages": "change the checked bags of my reservation {reservation_id}",
    "update_reservation_passengers": "change the passengers of my reservation {reservation_id}",
    "send_certificate": "get the compensation certificate of {amount} dollars I was promised",
}
PRIVATE = "private"  # what the user knows but says only when asked (the cabin a reservation keeps)


def _say(text: str) -> dict:
    return {"role": "assistant", "content": text, "tool_calls": []}


def request_text(card: dict, index: int) -> str:
    goal = card["goals"][index]
    ident = card["identity"]
    if "email" in ident:
        who = f"My email is {ident['email']}."
    elif "user_id" in ident:
        who = f"My user id is {ident['user_id']}."
    else:
        who = f"I'm {ident['first_name']} {ident['last_name']}, zip code {ident['zip']}."
    lead = "Hi! " + who + " " if index == 0 else "Yes, one more thing. "
    wish = PHRASE[goal["action"]].format_map(_Blank(goal))
    spec = {k: v for k, v in goal.items() if k != PRIVATE}
    spec["identity"] = ident
    return f"{lead}I'd like to {wish}. REQUEST {json.dumps(spec, sort_keys=True)}"


class _Blank(dict):
    """A goal for str.format_map: a phrase's field the goal lacks reads as empty."""

    def __missing__(self, key: str) -> str:
        return ""


def _fact(card: dict, index: int, low: str) -> str | None:
    """The answer to a question about the cabin the current goal's reservation keeps, if asked."""
    private = card["goals"][index].get(PRIVATE) or {} if 0 <= index < len(card["goals"]) else {}
    if "which cabin" in low and "cabin" in private:
        return f"It is booked in {private['cabin']}. FACT {json.dumps({'cabin': private['cabin']})}"
    return None


class CardUser:
    name = "card"

    def respond(self, messages: list[dict], tools: list[dict], rng: random.Random) -> dict:
        system = messages[0].get("content") or "" if messages else ""
        m = _INSTRUCTION.search(system)
        card = lookup(m.group(1)) if m else None
        if card is None:  # no card for this instruction: the task needs an LLM user
            return _say(STOP)
        mine = [x.get("content") or "" for x in messages if x.get("role") == "assistant"]
        sent = sum(1 for t in mine if "REQUEST " in t)
        agent = next((x.get("content") or "" for x in reversed(messages) if x.get("role") == "user"), "")
        if sent == 0:
            return _say(request_text(card, 0))
        low = agent.lower()
        if "please confirm" in low:
            return _say("Yes, please go ahead.")
        fact = _fact(card, sent - 1, low)
        if fact is not None:
            return _say(fact)
        if "anything else" in low or "cannot" in low or len(mine) > 40:
            return _say(request_text(card, sent) if sent < len(card["goals"]) else STOP)
        idle = 0
        for t in reversed(mine):
            if "REQUEST " in t:
                break
            idle += t.startswith("I don't know")
        return _say(STOP if idle >= 2 else "I don't know that, sorry; it should all be in my request.")
