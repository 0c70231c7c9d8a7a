"""Generic mode: the stock policies on tools that carry no world's conventions (schemas alone).

Unit tests on a handcrafted order desk (no environment, no litellm), then whole episodes through the
project's agent loop: on worlds that live only in the tests, on tau-bench retail with its own
players set aside, and on ToolMaze (conventions mode) for contrast.
"""

from __future__ import annotations

import json
import random

import pytest

from harness.agents.policies._generic import MAX_CALLS, Values, returned_name
from harness.agents.policies._schema import effect, read_schemas
from harness.agents.policies.noisy import Noisy, NoisyParams
from harness.llm.providers.registry import get_policy

STOCK = ("trusting", "receipt-aware", "skeptic", "noisy")
USER = "Hi, my email is ann@example.com. Please cancel order O-2 (it never shipped)."


def _tool(name: str, desc: str, params: dict, required: list[str] | None = None) -> dict:
    props = {k: ({"type": v} if isinstance(v, str) else v) for k, v in params.items()}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": desc,
            "parameters": {"type": "object", "properties": props, "required": list(required or params)},
        },
    }


TOOLS = [
    _tool("find_customer_id_by_email", "Find a customer's id by e-mail.", {"email": "string"}),
    _tool("get_customer", "Get a customer's profile and orders.", {"customer_id": "string"}),
    _tool("get_order", "Get an order: status and total.", {"order_id": "string"}),
    _tool("lookup_order_archive", "Look up an order in the archive.", {"order_id": "string"}),
    _tool("cancel_order", "Cancel an order.", {"order_id": "string", "reason": "string"}),
    _tool("archive_order", "Archive an order.", {"order_id": "string"}),  # effect unknown: not called
    _tool(
        "finish",
        "End the episode.",
        {"status": {"type": "string", "enum": ["done", "aborted"]}, "answer": "string"},
    ),
]
ORDERS = {
    "O-1": {"order_id": "O-1", "status": "delivered", "total": 20.0},
    "O-2": {"order_id": "O-2", "status": "pending", "total": 35.5},
}


def desk(name: str, args: dict):
    """The desk's clean answers."""
    if name == "find_customer_id_by_email":
        return "C-7" if args["email"] == "ann@example.com" else {"error": "no such customer"}
    if name == "get_customer":
        return {"customer_id": "C-7", "name": "Ann", "orders": ["O-1", "O-2"]}
    if name in ("get_order", "lookup_order_archive"):
        return dict(ORDERS[args["order_id"]])
    raise AssertionError(f"the desk never expects {name} to be called: {args}")


class Convo:
    def __init__(self, tools: list[dict] | None = None, user: str = USER) -> None:
        self.tools = tools or TOOLS
        self.messages: list[dict] = [{"role": "system", "content": "sys"}, {"role": "user", "content": user}]
        self.n = 0

    def ask(self, policy, seed: int = 0) -> dict:
        return policy.respond([dict(m) for m in self.messages], self.tools, random.Random(seed))

    def add(self, reply: dict, content) -> None:
        """Append the policy's reply and the tool's answer (a dict, a list, or text)."""
        self.n += 1
        tc = dict(reply["tool_calls"][0], id=f"c{self.n}")
        self.messages.append({"role": "assistant", "content": reply["content"], "tool_calls": [tc]})
        text = content if isinstance(content, str) else json.dumps(content)
        self.messages.append({"role": "tool", "tool_call_id": tc["id"], "content": text})


def call_of(reply: dict) -> tuple[str, dict] | None:
    if not reply["tool_calls"]:
        return None
    fn = reply["tool_calls"][0]["function"]
    return fn["name"], json.loads(fn["arguments"])


def play(policy, convo: Convo, answer=desk, rounds: int = 40) -> list[tuple[str, dict]]:
    """Run ``policy`` to its end against ``answer(name, args)``; the calls it made, the last is its end."""
    calls = []
    for _ in range(rounds):
        reply = convo.ask(policy)
        assert reply["content"].startswith(f"[scripted policy {policy.name}]"), reply["content"]
        call = call_of(reply)
        if call is None:
            return calls
        calls.append(call)
        if call[0] == "finish":
            return calls
        convo.add(reply, answer(*call))
    raise AssertionError(f"no end after {rounds} rounds: {calls}")


# --- the schema rules ------------------------------------------------------------------------------


def test_effect_rule_from_names_and_descriptions():
    infos = {t.name: t for t in read_schemas(TOOLS)}
    kinds = {
        n: ("terminal" if t.is_terminal else "write" if t.is_action else "read") for n, t in infos.items()
    }
    assert kinds == {
        "find_customer_id_by_email": "read",
        "get_customer": "read",
        "get_order": "read",
        "lookup_order_archive": "read",
        "cancel_order": "write",
        "archive_order": "write",  # unknown verb: treated as a write
        "finish": "terminal",
    }
    assert effect("get_and_cancel_order", "", ()) == "write"  # a write verb outweighs a read verb
    assert effect("order_status", "Look up an order's status.", ()) == "read"  # the description's verb
    assert effect("spotify__show_song", "", ()) == "read"
    assert effect("supervisor__complete_task", "", ()) == "terminal"
    assert effect("transfer_to_human_agents", "Transfer the user.", ()) == "write"


