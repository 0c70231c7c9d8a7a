"""The adapter against a fake OpenAI-compatible server on 127.0.0.1: real HTTP, real litellm ``acompletion``
through the ``openai/`` provider with ``api_base`` (the path a local llama.cpp or vLLM server takes)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest

from harness.agents.loop import parse_arguments
from harness.llm import models
from harness.llm.cache import Cache
from harness.llm.models import (
    InfraError,
    ModelConfigError,
    ModelSpec,
    RetryPolicy,
    acomplete,
    check_model_available,
)

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_price",
            "description": "price of an item",
            "parameters": {
                "type": "object",
                "properties": {"item": {"type": "string"}},
                "required": ["item"],
            },
        },
    },
]
MSGS = [
    {"role": "system", "content": "You are a tool agent."},
    {"role": "user", "content": "What does a widget cost?"},
]
FAST = RetryPolicy(base_s=0.01, max_wait_s=0.05)
PRICES = {"input_cost_per_mtok": 0.28, "cached_input_cost_per_mtok": 0.028, "output_cost_per_mtok": 0.42}


def local(server, **kw) -> ModelSpec:
    return ModelSpec(
        **{
            "name": "local",
            "model": "openai/fake-local-model",
            "api_base": server.api_base,
            "timeout_s": 10.0,
            "max_attempts": 3,
            **PRICES,
            **kw,
        }
    )


def call(spec: ModelSpec, **kw):
    return asyncio.run(acomplete(spec, MSGS, TOOLS, retry=kw.pop("retry", FAST), **kw))


def tool_call(name: str, arguments: str) -> dict:
    return {
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}
        ],
    }


def test_tool_call_round_trip_over_http(fake_openai):
    fake_openai.reply(tool_call("get_price", '{"item": "widget"}'), finish_reason="tool_calls")
    c = call(local(fake_openai))
    (sent,) = fake_openai.chat_requests
    assert sent.body["model"] == "fake-local-model"  # litellm strips the provider prefix
    assert sent.body["tools"][0]["function"]["name"] == "get_price"
    assert sent.body["messages"][-1]["content"] == MSGS[-1]["content"]
    (tc,) = c.message["tool_calls"]
    assert tc["function"] == {"name": "get_price", "arguments": '{"item": "widget"}'}
    assert c.finish_reason == "tool_calls" and not c.cached
    assert [a["ok"] for a in c.attempts] == [True]


def test_usage_with_90_percent_cached_prompt_is_priced_at_the_cached_rate(fake_openai):
    usage = {
        "prompt_tokens": 10_000,
        "completion_tokens": 200,
        "total_tokens": 10_200,
        "prompt_tokens_details": {"cached_tokens": 9_000},
    }
    fake_openai.reply({"content": "done"}, usage=usage)
    c = call(local(fake_openai))
    assert c.usage["cached_tokens"] == 9_000 and c.usage["prompt_tokens"] == 10_000
    expected = (1_000 * 0.28 + 9_000 * 0.028 + 200 * 0.42) / 1e6
    uncached = (10_000 * 0.28 + 200 * 0.42) / 1e6
    assert c.cost_source == "table" and c.cost_usd == pytest.approx(expected)
    assert c.cost_usd < uncached / 3  # the old pricing (all prompt tokens at full rate) was this far off


def test_litellm_map_prices_cached_tokens_like_the_committed_table():
    """Two independent computations agree: our table arithmetic and litellm's cost_per_token on its map."""
    usage = {"prompt_tokens": 10_000, "completion_tokens": 200, "cached_tokens": 9_000}
    by_map = ModelSpec(name="ds", model="deepseek/deepseek-chat")  # no table: litellm prices it
    by_table = ModelSpec(name="ds", model="deepseek/deepseek-chat", **PRICES)
    cost_map, src_map = models.compute_cost(by_map, usage)
    cost_table, src_table = models.compute_cost(by_table, usage)
    assert (src_map, src_table) == ("litellm", "table")
    assert cost_map == pytest.approx(cost_table)
    no_cache, _ = models.compute_cost(by_map, {**usage, "cached_tokens": 0})
    assert cost_map < no_cache / 3


