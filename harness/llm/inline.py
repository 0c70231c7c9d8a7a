"""litellm's synchronous preamble on the event loop's own thread, for runs where no real model answers.

``litellm.acompletion`` prepares every request in ``loop.run_in_executor(None, ...)`` and then awaits
the provider. For a real provider that preamble may block (credentials, files), so it belongs on a
thread. A scripted policy answers in microseconds on the CPU, and the hop to a thread and back costs
two wake-ups per call: invisible when one process has a spare core, about a tenth of each process's
time as idle waiting when two processes share two cores (a sweep's jobs, forked workers). With every
model scripted the runner makes the loop's default executor this one, which runs each call where
it is submitted. litellm's own code path is unchanged; only the thread it runs on is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from harness.llm.models import ModelSpec


class InlineExecutor(ThreadPoolExecutor):
    """Runs each submitted call at once on the caller's thread (asyncio accepts only a
    ThreadPoolExecutor as the default executor; this one never starts a thread)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        future.set_running_or_notify_cancel()
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001  (delivered to the awaiting coroutine, as a thread would)
            future.set_exception(exc)
        else:
            future.set_result(result)
        return future


def run_inline_if_scripted(specs: Iterable[ModelSpec]) -> bool:
    """Make the running loop's default executor inline when every model is scripted; says whether it did."""
    if not all(spec.scripted for spec in specs):
        return False
    asyncio.get_running_loop().set_default_executor(InlineExecutor())
    return True
