"""The runner on real ToolMaze with the real cross-fitted monitor (scripted policies, no litellm)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import policy_factory  # noqa: E402

from harness.config import CONF_DIR, register, to_config  # noqa: E402
from harness.monitor.crossfit import CrossFit, fold_of  # noqa: E402
from harness.records import load_records, validate_record  # noqa: E402
from harness.run.study import run_study  # noqa: E402

register()


@pytest.mark.slow
def test_monitor_arms_on_toolmaze(tmp_path):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(
            compose(
                "config",
                overrides=[
                    "study=smoke",
                    "arm=[baseline,monitor,no-tools,schema-only]",
                    "model=[scripted-receipt-aware]",
                    "progress=false",
                ],
            )
        )
    counts = run_study(cfg, tmp_path, factory=policy_factory)
    records = load_records(tmp_path / "episodes.jsonl")
    assert counts["planned"] == len(records) == 4 * 4
    assert all(validate_record(r) == [] for r in records)
    crossfit = CrossFit.load(tmp_path / "registries" / "crossfit.json")
    assert crossfit.n_rules > 0
    assert sorted(p.name for p in (tmp_path / "registries").glob("schema_only_fold*.json")) == [
        f"schema_only_fold{k}.json" for k in range(cfg.monitor.n_folds)
    ]
    for r in records:
        assert r["fold"] == fold_of(r["group_id"], cfg.monitor.n_folds, cfg.monitor.seed)
        if r["arm"] == "baseline":
            assert r["n_receipts"] == 0
        for receipt in r["receipts"]:
            assert receipt["violated"] and receipt["rule_class"]
            assert receipt["next_action"] in ("switched_listed", "other_tool", "retried_same", "stopped")
            assert receipt["n_admissible"] == len(receipt["recovery_tools"])
    fired = [r for r in records if r["arm"] == "monitor" and r["n_receipts"]]
    assert fired, "the mined monitor fired on none of the smoke episodes"
    # immediate delivery: the receipt is inside the violating tool message; no-tools strips the list
    for arm, has_tools in (("monitor", True), ("no-tools", False)):
        for r in (x for x in records if x["arm"] == arm and x["n_receipts"]):
            messages = json.loads((tmp_path / r["transcript"]).read_text())["messages"]
            blocks = [
                json.loads(m["content"])["outcome_monitor"]
                for m in messages
                if m["role"] == "tool" and "outcome_monitor" in m["content"]
            ]
            assert blocks and all(("recovery_tools" in b) == has_tools for b in blocks)
    # what the monitor reads of ToolMaze's results: coverage.json beside the records, its summary in the manifest
    cov = json.loads((tmp_path / "coverage.json").read_text())
    assert 0 < cov["covered"] < cov["paths"] and cov["share"] == cov["covered"] / cov["paths"]
    assert cov["value_share"] <= cov["share"] and cov["no_rule"] and cov["by_tool"]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["coverage"]["share"] == cov["share"]


def _plan(study: str):
    from harness.run.plan import plan_run

    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return plan_run(to_config(compose("config", overrides=[f"study={study}"])))


def test_table1_and_ablations_select_their_frozen_cells():
    from collections import Counter

    from core.seeding import stable_int

    plan = _plan("table1")
    tasks = {(e.task_id, e.group_id, e.strata["complexity"], e.strata["mode"]) for e in plan.schedule}
    assert Counter((c, m) for _, _, c, m in tasks) == {
        ("C3", "P3"): 20,
        ("C3", "P4"): 20,
        ("C4", "P3"): 20,
        ("C4", "P4"): 20,
    }
    assert len(plan.schedule) == 80 * 2 * 4
    # P3 went to the 20 lowest-ranked workflows of each complexity, P4 to the next 20
    for comp in ("C3", "C4"):
        ranked = sorted({t.group_id for t in plan.env.tasks(comp)}, key=lambda w: stable_int(0, "table1", w))
        assert {w for _, w, c, m in tasks if c == comp and m == "P3"} == set(ranked[:20])
        assert {w for _, w, c, m in tasks if c == comp and m == "P4"} == set(ranked[20:40])
    ablations = _plan("ablations")
    assert len({e.group_id for e in ablations.schedule}) == 114
    assert {e.arm for e in ablations.schedule} == {"baseline", "monitor", "no-tools", "generic", "deferred"}


def test_crossfit_is_mined_once_per_process_for_one_world_and_monitor_config(tmp_path, monkeypatch):
    """A sweep worker runs several jobs of a study: the second reuses the first's cross-fitted
    registries (the same object); another monitor seed is another key, so it is mined afresh."""
    from harness.monitor import crossfit as cf
    from harness.run import registries
    from harness.run.plan import plan_run

    monkeypatch.setattr(registries, "_CROSSFIT_MEMO", {})
    calls = []
    real = cf.build_crossfit
    monkeypatch.setattr(cf, "build_crossfit", lambda *a, **k: calls.append(k) or real(*a, **k))
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        plans = [
            plan_run(to_config(compose("config", overrides=["study=smoke", *extra])))
            for extra in ([], ["model=[scripted-skeptic]"], ["monitor.seed=1"])
        ]
    built = []
    for i, p in enumerate(plans):
        (tmp_path / str(i)).mkdir()
        parts = registries.monitor_parts(p)
        parts.save(tmp_path / str(i))
        built.append(parts.mined)
    assert built[0].crossfit is built[1].crossfit and built[2].crossfit is not built[0].crossfit
    assert [k["seed"] for k in calls] == [0, 1]
    assert all((tmp_path / str(i) / "crossfit.json").is_file() for i in range(3))  # every job keeps its copy
