"""The protocol v2 episode: simulated user, step cap, ending rules, async scoring, state access."""

from __future__ import annotations

import asyncio

import pytest

from core.protocol import Episode, StateAccess, ToolCall, UserTurn
from environments.taubench.user import GREETING, STOP


class ScriptedUserModel:
    """A test double for the harness-supplied user model: fixed replies, records what it saw."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.seen = []

    async def __call__(self, messages):
        self.seen.append([dict(m) for m in messages])
        return self.replies.pop(0)


def test_public_task_hides_the_instruction(env, raw):
    t = env.task("test-0")
    rec = raw["tasks_test"][0]
    assert t.query == "" and t.group_id == rec["user_id"] and t.env == "taubench"
    assert t.strata == {"split": "test", "writes": "yes"}
    assert rec["instruction"] not in repr(t)
    assert env.needs_user is True and t.terminal_tool == "transfer_to_human_agents"
    assert len(env.tasks("train")) == 500 and len(env.tasks()) == 635
    with pytest.raises(KeyError, match="unknown taubench retail task"):
        env.task("test-115")
    with pytest.raises(KeyError, match="unknown taubench retail split"):
        env.tasks("valid")


def test_conversation_with_user_model_scores_one(env):
    tid = "test-0"
    user = ScriptedUserModel(["Hi, I want to exchange two items.", "Yes, go ahead.", STOP])
    ep = env.episode(tid, user=user)
    assert isinstance(ep, Episode) and isinstance(ep.state, StateAccess)

    async def play():
        first = await ep.open()
        assert first == "Hi, I want to exchange two items."
        system = user.seen[0][0]
        assert system["role"] == "system" and env.record(tid).instruction in system["content"]
        assert STOP in system["content"]
        assert user.seen[0][1] == {"role": "user", "content": GREETING}
        turn = await ep.say("Please confirm the exchange.")
        assert turn == UserTurn("Yes, go ahead.", done=False)
        assert user.seen[1][-1] == {"role": "user", "content": "Please confirm the exchange."}
        assert user.seen[1][-2] == {"role": "assistant", "content": "Hi, I want to exchange two items."}
        for a in env.record(tid).actions:
            res = await ep.call(ToolCall(a["name"], a["kwargs"]))
            assert res.status in ("ok", "error")
        turn = await ep.say("Done. Anything else?")
        assert turn.done and STOP in turn.text
        out = await ep.score()
        await ep.close()
        return out

    out = asyncio.run(play())
    assert out.success and out.score == 1.0 and out.details["done_reason"] == "user_stop"
    assert [a["name"] for a in ep.actions].count("respond") == 2


def test_unfinished_episode_scores_zero(env):
    tid = "test-0"
    ep = env.episode(tid, user=ScriptedUserModel(["hi"]))
    for a in env.record(tid).actions:
        ep.call_sync(a["name"], a["kwargs"])
    out = asyncio.run(ep.score())
    assert (
        out.score == 0.0 and out.details["reward_if_done"] == 1.0 and "not finished" in out.details["reason"]
    )


def test_transfer_ends_the_episode(env):
    ep = env.episode("test-1")
    res = ep.call_sync("transfer_to_human_agents", {"summary": "x"})
    assert res.terminal and ep.done and ep.done_reason == "transfer"
    after = ep.call_sync("get_user_details", {"user_id": env.record("test-1").user_id})
    assert after.status == "error" and after.meta["refused"]


def test_step_cap(env):
    ep = env.episode("test-0")
    uid = env.record("test-0").user_id
    for _ in range(30):
        assert ep.call_sync("get_user_details", {"user_id": uid}).status == "ok"
    res = ep.call_sync("get_user_details", {"user_id": uid})
    assert res.status == "error" and "step limit (30)" in res.content and res.terminal
    assert asyncio.run(ep.say("hello")) == UserTurn(None, done=True)
    assert ep.steps == 30


def test_open_without_user_model_is_a_clear_error(env):
    with pytest.raises(ValueError, match="needs a user model"):
        asyncio.run(env.episode("test-0").open())


def test_error_results_and_unknown_tool(env):
    ep = env.episode("test-0")
    res = ep.call_sync("get_order_details", {"order_id": "#W0"})
    assert (res.status, res.content) == ("error", "Error: order not found")
    res = ep.call_sync("fly_to_moon", {})
    assert (res.status, res.content) == ("error", "Unknown action fly_to_moon")


def test_state_access_corrupts_the_stored_record(env):
    ep = env.episode("test-0")
    oid = next(iter(env.data.base.collections["orders"]))
    call = ToolCall("get_order_details", {"order_id": oid})
    res = ep.call_sync(call.name, call.arguments)
    before = ep.state.digest()
    ref = ep.state.locate(call, res, "$.status")
    assert ref is not None and ep.state.locate(call, res, "$.nope") is None
    assert ep.state.locate(call, res, "$.payment_history[9].amount") is None
    ep.state.corrupt(ref, "shipped")
    assert ep.call_sync(call.name, call.arguments).content["status"] == "shipped"
    assert ep.state.digest() != before
    pay = ep.state.locate(call, res, "$.payment_history[0].amount")
    ep.state.corrupt(pay, -1.0)
    assert ep.db.orders[oid]["payment_history"][0]["amount"] == -1.0
    assert env.data.base.collections["orders"][oid]["status"] != "shipped"  # the base is untouched
    think = ToolCall("think", {"thought": "x"})
    assert ep.state.locate(think, ep.call_sync("think", {"thought": "x"}), "$") is None
