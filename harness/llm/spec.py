"""What a model is and what one call to it gives back: ``ModelSpec`` (one conf/model/<name>.yaml),
``Completion`` (one assistant turn plus usage, cost and every attempt), and the two failures a
caller tells apart: ``InfraError`` (the infrastructure failed, never the agent) and
``ModelConfigError`` (the model cannot be used as configured, raised before a run).

No litellm here, not even lazily: the run's planning and the records read these types cheaply.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import urllib.parse
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from harness.llm.inline import PREAMBLES, runs_inline

# Providers implemented in this repository (litellm CustomLLM handlers registered lazily).
CUSTOM_PROVIDERS = ("scripted", "chaos")


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

    message: dict[str, Any]
    usage: dict[str, Any]
    cost_usd: float
    latency_s: float
    attempts: list[dict[str, Any]]
    cached: bool
    request_key: str
    cost_source: str = "table"  # "table" (ModelSpec prices), "litellm" (offline map) or "none" (unpriced)
    finish_reason: str | None = None  # "stop", "tool_calls", "length" (truncated)...; do not branch on it
    # sampling + reasoning settings sent (request_params)
    request_params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class InfraError(Exception):
    """A failure of the infrastructure, never of the agent: runs record it as status infra_error."""

    def __init__(self, kind: str, message: str, attempts: list[dict[str, Any]] | None = None):
        super().__init__(f"[{kind}] {message}")
        self.kind = kind
        self.attempts = list(attempts or [])


class ModelConfigError(ValueError):
    """The model cannot be used as configured (unknown provider, missing key...): raised before a run."""