def test_table_without_cached_price_charges_cached_tokens_the_input_rate():
    spec = ModelSpec(name="q", model="dashscope/qwen-plus", input_cost_per_mtok=0.4, output_cost_per_mtok=1.2)
    cost, _ = models.compute_cost(
        spec, {"prompt_tokens": 1000, "completion_tokens": 10, "cached_tokens": 900}
    )
    assert cost == pytest.approx((1000 * 0.4 + 10 * 1.2) / 1e6)


@pytest.mark.parametrize(
    "raw, cached",
    [
        ({"prompt_tokens": 50, "completion_tokens": 1, "prompt_tokens_details": {"cached_tokens": 40}}, 40),
        (
            {"prompt_tokens": 50, "completion_tokens": 1, "prompt_cache_hit_tokens": 30},
            30,
        ),  # DeepSeek's own field
        ({"prompt_tokens": 50, "completion_tokens": 1, "cache_read_input_tokens": 20}, 20),  # Anthropic's
        ({"prompt_tokens": 50, "completion_tokens": 1, "prompt_tokens_details": None}, 0),
        ({"prompt_tokens": 5, "completion_tokens": 1, "prompt_tokens_details": {"cached_tokens": 9}}, 5),
    ],
)
def test_usage_keeps_cached_tokens_from_each_provider_shape(raw, cached):
    class Resp:
        usage = raw

    assert models._usage(Resp())["cached_tokens"] == cached


def test_unpriced_model_records_cost_source_none(fake_openai, caplog):
    spec = ModelSpec(name="unpriced-local", model="openai/fake-local-model", api_base=fake_openai.api_base)
    with caplog.at_level(logging.WARNING, logger="harness.llm"):
        c = call(spec)
    assert (c.cost_usd, c.cost_source) == (0.0, "none")
    assert any("no price" in r.getMessage() for r in caplog.records if r.name == "harness.llm.models")


def test_429_with_retry_after_is_retried_after_the_asked_wait(fake_openai, caplog):
    fake_openai.fail(429, {"Retry-After": "0.3"})
    fake_openai.reply({"content": "done"})
    with caplog.at_level(logging.WARNING, logger="harness.llm"):
        c = call(local(fake_openai))
    first, second = c.attempts
    assert (first["ok"], first["kind"], first["status_code"]) == (False, "rate_limit", 429)
    assert first["retry_after_s"] == pytest.approx(0.3) and first["wait_s"] >= 0.3
    assert second["ok"] and c.message["content"] == "done"
    a, b = fake_openai.chat_requests
    assert b.at - a.at >= 0.3  # the server really was left alone for the asked time
    (rec,) = [r for r in caplog.records if r.name == "harness.llm.retry"]
    assert "rate_limit" in rec.getMessage() and "the server asked for 0.3 s" in rec.getMessage()


def test_500_is_retried(fake_openai, caplog):
    fake_openai.fail(500)
    fake_openai.reply({"content": "done"})
    with caplog.at_level(logging.WARNING, logger="harness.llm"):
        c = call(local(fake_openai))
    assert [(a["ok"], a.get("kind")) for a in c.attempts] == [(False, "server"), (True, None)]
    assert c.attempts[0]["status_code"] == 500 and len(fake_openai.chat_requests) == 2
    assert any(r.name == "harness.llm.retry" and "server" in r.getMessage() for r in caplog.records)


def test_timeout_is_an_infra_error_after_every_attempt(fake_openai, caplog):
    fake_openai.hang()
    fake_openai.hang()
    spec = local(fake_openai, timeout_s=0.5, max_attempts=2)
    with caplog.at_level(logging.WARNING, logger="harness.llm"), pytest.raises(InfraError) as info:
        call(spec)
    assert info.value.kind == "timeout"
    assert [a["kind"] for a in info.value.attempts] == ["timeout", "timeout"]
    assert len(fake_openai.chat_requests_after(2)) == 2  # the retry reached the server
    errors = [r for r in caplog.records if r.name == "harness.llm.models" and r.levelno == logging.ERROR]
    assert errors and "timeout after 2 attempt(s)" in errors[0].getMessage()


