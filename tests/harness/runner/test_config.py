"""The Hydra config: every study composes and validates; typos and gaps fail before any episode; arms,
models and faults are config groups read once, by Hydra's composition."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException
from omegaconf.errors import OmegaConfBaseException

from core import worlds
from harness import config as config_module
from harness.config import (
    CONF_DIR,
    ArmCfg,
    ModelCfg,
    agent_models,
    cli_overrides,
    register,
    selected,
    to_config,
    unknown_selections,
)
from harness.llm.spec import ModelSpec

register()
STUDIES = sorted(worlds.config_index()["study"])


def composed(*overrides: str, hydra: bool = False):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=list(overrides), return_hydra_config=hydra)


def test_the_four_studies_exist():
    assert {"table1", "ablations", "clean", "smoke"} <= set(STUDIES)


@pytest.mark.parametrize("study", STUDIES)
def test_every_study_validates(study):
    cfg = to_config(composed(f"study={study}"))
    assert cfg.study.name == study
    arms = selected("arm", cfg.arm)
    assert arms and all(isinstance(a, ArmCfg) and a.name == n for n, a in arms.items())
    assert all(m.model for m in agent_models(cfg))


def test_every_arm_model_and_fault_file_puts_itself_under_its_name():
    """Each group file's package line, its name and its file name agree, so multi-selection keys by name."""
    for group, paths in worlds.config_index().items():
        if group not in ("arm", "model", "fault"):
            continue
        for name, path in paths.items():
            first = path.read_text().splitlines()[0]
            assert first == f"# @package {group}.{name}", f"{path}: first line {first!r}"
            cfg = to_config(composed("study=smoke", f"{group}={name}"))
            node = getattr(cfg, group)
            assert list(node) == [name]
            value = node[name]
            assert (value["name"] if isinstance(value, dict) else value.name) == name


def test_the_model_schema_is_derived_from_model_spec():
    """One definition of a model's config: the Hydra schema is ModelSpec's fields, types and defaults."""
    from dataclasses import fields

    assert [(f.name, f.default) for f in fields(ModelCfg)] == [
        (f.name, "???" if f.name in ("name", "model") else f.default) for f in fields(ModelSpec)
    ]


def test_no_run_module_reads_a_group_file():
    """Arms, models and faults reach the run through Hydra's composition only: no loader of their files
    is left for the run to call (role models and the tools outside a run read theirs once)."""
    for gone in ("load_arms", "load_models"):
        assert not hasattr(config_module, gone)
    run = Path(config_module.__file__).parent / "run"
    for path in run.glob("*.py"):
        text = path.read_text()
        assert "load_fault" not in text and "OmegaConf.load" not in text, path


def test_table1_rule_is_the_documented_one():
    cfg = to_config(composed("study=table1"))
    params = cfg.study.selection.params
    assert cfg.study.selection.rule == "stratified_hash"
    assert (params["levels"], params["values"], params["per_cell"], params["salt"]) == (
        ["C3", "C4"],
        ["P3", "P4"],
        20,
        "table1",
    )
    assert len(params["levels"]) * len(params["values"]) * params["per_cell"] == 80
    assert list(cfg.model) == [
        "scripted-trusting",
        "scripted-receipt-aware",
        "scripted-skeptic",
        "scripted-noisy",
    ]


def test_ablations_and_clean_have_114_workflows():
    for study in ("ablations", "clean"):
        p = to_config(composed(f"study={study}")).study.selection.params
        assert len(p["levels"]) * len(p["values"]) * p["per_cell"] == 114


def test_run_dir_default_and_override():
    cfg = composed("study=smoke", hydra=True)
    assert cfg.hydra.run.dir == "results/smoke/default"
    assert composed("study=smoke", "run_name=r2", hydra=True).hydra.run.dir == "results/smoke/r2"
    assert composed("study=smoke", "out=/tmp/x", hydra=True).hydra.run.dir == "/tmp/x"
    assert cfg.hydra.job.chdir is False


@pytest.mark.parametrize(
    "overrides",
    [
        ["study=smoke", "sed=1"],
        ["study=smoke", "seed=abc"],
        [],
        ["study=nope"],
        ["study=smoke", "budget.dollars=3"],
        ["study=smoke", "study.env.max_round=3"],
    ],
)
def test_typos_fail_at_composition(overrides):
    with pytest.raises((ConfigCompositionException, OmegaConfBaseException)):
        to_config(composed(*overrides))


