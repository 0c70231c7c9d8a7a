"""A canary API key never leaves the process environment: not in completions, errors, caches or messages."""

from __future__ import annotations

import asyncio
import json

import pytest

from harness.llm import models
from harness.llm.cache import Cache
from harness.llm.models import (
    InfraError,
    ModelConfigError,
    ModelSpec,
    RetryPolicy,
    acomplete,
    check_model_available,
)
from harness.llm.providers import chaos

CANARY = "sk-canary-7f3a9c1e-DO-NOT-LEAK"
MSGS = [{"role": "user", "content": "hello"}]
TOOLS = [{"type": "function", "function": {"name": "t", "description": "", "parameters": {"type": "object"}}}]


def test_key_is_passed_explicitly_and_appears_in_no_output(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CANARY_API_KEY", CANARY)
    lt = models._litellm()
    seen: dict = {}

    class Probe(lt.CustomLLM):
        async def acompletion(
            self,
            model,
            messages,
            api_base,
            custom_prompt_dict,
            model_response,
            print_verbose,
            encoding,
            api_key,
            logging_obj,
            optional_params,
            *a,
            **k,
        ):
            seen.update(api_key=api_key, timeout=k.get("timeout"), params=dict(optional_params))
            raise lt.AuthenticationError(f"bad key {api_key}", llm_provider="probe", model=model)

    monkeypatch.setattr(
        lt, "custom_provider_map", [*lt.custom_provider_map, {"provider": "probe", "custom_handler": Probe()}]
    )
    spec = ModelSpec(name="probe", model="probe/m", api_key_env="CANARY_API_KEY", timeout_s=7.0)
    with pytest.raises(InfraError) as err:
        asyncio.run(acomplete(spec, MSGS, TOOLS))
    assert seen["api_key"] == CANARY and seen["timeout"] == 7.0  # given to litellm, from the named variable
    assert seen["params"].get("max_retries") == 0
    texts = [str(err.value), json.dumps(err.value.attempts)]

    chaos.reset()
    for scenario in ("ok", "rate_limit_then_ok"):
        s = ModelSpec(name="c", model=f"chaos/{scenario}", api_key_env="CANARY_API_KEY")
        with Cache(tmp_path / "c.sqlite", "record") as cache:
            c = asyncio.run(acomplete(s, MSGS, TOOLS, cache=cache, retry=RetryPolicy(base_s=0.001)))
        texts.append(json.dumps(c.to_json()))
    with pytest.raises(ModelConfigError) as cfg:
        check_model_available(ModelSpec(name="x", model="nosuchprov/m", api_key_env="CANARY_API_KEY"))
    texts.append(str(cfg.value))
    out = capsys.readouterr()
    texts += [out.out, out.err]
    assert "***" in texts[0]  # the provider echoed the key; our error text scrubbed it
    for text in texts:
        assert CANARY not in text
    for f in tmp_path.iterdir():
        assert CANARY.encode() not in f.read_bytes()
