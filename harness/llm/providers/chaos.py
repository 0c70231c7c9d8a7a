"""The ``chaos`` litellm provider for tests and benchmarks: ``chaos/<scenario>`` misbehaves on purpose.

Scenarios (all deterministic; counters are per request, keyed by the hash of the messages):

- ``ok``: behaves like the ``first_tool`` scripted policy.
- ``rate_limit_then_ok`` / ``server_error_then_ok``: the first 2 attempts of each request fail
  (429 with ``Retry-After: 0.05`` / 500), then ``ok``.
- ``rate_limit``, ``server_error``, ``timeout`` (raises litellm.Timeout), ``connection``,
  ``auth`` (401), ``not_found`` (404), ``bad_request`` (400): every attempt fails that way.
- ``hang``: never answers (the adapter's own deadline must fire).
- ``malformed_args``: a tool call whose arguments are not JSON. ``unknown_tool``: a call to a tool
  that was not offered. Both are model behaviour, not infra errors.
- ``latency-<ms>``: sleeps <ms> milliseconds, then ``ok`` (throughput benchmarks).
- ``flaky-<pct>``: each attempt fails with 429 or 500 with probability pct/100, seeded by
  (request seed, request hash, attempt number).

Knows nothing of environments; litellm is imported only at registration.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from core.seeding import rng, sha256_hex
from harness.llm.providers.scripted import (
    _plain,
    build_response,
    finalize_reply,
    get_policy,
    policy_rng,
    usage_for,
)

FAILS_BEFORE_OK = 2
RETRY_AFTER_S = 0.05
_FIXED = {
    "ok",
    "rate_limit_then_ok",
    "server_error_then_ok",
    "rate_limit",
    "server_error",
    "timeout",
    "connection",
    "auth",
    "not_found",
    "bad_request",
    "hang",
    "malformed_args",
    "unknown_tool",
}
_ATTEMPTS: dict[str, int] = {}


def known_scenario(name: str) -> bool:
    return name in _FIXED or bool(re.fullmatch(r"latency-\d+", name) or re.fullmatch(r"flaky-\d+", name))


def reset() -> None:
    """Forget per-request attempt counters (tests call this between cases)."""
    _ATTEMPTS.clear()


def _http_response(status: int, headers: dict[str, str] | None = None) -> Any:
    import httpx

    return httpx.Response(
        status, headers=headers or {}, request=httpx.Request("POST", "http://chaos.invalid")
    )


def _raise(litellm: Any, kind: str, model: str) -> None:
    common = {"llm_provider": "chaos", "model": model}
    if kind == "rate_limit":
        raise litellm.RateLimitError(
            "chaos: rate limited", response=_http_response(429, {"retry-after": str(RETRY_AFTER_S)}), **common
        )
    if kind == "server_error":
        raise litellm.InternalServerError("chaos: internal server error", **common)
    if kind == "timeout":
        raise litellm.Timeout("chaos: request timed out", **common)
    if kind == "connection":
        raise litellm.APIConnectionError("chaos: connection reset", **common)
    if kind == "auth":
        raise litellm.AuthenticationError("chaos: invalid api key", **common)
    if kind == "not_found":
        raise litellm.NotFoundError("chaos: model not found", **common)
    if kind == "bad_request":
        raise litellm.BadRequestError("chaos: bad request", **common)
    raise AssertionError(kind)


def _ok(model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], seed: Any) -> dict[str, Any]:
    return get_policy("first_tool").respond(messages, tools, policy_rng(seed, messages, tools))


async def _respond(litellm: Any, model: str, messages: list[Any], optional_params: dict[str, Any]) -> Any:
    scenario = model.split("/", 1)[1] if model.startswith("chaos/") else model
    tools = _plain(optional_params.get("tools") or [])
    messages = _plain(messages)
    seed = optional_params.get("seed")
    req = sha256_hex([scenario, messages, tools, seed])
    attempt = _ATTEMPTS.get(req, 0)
    _ATTEMPTS[req] = attempt + 1
    full = f"chaos/{scenario}"
    if scenario in ("rate_limit_then_ok", "server_error_then_ok") and attempt < FAILS_BEFORE_OK:
        _raise(litellm, scenario.removesuffix("_then_ok"), full)
    elif scenario in (
        "rate_limit",
        "server_error",
        "timeout",
        "connection",
        "auth",
        "not_found",
        "bad_request",
    ):
        _raise(litellm, scenario, full)
    elif scenario == "hang":
        await asyncio.sleep(3600)
    elif scenario.startswith("latency-"):
        await asyncio.sleep(int(scenario.split("-", 1)[1]) / 1000.0)
    elif scenario.startswith("flaky-"):
        r = rng("chaos-flaky", seed, req, attempt)
        if r.random() < int(scenario.split("-", 1)[1]) / 100.0:
            _raise(litellm, r.choice(["rate_limit", "server_error"]), full)
    elif not known_scenario(scenario):
        raise litellm.NotFoundError(f"chaos: unknown scenario {scenario!r}", llm_provider="chaos", model=full)

    if scenario == "malformed_args" and tools:
        raw = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": tools[0]["function"]["name"], "arguments": '{"x": 1,'},
                }
            ],
        }
    elif scenario == "unknown_tool":
        raw = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"type": "function", "function": {"name": "no_such_tool", "arguments": "{}"}}],
        }
    else:
        raw = _ok(full, messages, tools, seed)
    reply = finalize_reply(raw, messages)
    return build_response(litellm, full, reply, usage_for(messages, tools, reply))


def register_provider(litellm: Any) -> None:
    """Add the ``chaos`` handler to ``litellm.custom_provider_map`` (idempotent)."""
    if any(item.get("provider") == "chaos" for item in litellm.custom_provider_map):
        return

    class ChaosLLM(litellm.CustomLLM):  # type: ignore[misc]  # litellm is passed in as a module (Any)
        def completion(
            self,
            model: str,
            messages: list[Any],
            api_base: Any,
            custom_prompt_dict: Any,
            model_response: Any,
            print_verbose: Any,
            encoding: Any,
            api_key: Any,
            logging_obj: Any,
            optional_params: dict[str, Any],
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            if model.split("/", 1)[-1] == "hang" or model.split("/", 1)[-1].startswith("latency-"):
                raise litellm.BadRequestError(
                    "chaos: sleeping scenarios are async only", llm_provider="chaos", model=model
                )
            coro = _respond(litellm, model, messages, optional_params)
            return asyncio.run(coro)

        async def acompletion(
            self,
            model: str,
            messages: list[Any],
            api_base: Any,
            custom_prompt_dict: Any,
            model_response: Any,
            print_verbose: Any,
            encoding: Any,
            api_key: Any,
            logging_obj: Any,
            optional_params: dict[str, Any],
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            return await _respond(litellm, model, messages, optional_params)

    litellm.custom_provider_map = [
        *litellm.custom_provider_map,
        {"provider": "chaos", "custom_handler": ChaosLLM()},
    ]