def test_values_from_the_users_words_and_results():
    v = Values()
    params = read_schemas(TOOLS)[2].params + read_schemas(TOOLS)[0].params
    v.add_text('REQUEST {"identity": {"zip": "19122"}} and note: quantity=2; colour = dark blue', params)
    v.add_text(USER, params)
    assert v.by_name["zip"] == ["19122"] and v.by_name["quantity"] == ["2"]
    assert v.by_name["colour"] == ["dark blue"]
    assert v.by_name["email"] == ["ann@example.com"] and v.by_name["order_id"] == ["O-2"]
    v.add_result(
        "get_customer", {"customer_id": "C-7", "orders": ["O-1", "O-2"], "address": {"city": "Oslo"}}
    )
    assert v.by_name["order_id"] == ["O-2", "O-1"]  # the user's first, then the list's singular id
    assert v.by_name["city"] == ["Oslo"]
    assert returned_name("find_user_id_by_email") == "user_id"
    v.add_result("find_user_id_by_email", "ann_7")
    assert v.by_name["user_id"] == ["ann_7"]


# --- the planner on the handcrafted desk ----------------------------------------------------------------


@pytest.mark.parametrize("name", STOCK)
def test_reads_what_it_can_fill_never_writes_and_finishes(name):
    calls = play(get_policy(name), Convo())
    assert [c[0] for c in calls] == [
        "find_customer_id_by_email",
        "get_customer",
        "get_order",
        "get_order",
        "lookup_order_archive",
        "lookup_order_archive",
        "finish",
    ]
    assert calls[1][1] == {"customer_id": "C-7"}  # the bare value of a tool named for it
    assert [c[1] for c in calls[2:4]] == [{"order_id": "O-2"}, {"order_id": "O-1"}]
    assert len(set(map(json.dumps, calls))) == len(calls)  # each (tool, arguments) once
    assert calls[-1][1]["status"] == "done" and calls[-1][1]["answer"].startswith(f"[scripted policy {name}]")
    assert "cannot make changes" in calls[-1][1]["answer"]


def test_receipt_aware_switches_to_the_first_callable_recovery_tool_and_trusting_does_not():
    receipt = {
        "violated": "status outside its domain",
        "recovery_tools": ["get_order", "cancel_order", "lookup_order_archive"],
    }

    def flagged(name, args):
        out = desk(name, args)
        if name == "get_order" and args["order_id"] == "O-2":
            return {"tool_result": dict(out, status="pending_unknown"), "outcome_monitor": receipt}
        return out

    def after_flag(policy) -> tuple[str, dict] | None:
        convo = Convo()
        while True:
            reply = convo.ask(policy)
            call = call_of(reply)
            convo.add(reply, flagged(*call))
            if call == ("get_order", {"order_id": "O-2"}):
                return call_of(convo.ask(policy))

    # the flagged tool itself and the write are skipped: the first listed read it can call
    assert after_flag(get_policy("receipt-aware")) == ("lookup_order_archive", {"order_id": "O-2"})
    assert after_flag(get_policy("skeptic")) == ("lookup_order_archive", {"order_id": "O-2"})
    assert after_flag(get_policy("trusting")) == ("get_order", {"order_id": "O-1"})


def test_receipt_without_a_callable_recovery_tool_is_a_retry():
    receipt = {"violated": "status outside its domain", "recovery_tools": ["get_order", "cancel_order"]}
    policy, convo = get_policy("receipt-aware"), Convo()
    for _ in range(2):  # the customer's id, then the customer
        reply = convo.ask(policy)
        convo.add(reply, desk(*call_of(reply)))
    reply = convo.ask(policy)
    assert call_of(reply) == ("get_order", {"order_id": "O-2"})
    convo.add(reply, {"tool_result": dict(ORDERS["O-2"], status="??"), "outcome_monitor": receipt})
    # the only other listed tool is a write: retry the flagged call
    assert call_of(convo.ask(policy)) == ("get_order", {"order_id": "O-2"})


