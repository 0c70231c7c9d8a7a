"""litellm's sync preamble runs on the loop's thread when every model is scripted, and nowhere else."""

from __future__ import annotations

import asyncio
import threading

import pytest

from harness.llm.inline import InlineExecutor, run_inline_if_scripted
from harness.llm.models import ModelSpec, acomplete

SCRIPTED = ModelSpec(name="scripted-first", model="scripted/first_tool")
REAL = ModelSpec(name="gpt", model="openai/gpt-4o-mini", api_key_env="OPENAI_API_KEY")
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


def test_a_submitted_call_runs_at_once_on_the_callers_thread():
    ex = InlineExecutor()
    assert ex.submit(threading.get_ident).result() == threading.get_ident()
    failed = ex.submit(int, "not a number")
    assert isinstance(failed.exception(), ValueError)  # delivered through the future, as a thread would
    ex.shutdown()


def _preamble_threads(specs: list[ModelSpec]) -> tuple[bool, set[int]]:
    """Whether the loop went inline, and the threads that ran litellm's sync ``completion``."""
    import litellm

    seen: set[int] = set()
    real_completion = litellm.main.completion

    def watched(*args, **kwargs):
        seen.add(threading.get_ident())
        return real_completion(*args, **kwargs)

    async def go() -> bool:
        inline = run_inline_if_scripted(specs)
        await acomplete(SCRIPTED, MSGS, TOOLS)
        return inline

    litellm.main.completion = watched
    try:
        return asyncio.run(go()), seen
    finally:
        litellm.main.completion = real_completion


@pytest.mark.parametrize("specs, inline", [([SCRIPTED], True), ([SCRIPTED, REAL], False)])
def test_litellms_preamble_leaves_the_loop_thread_only_when_a_real_model_is_in_the_run(specs, inline):
    went_inline, threads = _preamble_threads(specs)
    assert went_inline is inline
    assert threads and (threads == {threading.get_ident()}) is inline
