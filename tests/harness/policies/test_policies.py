"""Unit tests of the reference policies on handcrafted conversations (no environment, no litellm)."""

from __future__ import annotations

import json
import random

import pytest
from _toolmaze_bound import get_policy

from harness.agents.prompts import DEFERRED_PREFIX

RECEIPT = {
    "violated": "price must be positive",
    "observed": -12.5,
    "recovery_tools": ["get_price_a", "get_price_b"],
}
BAD = {"item": "widget", "price": -12.5}


def respond(name: str, convo, seed: int = 0) -> dict:
    return get_policy(name).respond(convo.messages, convo.tools, random.Random(seed))


@pytest.mark.parametrize("name", ["trusting", "receipt-aware", "skeptic", "noisy"])
def test_clean_run_follows_the_query_and_finishes_with_the_code(name, convo):
    assert convo.next_call(respond(name, convo)) == ("get_price_a", {"item": "widget"})
    convo.call("get_price_a", {"item": "widget"}).result(convo.clean)
    # the price comes from the result, the quantity from Inputs as an integer
    assert convo.next_call(respond(name, convo)) == (
        "place_order",
        {"item": "widget", "price": 12.5, "quantity": 2},
    )
    convo.call("place_order", {"item": "widget", "price": 12.5, "quantity": 2}).result(
        {"confirmation_code": "CF-1A"}
    )
    tool, args = convo.next_call(respond(name, convo))
    assert tool == "finish" and args["status"] == "done"
    assert args["answer"].startswith(f"[scripted policy {name}]") and "CF-1A" in args["answer"]


def test_receipt_aware_switches_to_a_listed_recovery_tool(convo):
    convo.call("get_price_a", {"item": "widget"}).result(BAD, receipt=RECEIPT)
    assert convo.next_call(respond("receipt-aware", convo)) == ("get_price_b", {"sku": "widget"})
    convo.call("get_price_b", {"sku": "widget"}).result(convo.clean)
    # the switched-to value replaces the flagged one
    assert convo.next_call(respond("receipt-aware", convo))[1]["price"] == 12.5


@pytest.mark.parametrize(
    "receipt",
    [
        {"violated": "price must be positive", "observed": -12.5},  # stripped: no list
        {"warning": "this result may be wrong"},  # generic
        {
            "violated": "price must be positive",
            "observed": -12.5,
            "recovery_tools": ["get_price_a"],
        },  # only itself
    ],
)
def test_receipt_aware_retries_when_no_other_tool_is_listed(convo, receipt):
    convo.call("get_price_a", {"item": "widget"}).result(BAD, receipt=receipt)
    assert convo.next_call(respond("receipt-aware", convo))[0] == "get_price_a"
    # a second flagged attempt reroutes to the other provider
    convo.call("get_price_a", {"item": "widget"}).result(BAD, receipt=receipt)
    assert convo.next_call(respond("receipt-aware", convo))[0] == "get_price_b"


def test_trusting_ignores_receipts(convo):
    convo.call("get_price_a", {"item": "widget"}).result(BAD, receipt=RECEIPT)
    assert convo.next_call(respond("trusting", convo)) == (
        "place_order",
        {"item": "widget", "price": -12.5, "quantity": 2},
    )


def test_skeptic_catches_a_negative_price_without_a_receipt(convo):
    convo.call("get_price_a", {"item": "widget"}).result(BAD)
    assert convo.next_call(respond("skeptic", convo))[0] == "get_price_a"  # retry first
    assert convo.next_call(respond("trusting", convo))[0] == "place_order"  # the trusting one uses it


@pytest.mark.parametrize(
    "raw",
    [
        {"item": "widget", "price": "<html><title>502 Bad Gateway</title></html>"},
        {"item": "gadget", "price": 12.5},  # echoed identifier differs from the argument
    ],
)
def test_skeptic_other_checks(convo, raw):
    convo.call("get_price_a", {"item": "widget"}).result(raw)
    assert convo.next_call(respond("skeptic", convo))[0] == "get_price_a"


def test_explicit_errors_retry_then_reroute_then_abort(convo):
    err = {"error": "503 Service Unavailable", "code": 503}
    convo.call("get_price_a", {"item": "widget"}).result(err)
    assert convo.next_call(respond("trusting", convo))[0] == "get_price_a"
    convo.call("get_price_a", {"item": "widget"}).result(err)
    assert convo.next_call(respond("trusting", convo)) == ("get_price_b", {"sku": "widget"})
    convo.call("get_price_b", {"sku": "widget"}).result(err).call("get_price_b", {"sku": "widget"}).result(
        err
    )
    tool, args = convo.next_call(respond("trusting", convo))
    assert tool == "finish" and args["status"] == "aborted"
    assert "look up the item price" in args["reason"].lower() and args["answer"].startswith(
        "[scripted policy trusting]"
    )


def test_deferred_receipt_is_applied_to_the_previous_call(convo):
    convo.call("get_price_a", {"item": "widget"}).result(BAD)
    convo.call("place_order", {"item": "widget", "price": -12.5, "quantity": 2})
    convo.result({"confirmation_code": "CF-BAD"}, prefix=DEFERRED_PREFIX + json.dumps(RECEIPT) + "\n\n")
    # the flagged quote is replaced, and the order made with it no longer counts as done
    assert convo.next_call(respond("receipt-aware", convo))[0] == "get_price_b"
    assert convo.next_call(respond("trusting", convo))[0] == "finish"


def test_no_receipt_on_action_repeats_the_write(convo):
    convo.call("get_price_a", {"item": "widget"}).result(convo.clean)
    convo.call("place_order", {"item": "widget", "price": 12.5, "quantity": 2})
    convo.result(
        {"confirmation_code": "CF-1A"}, receipt={"violated": "x", "observed": 1, "recovery_tools": []}
    )
    assert convo.next_call(respond("receipt-aware", convo))[0] == "finish"


def test_receipt_aware_walks_a_chain_and_never_switches_into_a_route_it_left(chain_convo):
    c = chain_convo

    def flagged(tool: str, args: dict, listed: list[str]):
        c.call(tool, args).result(BAD, receipt={**RECEIPT, "recovery_tools": listed})
        return c.next_call(respond("receipt-aware", c))

    assert flagged("get_price_a", {"item": "widget"}, ["resolve_item_ref"]) == (
        "resolve_item_ref",
        {"item": "widget"},
    )
    c.call("resolve_item_ref", {"item": "widget"}).result({"item_ref": "R-1"})
    assert c.next_call(respond("receipt-aware", c)) == ("get_price_by_ref", {"item_ref": "R-1"})
    assert flagged("get_price_by_ref", {"item_ref": "R-1"}, ["get_price_b"]) == (
        "get_price_b",
        {"sku": "widget"},
    )
    # the only listed tool opens the chain it already left: retry instead of going back
    assert flagged("get_price_b", {"sku": "widget"}, ["resolve_item_ref"])[0] == "get_price_b"
    # a second failure with no live route left aborts, naming the sub-task
    tool, args = flagged("get_price_b", {"sku": "widget"}, ["resolve_item_ref"])
    assert tool == "finish" and args["status"] == "aborted" and "look up the item price" in args["reason"]


def test_tools_without_conventions_are_declined_not_faked():
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_user",
                "description": "Get a user.",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    messages = [{"role": "user", "content": "Cancel my order."}]
    reply = get_policy("trusting").respond(messages, tools, random.Random(0))
    assert reply["tool_calls"] == [] and "cannot plan" in reply["content"]
    assert reply["content"].startswith("[scripted policy trusting]")
