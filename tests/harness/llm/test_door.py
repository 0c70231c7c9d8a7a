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
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    await GLOBAL_LOGGING_WORKER.flush()  # the success events litellm queued have run


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
