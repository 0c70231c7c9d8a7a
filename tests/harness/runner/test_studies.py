"""Frozen task selection and the paired, interleaved schedule."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import load_fakeworld  # noqa: E402

from core.seeding import stable_int  # noqa: E402
from harness.run.schedule import build_schedule, select_tasks  # noqa: E402

fw = load_fakeworld()
WORLD = fw.FakeWorld(12)
PLUGIN = fw.PLUGIN
PARAMS = {
    "salt": "t",
    "by": "complexity",
    "levels": ["C3", "C4"],
    "assign": "mode",
    "values": ["P3", "P4"],
    "per_cell": 2,
}


def test_stratified_hash_rule():
    sel = select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=0)
    assert len(sel) == 8
    for comp in ("C3", "C4"):
        wids = sorted(
            {t.group_id for t in WORLD.tasks() if t.strata["complexity"] == comp},
            key=lambda w: stable_int(0, "t", w),
        )
        got = {s.group_id: s.strata["mode"] for s in sel if s.strata["complexity"] == comp}
        assert got == {wids[0]: "P3", wids[1]: "P3", wids[2]: "P4", wids[3]: "P4"}
    assert all(s.task_id == f"{s.group_id}_{s.strata['mode']}" for s in sel)
    # the world's planned fault: its label enters the ids, its class and kind the records
    assert all(s.fault_label == s.strata["mode"] and s.fault_class == "negative_price" for s in sel)
    assert all(s.fault_kind == fw.FAULT_KINDS[s.strata["mode"]] for s in sel)
    # the frozen order is the hash rank, so a limit keeps a mix of cells
    ranks = [stable_int(0, "t", s.group_id) for s in sel]
    assert ranks == sorted(ranks)
    assert sel[:3] == select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=0, limit=3)


def test_selection_depends_on_the_seed_and_is_stable():
    a = select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=0)
    assert a == select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=0)
    others = [select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=s) for s in range(1, 6)]
    assert any({x.task_id for x in o} != {x.task_id for x in a} for o in others)


def test_selection_refuses_too_few_workflows():
    with pytest.raises(ValueError, match="needs 20 groups with complexity=C3"):
        select_tasks(WORLD, PLUGIN, "all", "stratified_hash", {**PARAMS, "per_cell": 10}, seed=0)


def test_other_rules_and_injected_faults():
    ids = select_tasks(WORLD, PLUGIN, "all", "ids", {"task_ids": ["W03_P0", "W01_P4"]}, seed=0)
    assert [s.task_id for s in ids] == ["W03_P0", "W01_P4"]
    clean = select_tasks(
        WORLD, PLUGIN, "all", "all", {"where": {"mode": ["P0"]}}, seed=0, injected=("neg", "structured")
    )
    assert len(clean) == 12 and {(s.fault_class, s.fault_kind) for s in clean} == {("neg", "structured")}
    with pytest.raises(ValueError, match="unknown selection rule"):
        select_tasks(WORLD, PLUGIN, "all", "random", {}, seed=0)


def test_schedule_pairs_and_interleaves():
    sel = select_tasks(WORLD, PLUGIN, "all", "stratified_hash", PARAMS, seed=0)
    arms, models = ["baseline", "monitor", "generic"], ["m1", "m2"]
    sched = build_schedule("s", sel, arms, models, seed=0, replicates=2)
    assert len(sched) == len(sel) * len(arms) * len(models) * 2
    assert len({e.episode_id for e in sched}) == len(sched)
    pairs = defaultdict(list)
    for e in sched:
        pairs[e.pair_id].append(e)
    assert len(pairs) == len(sel) * len(models) * 2
    for group in pairs.values():
        assert sorted(e.arm for e in group) == sorted(arms)
        shared = {(e.task_id, e.model, e.fault_class, e.seed, e.replicate) for e in group}
        assert len(shared) == 1
    # shuffled with the frozen seed: deterministic, and not grouped by arm
    assert sched == build_schedule("s", sel, arms, models, seed=0, replicates=2)
    assert sched != build_schedule("s", sel, arms, models, seed=1, replicates=2)
    first = [e.arm for e in sched[: len(sched) // 3]]
    assert len(set(first)) == len(arms)
