"""Provider limits as settings: a per-model token bucket for requests and tokens per minute.

A model's config may set ``requests_per_minute`` and ``tokens_per_minute`` (besides
``max_concurrency``). ``acomplete`` then asks the model's ``RateLimiter`` before every attempt: it
reserves one request and the prompt's estimated tokens (GCRA: each reservation moves a theoretical
arrival time on by cost / rate; a reservation waits until that time, less one second's burst, has
come), and after the reply it settles the estimate against the tokens the provider reports. A 429's
``Retry-After`` and a reply's rate-limit headers (``x-ratelimit-remaining-*: 0`` with its
``x-ratelimit-reset-*``) pause every call to that model until then, not only the one that was told.

The bucket's state is four floats behind a lock: in one process a list, across forked workers a
``multiprocessing`` array made before the fork (``share``), so every worker draws on one budget
(``time.monotonic`` is one clock for every process of the machine). No litellm here.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

_REQ_TAT, _TOK_TAT, _PAUSE, _SLOTS = 0, 1, 2, 3
BURST_S = 1.0  # a bucket holds one second's worth of its rate (at least one request)


class LocalState:
    """The bucket's state in one process (the event loop is the only writer: no lock needed)."""

    def __init__(self) -> None:
        self.values = [0.0] * _SLOTS
        self.lock: Any = contextlib.nullcontext()


class SharedState:
    """The bucket's state across forked processes: a shared array and its lock (made before the fork)."""

    def __init__(self, ctx: Any) -> None:
        self.values = ctx.Array("d", _SLOTS, lock=True)
        self.lock = self.values.get_lock()


class RateLimiter:
    """Requests per minute and tokens per minute for one model; either may be None (unlimited)."""

    def __init__(
        self,
        requests_per_minute: float | None,
        tokens_per_minute: float | None,
        state: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rpm = requests_per_minute
        self.tpm = tokens_per_minute
        self.state = state if state is not None else LocalState()
        self.clock = clock

    def reserve(self, tokens: int = 0) -> float:
        """Reserve one request and ``tokens``; returns the seconds to wait before sending it."""
        v = self.state.values
        with self.state.lock:
            now = self.clock()
            start = max(now, v[_PAUSE])
            if self.rpm:
                interval = 60.0 / self.rpm
                tau = max(0.0, self.rpm / 60.0 * BURST_S - 1.0) * interval
                tat = max(v[_REQ_TAT], start)
                start = max(start, tat - tau)
                v[_REQ_TAT] = max(tat, start) + interval
            if self.tpm and tokens > 0:
                per_token = 60.0 / self.tpm
                tat = max(v[_TOK_TAT], start)
                start = max(start, tat - BURST_S)
                v[_TOK_TAT] = max(tat, start) + tokens * per_token
            return max(0.0, start - now)

    async def acquire(self, tokens: int = 0) -> float:
        """Wait for this call's turn; returns the seconds waited."""
        delay = self.reserve(tokens)
        if delay > 0:
            await asyncio.sleep(delay)
        return delay

    def settle(self, estimated: int, actual: int) -> None:
        """Charge the tokens the provider reported instead of the estimate reserved before the call."""
        if not self.tpm or actual == estimated:
            return
        with self.state.lock:
            self.state.values[_TOK_TAT] += (actual - estimated) * 60.0 / self.tpm

    def pause(self, seconds: float) -> None:
        """No call to this model starts for ``seconds`` from now (the server asked us to wait)."""
        if seconds <= 0:
            return
        with self.state.lock:
            v = self.state.values
            v[_PAUSE] = max(v[_PAUSE], self.clock() + seconds)

    @property
    def paused_until(self) -> float:
        return float(self.state.values[_PAUSE])


_LIMITERS: dict[tuple[str, float | None, float | None], RateLimiter] = {}


def limiter_for(name: str, rpm: float | None, tpm: float | None) -> RateLimiter | None:
    """This process's limiter for a model (None without limits): made on first use, or by ``share``."""
    if not rpm and not tpm:
        return None
    key = (name, rpm, tpm)
    lim = _LIMITERS.get(key)
    if lim is None:
        lim = _LIMITERS[key] = RateLimiter(rpm, tpm)
    return lim


def share(
    ctx: Any, limits: Mapping[str, tuple[float | None, float | None]]
) -> list[tuple[tuple[str, float | None, float | None], RateLimiter | None]]:
    """Before forking workers: each limited model's bucket in shared memory, so all draw on one budget.
    Returns what to hand ``unshare`` once the workers have ended."""
    made = []
    for name, (rpm, tpm) in limits.items():
        if rpm or tpm:
            key = (name, rpm, tpm)
            made.append((key, _LIMITERS.get(key)))
            _LIMITERS[key] = RateLimiter(rpm, tpm, SharedState(ctx))
    return made


def unshare(made: list[tuple[tuple[str, float | None, float | None], RateLimiter | None]]) -> None:
    """Put back the limiters ``share`` replaced (the parent's own, or none)."""
    for key, before in made:
        if before is None:
            _LIMITERS.pop(key, None)
        else:
            _LIMITERS[key] = before


def reset() -> None:
    """Forget every limiter (tests)."""
    _LIMITERS.clear()


_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_reset(value: Any) -> float | None:
    """OpenAI-style reset durations ("1s", "6m0s", "20ms", "0.5") in seconds; None if unreadable."""
    text = str(value).strip().lower()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _DURATION.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text.replace(" ", ""):
        return None
    return sum(float(n) * _UNIT_S[u] for n, u in parts)


def header_pause(headers: Mapping[str, Any] | None) -> float | None:
    """Seconds to pause when a reply's rate-limit headers say a budget is spent (remaining 0)."""
    if not headers:
        return None
    lower = {str(k).lower().removeprefix("llm_provider-"): v for k, v in dict(headers).items()}
    waits = []
    for what in ("requests", "tokens"):
        remaining = lower.get(f"x-ratelimit-remaining-{what}")
        try:
            spent = remaining is not None and float(remaining) <= 0
        except (TypeError, ValueError):
            spent = False
        if spent:
            reset = parse_reset(lower.get(f"x-ratelimit-reset-{what}", ""))
            if reset is not None:
                waits.append(reset)
    return max(waits) if waits else None
