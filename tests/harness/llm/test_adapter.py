"""The model adapter driven through the real litellm call path with the scripted provider."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.llm import models
from harness.llm.models import Completion, ModelConfigError, ModelSpec, acomplete, check_model_available
from harness.llm.providers.scripted import register_policy

ROOT = Path(__file__).resolve().parents[3]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_price",
            "description": "price of an item",
            "parameters": {
                "type": "object",
                "properties": {"item": {"type": "string"}, "qty": {"type": "integer"}},
                "required": ["item", "qty"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "done",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]
MSGS = [
    {"role": "system", "content": "You are a tool agent."},
    {"role": "user", "content": "What does a widget cost?"},
]


def run(coro):
    return asyncio.run(coro)


def spec(**kw) -> ModelSpec:
    return ModelSpec(**{"name": "scripted-first", "model": "scripted/first_tool", **kw})


def test_import_is_cheap_and_does_not_load_litellm():
    code = (
        "import sys; import harness.llm.models, harness.llm.cache, harness.records, harness.llm.providers.scripted, "
        "harness.llm.providers.chaos, harness.agents.policies; print('litellm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_scripted_tool_call_then_answer_through_litellm():
    s = spec()
    first = run(acomplete(s, MSGS, TOOLS))
    assert isinstance(first, Completion) and not first.cached
    (call,) = first.message["tool_calls"]
    assert call["type"] == "function" and call["function"]["name"] == "get_price"
    assert json.loads(call["function"]["arguments"]) == {"item": "x", "qty": 0}
    assert first.message["role"] == "assistant" and call["id"]
    assert first.attempts == [{"attempt": 0, "ok": True, "latency_s": first.attempts[0]["latency_s"]}]
    follow = [*MSGS, first.message, {"role": "tool", "tool_call_id": call["id"], "content": '{"price": 3}'}]
    second = run(acomplete(s, follow, TOOLS))
    assert second.message["tool_calls"] == [] and "price" in second.message["content"]


def test_sync_litellm_completion_also_works():
    lt = models._litellm()
    r = lt.completion(
        model="scripted/first_tool", messages=MSGS, tools=TOOLS, num_retries=0, max_retries=0, timeout=5
    )
    assert r.choices[0].message.tool_calls[0].function.name == "get_price"


def test_usage_is_a_deterministic_function_of_text_and_cost_follows_the_price_table():
    priced = spec(input_cost_per_mtok=2.0, output_cost_per_mtok=8.0)
    a = run(acomplete(priced, MSGS, TOOLS))
    b = run(acomplete(priced, MSGS, TOOLS))
    assert a.usage == b.usage and a.usage["prompt_tokens"] > 0 and a.usage["completion_tokens"] > 0
    longer = run(acomplete(priced, [*MSGS[:1], {"role": "user", "content": MSGS[1]["content"] * 20}], TOOLS))
    assert longer.usage["prompt_tokens"] > a.usage["prompt_tokens"]
    expected = a.usage["prompt_tokens"] * 2.0 / 1e6 + a.usage["completion_tokens"] * 8.0 / 1e6
    assert a.cost_usd == pytest.approx(expected) and a.cost_source == "table"
    assert run(acomplete(spec(), MSGS, TOOLS)).cost_usd == 0.0  # scripted prices default to 0


def test_cost_falls_back_to_litellm_offline_map():
    s = ModelSpec(name="g", model="openai/gpt-4o-mini", api_key_env="X")
    cost, source = models.compute_cost(s, {"prompt_tokens": 1000, "completion_tokens": 1000})
    p, c = models._litellm().cost_per_token(
        model="openai/gpt-4o-mini", prompt_tokens=1000, completion_tokens=1000
    )
    assert source == "litellm" and cost == pytest.approx(p + c) and cost > 0
    unknown = ModelSpec(name="u", model="openai/no-such-model-xyz", api_key_env="X")
    assert models.compute_cost(unknown, {"prompt_tokens": 5, "completion_tokens": 5}) == (0.0, "none")


class _Coin:
    name = "coin"

    def respond(self, messages, tools, rng):
        return {"role": "assistant", "content": f"{rng.random():.12f}", "tool_calls": []}


def test_policy_rng_depends_on_seed_and_replicate_only():
    register_policy("coin", _Coin)
    s = spec(model="scripted/coin")
    r0 = run(acomplete(s, MSGS, []))
    assert run(acomplete(s, MSGS, [])).message == r0.message
    assert run(acomplete(s, MSGS, [], replicate=1)).message != r0.message
    assert run(acomplete(spec(model="scripted/coin", seed=7), MSGS, [])).message != r0.message
    assert models.request_key(s, MSGS, [], 0) != models.request_key(s, MSGS, [], 1)
    # arms never share a recorded reply, whatever order they ran in
    assert models.request_key(s, MSGS, [], 0, "baseline") != models.request_key(s, MSGS, [], 0, "monitor")


class _Broken:
    name = "broken"

    def respond(self, messages, tools, rng):
        raise ZeroDivisionError("policy bug")


def test_policy_bug_surfaces_as_itself_not_as_a_retried_infra_error():
    from harness.llm.providers.scripted import ScriptedPolicyError

    register_policy("broken", _Broken)
    with pytest.raises(ScriptedPolicyError, match="ZeroDivisionError"):
        run(acomplete(spec(model="scripted/broken", max_attempts=3), MSGS, TOOLS))


def test_model_spec_from_config_rejects_typos():
    s = ModelSpec.from_config(
        {"name": "d", "model": "deepseek/deepseek-chat", "api_key_env": "DEEPSEEK_API_KEY"}
    )
    assert s.provider == "deepseek" and not s.scripted
    with pytest.raises(ModelConfigError, match="temprature"):
        ModelSpec.from_config({"name": "d", "model": "scripted/first_tool", "temprature": 0.5})


def test_check_model_available_messages(monkeypatch):
    check_model_available(spec())
    with pytest.raises(ModelConfigError, match="no scripted policy 'nope'"):
        check_model_available(spec(model="scripted/nope"))
    with pytest.raises(ModelConfigError, match="no provider prefix"):
        check_model_available(spec(model="gpt-4o"))
    monkeypatch.setenv("K", "present")  # a missing key is reported first (without importing litellm)
    with pytest.raises(ModelConfigError, match="unknown provider 'nosuchprov'"):
        check_model_available(spec(model="nosuchprov/m", api_key_env="K"))
    deep = ModelSpec(name="deepseek-chat", model="deepseek/deepseek-chat", api_key_env="DEEPSEEK_API_KEY")
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    with pytest.raises(
        ModelConfigError,
        match=r"DEEPSEEK_API_KEY is not set; set it \(export DEEPSEEK_API_KEY=.*model=scripted",
    ):
        check_model_available(deep)
    with pytest.raises(ModelConfigError, match="api_key_env"):
        check_model_available(ModelSpec(name="d", model="deepseek/deepseek-chat"))
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-test-present")
    check_model_available(deep)


def test_missing_key_at_call_time_is_an_infra_error(monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_ENV", raising=False)
    with pytest.raises(models.InfraError) as err:
        run(acomplete(spec(api_key_env="NO_SUCH_KEY_ENV"), MSGS, TOOLS))
    assert err.value.kind == "missing_key" and "NO_SUCH_KEY_ENV" in str(err.value)


class _Spy:
    name = "spy"
    seen: list = []

    def respond(self, messages, tools, rng):
        _Spy.seen.append((messages, tools))
        messages.append({"role": "user", "content": "mutated"})  # must not leak into the caller's list
        return {"role": "assistant", "content": "done"}


def test_policy_sees_only_plain_messages_and_tools():
    register_policy("spy", _Spy)
    _Spy.seen.clear()
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_price", "arguments": '{"item": "a", "qty": 1}'},
    }
    msgs = [
        *MSGS,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"price": 3}'},
    ]
    before = json.dumps(msgs)
    c = run(acomplete(spec(model="scripted/spy"), msgs, TOOLS))
    ((seen_msgs, seen_tools),) = _Spy.seen
    assert json.dumps(msgs) == before and c.finish_reason == "stop"
    assert seen_tools == TOOLS
    # litellm drops null keys (an assistant's "content": None); everything else arrives unchanged
    assert [{k: v for k, v in m.items() if v is not None} for m in msgs] == seen_msgs[: len(msgs)]
    assert json.loads(json.dumps(seen_msgs)) == seen_msgs  # plain JSON, no litellm objects
