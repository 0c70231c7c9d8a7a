"""litellm, imported lazily and configured once: no module-level import, so planning a run, the
cache, the records and the scripted providers load without it (``tests/harness/llm/test_adapter.py``).

``_litellm()`` imports it on first use, turns off its own retries and its per-call success logging
when no callback would receive it, and registers this repository's custom providers (scripted
policies and the chaos test provider). ``drain_success_logging`` and ``aclose_clients`` tidy up
before a run's event loop closes.
"""

from __future__ import annotations

from typing import Any

from core import offline  # noqa: F401  (offline litellm variables before any import)

_LITELLM: Any = None


def _litellm() -> Any:
    """Import and configure litellm once, and register this repository's custom providers."""
    global _LITELLM
    if _LITELLM is None:
        import litellm

        litellm.suppress_debug_info = True  # no "Provider List" banners on custom-provider lookups
        litellm.num_retries = 0
        litellm.disable_streaming_logging = True  # we never stream; no per-chunk logging if one ever does
        _quiet_success_logging(litellm)
        from harness.llm.providers import chaos, scripted

        scripted.register_provider(litellm)
        chaos.register_provider(litellm)
        _LITELLM = litellm
    return _LITELLM


def success_callbacks_configured(litellm: Any, logging_obj: Any = None) -> bool:
    """True when litellm has somewhere to deliver a success event: a global callback list or the
    request's own (dynamic) callbacks, or its budget (``max_budget``) counts spend."""
    lists = (
        getattr(litellm, "callbacks", None),
        getattr(litellm, "success_callback", None),
        getattr(litellm, "_async_success_callback", None),
        getattr(logging_obj, "dynamic_success_callbacks", None),
        getattr(logging_obj, "dynamic_async_success_callbacks", None),
    )
    return any(lists) or bool(getattr(litellm, "max_budget", None))


def _quiet_success_logging(litellm: Any) -> None:
    """litellm builds a full logging payload after every successful call (the standard logging
    object, its cost, metadata, truncated messages: a fifth of a call's CPU) and then hands it to
    no one when no callback is configured; none of litellm's switches skips that. So the async
    success handler returns at once when ``success_callbacks_configured`` is False; with any
    callback configured it runs exactly as before. Nothing in a reply depends on it: the adapter
    reads the response and prices usage itself."""
    from litellm.litellm_core_utils.litellm_logging import Logging

    original = Logging.async_success_handler
    if getattr(original, "_harness_quiet", False):
        return

    async def async_success_handler(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not success_callbacks_configured(litellm, self):
            restore = getattr(self, "_restore_correlation_context", None)
            if restore is not None:  # what the original does last, in the task it runs in
                restore()
            return None
        return await original(self, *args, **kwargs)

    async_success_handler._harness_quiet = True  # type: ignore[attr-defined]
    Logging.async_success_handler = async_success_handler  # type: ignore[method-assign]

    # and nothing is handed to a task when no one would receive it: a task per call is CPU, a yield
    # in each call's path, and an event left queued when the loop closes first
    import litellm.utils as lt_utils

    schedule = lt_utils._schedule_async_success_logging

    def schedule_if_received(logging_obj: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(logging_obj, "defer_async_logging", False) or success_callbacks_configured(
            litellm, logging_obj
        ):
            schedule(logging_obj, *args, **kwargs)

    lt_utils._schedule_async_success_logging = schedule_if_received


async def drain_success_logging() -> None:
    """Deliver every success event litellm has queued, before the loop closes: litellm hands each
    to a task of its own, and ``asyncio.run`` cancels the ones not yet run (the last calls' events
    would never reach a configured callback). Nothing to do when litellm is not loaded or no
    callback is configured."""
    if _LITELLM is None or not success_callbacks_configured(_LITELLM):
        return
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER
    from litellm.responses.streaming_iterator import drain_logging_tasks

    await drain_logging_tasks()
    await GLOBAL_LOGGING_WORKER.flush()


def litellm_version() -> str:
    from importlib.metadata import version

    return version("litellm")


async def aclose_clients() -> None:
    """Close litellm's pooled async HTTP clients before the event loop ends (avoids 'unclosed' warnings)."""
    if _LITELLM is not None and hasattr(_LITELLM, "close_litellm_async_clients"):
        await _LITELLM.close_litellm_async_clients()
