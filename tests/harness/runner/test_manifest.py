"""The run manifest: provenance at start, counts at the end, refusal to mix different studies."""

from __future__ import annotations

import json

import pytest

from core.seeding import sha256_hex
from harness.run.manifest import finish_manifest, git_state, identity_hash, package_versions, start_manifest

CFG = {"study": {"name": "s"}, "seed": 0, "progress": True, "budget": {"usd": 1.0}}


def test_start_and_finish(tmp_path):
    m = start_manifest(tmp_path, CFG, planned=12)
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert on_disk["config_hash"] == sha256_hex(CFG) and on_disk["config"] == CFG
    assert on_disk["counts"] == {"planned": 12} and on_disk["finished"] is None
    assert set(on_disk["git"]) == {"commit", "dirty"} and on_disk["packages"]["omegaconf"]
    finish_manifest(tmp_path, m, {"ran_now": 12})
    done = json.loads((tmp_path / "manifest.json").read_text())
    assert done["finished"] and done["counts"] == {"planned": 12, "ran_now": 12}


def test_resume_keeps_history_and_allows_run_control_changes(tmp_path):
    start_manifest(tmp_path, CFG, 3)
    again = start_manifest(tmp_path, {**CFG, "progress": False, "budget": {"usd": 5.0}}, 3)
    assert len(again["resumes"]) == 1
    assert identity_hash(CFG) == identity_hash({**CFG, "progress": False})
    with pytest.raises(ValueError, match="different configuration; changed: seed"):
        start_manifest(tmp_path, {**CFG, "seed": 1}, 3)


def test_git_and_versions():
    state = git_state()
    assert state["commit"] is None or len(state["commit"]) == 40
    assert package_versions(("hydra-core", "no-such-package-xyz")) == {
        "hydra-core": package_versions(("hydra-core",))["hydra-core"],
        "no-such-package-xyz": None,
    }


def test_head_fallback_reads_git_files(tmp_path):
    from harness.run.manifest import _head_from_files

    sha = "ab" * 20
    (tmp_path / ".git" / "refs" / "heads").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "packed-refs").write_text(f"# pack-refs\n{sha} refs/heads/main\n")
    assert _head_from_files(tmp_path) == sha
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text("cd" * 20 + "\n")
    assert _head_from_files(tmp_path) == "cd" * 20
    assert _head_from_files(tmp_path / "nowhere") is None
    here = _head_from_files()  # this checkout: the file reading agrees with git itself
    if here is not None:
        assert here == git_state()["commit"]


def test_resume_after_editing_a_model_yaml_names_the_changed_key(tmp_path, monkeypatch):
    """The resolved model spec, not its name, is part of the run's identity."""
    import shutil
    import sys
    from pathlib import Path

    from hydra import compose, initialize_config_dir

    import harness.config
    from harness.run.manifest import ResumeMismatch
    from harness.run.study import run_study

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _fakes import load_fakeworld, policy_factory

    load_fakeworld()
    conf = tmp_path / "conf"
    shutil.copytree(harness.config.CONF_DIR, conf)
    shutil.copytree(
        harness.config.CONF_DIR.parent / "environments" / "toolmaze" / "conf", conf, dirs_exist_ok=True
    )
    monkeypatch.setattr(harness.config, "CONF_DIR", conf)
    harness.config.register()
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "limit=1",
        "arm=[baseline]",
        "model=[scripted-trusting]",
        "progress=false",
        "sampling.temperature=null",
    ]

    def composed():
        with initialize_config_dir(str(conf), version_base="1.3"):
            return harness.config.to_config(compose("config", overrides=overrides))

    cfg = composed()
    run_dir = tmp_path / "run"
    assert run_study(cfg, run_dir, factory=policy_factory)["ran_now"] == 1
    assert run_study(cfg, run_dir, factory=policy_factory)["ran_now"] == 0  # unchanged: resumes
    model_yaml = conf / "model" / "scripted-trusting.yaml"
    model_yaml.write_text(model_yaml.read_text().replace("temperature: 0.0", "temperature: 0.7"))
    with pytest.raises(ResumeMismatch, match=r"changed: resolved\.models\.scripted-trusting\.temperature\b"):
        run_study(composed(), run_dir, factory=policy_factory)  # the rerun composes the edited file
    model_yaml.write_text(model_yaml.read_text().replace("max_concurrency: 8", "max_concurrency: 2"))
    model_yaml.write_text(model_yaml.read_text().replace("temperature: 0.7", "temperature: 0.0"))
    assert run_study(composed(), run_dir, factory=policy_factory)["ran_now"] == 0  # run control may change


