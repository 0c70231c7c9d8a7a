"""ToolMaze's plugin: planned fault labels (the payload kind, shared by a pair), traces, oracle."""

from __future__ import annotations

from collections import defaultdict

from hydra import compose, initialize_config_dir

from core.worlds import get_plugin
from harness.config import CONF_DIR, register, to_config
from harness.run.episode import fault_kinds_hit
from harness.run.plan import plan_run

register()
PLUGIN = get_plugin("toolmaze")


def test_planned_kind_is_one_of_the_instance_payloads(env):
    seen = set()
    for task_id, inst in list(env.dataset.instances.items())[::7]:
        planned = PLUGIN.planned_fault(env, env.task(task_id))
        assert planned.label == inst.mode
        if inst.mode == "P0":
            assert (planned.fault_class, planned.fault_kind) == ("none", "none")
            continue
        assert planned.fault_class in {f.kind for f in inst.faults.values()}
        if inst.c1_victim is not None:
            assert planned.fault_class == inst.faults[inst.c1_victim].kind
        seen.add(planned.fault_class)
    assert len(seen) > 3  # labels are the payload kinds, not a constant


def test_observed_kinds_come_from_perturbed_results_only():
    meta = [
        {"perturbed": False},
        {"perturbed": True, "fault_kind": "empty_list"},
        {"call_index": 3},
        {"perturbed": True, "fault_kind": "stale_value"},
    ]
    assert fault_kinds_hit(meta) == ["empty_list", "stale_value"]


def test_both_arms_of_a_pair_share_the_planned_kind():
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(compose("config", overrides=["study=smoke", "arm=[baseline,monitor,reviewer]"]))
    plan = plan_run(cfg)
    pairs = defaultdict(set)
    for ep in plan.schedule:
        pairs[ep.pair_id].add((ep.fault_class, ep.fault_kind))
        inst = plan.env.instance(ep.task_id)
        assert ep.fault_class in {f.kind for f in inst.faults.values()}
        assert ep.fault_kind.startswith("implicit_") and ep.strata["mode"] in ("P3", "P4")
    assert pairs and all(len(v) == 1 for v in pairs.values())


def test_clean_traces_carry_the_group_and_the_oracle_replays(env):
    rows = list(PLUGIN.clean_traces(env, mode="P0", complexity="C1"))
    assert rows and all(r["group_id"] == r["workflow_id"] and r["status"] in ("ok", "error") for r in rows)
    task = env.tasks("C2/P3")[0]
    calls = PLUGIN.oracle(env, task.task_id)
    assert calls and calls[-1].name == "finish"
