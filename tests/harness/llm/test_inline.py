"""Where litellm's preamble runs: inline (on the loop's thread, straight through to the request) for
scripted models and key-based providers, on a thread otherwise; and only litellm's own preamble."""

from __future__ import annotations

import asyncio
import threading

import pytest

from harness.llm import inline
from harness.llm.models import ModelConfigError, ModelSpec, acomplete
from harness.llm.providers import chaos

MSGS = [
    {"role": "system", "content": "You are a tool agent."},
    {"role": "user", "content": "Price of a widget?"},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_price",
            "description": "price",
            "parameters": {
                "type": "object",
                "properties": {"item": {"type": "string"}},
                "required": ["item"],
            },
        },
    }
]


@pytest.mark.parametrize(
    "cfg, expected",
    [
        ({"model": "scripted/first_tool"}, True),
        ({"model": "openai/gpt-4o-mini"}, True),
        ({"model": "deepseek/deepseek-chat"}, True),
        ({"model": "bedrock/anthropic.claude-3-haiku"}, False),  # credentials may refresh over the network
        ({"model": "vertex_ai/gemini-1.5-pro"}, False),
        (
            {"model": "some_new_provider/m", "api_base": "http://127.0.0.1:8089/v1"},
            True,
        ),  # a server of one's own
        ({"model": "bedrock/anthropic.claude-3-haiku", "preamble": "inline"}, True),
        ({"model": "openai/gpt-4o-mini", "preamble": "thread"}, False),
    ],
)
def test_which_models_run_their_preamble_inline(cfg, expected):
    assert ModelSpec.from_config({"name": "m", **cfg}).inline_preamble is expected


def test_an_unknown_preamble_value_is_a_config_error():
    with pytest.raises(ModelConfigError, match="preamble must be one of"):
        ModelSpec.from_config({"name": "m", "model": "openai/gpt-4o", "preamble": "fast"})


def preamble_threads(spec: ModelSpec) -> set[int]:
    """The threads that ran litellm's synchronous preamble for one call of ``spec``."""
    import litellm.main

    seen: set[int] = set()
    real = litellm.main.get_optional_params  # called by the preamble, through main's globals

    def watched(*args, **kwargs):
        seen.add(threading.get_ident())
        return real(*args, **kwargs)

    litellm.main.get_optional_params = watched
    try:
        asyncio.run(acomplete(spec, MSGS, TOOLS))
    finally:
        litellm.main.get_optional_params = real
    return seen


def test_the_preamble_runs_on_the_loops_thread_when_inline_and_on_another_when_not():
    here = {threading.get_ident()}
    assert preamble_threads(ModelSpec(name="s", model="scripted/first_tool")) == here
    away = preamble_threads(ModelSpec(name="s", model="scripted/first_tool", preamble="thread"))
    assert away and not away & here


def test_calls_started_together_each_reach_the_provider_before_the_next_prepares(monkeypatch):
    """Inline, nothing yields between a call's preamble and its request, so the requests of C calls
    started at once leave one by one; on a thread, every preamble runs before the first request."""
    import threading

    import litellm.main

    events: list[str] = []
    real_params, real_respond = litellm.main.get_optional_params, chaos._respond
    # on threads, all three preambles are in flight together: each waits for the others here, so a
    # loaded machine cannot let one request overtake a slow thread's preamble (the order stays exact)
    together: list[threading.Barrier] = []

    def params(*args, **kwargs):
        events.append("prepare")
        if together:
            together[0].wait()
        return real_params(*args, **kwargs)

    async def respond(lt, model, messages, optional_params):
        events.append("request")
        return await real_respond(lt, model, messages, optional_params)

    monkeypatch.setattr(litellm.main, "get_optional_params", params)
    monkeypatch.setattr(chaos, "_respond", respond)

    def order(preamble: str) -> list[str]:
        spec = ModelSpec(name="c", model="chaos/latency-20", preamble=preamble)
        events.clear()

        async def three() -> None:
            await asyncio.gather(
                *(acomplete(spec, [*MSGS, {"role": "user", "content": str(i)}], TOOLS) for i in range(3))
            )

        asyncio.run(three())
        return list(events)

    assert order("inline") == ["prepare", "request"] * 3
    together.append(threading.Barrier(3, timeout=30))  # inline, this would wait forever: thread only
    assert order("thread") == ["prepare"] * 3 + ["request"] * 3


def test_other_executor_calls_keep_their_thread_inside_an_inline_call():
    """A DNS lookup (``loop.getaddrinfo``) inside a call is an executor call too: never inline."""

    async def go() -> tuple[int, int]:
        inline.prepare_loop()
        loop = asyncio.get_running_loop()
        with inline.preamble_inline(True):
            other = await loop.run_in_executor(None, threading.get_ident)
        return threading.get_ident(), other

    loop_thread, other = asyncio.run(go())
    assert other != loop_thread


def test_a_scripted_call_gives_the_loop_a_turn():
    """Inline, a scripted reply needs no I/O; the call still yields once, so a run of them cannot
    starve the loop (a stop signal, the progress bar, other episodes)."""

    async def go() -> bool:
        task = asyncio.create_task(acomplete(ModelSpec(name="s", model="scripted/first_tool"), MSGS, TOOLS))
        await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    assert asyncio.run(go())
