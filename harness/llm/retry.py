"""Errors and retries: which infra kind a failed call is (``classify``), which kinds are worth
another attempt, what the server asked us to wait, and how long to back off (``backoff_wait``,
with seeded jitter so a rerun waits the same). The retry loop itself is the door's
(``harness.llm.models``): litellm's and the provider SDK's own retries are off.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from core.seeding import rng
from harness.llm.litellm_lazy import _litellm
from harness.llm.spec import InfraError

INFRA_KINDS = frozenset(
    {
        "rate_limit",
        "server",
        "timeout",
        "connection",
        "auth",
        "missing_key",
        "unknown_model",
        "cache_miss",
        "budget",
        "bad_request",
        "context_window",
    }
)
RETRYABLE_KINDS = frozenset({"rate_limit", "server", "timeout", "connection"})


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for the harness's own retry loop (litellm's and the SDK's retries are off)."""

    base_s: float = 1.0
    max_wait_s: float = 60.0
    max_retry_after_s: float = 120.0  # never sleep longer than this even if the server asks
    jitter: float = 0.25  # +- share of the wait, drawn from a seeded rng
    max_total_s: float = 900.0  # give up when the next wait would end past this since the first attempt


DEFAULT_RETRY = RetryPolicy()


def _scrub(text: str, secret: str | None) -> str:
    text = str(text)
    if secret:
        text = text.replace(secret, "***")
    return text[:500]


def _retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if any."""
    headers: Any = None
    resp = getattr(exc, "response", None)
    if resp is not None:
        headers = getattr(resp, "headers", None)
    headers = headers or getattr(exc, "litellm_response_headers", None) or {}
    try:
        lower = {str(k).lower(): v for k, v in dict(headers).items()}
    except Exception:
        return None
    try:
        if "retry-after-ms" in lower:
            return float(lower["retry-after-ms"]) / 1000.0
        if "retry-after" in lower:
            return float(lower["retry-after"])
    except (TypeError, ValueError):
        return None  # an HTTP date: fall back to our own backoff
    return None


def classify(exc: BaseException) -> str:
    """The infra kind of an exception raised by a litellm call."""
    if isinstance(exc, InfraError):
        return exc.kind
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return "timeout"
    lt = _litellm()
    ordered = [
        (lt.Timeout, "timeout"),
        (lt.RateLimitError, "rate_limit"),
        (lt.AuthenticationError, "auth"),
        (lt.PermissionDeniedError, "auth"),
        (lt.NotFoundError, "unknown_model"),
        (lt.ContextWindowExceededError, "context_window"),  # a BadRequestError: the prompt outgrew the window
        (lt.BadRequestError, "bad_request"),
        (lt.APIConnectionError, "connection"),
        (lt.InternalServerError, "server"),
        (lt.ServiceUnavailableError, "server"),
        (lt.BadGatewayError, "server"),
    ]
    for cls, kind in ordered:
        if isinstance(exc, cls):
            return kind
    status = getattr(exc, "status_code", None)
    if status == 429:
        return "rate_limit"
    if isinstance(status, int) and status >= 500:
        return "server"
    if isinstance(exc, lt.APIError):
        return "server"
    return "unknown"


def _policy_bug(exc: BaseException) -> BaseException | None:
    """A bug inside a scripted policy, which litellm wraps as a connection error: surface it as-is."""
    from harness.llm.providers.scripted import ScriptedPolicyError

    seen = 0
    cur: BaseException | None = exc
    while cur is not None and seen < 10:
        if isinstance(cur, ScriptedPolicyError):
            return cur
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return None


def backoff_wait(policy: RetryPolicy, key: str, attempt: int, retry_after: float | None) -> float:
    """Seconds before retry ``attempt`` (0-based failures so far): Retry-After wins, else exponential.

    Jitter comes from a rng seeded by (request key, attempt), so a rerun waits the same.
    """
    jitter = 1.0 + policy.jitter * (2.0 * rng("backoff", key, attempt).random() - 1.0)
    if retry_after is not None:
        # honour the server's request, never less; jitter only upwards to de-synchronise clients
        return min(retry_after, policy.max_retry_after_s) * max(1.0, jitter)
    return min(policy.base_s * (2.0**attempt), policy.max_wait_s) * jitter
