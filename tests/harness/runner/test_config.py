"""The Hydra config: every study composes and validates; typos and gaps fail before any episode."""

from __future__ import annotations

import warnings

import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException
from omegaconf.errors import OmegaConfBaseException

from core import worlds
from harness.config import CONF_DIR, ArmCfg, load_arms, load_models, name_list, register, to_config

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
    arms = load_arms(cfg.arms)
    assert [a.name for a in arms] == name_list(cfg.arms)
    assert all(m.model for m in load_models(cfg.models))


def test_every_arm_and_model_file_validates():
    for path in (CONF_DIR / "arm").glob("*.yaml"):
        assert load_arms([path.stem])[0].name == path.stem
    for path in (CONF_DIR / "model").glob("*.yaml"):
        model = load_models([path.stem])[0]
        assert model.name == path.stem and "/" in model.model


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
    assert name_list(cfg.models) == [
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


def test_arm_validation():
    with pytest.raises(ValueError, match="no arm 'nope'"):
        load_arms(["baseline", "nope"])
    with pytest.raises(ValueError, match="delivery"):
        ArmCfg(name="x", monitor="full", delivery="later")
    with pytest.raises(ValueError, match="duplicate"):
        load_arms("baseline,baseline")


def test_models_accept_comma_lists_raw_strings_and_overrides():
    assert [m.name for m in load_models("scripted-trusting, scripted-noisy")] == [
        "scripted-trusting",
        "scripted-noisy",
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        raw = load_models(["openai/gpt-4o-mini"])[0]
    assert raw.model == "openai/gpt-4o-mini" and raw.input_cost_per_mtok is None
    assert any("price" in str(w.message) for w in caught)
    with pytest.raises(ValueError, match="unknown model"):
        load_models(["not-a-model"])
    over = load_models(["deepseek-chat"], {"deepseek-chat": {"max_concurrency": 2}})[0]
    assert over.max_concurrency == 2 and over.api_key_env == "DEEPSEEK_API_KEY"
    with pytest.raises(ValueError, match="not in this run"):
        load_models(["deepseek-chat"], {"qwen-max": {"seed": 1}})


def test_model_overrides_from_the_command_line():
    cfg = to_config(
        composed(
            "study=smoke",
            "models=[scripted-trusting]",
            "+model_overrides.scripted-trusting.api_key_env=CANARY_KEY",
        )
    )
    assert load_models(cfg.models, cfg.model_overrides)[0].api_key_env == "CANARY_KEY"
