"""Every committed conf/model/*.yaml is a valid ModelSpec that passes the pre-flight check."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from harness.llm.models import ModelSpec, check_model_available

ROOT = Path(__file__).resolve().parents[3]
CONFIGS = sorted((ROOT / "conf" / "model").glob("*.yaml"))


@pytest.mark.skipif(not CONFIGS, reason="no conf/model configs committed yet")
@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_model_config_is_a_usable_spec(path, monkeypatch):
    spec = ModelSpec.from_config(yaml.safe_load(path.read_text()))
    assert spec.name == path.stem
    if spec.api_key_env:
        monkeypatch.setenv(spec.api_key_env, "sk-placeholder-for-preflight")
    if spec.model == "scripted/reviewer":
        from harness.agents.reviewer import register_scripted_reviewer

        register_scripted_reviewer()
    check_model_available(spec)
    if not spec.scripted:  # a real model must be priced in the committed table, not by litellm's map
        assert spec.input_cost_per_mtok is not None and spec.output_cost_per_mtok is not None
