"""Pre-flight: before any episode, ``check_model_available`` says whether each model can be called
(a provider prefix, a key in the environment, sane limits and prices, a scripted policy or chaos
scenario that exists) and raises ``ModelConfigError`` with what to do when not. A model that names
its own server on this machine (``api_base`` on 127.0.0.1) is asked for its model list first; one
its provider deprecates is a warning. Decisions are logged under ``harness.llm.preflight``.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from harness.llm.litellm_lazy import _litellm
from harness.llm.pricing import price_line
from harness.llm.spec import ModelConfigError, ModelSpec

preflight_log = logging.getLogger("harness.llm.preflight")

# Providers that need no API key (local servers).
KEYLESS_PROVIDERS = frozenset({"ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile", "vllm"})
# A local server's /models must answer within this before a run starts.
PREFLIGHT_TIMEOUT_S = 2.0
TOOL_CHOICES = ("auto", "required", "none")


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
            f"set it (export {spec.api_key_env}=<your key>) and rerun, or pass model=scripted-trusting "
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
