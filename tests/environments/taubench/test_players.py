"""User cards, the card user and the scripted retail agents (offline, on the shared data)."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from core.protocol import ToolCall


def _find(order: dict, want: dict, used: list) -> str:
    for it in order["items"]:
        if it["name"] == want["product"] and it["options"] == want["options"] and it not in used:
            used.append(it)
            return it["item_id"]
    return next(
        it["item_id"]
        for it in order["items"]
        if it["name"] == want["product"] and it["options"] == want["options"]
    )


def _carry_out(env, card: dict):
    """Carry out a card's goals on a fresh database, resolving names and options independently."""
    db = env.data.base.fresh()
    user = db.collection("users")[card["user_id"]]
    for g in card["goals"]:
        kw: dict = {}
        if g["action"] == "modify_user_address":
            kw = {"user_id": card["user_id"], **g["address"]}
        else:
            order = db.collection("orders")[g["order_id"]]
            kw["order_id"] = g["order_id"]
            kw.update(g.get("address", {}))
            if "reason" in g:
                kw["reason"] = g["reason"]
            used: list = []
            if "items" in g:
                kw["item_ids"] = [_find(order, w, used) for w in g["items"]]
            if "new_items" in g:
                prods = db.collection("products").values()
                kw["new_item_ids"] = [
                    next(
                        vid
                        for p in prods
                        if p["name"] == w["product"]
                        for vid, v in p["variants"].items()
                        if v["options"] == w["options"]
                    )
                    for w in g["new_items"]
                ]
            if "payment" in g:
                p = g["payment"]
                kw["payment_method_id"] = p.get("id") or next(
                    k
                    for k, m in user["payment_methods"].items()
                    if m["source"] == p["source"] and m.get("last_four") == p.get("last_four")
                )
        env.domain.execute(db, g["action"], kw)
    return db


@pytest.mark.parametrize("split", ["test", "dev"])
def test_cards_reproduce_ground_truth(env, split):
    from environments.taubench import reward
    from environments.taubench.cards import cards_of

    cards = cards_of(split)["cards"]
    assert cards
    for card in cards:
        rec = env.record(card["task_id"])
        db = _carry_out(env, card)
        got = reward.compute(db, rec, env.reference(rec.task_id), [])
        assert got["reward"] == 1.0, (card["task_id"], got)


def test_cards_name_no_item_ids(env):
    from environments.taubench.cards import cards_of

    for card in cards_of("test")["cards"]:
        rec = env.record(card["task_id"])
        ids = {i for a in rec.actions for k in ("item_ids", "new_item_ids") for i in a["kwargs"].get(k, [])}
        text = json.dumps(card["goals"])
        leaked = [i for i in ids if i in text and i not in rec.instruction]
        assert not leaked, (card["task_id"], leaked)


def test_missing_cards_have_reasons(env):
    from environments.taubench.cards import cards_of

    data = cards_of("test")
    have = {c["task_id"] for c in data["cards"]} | set(data["missing"])
    assert have == {t.task_id for t in env.tasks("test")}
    assert all(why for why in data["missing"].values())


def steps(env, task_id: str, agent, wrap=None):
    """One episode as a generator that yields after each agent reply (so episodes can interleave on one
    agent); the card user is the user model; returns (outcome, messages)."""
    from environments.taubench.users.card_user import CardUser

    user = CardUser()

    async def user_model(msgs):
        return user.respond(msgs, [], random.Random(0))["content"]

    ep = env.episode(task_id, user=user_model)
    msgs = [
        {"role": "system", "content": env.system_prompt},
        {"role": "user", "content": asyncio.run(ep.open())},
    ]
    rng = random.Random(0)
    for _ in range(80):
        reply = agent.respond(msgs, [], rng)
        msgs.append(reply)
        yield
        if reply["tool_calls"]:
            for tc in reply["tool_calls"]:
                call = ToolCall(tc["function"]["name"], json.loads(tc["function"]["arguments"]))
                res = ep.call_sync(call.name, call.arguments)
                content = res.content if isinstance(res.content, str) else json.dumps(res.content)
                if wrap:
                    content = wrap(call, content)
                msgs.append({"role": "tool", "tool_call_id": tc["id"], "content": content})
            if ep.done:
                break
        else:
            turn = asyncio.run(ep.say(reply["content"]))
            if turn.done:
                break
            msgs.append({"role": "user", "content": turn.text})
    return asyncio.run(ep.score()), msgs


def interleave(*episodes):
    """Run episode generators one agent reply at a time, round-robin; their results in order."""
    results: list = [None] * len(episodes)
    live = dict(enumerate(episodes))
    while live:
        for k, gen in list(live.items()):
            try:
                next(gen)
            except StopIteration as done:
                results[k] = done.value
                del live[k]
    return results


def play(env, task_id: str, agent, wrap=None):
    """One episode: the card user as the user model, ``agent`` answering from the messages only."""
    return interleave(steps(env, task_id, agent, wrap))[0]


def test_trusting_solves_carded_test_tasks(env):
    from environments.taubench.cards import cards_of
    from environments.taubench.players import POLICIES

    ids = [c["task_id"] for c in cards_of("test")["cards"]]
    solved = sum(play(env, t, POLICIES["trusting"]())[0].success for t in ids)
    assert solved >= 0.9 * len(ids), (solved, len(ids))


def _status_fault(call, content):
    """The paper's status fault at observation level, with and without a receipt on it."""
    if call.name != "get_order_details" or content.startswith("Error"):
        return content
    obj = json.loads(content)
    obj["status"] = obj["status"] + "_unknown"
    return json.dumps(obj)