def test_client_error_is_not_retried(fake_openai):
    fake_openai.fail(400)
    with pytest.raises(InfraError) as info:
        call(local(fake_openai))
    assert info.value.kind == "bad_request" and len(fake_openai.chat_requests) == 1


def test_context_window_exceeded_is_its_own_infra_kind(fake_openai):
    # what llama-cpp-python's server answers when a prompt (or its own runaway generation) fills n_ctx
    fake_openai.fail(
        400,
        message="This model's maximum context length is 2560 tokens. However, you requested "
        "2816 tokens (2560 in the messages, 256 in the completion).",
    )
    with pytest.raises(InfraError) as info:
        call(local(fake_openai))
    assert info.value.kind == "context_window" and len(fake_openai.chat_requests) == 1


def test_malformed_tool_call_comes_back_as_is_for_the_agent(fake_openai):
    fake_openai.reply(tool_call("get_price", '{"item": "wid'), finish_reason="tool_calls")
    c = call(local(fake_openai))
    (tc,) = c.message["tool_calls"]
    assert tc["function"]["arguments"] == '{"item": "wid'  # raw, not repaired, not an InfraError
    args, why = parse_arguments(tc["function"]["arguments"])  # what the agent loop makes of it
    assert args is None and why


def test_cached_tokens_survive_record_and_replay(fake_openai, tmp_path):
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 10,
        "total_tokens": 1010,
        "prompt_tokens_details": {"cached_tokens": 900},
    }
    fake_openai.reply({"content": "done"}, usage=usage)
    spec = local(fake_openai)
    with Cache(tmp_path / "c.sqlite", "record") as cache:
        fresh = call(spec, cache=cache)
    with Cache(tmp_path / "c.sqlite", "replay") as cache:
        again = call(spec, cache=cache)
    assert again.cached and again.usage == fresh.usage and again.usage["cached_tokens"] == 900
    assert again.cost_usd == pytest.approx(fresh.cost_usd)


# ---------------------------------------------------------------------------------------------
# pre-flight


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_preflight_asks_a_local_server_for_its_models(fake_openai, caplog):
    with caplog.at_level(logging.INFO, logger="harness.llm"):
        check_model_available(local(fake_openai))
    assert [s.path for s in fake_openai.seen] == ["/v1/models"]
    assert any(
        "fake-local-model" in r.getMessage() for r in caplog.records if r.name == "harness.llm.preflight"
    )


def test_preflight_says_what_to_start_when_no_local_server_answers():
    spec = ModelSpec(name="gone", model="openai/x", api_base=f"http://127.0.0.1:{_closed_port()}/v1")
    with pytest.raises(ModelConfigError) as info:
        check_model_available(spec)
    text = str(info.value)
    assert "no server answers" in text and spec.api_base in text and "start" in text


def test_preflight_does_not_probe_a_remote_api_base(monkeypatch, caplog):
    # the test-wide network guard would fail a connection; the key check passes with a placeholder
    monkeypatch.setenv("FAKE_KEY", "sk-placeholder")
    spec = ModelSpec(
        name="remote", model="openai/x", api_base="https://api.example.invalid/v1", api_key_env="FAKE_KEY"
    )
    with caplog.at_level(logging.INFO, logger="harness.llm"):
        check_model_available(spec)
    assert any("not probed" in r.getMessage() for r in caplog.records)


def test_a_remote_openai_model_without_a_key_is_refused_but_a_local_one_is_not(fake_openai):
    with pytest.raises(ModelConfigError, match="api_key_env"):
        check_model_available(ModelSpec(name="r", model="openai/x"))
    check_model_available(ModelSpec(name="l", model="openai/x", api_base=fake_openai.api_base))


@pytest.mark.parametrize(
    "bad", [{"api_base": "127.0.0.1:8080"}, {"deprecated": "soon"}, {"input_cost_per_mtok": -1.0}]
)
def test_preflight_rejects_malformed_fields(bad):
    with pytest.raises(ModelConfigError):
        check_model_available(ModelSpec(name="m", model="hosted_vllm/x", **bad))


