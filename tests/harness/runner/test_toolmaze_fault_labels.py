"""ToolMaze fault labels: ``fault_class`` is the planned payload kind of the task, shared by a pair."""

from __future__ import annotations

from collections import defaultdict

from hydra import compose, initialize_config_dir

from environments.toolmaze.env import ToolMazeEnv
from harness.config import CONF_DIR, register, to_config
from harness.runner import fault_kinds_hit, plan_run, planned_fault_kind
from harness.studies import TOOLMAZE_FAULT_KINDS

register()
ENV = ToolMazeEnv(0)


def test_planned_kind_is_one_of_the_instance_payloads():
    seen = set()
    for task_id, inst in list(ENV.dataset.instances.items())[::7]:
        kind = planned_fault_kind(ENV, task_id)
        if inst.mode == "P0":
            assert kind == "none"
            continue
        assert kind in {f.kind for f in inst.faults.values()}
        if inst.c1_victim is not None:
            assert kind == inst.faults[inst.c1_victim].kind
        seen.add(kind)
    assert len(seen) > 3  # labels are the payload kinds, not a constant


def test_environment_without_hidden_instances_keeps_its_label():
    assert planned_fault_kind(object(), "t") is None


def test_observed_kinds_come_from_perturbed_results_only():
    meta = [{"perturbed": False}, {"perturbed": True, "fault_kind": "empty_list"}, {"call_index": 3},
            {"perturbed": True, "fault_kind": "stale_value"}]
    assert fault_kinds_hit(meta) == ["empty_list", "stale_value"]


def test_both_arms_of_a_pair_share_the_planned_kind():
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(compose("config", overrides=["study=smoke", "arms=[baseline,monitor,reviewer]"]))
    plan = plan_run(cfg)
    pairs = defaultdict(set)
    for ep in plan.schedule:
        pairs[ep.pair_id].add((ep.fault_class, ep.fault_kind))
        inst = plan.env.instance(ep.task_id)
        assert ep.fault_class == planned_fault_kind(plan.env, ep.task_id)
        assert ep.fault_class in {f.kind for f in inst.faults.values()}
        assert ep.fault_kind == TOOLMAZE_FAULT_KINDS[ep.mode]  # the mode's kind stays in fault_kind
        assert ep.fault_class not in TOOLMAZE_FAULT_KINDS
    assert pairs and all(len(v) == 1 for v in pairs.values())
