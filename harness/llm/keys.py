"""The key a reply is filed under: a request's sha256, and the sampling seed it sends.

Both the door (``harness.llm.models``, which sends the request) and the reply cache
(``harness.llm.cache``, which files the reply) need the key; it lives here so neither imports the
other for it. Bump ``CACHE_SCHEMA_VERSION`` when the key or the cached value's layout changes: old
entries then miss.
"""

from __future__ import annotations

from typing import Any

from core.seeding import sha256_hex
from harness.llm.spec import ModelSpec

# Bump when the request key or the cached value layout changes: old entries then miss.
CACHE_SCHEMA_VERSION = 2  # 2: the arm is part of the key


def request_seed(spec: ModelSpec, replicate: int) -> int | None:
    """The sampling seed sent to the provider: replicates differ, a null seed stays null."""
    return None if spec.seed is None else int(spec.seed) + int(replicate)


def request_key(
    spec: ModelSpec,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    replicate: int = 0,
    arm: str = "",
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
