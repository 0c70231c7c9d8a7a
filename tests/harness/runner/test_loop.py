"""The agent loop with a fake world and scripted completers (no litellm)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import FakeInfraError, Script, call, load_fakeworld, turn  # noqa: E402

from harness.agents import prompts  # noqa: E402
from harness.agents.loop import LoopSettings, Review, next_action_class, parse_arguments, run_loop  # noqa: E402
from harness.stream import MonitorInterposer  # noqa: E402

fw = load_fakeworld()
WORLD = fw.FakeWorld(4)


def run(task_id: str, script: Script, **kw):
    task = WORLD.task(task_id)
    episode = WORLD.episode(task_id)
    kw.setdefault("system_prompt", prompts.system_prompt("fault_aware", task.terminal_tool))
    return episode.inner, asyncio.run(run_loop(episode, task, script, LoopSettings(**kw)))


def item(task_id: str) -> str:
    return WORLD.task(task_id).meta["item"]


def monitor_chain(delivery: str = "immediate", variant: str = "full"):
    mon = fw.NegativePriceMonitor(variant)
    return [MonitorInterposer(lambda ctx: mon, delivery)]


def assert_transcript_valid(messages: list[dict]) -> None:
    """Every tool call of every assistant turn is answered by exactly one tool message."""
    asked = [tc["id"] for m in messages if m["role"] == "assistant" for tc in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert sorted(asked) == sorted(answered)


def test_one_call_per_turn_and_ignored_calls_answered():
    it = item("W00_P0")
    script = Script(
        turn(call("get_price_a", {"item": it}, "a1"), call("get_price_b", {"product": it}, "a2")),
        turn(content="done"),
    )
    episode, out = run("W00_P0", script)
    assert episode.calls == {"get_price_a": 1}  # the second call never ran
    assert out.ignored_parallel_calls == 1
    ignored = [m for m in out.messages if m["role"] == "tool" and m["tool_call_id"] == "a2"]
    assert ignored and ignored[0]["content"] == prompts.IGNORED_CALL
    assert_transcript_valid(out.messages)
    assert out.stop_reason == "final" and out.final_answer == "done"


def test_terminal_tool_ends_and_sets_answer():
    it = item("W01_P0")
    price = fw.price_of(it)
    script = Script(
        turn(call("get_price_a", {"item": it}, "1")),
        turn(call("buy_item", {"item": it, "price": price}, "2")),
        turn(call("finish", {"status": "done", "answer": "CF", "reason": "ok"}, "3")),
        turn(content="never reached"),
    )
    episode, out = run("W01_P0", script)
    assert out.stop_reason == "terminal" and out.final_answer == "CF" and out.finish_status == "done"
    assert len(script.seen) == 3
    assert episode.score().success
    assert [c["tool"] for c in out.tool_calls] == ["get_price_a", "buy_item", "finish"]


def test_malformed_arguments_are_an_agent_error_not_a_call():
    script = Script(turn(call("get_price_a", "{not json", "x")), turn(content="gave up"))
    episode, out = run("W00_P0", script)
    assert episode.calls == {}
    assert out.tool_calls[0]["status"] == "malformed"
    tool_msg = next(m for m in out.messages if m["role"] == "tool")
    assert tool_msg["content"].startswith("error: the arguments")
    assert out.error is None


def test_round_cap():
    script = Script(turn(call("get_price_a", {"item": item("W00_P0")}, "r")))
    _, out = run("W00_P0", script, max_rounds=3)
    assert out.stop_reason == "round_cap" and out.rounds == 3 and len(script.seen) == 3


def test_budget_stops_before_any_call():
    script = Script(turn(content="x"))
    _, out = run("W00_P0", script, budget_ok=lambda: False)
    assert out.stop_reason == "budget" and script.seen == []


def test_infra_error_is_a_stop_not_a_crash():
    async def boom(messages, tools):
        raise FakeInfraError("429")

    task = WORLD.task("W00_P0")
    out = asyncio.run(
        run_loop(
            WORLD.episode("W00_P0"),
            task,
            boom,
            LoopSettings(system_prompt="s", infra_errors=(FakeInfraError,)),
        )
    )
    assert out.stop_reason == "infra_error" and out.error_kind == "rate_limit" and "429" in out.error


class _Raising:
    """An episode whose world fails at one stage (open, call or say)."""

    def __init__(self, stage: str):
        self.inner = WORLD.episode("W00_P0")
        self.task, self.stage = self.inner.task, stage

    def tools(self):
        return self.inner.tools()

    async def open(self):
        if self.stage == "open":
            raise ConnectionError("bridge down")
        return await self.inner.open()

    async def call(self, c):
        if self.stage == "call":
            raise RuntimeError("database locked")
        return await self.inner.call(c)

    async def say(self, text):
        if self.stage == "say":
            raise TimeoutError("user model timed out")
        return await self.inner.say(text)


@pytest.mark.parametrize("stage", ["open", "call", "say"])
def test_a_failing_world_is_an_env_error_not_the_agents(stage):
    it = item("W00_P0")
    script = Script(turn(call("get_price_a", {"item": it})), turn(content="done"))
    ep = _Raising(stage)
    out = asyncio.run(
        run_loop(ep, ep.task, script, LoopSettings(system_prompt="s", infra_errors=(FakeInfraError,)))
    )
    assert out.stop_reason == "env_error" and out.error_kind in (
        "ConnectionError",
        "RuntimeError",
        "TimeoutError",
    )
    assert out.error and out.final_answer in (None, "done")


def test_a_world_failure_raising_an_infra_error_stays_infra():
    ep = _Raising("call")

    async def call_(c):
        raise FakeInfraError("user model 429")

    ep.call = call_
    out = asyncio.run(
        run_loop(
            ep,
            ep.task,
            Script(turn(call("get_price_a", {"item": "x"}))),
            LoopSettings(system_prompt="s", infra_errors=(FakeInfraError,)),
        )
    )
    assert out.stop_reason == "infra_error" and out.error_kind == "rate_limit"


class _Chatty:
    """A world with a user who answers twice, then ends; the opening is the user's, not the task's."""

    def __init__(self):
        self.inner = WORLD.episode("W00_P0")
        self.task = self.inner.task
        self.heard: list[str] = []

    def tools(self):
        return self.inner.tools()

    async def open(self):
        return "hi, I need help"

    async def call(self, c):
        return await self.inner.call(c)

    async def say(self, text):
        from core.protocol import UserTurn

        self.heard.append(text)
        return (
            UserTurn("thanks, bye", done=True)
            if len(self.heard) == 3
            else UserTurn(f"answer {len(self.heard)}")
        )


def test_text_goes_to_the_user_and_the_user_ends_the_episode():
    ep = _Chatty()
    script = Script(turn(content="which item?"), turn(content="and the quantity?"), turn(content="all set"))
    out = asyncio.run(run_loop(ep, ep.task, script, LoopSettings(system_prompt="s")))
    assert ep.heard == ["which item?", "and the quantity?", "all set"]
    assert out.user_turns == 2 and out.stop_reason == "final" and out.final_answer == "all set"
    users = [m["content"] for m in out.messages if m["role"] == "user"]
    assert users == ["hi, I need help", "answer 1", "answer 2", "thanks, bye"]
    assert ep.task.query not in users  # the task's text reached the agent only through the user


@pytest.mark.parametrize(
    ("second", "expected"),
    [
        ("get_price_b", "switched_listed"),
        ("get_price_a", "retried_same"),
        ("buy_item", "other_tool"),
        ("finish", "stopped"),
    ],
)
def test_receipt_next_action(second, expected):
    it = item("W02_P4")
    args = {
        "get_price_b": {"product": it},
        "get_price_a": {"item": it},
        "buy_item": {"item": it, "price": 1.0},
        "finish": {"status": "aborted", "answer": "x", "reason": "y"},
    }[second]
    script = Script(
        turn(call("get_price_a", {"item": it}, "1")), turn(call(second, args, "2")), turn(content="end")
    )
    _, out = run("W02_P4", script, interposers=monitor_chain())
    assert out.hit
    assert len(out.receipts) >= 1
    first = out.receipts[0]
    assert first["tool"] == "get_price_a" and first["next_action"] == expected
    assert first["recovery_tools"] == ["get_price_a", "get_price_b"] and first["n_admissible"] == 2
    assert first["rule_class"] == "positive"
    tool_msg = next(m for m in out.messages if m["role"] == "tool")
    assert "outcome_monitor" in json.loads(tool_msg["content"])  # immediate: inside the result
    assert out.tool_calls[0]["receipt"] is True and out.tool_calls[0]["perturbed"] is True


def test_receipt_on_last_call_counts_as_stopped():
    it = item("W02_P4")
    script = Script(turn(call("get_price_a", {"item": it}, "1")), turn(content="the price is negative"))
    _, out = run("W02_P4", script, interposers=monitor_chain())
    assert out.receipts[0]["next_action"] == "stopped"


def test_deferred_receipt_arrives_with_next_tool_message():
    it = item("W02_P4")
    script = Script(
        turn(call("get_price_a", {"item": it}, "1")),
        turn(call("get_price_b", {"product": it}, "2")),
        turn(content="end"),
    )
    _, out = run("W02_P4", script, interposers=monitor_chain("deferred"), delivery="deferred")
    tools = [m for m in out.messages if m["role"] == "tool"]
    first, second = json.loads(tools[0]["content"]), tools[1]["content"]
    assert "outcome_monitor" not in first and first["price"] < 0  # raw result, no receipt yet
    assert second.startswith(prompts.DEFERRED_PREFIX)
    note, _, rest = second[len(prompts.DEFERRED_PREFIX) :].partition("\n\n")
    assert json.loads(note)["recovery_tools"] == ["get_price_a", "get_price_b"]
    assert json.loads(rest)["price"] > 0
    assert out.receipts[0]["next_action"] == "switched_listed"


def test_deferred_receipt_after_final_answer_goes_to_a_user_message():
    it = item("W02_P4")
    script = Script(turn(call("get_price_a", {"item": it}, "1")), turn(content="end"))
    _, out = run("W02_P4", script, interposers=monitor_chain("deferred"), delivery="deferred")
    assert out.messages[-1]["role"] == "user" and out.messages[-1]["content"].startswith(
        prompts.DEFERRED_PREFIX
    )


class RejectFirst:
    def __init__(self):
        self.n = 0

    async def review(self, task, messages, tools, call):
        self.n += 1
        return Review(
            approved=self.n > 1,
            feedback="use the other provider",
            prompt_tokens=7,
            completion_tokens=3,
            cost_usd=0.5,
        )


def test_reviewer_feedback_blocks_call_and_is_counted():
    it = item("W00_P0")
    script = Script(
        turn(call("get_price_a", {"item": it}, "1")),
        turn(call("get_price_b", {"product": it}, "2")),
        turn(content="end"),
    )
    reviewer = RejectFirst()
    episode, out = run("W00_P0", script, reviewer=reviewer, max_reviewer_calls=5)
    assert episode.calls == {"get_price_b": 1}
    assert out.tool_calls[0]["status"] == "rejected_by_reviewer"
    assert "use the other provider" in next(m for m in out.messages if m["role"] == "tool")["content"]
    assert out.reviewer_calls == 2 and out.reviewer_cost_usd == pytest.approx(1.0)
    assert out.reviewer_prompt_tokens == 14
    assert_transcript_valid(out.messages)


def test_reviewer_call_cap():
    it = item("W00_P0")
    script = Script(turn(call("get_price_a", {"item": it}, "1")))
    reviewer = RejectFirst()
    reviewer.n = 1  # approves everything
    _, out = run("W00_P0", script, reviewer=reviewer, max_reviewer_calls=2, max_rounds=6)
    assert out.reviewer_calls == 2 and reviewer.n == 3


def test_usage_is_summed():
    it = item("W00_P0")
    script = Script(turn(call("get_price_a", {"item": it}, "1")), turn(content="end"))
    _, out = run("W00_P0", script)
    assert (out.prompt_tokens, out.completion_tokens) == (20, 10)
    assert out.cost_usd == pytest.approx(0.002)


def test_helpers():
    assert parse_arguments('{"a": 1}') == ({"a": 1}, None)
    assert parse_arguments("[1]")[0] is None
    assert parse_arguments("")[0] == {}
    assert next_action_class("t", ["u"], None, "finish") == "stopped"
    assert next_action_class("t", ["t", "u"], "t", "finish") == "retried_same"
    assert next_action_class("t", ["u"], "v", "finish") == "other_tool"
