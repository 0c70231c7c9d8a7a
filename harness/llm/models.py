"""The model adapter: the ONLY module that imports litellm, and only lazily inside functions.

Holds ``ModelSpec`` (one conf/model/<name>.yaml), ``Completion`` (one assistant turn plus
usage, cost and every attempt), ``InfraError`` / ``ModelConfigError``, ``acomplete`` (the one
way to a model: cache, retry loop, timeout, cost) and ``check_model_available``.

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
import datetime as dt
import ipaddress
import json
import logging
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from core import offline  # noqa: F401  (offline litellm variables before any import)
from core.seeding import rng, sha256_hex
from harness.llm import ratelimit
from harness.llm.inline import PREAMBLES, preamble_inline, prepare_loop, runs_inline

if TYPE_CHECKING:
    from harness.llm.cache import Cache

log = logging.getLogger("harness.llm.models")
retry_log = logging.getLogger("harness.llm.retry")
preflight_log = logging.getLogger("harness.llm.preflight")

# Bump when the request key or the cached value layout changes: old entries then miss.
CACHE_SCHEMA_VERSION = 2  # 2: the arm is part of the key

# Providers implemented in this repository (litellm CustomLLM handlers registered lazily).
CUSTOM_PROVIDERS = ("scripted", "chaos")
# Providers that need no API key (local servers).
KEYLESS_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile", "vllm"})

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
# A local server's /models must answer within this before a run starts.
PREFLIGHT_TIMEOUT_S = 2.0
# The OpenAI SDK insists on some key; a keyless local server ignores it.
LOCAL_PLACEHOLDER_KEY = "sk-local-no-key"
TOOL_CHOICES = ("auto", "required", "none")


@dataclass(frozen=True)
class ModelSpec:
    """One model as configured in conf/model/<name>.yaml (prices in USD per million tokens)."""

    name: str
    model: str
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 2048
    reasoning_effort: str | None = None
    reasoning_budget: int | None = None
    timeout_s: float = 120.0
    api_key_env: str | None = None
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None
    max_concurrency: int = 8
    max_attempts: int = 6
    api_base: str | None = None  # the provider's URL, e.g. http://127.0.0.1:8089/v1 for a local server
    cached_input_cost_per_mtok: float | None = None  # cached (cache-hit) prompt tokens; None: input price
    deprecated: str | None = None  # ISO date from which the provider retires the model (warned at pre-flight)
    # sent with tools when set: "auto" for servers that ignore tools without it (llama-cpp-python)
    tool_choice: str | None = None
    # the provider's limits for this model (harness.llm.ratelimit): None means no limit of that kind
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    # where litellm's per-call preamble runs (harness.llm.inline): auto, inline (the loop's thread), thread
    preamble: str = "auto"

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> ModelSpec:
        """Build from a (resolved) mapping; unknown keys are an error so typos do not pass silently."""
        known = {f.name for f in fields(cls)}
        extra = sorted(set(cfg) - known)
        if extra:
            raise ModelConfigError(f"unknown model config keys {extra}; allowed: {sorted(known)}")
        values = {k: cfg[k] for k in cfg}
        if isinstance(values.get("deprecated"), dt.date):  # an unquoted YAML date
            values["deprecated"] = values["deprecated"].isoformat()
        if values.get("preamble", "auto") not in PREAMBLES:
            raise ModelConfigError(
                f"model {values.get('name')!r}: preamble must be one of {list(PREAMBLES)}, not {values['preamble']!r}"
            )
        return cls(**values)

    @property
    def provider(self) -> str:
        return self.model.split("/", 1)[0] if "/" in self.model else ""

    @property
    def scripted(self) -> bool:
        """True when no real model answers (scripted policies and the chaos test provider)."""
        return self.provider in CUSTOM_PROVIDERS

    @property
    def inline_preamble(self) -> bool:
        """litellm's preamble for this model runs on the loop's thread (harness.llm.inline)."""
        return runs_inline(self.provider, self.preamble, self.api_base)

    @property
    def priced_by_table(self) -> bool:
        return self.input_cost_per_mtok is not None or self.output_cost_per_mtok is not None

    @property
    def local(self) -> bool:
        """True when ``api_base`` points at this machine (a local server: no key, a pre-flight GET)."""
        return is_loopback_url(self.api_base)


def is_loopback_url(url: str | None) -> bool:
    """True for http(s) URLs whose host is localhost or a loopback address."""
    if not url:
        return False
    host = urllib.parse.urlsplit(url).hostname
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class Completion:
    """One assistant turn. ``message`` is plain JSON (OpenAI chat format), never a litellm object."""

    message: dict
    usage: dict
    cost_usd: float
    latency_s: float
    attempts: list[dict]
    cached: bool
    request_key: str
    cost_source: str = "table"  # "table" (ModelSpec prices), "litellm" (offline map) or "none" (unpriced)
    finish_reason: str | None = None  # "stop", "tool_calls", "length" (truncated)...; do not branch on it
    request_params: dict = field(default_factory=dict)  # sampling + reasoning settings sent (request_params)

    def to_json(self) -> dict:
        return asdict(self)


class InfraError(Exception):
    """A failure of the infrastructure, never of the agent: runs record it as status infra_error."""

    def __init__(self, kind: str, message: str, attempts: list[dict] | None = None):
        super().__init__(f"[{kind}] {message}")
        self.kind = kind
        self.attempts = list(attempts or [])


class ModelConfigError(ValueError):
    """The model cannot be used as configured (unknown provider, missing key...): raised before a run."""


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for the harness's own retry loop (litellm's and the SDK's retries are off)."""

    base_s: float = 1.0
    max_wait_s: float = 60.0
    max_retry_after_s: float = 120.0  # never sleep longer than this even if the server asks
    jitter: float = 0.25  # +- share of the wait, drawn from a seeded rng
    max_total_s: float = 900.0  # give up when the next wait would end past this since the first attempt


