"""Reasoning settings reach scripted providers on the same path as real ones (accepted, recorded, ignored)."""

from __future__ import annotations

import json

import pytest
from hydra import compose, initialize_config_dir

import harness.llm.providers.scripted as scripted
from harness.config import CONF_DIR, register, to_config
from harness.llm.models import ModelSpec, _call_kwargs, complete, effort_for_budget, reasoning_params
from harness.records import load_records
from harness.run.study import run_study

register()
MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


def test_scripted_spec_sends_thinking_and_lets_litellm_forward_it():
    spec = ModelSpec(name="s", model="scripted/trusting", reasoning_budget=4096, reasoning_effort="low")
    kwargs = _call_kwargs(spec, MESSAGES, [], 0)
    assert kwargs["thinking"] == {"type": "enabled", "budget_tokens": 4096}
    assert kwargs["reasoning_effort"] == "low"
    assert sorted(kwargs["allowed_openai_params"]) == ["reasoning_effort", "thinking"]
    plain = _call_kwargs(ModelSpec(name="s", model="scripted/trusting"), MESSAGES, [], 0)
    assert "thinking" not in plain and "allowed_openai_params" not in plain


def test_real_models_get_the_parameter_their_provider_takes():
    # deepseek takes a thinking budget in litellm's parameter table; o3-mini only an effort
    ds = reasoning_params(ModelSpec(name="d", model="deepseek/deepseek-chat", reasoning_budget=2000))
    assert ds == {"thinking": {"type": "enabled", "budget_tokens": 2000}}
    o3 = reasoning_params(ModelSpec(name="o", model="openai/o3-mini", reasoning_budget=20000))
    assert o3 == {"reasoning_effort": effort_for_budget(20000)}
    assert effort_for_budget(100) != effort_for_budget(100000)
    assert reasoning_params(ModelSpec(name="d", model="deepseek/deepseek-chat")) == {}


def test_the_provider_receives_the_budget_and_the_policy_ignores_it(monkeypatch):
    seen: list[dict] = []
    real = scripted.check_reasoning_params
    monkeypatch.setattr(
        scripted,
        "check_reasoning_params",
        lambda p: (seen.append({k: p.get(k) for k in ("thinking", "reasoning_effort")}), real(p)),
    )
    plain = complete(ModelSpec(name="s", model="scripted/trusting", max_attempts=1), MESSAGES, [])
    budget = complete(
        ModelSpec(name="s", model="scripted/trusting", max_attempts=1, reasoning_budget=8192), MESSAGES, []
    )
    assert seen[-1]["thinking"] == {"type": "enabled", "budget_tokens": 8192} and seen[0]["thinking"] is None
    assert budget.message == plain.message  # ignored by the policy
    assert (
        budget.request_params["reasoning_budget"] == 8192 and "reasoning_budget" not in plain.request_params
    )
    assert budget.request_key != plain.request_key  # and cached separately


def test_malformed_reasoning_params_are_rejected():
    with pytest.raises(scripted.ScriptedPolicyError):
        scripted.check_reasoning_params({"thinking": {"type": "enabled", "budget_tokens": 0}})
    with pytest.raises(scripted.ScriptedPolicyError):
        scripted.check_reasoning_params({"reasoning_effort": "extreme"})
    scripted.check_reasoning_params(
        {"thinking": {"type": "enabled", "budget_tokens": 5}, "reasoning_effort": "low"}
    )


def test_reasoning_budget_arm_records_its_budget_with_scripted_models(tmp_path):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(
            compose(
                "config",
                overrides=[
                    "study=smoke",
                    "limit=1",
                    "arm=[baseline,reasoning-budget]",
                    "model=[scripted-trusting]",
                    "progress=false",
                ],
            )
        )
    run_study(cfg, tmp_path)
    budget = cfg.arm["reasoning-budget"].reasoning_budget
    records = {r["arm"]: r for r in load_records(tmp_path / "episodes.jsonl")}
    assert set(records) == {"baseline", "reasoning-budget"}
    for arm, rec in records.items():
        turns = json.loads((tmp_path / rec["transcript"]).read_text())["turns"]
        got = {t["request_params"].get("reasoning_budget") for t in turns}
        assert got == ({budget} if arm == "reasoning-budget" else {None})
    assert records["baseline"]["success"] == records["reasoning-budget"]["success"]
    assert records["baseline"]["tool_calls"] == records["reasoning-budget"]["tool_calls"]
