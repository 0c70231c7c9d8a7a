"""The model door at scale: litellm's success logging is skipped only when nothing would receive it."""

from __future__ import annotations

import asyncio

import pytest

from harness.llm import models
from harness.llm.models import ModelSpec, acomplete

MSGS = [{"role": "user", "content": "What does a widget cost?"}]
SPEC = ModelSpec(name="scripted-first", model="scripted/first_tool")


async def _calls_then_drain(n: int) -> None:
    for i in range(n):
        await acomplete(SPEC, [{"role": "user", "content": f"task {i}"}], [])
    await models.drain_success_logging()  # as the runner does before its loop closes


@pytest.fixture
def body_calls(monkeypatch):
    """Counts the runs of litellm's success-logging body (the payload building we skip)."""
    from litellm.litellm_core_utils.litellm_logging import Logging

    models._litellm()
    seen: list[int] = []
    original = Logging._async_success_handler_body

    async def counting(self, *args, **kwargs):
        seen.append(1)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Logging, "_async_success_handler_body", counting)
    return seen


def test_no_callback_configured_means_no_success_logging_work(body_calls):
    lt = models._litellm()
    assert not models.success_callbacks_configured(lt)
    asyncio.run(_calls_then_drain(3))
    assert body_calls == []


def test_a_configured_callback_still_receives_every_success(body_calls, monkeypatch):
    from litellm.integrations.custom_logger import CustomLogger

    lt = models._litellm()
    got: list[str] = []

    class Recorder(CustomLogger):
        async def async_log_success_event(self, kwargs, response_obj, start_time, end_time):
            got.append(kwargs.get("model"))

    monkeypatch.setattr(lt, "callbacks", [Recorder()])
    assert models.success_callbacks_configured(lt)
    asyncio.run(_calls_then_drain(2))
    assert len(body_calls) == 2 and len(got) == 2


def test_quieting_is_installed_once():
    from litellm.litellm_core_utils.litellm_logging import Logging

    lt = models._litellm()
    handler = Logging.async_success_handler
    models._quiet_success_logging(lt)
    assert Logging.async_success_handler is handler and handler._harness_quiet


# ---------------------------------------------------------------------------------------------
# provider limits: requests and tokens per minute


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def starts(lim, n: int, tokens: int = 0, clock: Clock | None = None) -> list[float]:
    """When each of n calls made at the same instant may start (seconds from now)."""
    return [round(lim.reserve(tokens), 6) for _ in range(n)]


def test_requests_per_minute_spaces_calls_after_one_seconds_burst():
    from harness.llm.ratelimit import RateLimiter

    clock = Clock()
    lim = RateLimiter(600, None, clock=clock)  # 10 per second: a burst of 10, then one every 0.1 s
    got = starts(lim, 13)
    assert got[:10] == [0.0] * 10 and got[10:] == [0.1, 0.2, 0.3]
    clock.t += 60.0  # a quiet minute refills the burst, never more than it
    assert starts(lim, 11)[-1] == 0.1
    slow = RateLimiter(30, None, clock=Clock())  # one every 2 s, no burst
    assert starts(slow, 3) == [0.0, 2.0, 4.0]


def test_tokens_per_minute_waits_for_big_prompts_and_settles_on_usage():
    from harness.llm.ratelimit import RateLimiter

    clock = Clock()
    lim = RateLimiter(None, 6000, clock=clock)  # 100 tokens/s, one second of burst
    assert lim.reserve(300) == 0.0  # a prompt bigger than the burst goes, into debt
    assert lim.reserve(100) == pytest.approx(2.0)  # 300 - 100 burst tokens = 2 s of debt first
    lim.settle(100, 700)  # the reply used 600 more tokens than estimated: 6 s more
    assert lim.reserve(1) == pytest.approx(9.0)


def test_a_pause_holds_every_call_to_the_model():
    from harness.llm.ratelimit import RateLimiter

    clock = Clock()
    lim = RateLimiter(6000, None, clock=clock)
    lim.pause(5.0)
    assert lim.reserve() == pytest.approx(5.0) and lim.reserve() == pytest.approx(5.0)
    clock.t += 5.0
    assert lim.reserve() == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("value", "seconds"), [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("0.5", 0.5), ("1h2m", 3720.0)]
)
def test_reset_durations(value, seconds):
    from harness.llm.ratelimit import parse_reset

    assert parse_reset(value) == pytest.approx(seconds)


def test_rate_limit_headers_pause_only_when_a_budget_is_spent():
    from harness.llm.ratelimit import header_pause, parse_reset

    assert parse_reset("soon") is None
    assert header_pause({"x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "2s"}) is None
    spent = {
        "llm_provider-x-ratelimit-remaining-requests": "0",
        "llm_provider-x-ratelimit-reset-requests": "2s",
        "x-ratelimit-remaining-tokens": "0",
        "x-ratelimit-reset-tokens": "750ms",
    }
    assert header_pause(spent) == pytest.approx(2.0)


def test_limits_are_model_settings_checked_at_preflight():
    from dataclasses import asdict

    from harness.config import role_model
    from harness.llm.models import ModelConfigError, check_model_available

    cfg = role_model("scripted-trusting", {"scripted-trusting": {"requests_per_minute": 120}})
    spec = ModelSpec.from_config(asdict(cfg))
    assert spec.requests_per_minute == 120 and spec.tokens_per_minute is None
    check_model_available(spec)
    with pytest.raises(ModelConfigError, match="tokens_per_minute must be positive"):
        check_model_available(ModelSpec(name="x", model="scripted/first_tool", tokens_per_minute=0))


def test_a_429_pauses_the_models_bucket_for_the_asked_wait(fake_openai):
    from harness.llm import ratelimit

    ratelimit.reset()
    fake_openai.fail(429, {"retry-after": "0.05"})
    fake_openai.reply({"content": "hi"})
    spec = ModelSpec(
        name="limited-local", model="openai/x", api_base=fake_openai.api_base, requests_per_minute=6000
    )
    asyncio.run(acomplete(spec, MSGS, [], retry=models.RetryPolicy(base_s=0.01)))
    lim = ratelimit.limiter_for("limited-local", 6000, None)
    first, second = (s.at for s in fake_openai.chat_requests)
    assert lim.paused_until >= first + 0.05 and second >= first + 0.05
    ratelimit.reset()