DEFAULT_RETRY = RetryPolicy()

# ---------------------------------------------------------------------------------------------
# litellm, lazily


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


# ---------------------------------------------------------------------------------------------
# requests


def request_seed(spec: ModelSpec, replicate: int) -> int | None:
    """The sampling seed sent to the provider: replicates differ, a null seed stays null."""
    return None if spec.seed is None else int(spec.seed) + int(replicate)


def request_key(
    spec: ModelSpec, messages: list[dict], tools: list[dict], replicate: int = 0, arm: str = ""
) -> str:
    """sha256 of the canonical request: everything that can change the reply, plus the replicate and the arm.

    The arm is in the key so two arms never share a recorded reply, whatever order they ran in: with
    sampling (temperature > 0), sharing would make an arm's replies depend on which arm ran first.
    """
    return sha256_hex(
        {
            "v": CACHE_SCHEMA_VERSION,
            "model": spec.model,
            "messages": messages,
            "tools": tools,
            "temperature": spec.temperature,
            "seed": spec.seed,
            "max_tokens": spec.max_tokens,
            "reasoning_effort": spec.reasoning_effort,
            "reasoning_budget": spec.reasoning_budget,
            "replicate": replicate,
            "arm": arm,
            **({"tool_choice": spec.tool_choice} if spec.tool_choice else {}),  # absent: old keys still match
        }
    )


def estimate_tokens(messages: list[dict], tools: list[dict]) -> int:
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


def _call_kwargs(spec: ModelSpec, messages: list[dict], tools: list[dict], replicate: int) -> dict[str, Any]:
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


def _local_compatible(messages: list[dict]) -> list[dict]:
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


def normalize_message(raw: Any) -> dict:
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


