"""The ``scripted`` litellm provider: ``scripted/<policy>`` answers with a registered policy.

A scripted run and a real-model run share every line of the agent loop: the loop calls
litellm, litellm calls this provider. A policy sees ONLY what a model would see (messages and
tool schemas) and a rng seeded from the request seed and the canonical hash of the messages;
never task internals or fault labels. Importing this module is cheap: litellm is imported only
when the provider is registered (by ``harness.llm.litellm_lazy`` on first use).
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from core.seeding import canonical_json, rng, sha256_hex

# re-exported (``X as X``): the provider's public names
from harness.llm.providers.registry import Policy as Policy
from harness.llm.providers.registry import ScriptedPolicyError as ScriptedPolicyError
from harness.llm.providers.registry import get_policy as get_policy
from harness.llm.providers.registry import register_policy as register_policy
from harness.llm.providers.registry import registered_policies as registered_policies

STAMPED_COST = 1e-18  # nonzero: litellm runs a slow "zero cost" diagnostic on 0.0


def policy_rng(
    seed: int | None, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> random.Random:
    """Deterministic per request: (request seed, hash of what the model sees)."""
    return _rng_of(seed, canonical_json(messages), canonical_json(tools))


def usage_for(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], reply: dict[str, Any]
) -> dict[str, int]:
    """Token counts as a deterministic function of text length, so cost accounting is exercised."""
    return _usage_of(canonical_json(messages), canonical_json(tools), reply)


def _rng_of(seed: int | None, messages_json: str, tools_json: str) -> random.Random:
    # sha256_hex of the canonical text is sha256_hex of the object (the same bytes are hashed)
    return rng(
        "scripted",
        seed if seed is not None else 0,
        sha256_hex(messages_json.encode("utf-8")),
        sha256_hex(tools_json.encode("utf-8")),
    )


def _usage_of(messages_json: str, tools_json: str, reply: dict[str, Any]) -> dict[str, int]:
    prompt = estimate_tokens(messages_json + tools_json)
    completion = estimate_tokens(canonical_json({"c": reply.get("content"), "t": reply.get("tool_calls")}))
    return {"prompt_tokens": prompt, "completion_tokens": completion}


def finalize_reply(reply: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Fill tool-call ids deterministically and serialise non-string arguments (as a provider would)."""
    calls = []
    turn = sum(1 for m in messages if m.get("role") == "assistant")
    for i, tc in enumerate(reply.get("tool_calls") or []):
        fn = dict(tc.get("function") or {})
        args = fn.get("arguments", "{}")
        if not isinstance(args, str):
            args = json.dumps(args, ensure_ascii=False)
        calls.append(
            {
                "id": tc.get("id") or f"call_{turn}_{i}",
                "type": "function",
                "function": {"name": fn.get("name", ""), "arguments": args},
            }
        )
    return {"role": "assistant", "content": reply.get("content"), "tool_calls": calls}


def build_response(litellm: Any, model: str, reply: dict[str, Any], usage: dict[str, int]) -> Any:
    """A litellm ModelResponse carrying ``reply``; ``model`` keeps its provider prefix."""
    from litellm.types.utils import (
        ChatCompletionMessageToolCall,
        Choices,
        Function,
        Message,
        ModelResponse,
        Usage,
    )

    tool_calls = [
        ChatCompletionMessageToolCall(
            id=tc["id"],
            type="function",
            function=Function(name=tc["function"]["name"], arguments=tc["function"]["arguments"]),
        )
        for tc in reply["tool_calls"]
    ] or None
    msg = Message(role="assistant", content=reply.get("content"), tool_calls=tool_calls)
    resp = ModelResponse(
        model=model,
        choices=[Choices(index=0, message=msg, finish_reason="tool_calls" if tool_calls else "stop")],
        usage=Usage(
            prompt_tokens=usage["prompt_tokens"],
            completion_tokens=usage["completion_tokens"],
            total_tokens=usage["prompt_tokens"] + usage["completion_tokens"],
        ),
    )
    # a stamped cost spares litellm its per-call price lookup (most of its overhead on this path);
    # harness.llm.pricing computes the cost it reports from usage and the committed table, not from this
    resp._hidden_params["response_cost"] = STAMPED_COST
    return resp


def _respond(litellm: Any, model: str, messages: list[Any], optional_params: dict[str, Any]) -> Any:
    name = model.split("/", 1)[1] if model.startswith("scripted/") else model
    # plain JSON copies: a policy can neither see litellm objects nor mutate the caller's request
    # (litellm drops null keys such as an assistant message's "content": None on the way here)
    # one serialisation per part serves the copy, the policy's rng and the token estimate
    tools, tools_json = _plain_json(optional_params.get("tools") or [])
    messages, messages_json = _plain_json(messages)
    check_reasoning_params(
        optional_params
    )  # accepted like a reasoning provider would; policies never see them
    try:
        policy = get_policy(name)
        raw = policy.respond(messages, tools, _rng_of(optional_params.get("seed"), messages_json, tools_json))
        reply = finalize_reply(raw, messages)
    except Exception as exc:
        raise ScriptedPolicyError(f"scripted policy {name!r} raised {type(exc).__name__}: {exc}") from exc
    return build_response(litellm, f"scripted/{name}", reply, _usage_of(messages_json, tools_json, reply))


REASONING_EFFORTS = ("minimal", "low", "medium", "high")


def check_reasoning_params(params: dict[str, Any]) -> None:
    """Reject malformed ``reasoning_effort`` / ``thinking`` as a provider would; valid ones are ignored."""
    effort = params.get("reasoning_effort")
    if effort is not None and effort not in REASONING_EFFORTS:
        raise ScriptedPolicyError(f"reasoning_effort {effort!r} not in {REASONING_EFFORTS}")
    thinking = params.get("thinking")
    if thinking is not None:
        budget = thinking.get("budget_tokens") if isinstance(thinking, dict) else None
        if not (isinstance(budget, int) and budget > 0 and thinking.get("type") == "enabled"):
            raise ScriptedPolicyError(
                f"thinking must be {{'type': 'enabled', 'budget_tokens': N > 0}}, got {thinking!r}"
            )


def _plain(obj: Any) -> Any:
    """A plain JSON copy of ``obj`` (pydantic objects dumped), keys in their original order."""
    return json.loads(json.dumps(obj, ensure_ascii=False, default=_dump))


def _plain_json(obj: Any) -> tuple[Any, str]:
    """The plain copy and its ``canonical_json`` text, for the rng and the token estimate alike."""
    plain = _plain(obj)
    return plain, canonical_json(plain)


def _dump(o: Any) -> Any:
    return o.model_dump() if hasattr(o, "model_dump") else str(o)


def register_provider(litellm: Any) -> None:
    """Add the ``scripted`` handler to ``litellm.custom_provider_map`` (idempotent)."""
    if any(item.get("provider") == "scripted" for item in litellm.custom_provider_map):
        return

    class ScriptedLLM(litellm.CustomLLM):  # type: ignore[misc]  # litellm is passed in as a module (Any)
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
            return _respond(litellm, model, messages, optional_params)

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
            return _respond(litellm, model, messages, optional_params)

    litellm.custom_provider_map = [
        *litellm.custom_provider_map,
        {"provider": "scripted", "custom_handler": ScriptedLLM()},
    ]


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate (4 characters per token) used by scripted providers."""
    return max(1, math.ceil(len(text) / 4))
