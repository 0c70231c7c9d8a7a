"""Chaos provider: every failure mode is classified, retried (or not) and logged as it should be."""

from __future__ import annotations

import asyncio

import pytest

from harness.llm.models import DEFAULT_RETRY, InfraError, ModelSpec, RetryPolicy, acomplete, backoff_wait
from harness.llm.providers import chaos

TOOLS = [
    {
        "type": "function",
        "function": {"name": "get_x", "description": "d", "parameters": {"type": "object", "properties": {}}},
    }
]
MSGS = [{"role": "user", "content": "go"}]
FAST = RetryPolicy(base_s=0.005, max_wait_s=0.02)


def call(scenario: str, attempts: int = 4, timeout_s: float = 5.0):
    chaos.reset()
    s = ModelSpec(
        name=f"chaos-{scenario}", model=f"chaos/{scenario}", max_attempts=attempts, timeout_s=timeout_s
    )
    return asyncio.run(acomplete(s, MSGS, TOOLS, retry=FAST))


def test_rate_limit_then_ok_honours_retry_after_and_logs_every_attempt():
    c = call("rate_limit_then_ok")
    assert [a["ok"] for a in c.attempts] == [False] * chaos.FAILS_BEFORE_OK + [True]
    for a in c.attempts[:-1]:
        assert a["kind"] == "rate_limit" and a["status_code"] == 429
        assert a["retry_after_s"] == chaos.RETRY_AFTER_S and a["wait_s"] >= chaos.RETRY_AFTER_S
    assert c.latency_s >= chaos.FAILS_BEFORE_OK * chaos.RETRY_AFTER_S


@pytest.mark.parametrize(
    "scenario,kind,retried",
    [
        ("rate_limit", "rate_limit", True),
        ("server_error", "server", True),
        ("timeout", "timeout", True),
        ("connection", "connection", True),
        ("auth", "auth", False),
        ("not_found", "unknown_model", False),
        ("bad_request", "bad_request", False),
    ],
)
def test_failures_are_classified_and_only_transient_ones_retried(scenario, kind, retried):
    with pytest.raises(InfraError) as err:
        call(scenario, attempts=3)
    assert err.value.kind == kind
    assert len(err.value.attempts) == (3 if retried else 1)
    assert all(a["kind"] == kind and not a["ok"] for a in err.value.attempts)
    assert err.value.attempts[-1]["wait_s"] == 0.0  # no pointless sleep after the last attempt


def test_server_error_then_ok_recovers():
    c = call("server_error_then_ok")
    assert [a.get("kind") for a in c.attempts] == ["server", "server", None]


def test_a_hanging_provider_hits_the_adapters_own_deadline():
    with pytest.raises(InfraError) as err:
        call("hang", attempts=2, timeout_s=0.05)
    assert err.value.kind == "timeout" and len(err.value.attempts) == 2


@pytest.mark.parametrize("scenario,name", [("malformed_args", "get_x"), ("unknown_tool", "no_such_tool")])
def test_bad_model_output_is_returned_as_is_not_an_infra_error(scenario, name):
    c = call(scenario)
    (tc,) = c.message["tool_calls"]
    assert tc["function"]["name"] == name and len(c.attempts) == 1
    if scenario == "malformed_args":
        with pytest.raises(ValueError):
            import json

            json.loads(tc["function"]["arguments"])


def test_flaky_provider_is_deterministic_per_request():
    a, b = call("flaky-60", attempts=6), call("flaky-60", attempts=6)
    assert [x.get("kind") for x in a.attempts] == [x.get("kind") for x in b.attempts]
    assert a.attempts[-1]["ok"]


def test_backoff_is_exponential_seeded_and_capped():
    p = RetryPolicy(base_s=1.0, max_wait_s=8.0, jitter=0.25)
    waits = [backoff_wait(p, "k", i, None) for i in range(6)]
    assert waits == [backoff_wait(p, "k", i, None) for i in range(6)]  # same key, same waits
    for i, w in enumerate(waits):
        nominal = min(2.0**i, 8.0)
        assert 0.75 * nominal <= w <= 1.25 * nominal
    assert waits != [backoff_wait(p, "other", i, None) for i in range(6)]
    assert backoff_wait(p, "k", 0, 30.0) >= 30.0
    assert backoff_wait(DEFAULT_RETRY, "k", 0, 1e6) <= DEFAULT_RETRY.max_retry_after_s * (
        1 + DEFAULT_RETRY.jitter
    )


def test_total_retry_time_is_capped():
    s = ModelSpec(name="c", model="chaos/server_error", max_attempts=50)
    for cap in (0.0, 0.2):
        chaos.reset()
        capped = RetryPolicy(base_s=0.01, max_wait_s=0.01, jitter=0.0, max_total_s=cap)
        with pytest.raises(InfraError) as err:
            asyncio.run(acomplete(s, MSGS, TOOLS, retry=capped))
        waits = [a["wait_s"] for a in err.value.attempts]
        assert err.value.kind == "server" and len(waits) < 50 and sum(waits) <= cap
        if cap == 0.0:
            assert len(waits) == 1  # no time budget: no retry at all
