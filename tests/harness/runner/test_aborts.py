"""Aborts change nothing: whatever stops a run before its first record leaves the harness's files as
they were (manifest.json included); a resume whose prices changed is refused; strict notices stop a run
before its first episode."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

import harness.config
from harness.records import RecordCorruptError
from harness.run.manifest import ResumeMismatch
from harness.run.notices import StrictError
from harness.run.study import run_study

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import load_fakeworld, policy_factory  # noqa: E402

load_fakeworld()
harness.config.register()


def config(*extra: str, conf: Path | None = None):
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "limit=1",
        "arm=[baseline]",
        "model=[scripted-trusting]",
        "progress=false",
        "workers=1",
        *extra,
    ]
    with initialize_config_dir(str(conf or harness.config.CONF_DIR), version_base="1.3"):
        return harness.config.to_config(compose("config", overrides=overrides))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_corrupt_middle_record_stops_the_run_and_changes_nothing(tmp_path):
    run_dir = tmp_path / "run"
    run_study(config("limit=2"), run_dir, factory=policy_factory)
    records = run_dir / "episodes.jsonl"
    lines = records.read_bytes().split(b"\n")
    records.write_bytes(b"\n".join([lines[0], b"{not json", *lines[1:]]))
    before = snapshot(run_dir)
    with pytest.raises(RecordCorruptError):
        run_study(config("limit=2"), run_dir, factory=policy_factory)
    assert snapshot(run_dir) == before  # manifest.json included


def test_an_interrupt_before_the_first_record_restores_the_folder(tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    run_study(config(), run_dir, factory=policy_factory)
    before = snapshot(run_dir)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("harness.run.study.execute", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_study(config("limit=2"), run_dir, factory=policy_factory)
    assert snapshot(run_dir) == before
    fresh = tmp_path / "fresh"
    with pytest.raises(KeyboardInterrupt):
        run_study(config(), fresh, factory=policy_factory)
    assert not fresh.exists()  # nothing of the harness's was left behind


def test_a_resume_whose_prices_changed_is_refused(tmp_path, monkeypatch):
    import shutil

    conf = tmp_path / "conf"
    shutil.copytree(harness.config.CONF_DIR, conf)
    shutil.copytree(
        harness.config.CONF_DIR.parent / "environments" / "toolmaze" / "conf", conf, dirs_exist_ok=True
    )
    monkeypatch.setattr(harness.config, "CONF_DIR", conf)
    model_yaml = conf / "model" / "scripted-trusting.yaml"
    run_dir = tmp_path / "run"
    run_study(config(conf=conf), run_dir, factory=policy_factory)
    before = snapshot(run_dir)
    model_yaml.write_text(
        model_yaml.read_text().replace("input_cost_per_mtok: 0.0", "input_cost_per_mtok: 1.5")
    )
    with pytest.raises(ResumeMismatch, match=r"scripted-trusting input_cost_per_mtok .* -> 1\.5"):
        run_study(config("limit=2", conf=conf), run_dir, factory=policy_factory)
    assert snapshot(run_dir) == before
    model_yaml.write_text(
        model_yaml.read_text().replace("input_cost_per_mtok: 1.5", "input_cost_per_mtok: 0.0")
    )
    assert (
        run_study(config("limit=2", conf=conf), run_dir, factory=policy_factory)["ran_now"] == 1
    )  # same prices


def test_strict_stops_on_a_noop_arm_before_anything_is_written(tmp_path):
    run_dir = tmp_path / "run"
    with pytest.raises(StrictError, match="reasoning budget"):
        run_study(config("arm=[baseline,reasoning-budget]", "strict=true"), run_dir, factory=policy_factory)
    assert not run_dir.exists()
    counts = run_study(config("arm=[baseline,reasoning-budget]"), run_dir, factory=policy_factory)
    assert counts["ran_now"] == 2
    import json

    notices = json.loads((run_dir / "manifest.json").read_text())["counts"]["notices"]
    assert notices["counts"] == {"arm_noop": 1}
    assert "scripted" in notices["items"][0]["detail"]


def test_strict_stops_on_a_fault_that_finds_no_target(tmp_path, monkeypatch):
    """A fault whose target matches nothing the world returns is known before the first episode."""
    from harness.faults.inject import FaultInjector

    cfg = config("fault=[negative_or_zero]", "strict=true", "study.env.traces={}")
    monkeypatch.setattr(FaultInjector, "eligible_paths", lambda self, call, content, spec: [])
    with pytest.raises(StrictError, match="fault_no_target: fault negative_or_zero finds no target"):
        run_study(cfg, tmp_path / "run", factory=policy_factory)
    assert not (tmp_path / "run").exists()


def test_the_worlds_self_description_is_written_beside_the_records(tmp_path):
    """world.json: how the world's results read (its plugin's presentation), for the analysis."""
    import json

    run_dir = tmp_path / "run"
    run_study(config(), run_dir, factory=policy_factory)
    world = json.loads((run_dir / "world.json").read_text())
    assert world["name"] == "fakeworld" and world["options"] == {}
