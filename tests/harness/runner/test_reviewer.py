"""The reviewer arm: review requests, verdict parsing, the scripted reviewer policy."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import FakeCompletion  # noqa: E402

from core.protocol import Task  # noqa: E402
from harness.agents.reviewer import (  # noqa: E402
    ModelReviewer,
    ScriptedReviewerPolicy,
    judge_call,
    parse_verdict,
    register_scripted_reviewer,
    review_request,
)

TASK = Task(
    "t1", "w1", "Get the price, then buy the item.\nInputs: item=widget-7", "fake", terminal_tool="finish"
)
TOOLS = [{"type": "function", "function": {"name": "get_price", "parameters": {}}}]
HISTORY = [
    {"role": "system", "content": "agent system prompt"},
    {"role": "user", "content": TASK.query},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "1",
                "type": "function",
                "function": {"name": "get_price", "arguments": '{"item": "widget-7"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "1", "content": '{"item": "widget-7", "price": 12.5}'},
]


def verdict_for(call: dict) -> dict:
    messages = review_request(TASK, HISTORY, TOOLS, call)
    reply = ScriptedReviewerPolicy().respond(messages, [], random.Random(0))
    return json.loads(reply["content"])


def test_request_carries_the_evidence_but_not_the_agent_prompt():
    messages = review_request(TASK, HISTORY, TOOLS, {"name": "buy", "arguments": {"item": "widget-7"}})
    body = messages[-1]["content"]
    assert TASK.query in body and '"price": 12.5' in body and "get_price" in body
    assert "agent system prompt" not in body


def test_scripted_reviewer_approves_grounded_calls_and_flags_others():
    assert verdict_for({"name": "buy", "arguments": {"item": "widget-7", "price": 12.5}}) == {
        "decision": "approve"
    }
    invented = verdict_for({"name": "buy", "arguments": {"item": "widget-7", "price": 99.0}})
    assert invented["decision"] == "revise" and "99.0" in invented["feedback"]
    negative = verdict_for({"name": "buy", "arguments": {"item": "widget-7", "price": -12.5}})
    assert negative["decision"] == "revise" and "negative" in negative["feedback"]
    assert judge_call("page", {"name": "x", "arguments": {"v": "<html>502</html>"}})[0] is False


def test_parse_verdict():
    assert parse_verdict('{"decision": "revise", "feedback": "wrong id"}') == (False, "wrong id")
    assert parse_verdict('Sure. {"decision": "approve"}')[0] is True
    assert parse_verdict(None) == (True, "")
    assert parse_verdict("I reject this call")[0] is False


def test_model_reviewer_counts_usage():
    async def complete(messages, tools):
        assert tools == []  # the reviewer is offered no tools
        return FakeCompletion(
            {"role": "assistant", "content": '{"decision": "revise", "feedback": "no"}'},
            usage={"prompt_tokens": 40, "completion_tokens": 6},
            cost_usd=0.2,
        )

    review = asyncio.run(
        ModelReviewer(complete).review(TASK, HISTORY, TOOLS, {"name": "get_price", "arguments": {}})
    )
    assert (
        review.approved,
        review.feedback,
        review.prompt_tokens,
        review.completion_tokens,
        review.cost_usd,
    ) == (False, "no", 40, 6, 0.2)


def test_scripted_reviewer_is_registered():
    from harness.llm.providers.scripted import get_policy

    register_scripted_reviewer()
    assert isinstance(get_policy("reviewer"), ScriptedReviewerPolicy)