def test_verify_names_what_changed_after_a_prompt_edit(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    from hydra import compose, initialize_config_dir

    import harness.config
    from harness.agents import prompts
    from harness.run.study import run_study
    from harness.verify import compare, recompute

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _fakes import load_fakeworld, policy_factory

    load_fakeworld()
    harness.config.register()
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "limit=1",
        "arm=[baseline,monitor]",
        "model=[scripted-trusting]",
        "progress=false",
    ]
    with initialize_config_dir(str(harness.config.CONF_DIR), version_base="1.3"):
        cfg = harness.config.to_config(compose("config", overrides=overrides))
    run_study(cfg, tmp_path, factory=policy_factory)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["fingerprint"]["registries"] and manifest["fingerprint"]["env_data"] is None
    unchanged = [k for k, a, b in compare(manifest, recompute(manifest)) if a != b]
    assert unchanged == []
    monkeypatch.setitem(prompts.PROMPTS, "fault_aware", prompts.PROMPTS["fault_aware"] + " Be brief.")
    changed = [k for k, a, b in compare(manifest, recompute(manifest)) if a != b]
    assert changed == ["fingerprint.prompts"]


def test_verify_reads_each_selected_config_from_the_checkout(tmp_path, monkeypatch):
    """A run reads its arm, model and fault files once, when Hydra composes them; verify reads the
    checkout's files again, so an edited model file shows as a changed model."""
    import re
    import sys
    from pathlib import Path

    from hydra import compose, initialize_config_dir

    import harness.config
    from core import worlds
    from harness import verify
    from harness.run.study import run_study

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _fakes import load_fakeworld, policy_factory

    load_fakeworld()
    harness.config.register()
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "limit=1",
        "arm=[baseline]",
        "model=[scripted-trusting]",
        "progress=false",
    ]
    with initialize_config_dir(str(harness.config.CONF_DIR), version_base="1.3"):
        cfg = harness.config.to_config(compose("config", overrides=overrides))
    run_study(cfg, tmp_path / "run", factory=policy_factory)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())

    def changed() -> list[str]:
        return [k for k, a, b in verify.compare(manifest, verify.recompute(manifest)) if a != b]

    assert changed() == []
    lookup = worlds.config_file
    edited = tmp_path / "scripted-trusting.yaml"
    edited.write_text(re.sub(r"(?m)^seed: .*$", "seed: 7", lookup("model", "scripted-trusting").read_text()))
    monkeypatch.setattr(
        verify.worlds,
        "config_file",
        lambda group, name: (
            edited if (group, name) == ("model", "scripted-trusting") else lookup(group, name)
        ),
    )
    assert changed() == ["fingerprint.models.scripted-trusting"]


def test_verify_reads_a_manifest_written_before_the_groups():
    """Name lists (arms, models, faults) become today's group selections, read from the checkout."""
    from harness.verify import from_checkout, legacy

    old = {
        "arms": ["baseline", "monitor"],
        "models": ["scripted-skeptic", "openai/gpt-4o"],
        "arm": None,
        "model": None,
        "faults": ["missing_field"],
        "fault": {"name": "none"},
        "resolved": {},
    }
    new = from_checkout(legacy(old), ["model.scripted-skeptic.max_tokens=99"])
    assert list(new["arm"]) == ["baseline", "monitor"] and new["arm"]["monitor"]["monitor"] == "full"
    assert list(new["model"]) == ["scripted-skeptic"] and new["models"] == ["openai/gpt-4o"]
    assert new["model"]["scripted-skeptic"]["max_tokens"] == 99 and list(new["fault"]) == ["missing_field"]
    assert "resolved" not in new and "arms" not in new


def test_a_run_folder_from_before_the_groups_is_not_resumed_and_says_why(tmp_path):
    import sys
    from pathlib import Path

    from hydra import compose, initialize_config_dir

    import harness.config
    from harness.run.manifest import ResumeMismatch
    from harness.run.study import run_study

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _fakes import load_fakeworld, policy_factory

    load_fakeworld()
    harness.config.register()
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "limit=1",
        "arm=[baseline]",
        "model=[scripted-trusting]",
        "progress=false",
    ]
    with initialize_config_dir(str(harness.config.CONF_DIR), version_base="1.3"):
        cfg = harness.config.to_config(compose("config", overrides=overrides))
    run_dir = tmp_path / "run"
    run_study(cfg, run_dir, factory=policy_factory)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["config"]["arms"] = ["baseline"]  # what a manifest of the older keys held
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    records = (run_dir / "episodes.jsonl").read_bytes()
    with pytest.raises(ResumeMismatch, match="before arms, models and faults became config groups"):
        run_study(cfg, run_dir, factory=policy_factory)
    assert (run_dir / "episodes.jsonl").read_bytes() == records
