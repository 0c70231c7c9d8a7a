"""Where litellm's synchronous preamble runs: on the loop's own thread, without a yield, or on a thread.

``litellm.acompletion`` prepares every request (provider, parameters, logging object, model info:
about 4 ms of CPU here) in ``loop.run_in_executor(None, completion)`` and then awaits the provider.
On a thread, that preamble contends for the GIL with the loop; and awaiting the executor's future
yields, so with C calls started together every task does its preamble before any reaches the
network: the C requests leave as one burst, come back as one, and the burst repeats every round
(at 2 s latency and 256 in flight, a third of the run is spent in these waves). Run on the loop's
thread and returned as a finished future, each call's preamble runs straight through to its
request: calls leave spaced by their CPU cost, and stay spaced.

That is right only where the preamble computes and does no I/O: scripted policies, and providers
whose requests carry an API key (``INLINE_PROVIDERS``) or go to a server of the user's own
(``api_base``). Others (cloud credentials that refresh over the network: Bedrock, Vertex, Azure AD)
keep the thread; a model's ``preamble: thread|inline`` overrides the choice. Only litellm's
``completion`` is ever run inline: any other executor call (DNS lookups among them) keeps its thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

CALL_THREADS = 64  # the loop's default executor, for preambles that keep a thread
PREAMBLES = ("auto", "inline", "thread")
# providers whose preamble only computes (an API key from the environment, a cached HTTP client)
INLINE_PROVIDERS = frozenset(
    {
        "scripted",
        "chaos",
        "openai",
        "text-completion-openai",
        "hosted_vllm",
        "anthropic",
        "deepseek",
        "dashscope",
        "openrouter",
        "together_ai",
        "groq",
        "mistral",
        "fireworks_ai",
        "xai",
        "gemini",
    }
)

_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("harness_inline_preamble", default=False)
_PREPARED: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def runs_inline(provider: str, preamble: str, api_base: str | None) -> bool:
    """Whether a model's preamble runs on the loop's thread (``preamble`` is its config value)."""
    if preamble not in PREAMBLES:
        raise ValueError(f"preamble must be one of {PREAMBLES}, not {preamble!r}")
    if preamble != "auto":
        return preamble == "inline"
    return provider in INLINE_PROVIDERS or bool(api_base)


@contextlib.contextmanager
def preamble_inline(on: bool) -> Iterator[None]:
    """Within the block (one call's ``await litellm.acompletion``), its preamble runs inline if ``on``."""
    token = _INLINE.set(on)
    try:
        yield
    finally:
        _INLINE.reset(token)


def prepare_loop() -> None:
    """Once per event loop: a default executor wide enough that the concurrency cap, not the pool,
    bounds the calls whose preamble keeps a thread, and the hook that runs the others inline.
    A loop whose default executor someone else set keeps it."""
    loop = asyncio.get_running_loop()
    if loop in _PREPARED:
        return
    _PREPARED.add(loop)
    if getattr(loop, "_default_executor", None) is None:
        loop.set_default_executor(
            ThreadPoolExecutor(max_workers=CALL_THREADS, thread_name_prefix="litellm-call")
        )
    original = loop.run_in_executor

    def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        if executor is None and _INLINE.get() and _is_preamble(func):
            done = loop.create_future()
            try:
                done.set_result(func(*args))
            except Exception as exc:  # noqa: BLE001  (delivered to the awaiting call, as a thread would)
                done.set_exception(exc)
            return done
        return original(executor, func, *args)

    loop.run_in_executor = run_in_executor  # type: ignore[method-assign,assignment]


@functools.cache
def _completions() -> tuple[Any, ...]:
    import litellm
    import litellm.main

    return tuple({id(f): f for f in (litellm.completion, litellm.main.completion)}.values())


def _is_preamble(func: Any) -> bool:
    """``func`` is litellm's ``completion`` as ``acompletion`` submits it (partials around a context's run)."""
    for _ in range(4):
        if not isinstance(func, functools.partial):
            return False
        if any(func.func is f for f in _completions()):
            return True
        inner = func.args[0] if func.args else None
        func = inner if isinstance(inner, functools.partial) else func.func
    return False