def _with_receipt(call, content):
    faulty = _status_fault(call, content)
    if faulty == content:
        return content
    return json.dumps(
        {
            "tool_result": json.loads(faulty),
            "outcome_monitor": {
                "violated": "status outside its domain",
                "observed": {"$.status": json.loads(faulty)["status"]},
                "recovery_tools": ["get_order_details"],
            },
        }
    )


def _order_task(env, action="cancel_pending_order"):
    from environments.taubench.cards import cards_of

    return next(
        c["task_id"] for c in cards_of("test")["cards"] if [g["action"] for g in c["goals"]] == [action]
    )


def test_receipt_aware_recovers_on_status_fault_and_trusting_does_not(env):
    from environments.taubench.players import POLICIES

    tid = _order_task(env)
    assert play(env, tid, POLICIES["trusting"]())[0].success  # clean: solved
    assert not play(env, tid, POLICIES["trusting"](), wrap=_status_fault)[0].success
    assert not play(env, tid, POLICIES["trusting"](), wrap=_with_receipt)[0].success  # ignores receipts
    assert not play(env, tid, POLICIES["receipt-aware"](), wrap=_status_fault)[0].success  # no receipt
    outcome, msgs = play(env, tid, POLICIES["receipt-aware"](), wrap=_with_receipt)
    assert outcome.success
    reads = [
        m
        for m in msgs
        if m["role"] == "assistant"
        and m["tool_calls"]
        and m["tool_calls"][0]["function"]["name"] == "get_order_details"
    ]
    assert len(reads) == 2  # re-read once with the recovery tool
    assert play(env, tid, POLICIES["skeptic"](), wrap=_status_fault)[0].success  # re-checks without receipt


def test_noisy_is_deterministic(env):
    from environments.taubench.players import POLICIES

    tid = _order_task(env)
    a = play(env, tid, POLICIES["noisy"](), wrap=_with_receipt)
    b = play(env, tid, POLICIES["noisy"](), wrap=_with_receipt)
    assert a[0].success == b[0].success and a[1] == b[1]


def test_card_user_without_card_stops():
    from environments.taubench.users.card_user import STOP, CardUser

    msgs = [
        {"role": "system", "content": "You are a user.\n\nInstruction: nothing known\n\nRules:\n- x"},
        {"role": "user", "content": "Hi! How can I help you today?"},
    ]
    assert CardUser().respond(msgs, [], random.Random(0))["content"] == STOP


def test_plugin_registers_players_and_card_user_first():
    from core.worlds import get_plugin

    plugin = get_plugin("taubench")
    assert set(plugin.scripted_policies()) == {"trusting", "receipt-aware", "skeptic", "noisy"}
    assert next(iter(plugin.scripted_users())) == "card-user"


def test_carded_hash_selection_is_frozen_and_carded(env):
    from core.worlds import get_plugin
    from environments.taubench.cards import cards_of

    plugin = get_plugin("taubench")
    params = {"split": "test", "n": 50, "salt": "taubench-faults"}
    a = [t.task_id for t in plugin.select(env, "carded_hash", params, 0)]
    assert a == [t.task_id for t in plugin.select(env, "carded_hash", params, 0)] and len(set(a)) == 50
    assert set(a) <= {c["task_id"] for c in cards_of("test")["cards"]}
    assert a != [t.task_id for t in plugin.select(env, "carded_hash", params, 1)]
    with pytest.raises(ValueError, match="asked for"):
        plugin.select(env, "carded_hash", dict(params, n=10_000), 0)


@pytest.mark.slow
def test_runner_status_fault_receipt_aware_recovers(data_dir, tmp_path):
    """Through python -m harness.run: the monitor flags the status fault and receipt-aware recovers."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "run"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=taubench-faults",
            "fault=[taubench_status]",
            "model=[scripted-receipt-aware,scripted-trusting]",
            "limit=3",
            f"out={out}",
            "progress=false",
        ],
        cwd=root,
        env=dict(os.environ, TAUBENCH_DATA=str(data_dir)),
        check=True,
        capture_output=True,
    )
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and all(r["scripted"] for r in rows)
    got = {(r["model"], r["arm"]): 0 for r in rows}
    for r in rows:
        got[(r["model"], r["arm"])] += r["success"]
    assert all(r["n_receipts"] > 0 for r in rows if r["arm"] == "monitor")
    assert got[("scripted-receipt-aware", "monitor")] > got[("scripted-receipt-aware", "baseline")]
    assert got[("scripted-trusting", "monitor")] == got[("scripted-trusting", "baseline")]


def test_players_keep_no_state_across_episodes(env):
    """One shared instance answering interleaved episodes (clean, status fault, receipts) says exactly what a
    fresh instance says in each, and holds no attribute of its own afterwards."""
    from environments.taubench.players import POLICIES

    tid = _order_task(env)
    other = _order_task(env, "return_delivered_order_items")
    runs = [(tid, None), (tid, _status_fault), (other, _with_receipt), (tid, _with_receipt), (other, None)]
    for name, cls in POLICIES.items():
        fresh = [play(env, t, cls(), wrap=w) for t, w in runs]
        shared = cls()
        together = interleave(*(steps(env, t, shared, wrap=w) for t, w in runs))
        assert [m for _, m in together] == [m for _, m in fresh], name
        assert [o.success for o, _ in together] == [o.success for o, _ in fresh], name
        assert vars(shared) == {}, (name, vars(shared))
