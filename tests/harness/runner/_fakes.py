"""Shared fakes for the runner tests: load the fake world and script completers."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_fakeworld():
    """The fake world module, registered as ``runner_fakeworld`` (so "runner_fakeworld:FakeWorld" imports)."""
    if "runner_fakeworld" not in sys.modules:
        spec = importlib.util.spec_from_file_location("runner_fakeworld", HERE / "fakeworld.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["runner_fakeworld"] = module
        spec.loader.exec_module(module)
    return sys.modules["runner_fakeworld"]


@dataclass
class FakeCompletion:
    message: dict
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 10, "completion_tokens": 5})
    cost_usd: float = 0.001
    latency_s: float = 0.0
    attempts: list = field(default_factory=list)
    cached: bool = False
    request_key: str = ""


def call(name: str, args, call_id: str = "c") -> dict:
    raw = args if isinstance(args, str) else json.dumps(args)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def turn(*calls: dict, content: str | None = None) -> dict:
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


class Script:
    """A completer replaying fixed assistant turns (the last one repeats); records what it saw."""

    def __init__(self, *turns: dict):
        self.turns = list(turns)
        self.seen: list[list[dict]] = []

    async def __call__(self, messages: list[dict], tools: list[dict]) -> FakeCompletion:
        self.seen.append([dict(m) for m in messages])
        i = min(len(self.seen) - 1, len(self.turns) - 1)
        return FakeCompletion(self.turns[i])


class FakeInfraError(Exception):
    kind = "rate_limit"


def policy_factory(spec, replicate: int):
    """A completer answering with the scripted policy of ``spec`` directly (no litellm in the way)."""
    from core.seeding import rng, sha256_hex
    from harness.llm.providers.scripted import get_policy

    policy = get_policy(spec.model.split("/", 1)[1])

    async def complete(messages: list[dict], tools: list[dict]) -> FakeCompletion:
        msg = policy.respond(messages, tools, rng(spec.seed, replicate, sha256_hex(messages)))
        return FakeCompletion(dict(msg), usage={"prompt_tokens": 100, "completion_tokens": 10}, cost_usd=0.01)

    return complete