def test_loopback_detection():
    assert models.is_loopback_url("http://127.0.0.1:8080/v1") and models.is_loopback_url(
        "http://localhost/v1"
    )
    assert models.is_loopback_url("http://[::1]:9/v1") and models.is_loopback_url("http://127.3.4.5/v1")
    assert not models.is_loopback_url("http://10.0.0.1/v1") and not models.is_loopback_url(None)
    assert not models.is_loopback_url("https://api.deepseek.com")


def test_deprecated_model_is_a_preflight_warning(monkeypatch, caplog):
    monkeypatch.setenv("DS_KEY", "sk-placeholder")
    spec = ModelSpec(name="ds", model="deepseek/deepseek-chat", api_key_env="DS_KEY")  # no date in the spec
    with caplog.at_level(logging.WARNING, logger="harness.llm"):
        check_model_available(spec)
    (rec,) = [r for r in caplog.records if "deprecated" in r.getMessage()]
    assert rec.levelno == logging.WARNING and "2026-07-24" in rec.getMessage()  # from litellm's map


def test_request_json_is_what_the_agent_would_send(fake_openai):
    """The request carries the sampling settings of the spec (seed included) over the wire."""
    fake_openai.reply({"content": "ok"})
    call(local(fake_openai, seed=7, max_tokens=64))
    body = fake_openai.chat_requests[0].body
    assert body["seed"] == 7 and body["max_tokens"] == 64 and body["temperature"] == 0.0
    assert json.loads(json.dumps(body["messages"])) == MSGS


def test_tool_choice_is_sent_only_when_configured(fake_openai):
    fake_openai.reply({"content": "ok"})
    fake_openai.reply({"content": "ok"})
    plain, auto = local(fake_openai), local(fake_openai, tool_choice="auto")
    call(plain)
    call(auto)
    first, second = (s.body for s in fake_openai.chat_requests)
    assert "tool_choice" not in first and second["tool_choice"] == "auto"
    assert models.request_key(plain, MSGS, TOOLS) != models.request_key(auto, MSGS, TOOLS)
    with pytest.raises(ModelConfigError, match="tool_choice"):
        check_model_available(local(fake_openai, tool_choice="sometimes"))


def test_a_local_server_gets_empty_content_on_tool_call_turns(fake_openai):
    """litellm drops a null content; llama-cpp-python's template then fails, so local servers get ""."""
    turn = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_price", "arguments": "{}"}}
        ],
    }
    history = [*MSGS, turn, {"role": "tool", "tool_call_id": "c1", "name": "get_price", "content": "3"}]
    fake_openai.reply({"content": "ok"})
    c = asyncio.run(acomplete(local(fake_openai), history, TOOLS, retry=FAST))
    sent = fake_openai.chat_requests[0].body["messages"][2]
    assert sent["content"] == "" and sent["tool_calls"][0]["id"] == "c1"
    assert turn["content"] is None  # the caller's history is untouched
    assert c.request_key == models.request_key(local(fake_openai), history, TOOLS)


def test_a_raw_litellm_string_reaches_a_local_server_through_model_overrides(fake_openai):
    """`models=[hosted_vllm/<name>]` with `model_overrides` naming the server: no yaml needed."""
    from harness.config import model_fields, raw_model

    raw = "hosted_vllm/fake-local-model"
    with pytest.warns(UserWarning, match="no conf/model yaml"):
        cfg = raw_model(raw, {raw: {"api_base": fake_openai.api_base, "max_attempts": 1}})
    spec = ModelSpec.from_config(model_fields(cfg))
    check_model_available(spec)  # keyless provider, local server answers
    fake_openai.reply(tool_call("get_price", '{"item": "widget"}'), finish_reason="tool_calls")
    c = call(spec)
    assert c.message["tool_calls"][0]["function"]["name"] == "get_price"
    assert fake_openai.chat_requests[0].body["model"] == "fake-local-model"