def _int(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def _field(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)


def _usage(resp: Any) -> dict:
    """Provider-reported token counts: prompt, completion, cached prompt (cache hits), reasoning.

    ``cached_tokens`` is part of ``prompt_tokens`` (OpenAI's ``prompt_tokens_details.cached_tokens``;
    DeepSeek's raw ``prompt_cache_hit_tokens``; Anthropic's ``cache_read_input_tokens``).
    """
    u = getattr(resp, "usage", None)
    if u is not None and hasattr(u, "model_dump"):
        u = u.model_dump()
    u = dict(u or {})
    prompt = _int(u.get("prompt_tokens"))
    out = {"prompt_tokens": prompt, "completion_tokens": _int(u.get("completion_tokens"))}
    cached = _int(_field(u.get("prompt_tokens_details") or {}, "cached_tokens"))
    cached = cached or _int(u.get("prompt_cache_hit_tokens")) or _int(u.get("cache_read_input_tokens"))
    out["cached_tokens"] = min(cached, prompt)
    details = u.get("completion_tokens_details") or {}
    if isinstance(details, Mapping) and details.get("reasoning_tokens"):
        out["reasoning_tokens"] = int(details["reasoning_tokens"])
    return out


_UNPRICED_WARNED: set[str] = set()


def compute_cost(spec: ModelSpec, usage: Mapping[str, int]) -> tuple[float, str]:
    """(USD, source) for one call from its usage: the committed table, else litellm's map, else 0.

    Cached prompt tokens are priced at the cached-input rate (the table's, or litellm's
    ``cache_read_input_token_cost``); a table without a cached price charges them the full input
    rate, an upper bound. We price usage ourselves rather than read litellm's response cost:
    custom providers lose their prefix in litellm's cost lookups.
    """
    pt, ct = _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
    cached = min(_int(usage.get("cached_tokens")), pt)
    if spec.priced_by_table:
        inp = spec.input_cost_per_mtok or 0.0
        hit = inp if spec.cached_input_cost_per_mtok is None else spec.cached_input_cost_per_mtok
        cost = ((pt - cached) * inp + cached * hit + ct * (spec.output_cost_per_mtok or 0.0)) / 1e6
        return cost, "table"
    if spec.scripted:
        return 0.0, "table"
    lt = _litellm()
    try:
        from litellm.types.utils import Usage

        details = {"cached_tokens": cached} if cached else None
        u = Usage(prompt_tokens=pt, completion_tokens=ct, total_tokens=pt + ct, prompt_tokens_details=details)
        p, c = lt.cost_per_token(model=spec.model, usage_object=u)
        return float(p) + float(c), "litellm"
    except Exception as exc:  # not in the offline map: report it rather than guess
        if spec.name not in _UNPRICED_WARNED:
            _UNPRICED_WARNED.add(spec.name)
            log.warning(
                "model %s (%s) has no price in its config nor in litellm's map (%s): its calls are "
                "recorded at 0 USD with cost_source 'none'",
                spec.name,
                spec.model,
                str(exc)[:200],
            )
        return 0.0, "none"


# ---------------------------------------------------------------------------------------------
# errors and retries


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


# ---------------------------------------------------------------------------------------------
# the call


async def acomplete(
    spec: ModelSpec,
    messages: list[dict],
    tools: list[dict],
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
    spec: ModelSpec, messages: list[dict], tools: list[dict], replicate: int, key: str, policy: RetryPolicy
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
    attempts: list[dict] = []
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


async def aclose_clients() -> None:
    """Close litellm's pooled async HTTP clients before the event loop ends (avoids 'unclosed' warnings)."""
    if _LITELLM is not None and hasattr(_LITELLM, "close_litellm_async_clients"):
        await _LITELLM.close_litellm_async_clients()


def complete(spec: ModelSpec, messages: list[dict], tools: list[dict], **kw: Any) -> Completion:
    """Synchronous wrapper for scripts and tests (not for use inside a running event loop)."""
    return asyncio.run(acomplete(spec, messages, tools, **kw))


# ---------------------------------------------------------------------------------------------
# pre-flight


def check_model_available(spec: ModelSpec) -> None:
    """Raise ModelConfigError before a run if the model cannot be called; never prints a key.

    Logs each decision under ``harness.llm.preflight``; a model its provider deprecates (the
    config's ``deprecated`` date, or litellm's map) is a warning, not an error.
    """
    if not spec.model or "/" not in spec.model:
        raise ModelConfigError(
            f"model {spec.name!r}: litellm model string {spec.model!r} has no provider prefix "
            "(expected e.g. 'deepseek/deepseek-chat' or 'scripted/trusting')"
        )
    provider, rest = spec.model.split("/", 1)
    if spec.max_attempts < 1 or spec.timeout_s <= 0 or spec.max_concurrency < 1:
        raise ModelConfigError(
            f"model {spec.name!r}: max_attempts, timeout_s and max_concurrency must be positive"
        )
    for limit in ("requests_per_minute", "tokens_per_minute"):
        value = getattr(spec, limit)
        if value is not None and not value > 0:
            raise ModelConfigError(
                f"model {spec.name!r}: {limit} must be positive (or null for no limit), got {value!r}"
            )
    _check_fields(spec)
    if provider == "scripted":
        from harness.llm.providers.registry import get_policy

        try:
            get_policy(rest)
        except KeyError as exc:
            raise ModelConfigError(f"model {spec.name!r}: {exc.args[0]}") from None
        preflight_log.info(
            "model %s: scripted policy %r found (offline, %s)", spec.name, rest, price_line(spec)
        )
        return
    if provider == "chaos":
        from harness.llm.providers.chaos import known_scenario

        if not known_scenario(rest):
            raise ModelConfigError(f"model {spec.name!r}: unknown chaos scenario {rest!r}")
        preflight_log.info("model %s: chaos scenario %r (test provider)", spec.name, rest)
        return
    # a missing key is the common mistake: report it without paying for litellm's import
    if spec.api_key_env and not os.environ.get(spec.api_key_env):
        raise ModelConfigError(
            f"model {spec.name!r} needs an API key: the environment variable {spec.api_key_env} is not set; "
            f"set it (export {spec.api_key_env}=<your key>) and rerun, or pass models=[scripted-trusting] "
            "(or another scripted model) to run offline"
        )
    lt = _litellm()
    known = {getattr(p, "value", str(p)) for p in lt.provider_list}
    if provider not in known:
        raise ModelConfigError(
            f"model {spec.name!r}: unknown provider {provider!r} in {spec.model!r}; use a litellm provider "
            f"prefix (e.g. deepseek/, openai/, anthropic/) or scripted/<policy>"
        )
    if spec.api_key_env is None and provider not in KEYLESS_PROVIDERS and not spec.local:
        raise ModelConfigError(
            f"model {spec.name!r}: api_key_env is not set in its config; name the environment variable "
            f"holding the {provider} key (e.g. api_key_env: {provider.upper().replace('-', '_')}_API_KEY), "
            "or point api_base at a local server (http://127.0.0.1:PORT/v1) that needs none"
        )
    if spec.local:
        _probe_local_server(spec)
    elif spec.api_base:
        preflight_log.info(
            "model %s: api_base %s is not on this machine; not probed", spec.name, spec.api_base
        )
    _warn_if_deprecated(spec, lt)
    source = "the committed table" if spec.priced_by_table else "litellm's map (no table in its config)"
    preflight_log.info("model %s (%s): ready; calls priced from %s", spec.name, spec.model, source)


def _check_fields(spec: ModelSpec) -> None:
    if spec.api_base is not None:
        parts = urllib.parse.urlsplit(spec.api_base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ModelConfigError(
                f"model {spec.name!r}: api_base {spec.api_base!r} is not an http(s) URL "
                "(expected e.g. http://127.0.0.1:8089/v1)"
            )
    if spec.deprecated is not None:
        try:
            dt.date.fromisoformat(str(spec.deprecated))
        except ValueError:
            raise ModelConfigError(
                f"model {spec.name!r}: deprecated must be an ISO date (YYYY-MM-DD), got {spec.deprecated!r}"
            ) from None
    if spec.tool_choice is not None and spec.tool_choice not in TOOL_CHOICES:
        raise ModelConfigError(
            f"model {spec.name!r}: tool_choice must be one of {TOOL_CHOICES}, got {spec.tool_choice!r}"
        )
    prices = (spec.input_cost_per_mtok, spec.cached_input_cost_per_mtok, spec.output_cost_per_mtok)
    if any(p is not None and p < 0 for p in prices):
        raise ModelConfigError(f"model {spec.name!r}: prices must not be negative")


def price_line(spec: ModelSpec) -> str:
    """What the run will charge this model's calls, as the cost code prices them."""
    if spec.priced_by_table and any(
        (p or 0.0) > 0
        for p in (spec.input_cost_per_mtok, spec.cached_input_cost_per_mtok, spec.output_cost_per_mtok)
    ):
        cached = (
            ""
            if spec.cached_input_cost_per_mtok is None
            else f", cached input {spec.cached_input_cost_per_mtok}"
        )
        return (
            f"priced from its config: input {spec.input_cost_per_mtok or 0.0}{cached}, output "
            f"{spec.output_cost_per_mtok or 0.0} USD per million tokens"
        )
    if spec.priced_by_table or spec.scripted:
        return "no cost: its config prices it at 0"
    return "priced from litellm's bundled price map"


def _probe_local_server(spec: ModelSpec) -> None:
    """GET ``<api_base>/models`` with a short timeout: a local server that is down fails here, not mid-run."""
    assert spec.api_base is not None
    url = spec.api_base.rstrip("/") + "/models"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback never goes via a proxy
    try:
        with opener.open(urllib.request.Request(url, method="GET"), timeout=PREFLIGHT_TIMEOUT_S) as resp:
            body = resp.read(1 << 20)
    except urllib.error.HTTPError as exc:  # something answers: let the calls report what is wrong
        preflight_log.warning("model %s: %s answered HTTP %s; going on", spec.name, url, exc.code)
        return
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelConfigError(
            f"model {spec.name!r}: no server answers at {spec.api_base} (GET {url}: {reason}); start the "
            f"OpenAI-compatible server this config names before the run, e.g. `python scripts/local_smoke.py "
            f"--serve` for smollm2-local, or `python -m llama_cpp.server --model <file.gguf> "
            f"--chat_format chatml-function-calling --host 127.0.0.1 "
            f"--port {urllib.parse.urlsplit(spec.api_base).port or '<port>'}`"
        ) from None
    try:
        served = [str(m.get("id")) for m in json.loads(body).get("data", [])]
    except (ValueError, AttributeError, TypeError):
        served = []
    preflight_log.info(
        "model %s: local server %s answers (serving %s)",
        spec.name,
        spec.api_base,
        ", ".join(served) or "an unnamed model",
    )


def deprecation_date(spec: ModelSpec, lt: Any = None) -> str | None:
    """The date the provider retires the model: the config's ``deprecated``, else litellm's map's."""
    if spec.deprecated:
        return str(spec.deprecated)
    if lt is None:
        return None
    cost_map = getattr(lt, "model_cost", {}) or {}
    for name in (spec.model, spec.model.split("/", 1)[-1]):
        info = cost_map.get(name)
        if isinstance(info, Mapping) and info.get("deprecation_date"):
            return str(info["deprecation_date"])
    return None


def _warn_if_deprecated(spec: ModelSpec, lt: Any) -> None:
    date = deprecation_date(spec, lt)
    if date is None:
        return
    try:  # the clock only words a warning; nothing in a record depends on it
        passed = dt.date.fromisoformat(date) <= dt.date.today()
    except ValueError:
        passed = False
    preflight_log.warning(
        "model %s (%s) is deprecated by its provider from %s%s; its endpoint may stop answering or change "
        "model: check the provider's notice and move the config to the successor before a paid run",
        spec.name,
        spec.model,
        date,
        " (already past)" if passed else "",
    )
