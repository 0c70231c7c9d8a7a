"""The door to a model: ``acomplete`` (cache, the retry loop, timeout, rate limits, cost) and the
request it sends. Every model call in the harness goes through here; the pieces it uses live in
modules named for what each holds:

- ``harness.llm.spec``: ``ModelSpec``, ``Completion``, ``InfraError``, ``ModelConfigError``;
- ``harness.llm.pricing``: usage and its price (``compute_cost``, ``price_line``);
- ``harness.llm.retry``: error classification and backoff (``classify``, ``RetryPolicy``);
- ``harness.llm.preflight``: ``check_model_available`` and the local-server probe;
- ``harness.llm.litellm_lazy``: litellm imported and configured once, lazily;
- ``harness.llm.keys``: the request key the reply cache files a reply under (``request_key``).

Callers import from here (this module re-exports those names), so a move behind the door changes
no caller. litellm is imported only inside functions, never at module level: by
``litellm_lazy`` (the one that configures it and registers the custom providers),
``harness.llm.inline`` (its per-call preamble), and ``harness.llm.providers.scripted`` (its
response types); this module reaches it through ``litellm_lazy``.

It must not know about environments, tasks, faults or the monitor: it sees messages and tools.

Malformed model replies (tool-call arguments that are not JSON, unknown tool names) are NOT
infra errors: they come back as-is in ``Completion.message`` (``arguments`` stays the raw
string) so the agent loop can tell the model, exactly as it would for a real provider.

A model may name its own server (``api_base``, e.g. a llama.cpp or vLLM server on 127.0.0.1);
pre-flight then asks that server for its model list before any episode. Costs come from the
provider-reported usage, cached prompt tokens included: the committed price table when the
config has one, else litellm's bundled map. Retries, infra errors and pre-flight decisions are
logged under ``harness.llm`` (Hydra writes them to the run's log).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from core import offline  # noqa: F401  (offline litellm variables before any import)
from harness.llm import ratelimit
from harness.llm.inline import preamble_inline, prepare_loop
from harness.llm.keys import CACHE_SCHEMA_VERSION, request_key, request_seed
from harness.llm.litellm_lazy import _litellm as _litellm  # re-exported: harness.run.workers uses it
from harness.llm.litellm_lazy import (
    _quiet_success_logging,  # noqa: F401  (tests reach it here)
    aclose_clients,
    drain_success_logging,
    litellm_version,
    success_callbacks_configured,
)
from harness.llm.preflight import (
    KEYLESS_PROVIDERS,
    PREFLIGHT_TIMEOUT_S,
    TOOL_CHOICES,
    check_model_available,
    deprecation_date,
)
from harness.llm.pricing import _usage, compute_cost, price_line
from harness.llm.retry import (
    DEFAULT_RETRY,
    INFRA_KINDS,
    RETRYABLE_KINDS,
    RetryPolicy,
    _policy_bug,
    _retry_after,
    _scrub,
    backoff_wait,
    classify,
)
from harness.llm.spec import (
    CUSTOM_PROVIDERS,
    Completion,
    InfraError,
    ModelConfigError,
    ModelSpec,
    is_loopback_url,
)

if TYPE_CHECKING:
    from harness.llm.cache import Cache

# the names callers have always imported from here, whichever module now holds them
__all__ = [
    "CACHE_SCHEMA_VERSION",
    "CUSTOM_PROVIDERS",
    "DEFAULT_RETRY",
    "INFRA_KINDS",
    "KEYLESS_PROVIDERS",
    "LOCAL_PLACEHOLDER_KEY",
    "PREFLIGHT_TIMEOUT_S",
    "RETRYABLE_KINDS",
    "TOOL_CHOICES",
    "Completion",
    "InfraError",
    "ModelConfigError",
    "ModelSpec",
    "RetryPolicy",
    "aclose_clients",
    "acomplete",
    "backoff_wait",
    "check_model_available",
    "classify",
    "complete",
    "compute_cost",
    "deprecation_date",
    "drain_success_logging",
    "effort_for_budget",
    "estimate_tokens",
    "is_loopback_url",
    "litellm_version",
    "normalize_message",
    "price_line",
    "reasoning_params",
    "request_key",
    "request_params",
    "request_seed",
    "success_callbacks_configured",
]

log = logging.getLogger("harness.llm.models")
retry_log = logging.getLogger("harness.llm.retry")

# The OpenAI SDK insists on some key; a keyless local server ignores it.
LOCAL_PLACEHOLDER_KEY = "sk-local-no-key"


# ---------------------------------------------------------------------------------------------
# requests


def estimate_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    """A prompt's tokens before the call, for the tokens-per-minute bucket: about four characters a
    token (the reply's usage settles the difference)."""
    chars = sum(len(str(m.get("content") or "")) + len(str(m.get("tool_calls") or "")) for m in messages)
    return max(1, (chars + len(json.dumps(tools)) if tools else chars) // 4)


def _api_key(spec: ModelSpec) -> str | None:
    if not spec.api_key_env:
        return None
    key = os.environ.get(spec.api_key_env)
    if not key:
        raise InfraError(
            "missing_key", f"environment variable {spec.api_key_env} is not set (model {spec.name})"
        )
    return key


def _call_kwargs(
    spec: ModelSpec, messages: list[dict[str, Any]], tools: list[dict[str, Any]], replicate: int
) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "model": spec.model,
        "messages": _local_compatible(messages) if spec.local else messages,
        "temperature": spec.temperature,
        "max_tokens": spec.max_tokens,
        "timeout": spec.timeout_s,
        "num_retries": 0,  # our loop retries; litellm's default strategy does not even wait
        "max_retries": 0,  # and the provider SDK's own retries would multiply attempts
    }
    if tools:
        kwargs["tools"] = tools
        if spec.tool_choice:
            kwargs["tool_choice"] = spec.tool_choice
    if spec.api_base:
        kwargs["api_base"] = spec.api_base
    if spec.scripted or spec.priced_by_table:
        # custom pricing short-cuts litellm's own cost lookup (slow, and it misses custom providers);
        # the cost we report is still computed from usage by compute_cost
        kwargs["input_cost_per_token"] = (spec.input_cost_per_mtok or 0.0) / 1e6 or 1e-18
        kwargs["output_cost_per_token"] = (spec.output_cost_per_mtok or 0.0) / 1e6
    seed = request_seed(spec, replicate)
    if seed is not None:
        kwargs["seed"] = seed
    kwargs.update(reasoning_params(spec))
    if spec.scripted and ("reasoning_effort" in kwargs or "thinking" in kwargs):
        # our providers accept both (recorded, ignored by policies): let litellm forward them
        kwargs["allowed_openai_params"] = [k for k in ("reasoning_effort", "thinking") if k in kwargs]
    return kwargs


def _local_compatible(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Assistant tool-call turns with ``content: ""`` instead of null (which litellm drops from the request).

    llama-cpp-python's chatml-function-calling template reads ``message.content`` strictly and answers
    HTTP 500 when the key is absent; an empty string renders as nothing. Only for local servers; the
    request key is computed from the messages as given.
    """
    return [
        {**m, "content": ""}
        if m.get("role") == "assistant" and m.get("tool_calls") and m.get("content") is None
        else m
        for m in messages
    ]


def effort_for_budget(budget: int) -> str:
    """The reasoning effort closest to a token budget, for providers that take only an effort."""
    return "low" if budget <= 2048 else "medium" if budget <= 8192 else "high"


def reasoning_params(spec: ModelSpec) -> dict[str, Any]:
    """The reasoning request parameters for ``spec``: ``reasoning_effort`` and/or ``thinking``.

    A budget goes as ``thinking={"type": "enabled", "budget_tokens": N}`` where the provider takes
    it (and always to our scripted providers, so the reasoning-budget arm runs the same path);
    a provider that takes only ``reasoning_effort`` gets the effort nearest the budget.
    """
    out: dict[str, Any] = {}
    if spec.reasoning_effort is not None:
        out["reasoning_effort"] = spec.reasoning_effort
    if spec.reasoning_budget is None:
        return out
    thinking = {"type": "enabled", "budget_tokens": int(spec.reasoning_budget)}
    if spec.scripted or not spec.provider:
        out["thinking"] = thinking
        return out
    supported = _supported_params(spec.model)
    if "thinking" in supported or "reasoning_effort" not in supported:
        out["thinking"] = thinking  # unsupported either way: litellm's bad_request names the parameter
    elif "reasoning_effort" not in out:
        out["reasoning_effort"] = effort_for_budget(int(spec.reasoning_budget))
    return out


def _supported_params(model: str) -> list[str]:
    provider, _, name = model.partition("/")
    try:
        return list(_litellm().get_supported_openai_params(model=name, custom_llm_provider=provider) or [])
    except Exception:  # an unknown provider or model: let the call report it
        return []


def request_params(spec: ModelSpec, replicate: int) -> dict[str, Any]:
    """What a call sends besides messages and tools (for transcripts): sampling and reasoning."""
    params: dict[str, Any] = {
        "temperature": spec.temperature,
        "max_tokens": spec.max_tokens,
        "seed": request_seed(spec, replicate),
    }
    if spec.reasoning_effort is not None:
        params["reasoning_effort"] = spec.reasoning_effort
    if spec.reasoning_budget is not None:
        params["reasoning_budget"] = int(spec.reasoning_budget)
    if spec.tool_choice:
        params["tool_choice"] = spec.tool_choice
    return params


# ---------------------------------------------------------------------------------------------
# responses


def normalize_message(raw: Any) -> dict[str, Any]:
    """A plain assistant message dict from a litellm Message/dict; arguments stay raw strings."""
    if hasattr(raw, "model_dump"):
        raw = raw.model_dump()
    raw = dict(raw or {})
    calls = []
    for i, tc in enumerate(raw.get("tool_calls") or []):
        tc = tc.model_dump() if hasattr(tc, "model_dump") else dict(tc)
        fn = tc.get("function") or {}
        fn = fn.model_dump() if hasattr(fn, "model_dump") else dict(fn)
        args = fn.get("arguments")
        if not isinstance(args, str):  # some providers hand back parsed objects
            args = json.dumps(args if args is not None else {}, ensure_ascii=False)
        calls.append(
            {
                "id": tc.get("id") or f"call_{i}",
                "type": "function",
                "function": {"name": fn.get("name") or "", "arguments": args},
            }
        )
    msg: dict[str, Any] = {"role": "assistant", "content": raw.get("content"), "tool_calls": calls}
    if raw.get("reasoning_content"):
        msg["reasoning_content"] = raw["reasoning_content"]
    return msg


# ---------------------------------------------------------------------------------------------
# the call


async def acomplete(
    spec: ModelSpec,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    *,
    replicate: int = 0,
    cache: Cache | None = None,
    retry: RetryPolicy | None = None,
    arm: str = "",
) -> Completion:
    """One assistant turn through litellm with cache, timeout, and the harness's retry loop.

    Cache modes: ``replay`` answers only from the cache (a miss raises InfraError cache_miss);
    ``record`` answers from the cache when it can and stores every fresh reply; ``passthrough``
    and ``off`` always call the model and store nothing. Raises InfraError when the provider
    keeps failing (every attempt is in ``.attempts``); never for malformed model output.
    """
    key = request_key(spec, messages, tools, replicate, arm)
    mode = cache.mode if cache is not None else "off"
    if cache is not None and mode in ("record", "replay"):
        hit = cache.get(key)
        if hit is not None:
            cost, source = hit["cost_usd"], hit.get("cost_source", "table")
            if spec.priced_by_table:
                cost, source = compute_cost(spec, hit["usage"])  # today's committed table, no litellm import
            return Completion(
                message=hit["message"],
                usage=hit["usage"],
                cost_usd=cost,
                latency_s=hit["latency_s"],
                attempts=hit.get("attempts", []),
                cached=True,
                request_key=key,
                cost_source=source,
                finish_reason=hit.get("finish_reason"),
                request_params=request_params(spec, replicate),
            )
        if mode == "replay":
            raise InfraError(
                "cache_miss",
                f"replay cache {cache.path} has no reply for model {spec.name!r} ({spec.model}), replicate "
                f"{replicate}, {len(messages)} messages (request key {key[:16]}); the request differs from the "
                "recorded run or was never recorded: rerun with cache.mode=record and the same cache.path to fill "
                "it (or cache.mode=off to call the model)",
            )
    completion = await _call_with_retries(spec, messages, tools, replicate, key, retry or DEFAULT_RETRY)
    completion.request_params = request_params(spec, replicate)
    if cache is not None and mode == "record":
        cache.put(key, spec, completion)
    return completion


async def _call_with_retries(
    spec: ModelSpec,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    replicate: int,
    key: str,
    policy: RetryPolicy,
) -> Completion:
    api_key = _api_key(spec)  # InfraError("missing_key") before any attempt
    lt = _litellm()
    prepare_loop()
    inline = spec.inline_preamble
    kwargs = _call_kwargs(spec, messages, tools, replicate)
    if api_key:
        kwargs["api_key"] = api_key  # passed explicitly from the named variable, never logged
    elif spec.local:
        kwargs["api_key"] = LOCAL_PLACEHOLDER_KEY  # else the SDK falls back to OPENAI_API_KEY or refuses
    attempts: list[dict[str, Any]] = []
    started = time.monotonic()
    limiter = ratelimit.limiter_for(spec.name, spec.requests_per_minute, spec.tokens_per_minute)
    estimate = estimate_tokens(messages, tools) if limiter is not None and spec.tokens_per_minute else 0
    for attempt in range(max(1, spec.max_attempts)):
        # the loop's turn before each request (signals, the progress bar, other episodes): a scripted
        # reply whose preamble runs inline never yields otherwise, and a run of them would starve it
        await asyncio.sleep(0)
        if limiter is not None:
            await limiter.acquire(estimate)  # the model's requests and tokens per minute
        t0 = time.monotonic()
        try:
            # our own deadline as well: custom providers are not bound by litellm's timeout
            # (a timeout scope, not wait_for: no task per call, so nothing yields before the request)
            async with asyncio.timeout(spec.timeout_s + min(1.0, 0.1 * spec.timeout_s + 0.05)):
                with preamble_inline(inline):
                    resp = await lt.acompletion(**kwargs)
        except Exception as exc:  # noqa: BLE001  (every failure is classified below)
            bug = _policy_bug(exc)
            if bug is not None:
                raise bug from None
            kind = classify(exc)
            ra = _retry_after(exc)
            if limiter is not None:
                limiter.settle(estimate, 0)  # a failed attempt is charged as a request, not its tokens
                if kind == "rate_limit":  # every call to this model waits, not only this one
                    limiter.pause(min(ra if ra is not None else policy.base_s, policy.max_retry_after_s))
            retryable = kind in RETRYABLE_KINDS and attempt + 1 < spec.max_attempts
            # float | None: the name is reused below for the rate-limit headers' pause
            wait: float | None
            wait = backoff_wait(policy, key, attempt, ra) if retryable else 0.0
            out_of_time = retryable and time.monotonic() - started + wait > policy.max_total_s
            if out_of_time:
                retryable, wait = False, 0.0
            attempts.append(
                {
                    "attempt": attempt,
                    "ok": False,
                    "kind": kind,
                    "error": _scrub(f"{type(exc).__name__}: {exc}", api_key),
                    "status_code": getattr(exc, "status_code", None),
                    "retry_after_s": ra,
                    "wait_s": round(wait, 4),
                    "latency_s": round(time.monotonic() - t0, 4),
                }
            )
            if not retryable:
                last = attempts[-1]["error"]
                why = (
                    "the next wait would pass max_total_s"
                    if out_of_time
                    else "not retryable"
                    if kind not in RETRYABLE_KINDS
                    else "out of attempts"
                )
                log.error(
                    "model %s: infrastructure error %s after %d attempt(s) (%s): %s",
                    spec.name,
                    kind,
                    len(attempts),
                    why,
                    last,
                )
                raise InfraError(
                    kind if kind in INFRA_KINDS else "server",
                    f"model {spec.name!r} failed after {len(attempts)} attempt(s): {last}",
                    attempts,
                ) from None
            retry_log.warning(
                "model %s: attempt %d/%d failed (%s: %s); retrying in %.2f s%s",
                spec.name,
                attempt + 1,
                spec.max_attempts,
                kind,
                attempts[-1]["error"][:200],
                wait,
                f" (the server asked for {ra:g} s)" if ra is not None else "",
            )
            await asyncio.sleep(wait)
            continue
        latency = time.monotonic() - t0
        attempts.append({"attempt": attempt, "ok": True, "latency_s": round(latency, 4)})
        choices = getattr(resp, "choices", None) or []
        if not choices:
            raise InfraError("server", f"model {spec.name!r} returned no choices", attempts)
        message = normalize_message(choices[0].message)
        usage = _usage(resp)
        if limiter is not None:
            limiter.settle(estimate, usage["prompt_tokens"] + usage["completion_tokens"])
            hidden = getattr(resp, "_hidden_params", None) or {}
            wait = ratelimit.header_pause(
                hidden.get("additional_headers") if isinstance(hidden, dict) else None
            )
            if wait is not None:
                limiter.pause(min(wait, policy.max_retry_after_s))
        cost, source = compute_cost(spec, usage)
        return Completion(
            message=message,
            usage=usage,
            cost_usd=cost,
            latency_s=round(time.monotonic() - started, 4),
            attempts=attempts,
            cached=False,
            request_key=key,
            cost_source=source,
            finish_reason=getattr(choices[0], "finish_reason", None),
        )
    raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover


def complete(
    spec: ModelSpec, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kw: Any
) -> Completion:
    """Synchronous wrapper for scripts and tests (not for use inside a running event loop)."""
    return asyncio.run(acomplete(spec, messages, tools, **kw))