def test_range_checks_fail_eagerly():
    with pytest.raises(ValueError, match="replicates"):
        to_config(composed("study=smoke", "replicates=0"))
    with pytest.raises(ValueError, match="cache.mode"):
        to_config(composed("study=smoke", "cache.mode=disk"))


def test_group_selection_errors_are_hydras_or_one_line():
    with pytest.raises(ConfigCompositionException, match="Could not find 'arm/nope'"):
        composed("study=smoke", "arm=nope")
    said = unknown_selections(["study=smoke", "arm=[baseline,nope]"])  # Hydra's list message names no option
    assert said is not None and "no arm ['nope']" in said and "monitor" in said
    with pytest.raises(ValueError, match="delivery"):
        ArmCfg(name="x", monitor="full", delivery="later")
    with pytest.raises(ValueError, match="no arm"):
        from harness.run.plan import plan_run

        plan_run(to_config(composed("study=smoke", "arm=[]")))


def test_raw_strings_beside_the_group_and_overrides():
    cfg = to_config(composed("study=smoke", "model=[scripted-trusting]", "models=[openai/gpt-4o-mini]"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        named, raw = agent_models(cfg)
    assert named.name == "scripted-trusting" and raw.model == "openai/gpt-4o-mini"
    assert raw.input_cost_per_mtok is None and any("price" in str(w.message) for w in caught)
    with pytest.raises(ValueError, match="unknown model"):
        agent_models(to_config(composed("study=smoke", "models=[not-a-model]")))
    over = to_config(composed("study=smoke", "model=deepseek-chat", "model.deepseek-chat.max_concurrency=2"))
    (spec,) = agent_models(over)
    assert spec.max_concurrency == 2 and spec.api_key_env == "DEEPSEEK_API_KEY"
    with pytest.raises(ValueError, match="not in this run"):
        agent_models(
            to_config(composed("study=smoke", "model=deepseek-chat", "+model_overrides.qwen-max.seed=1"))
        )


def test_model_overrides_from_the_command_line():
    cfg = to_config(
        composed(
            "study=smoke",
            "model=[scripted-trusting]",
            "+model_overrides.scripted-trusting.api_key_env=CANARY_KEY",
        )
    )
    assert agent_models(cfg)[0].api_key_env == "CANARY_KEY"


def test_the_older_spellings_become_group_selections():
    assert cli_overrides(["study=smoke", "arms=[baseline,monitor]", "faults=[a,b]"]) == [
        "study=smoke",
        "arm=[baseline,monitor]",
        "fault=[a,b]",
    ]
    assert cli_overrides(["models=[scripted-skeptic, 'scripted/noisy?p_notice=0.5']"]) == [
        "model=[scripted-skeptic]",
        "models=['scripted/noisy?p_notice=0.5']",
    ]
    assert cli_overrides(["model=scripted-noisy", "models=[openai/gpt-4o]"]) == [
        "model=scripted-noisy",
        "models=[openai/gpt-4o]",
    ]
    cfg = to_config(composed(*cli_overrides(["study=table1", "models=[scripted-skeptic]", "arms=[monitor]"])))
    assert (list(cfg.model), list(cfg.arm), cfg.models) == (["scripted-skeptic"], ["monitor"], [])


def test_the_schema_and_conf_config_yaml_give_the_same_defaults():
    """A key left out of conf/config.yaml means the schema's default: the two never disagree."""
    from dataclasses import asdict

    from omegaconf import OmegaConf

    from harness.config import Config

    schema = asdict(Config())
    yaml = OmegaConf.to_container(OmegaConf.load(CONF_DIR / "config.yaml"))

    def differences(a: dict, b: dict, path: str = "") -> list[str]:
        out = []
        for key, value in b.items():
            if key in ("defaults", "hydra"):
                continue
            if key not in a:
                out.append(f"{path}{key}: not in the schema")
            elif isinstance(value, dict) and isinstance(a[key], dict):
                out += differences(a[key], value, f"{path}{key}.")
            elif a[key] != value:
                out.append(f"{path}{key}: schema {a[key]!r}, yaml {value!r}")
        return out

    assert differences(schema, yaml) == []