def test_skeptic_rejects_an_implausible_result_and_trusting_uses_it():
    def negative(name, args):
        out = desk(name, args)
        return dict(out, total=-35.5) if name == "get_order" and args["order_id"] == "O-2" else out

    skeptic, trusting = (
        play(get_policy("skeptic"), Convo(), negative),
        play(get_policy("trusting"), Convo(), negative),
    )
    o2 = ("get_order", {"order_id": "O-2"})
    assert skeptic.count(o2) == 2 and trusting.count(o2) == 1  # one retry, then it moves on
    convo = Convo()
    for _ in range(3):
        reply = convo.ask(get_policy("skeptic"))
        convo.add(reply, negative(*call_of(reply)))
    assert "implausible: total is -35.5" in convo.ask(get_policy("skeptic"))["content"]


def test_explicit_errors_are_retried_once_then_left():
    def down(name, args):
        return {"error": "503 Service Unavailable"} if name == "get_customer" else desk(name, args)

    calls = play(get_policy("trusting"), Convo(), down)
    assert [c[0] for c in calls].count("get_customer") == 2
    assert ("get_order", {"order_id": "O-1"}) not in calls  # O-1 was only in the customer's orders
    assert ("get_order", {"order_id": "O-2"}) in calls  # the user named O-2


def test_noisy_writes_its_draws_and_replays_them():
    receipt = {"violated": "status outside its domain", "recovery_tools": ["lookup_order_archive"]}
    policy = Noisy(NoisyParams(p_follow=0.5, p_overreact=0.25))

    def convo_at_flag() -> Convo:
        convo = Convo()
        for _ in range(3):
            reply = convo.ask(policy)
            name, args = call_of(reply)
            out = desk(name, args)
            convo.add(reply, {"tool_result": out, "outcome_monitor": receipt} if name == "get_order" else out)
        return convo

    convo = convo_at_flag()
    seen = {}
    for seed in range(40):
        reply = convo.ask(policy, seed)
        assert reply == convo.ask(policy, seed)  # deterministic for a fixed request seed
        choice = reply["content"].split("{judged: c3.r=")[1].split("}")[0]
        seen.setdefault(choice, (seed, reply))
    assert set(seen) == {"abandon", "follow", "ignore"}
    assert call_of(seen["follow"][1]) == ("lookup_order_archive", {"order_id": "O-2"})
    assert call_of(seen["abandon"][1])[1]["status"] == "aborted"
    assert call_of(seen["ignore"][1]) == ("get_order", {"order_id": "O-1"})
    # a later turn replays the written choice whatever its own rng draws
    _, follow = seen["follow"]
    convo.add(follow, desk("lookup_order_archive", {"order_id": "O-2"}))
    nexts = {json.dumps(call_of(convo.ask(policy, s))) for s in range(20)}
    # (it switched away from get_order, so the archive reads the customer's other order too)
    assert nexts == {json.dumps(["lookup_order_archive", {"order_id": "O-1"}])}


def test_stateless_across_requests():
    """One shared instance serves interleaved conversations exactly as it serves each alone."""
    policy = get_policy("skeptic")
    alone = play(policy, Convo())
    a, b = Convo(), Convo(user="My email is bob@example.com; order O-1 please.")
    made_a, made_b = [], []
    for _ in range(len(alone)):
        for convo, made in ((a, made_a), (b, made_b)):
            if made and made[-1][0] == "finish":
                continue
            reply = convo.ask(policy)
            made.append(call_of(reply))
            if made[-1][0] != "finish":
                convo.add(reply, desk(*made[-1]))
    assert made_a == alone


def test_no_terminal_tool_means_a_text_answer_and_the_cap_ends_it():
    orders = [f"O-{k}" for k in range(10)]

    def many(name, args):  # more to read than generic mode will
        if name == "get_customer":
            return {"customer_id": "C-7", "orders": orders}
        return (
            {"order_id": args.get("order_id"), "status": "pending"}
            if "order_id" in args
            else desk(name, args)
        )

    readers = [_tool(f"get_order_from_{x}", "Get an order.", {"order_id": "string"}) for x in "abcd"]
    tools = TOOLS[:2] + readers
    calls = play(get_policy("trusting"), Convo(tools), many)
    assert len(calls) == MAX_CALLS  # the cap (each reader stops at its own cap first), then text
    reply = Convo(tools).ask(get_policy("trusting"))
    assert reply["tool_calls"]  # (the same conversation from its start does call)
    reply = Convo(tools, user="Hello").ask(get_policy("trusting"))
    assert reply["tool_calls"] == [] and "Task aborted" in reply["content"]  # nothing it may call


def test_the_new_modules_import_nothing_that_knows_the_task():
    """As test_blindness checks for the older modules: planning and binding see messages, schemas, plugins."""
    import ast
    from pathlib import Path

    import harness.agents.policies as pkg

    forbidden = ("environments", "harness.monitor", "harness.faults", "harness.run.study", "harness.records")
    for name in ("_generic", "_judge", "_schema", "players"):
        tree = ast.parse((Path(pkg.__file__).parent / f"{name}.py").read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert imported and not [m for m in imported if m.startswith(forbidden)], (name, imported)
