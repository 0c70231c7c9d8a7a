"""Every committed conf/model/*.yaml is a valid ModelSpec that passes the pre-flight check."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml

from harness.llm import models, preflight
from harness.llm.models import ModelSpec, check_model_available

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = sorted((ROOT / "conf" / "model").glob("*.yaml"))


@pytest.mark.skipif(not CONFIGS, reason="no conf/model configs committed yet")
@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_model_config_is_a_usable_spec(path, monkeypatch, caplog):
    spec = ModelSpec.from_config(yaml.safe_load(path.read_text()))
    assert spec.name == path.stem
    if spec.api_key_env:
        monkeypatch.setenv(spec.api_key_env, "sk-placeholder-for-preflight")
    if spec.model == "scripted/reviewer":
        from harness.agents.reviewer import register_scripted_reviewer

        register_scripted_reviewer()
    probed: list[str] = []  # a local server is not running here (test_local_server probes a real one)
    monkeypatch.setattr(preflight, "_probe_local_server", lambda s: probed.append(s.name))
    with caplog.at_level(logging.WARNING, logger="harness.llm"):
        check_model_available(spec)
    assert probed == ([spec.name] if spec.local else [])
    if not spec.scripted:  # a real model must be priced in the committed table, not by litellm's map
        assert spec.input_cost_per_mtok is not None and spec.output_cost_per_mtok is not None
    warned = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    if spec.deprecated:
        assert len(warned) == 1 and spec.deprecated in warned[0]
    else:
        assert not warned


def _litellm_entry(model: str) -> dict | None:
    lt = models._litellm()
    return lt.model_cost.get(model) or lt.model_cost.get(model.split("/", 1)[1])


@pytest.mark.parametrize(
    "path", [p for p in CONFIGS if p.stem.startswith(("deepseek-", "qwen-"))], ids=lambda p: p.stem
)
def test_real_model_prices_and_deprecation_match_litellms_bundled_map(path):
    """The committed table overrides litellm's map; here they agree, and a deprecation in the map is in the yaml."""
    spec = ModelSpec.from_config(yaml.safe_load(path.read_text()))
    entry = _litellm_entry(spec.model)
    assert entry is not None, f"{spec.model} is not in litellm's bundled map"
    assert spec.input_cost_per_mtok == pytest.approx(entry["input_cost_per_token"] * 1e6)
    assert spec.output_cost_per_mtok == pytest.approx(entry["output_cost_per_token"] * 1e6)
    if entry.get("cache_read_input_token_cost") is not None:
        assert spec.cached_input_cost_per_mtok == pytest.approx(entry["cache_read_input_token_cost"] * 1e6)
    assert spec.deprecated == entry.get("deprecation_date")


def test_the_preflight_cost_line_says_what_the_calls_will_cost(caplog):
    """A scripted model given a price in its YAML is charged that price: the pre-flight says so."""
    free = ModelSpec.from_config({"name": "s", "model": "scripted/trusting", "input_cost_per_mtok": 0.0})
    priced = ModelSpec.from_config({"name": "p", "model": "scripted/trusting", "input_cost_per_mtok": 1.5})
    assert models.price_line(free) == "no cost: its config prices it at 0"
    assert "input 1.5" in models.price_line(priced) and "priced from its config" in models.price_line(priced)
    assert models.compute_cost(priced, {"prompt_tokens": 1_000_000, "completion_tokens": 0})[
        0
    ] == pytest.approx(1.5)
    with caplog.at_level(logging.INFO, logger="harness.llm.preflight"):
        check_model_available(priced)
    assert "priced from its config: input 1.5" in caplog.text
