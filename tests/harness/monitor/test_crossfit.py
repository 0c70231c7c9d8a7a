"""Cross-fitting: folds are deterministic and balanced, and no workflow's traces reach the
registry that checks it."""

from __future__ import annotations

from collections import Counter

from harness.monitor import synthetic as syn
from harness.monitor.crossfit import CrossFit, build_crossfit, fold_of, workflow_of


def test_fold_of_is_deterministic_in_range_and_seeded():
    ids = [f"C{c}_task_{i:03d}" for c in range(1, 5) for i in range(1, 101)]
    folds = [fold_of(w) for w in ids]
    assert folds == [fold_of(w) for w in ids]
    assert set(folds) == set(range(5))
    assert folds != [fold_of(w, seed=1) for w in ids]
    assert fold_of("no-number-here") == fold_of("no-number-here") in range(5)


def test_folds_are_balanced_per_prefix():
    for n_folds in (3, 5):
        for c in range(1, 5):
            counts = Counter(fold_of(f"C{c}_task_{i:03d}", n_folds) for i in range(1, 101))
            # whole blocks of n_folds consecutive numbers are dealt exactly; 1..100 cuts at most
            # two blocks short (the first and the last), each off by at most one
            assert max(counts.values()) - min(counts.values()) <= 2


def test_workflow_of_reads_the_group_then_the_workflow_then_the_task():
    assert workflow_of({"group_id": "g1", "workflow_id": "C3_task_017"}) == "g1"
    assert workflow_of({"workflow_id": "C3_task_017", "task_id": "C3_task_017_P4"}) == "C3_task_017"
    assert workflow_of({"task_id": "C3_task_017_P4"}) == "C3_task_017_P4"  # no world's naming is guessed


def _leak_traces() -> list[dict]:
    """Every workflow owns a private tool with enough evidence for rules of its own."""
    rows = syn.traces(n_workflows=30, calls_per_workflow=3, seed=2)
    for w in {r["workflow_id"] for r in rows}:
        for i in range(12):
            rows.append(
                {
                    "workflow_id": w,
                    "tool": f"private_{w}",
                    "arguments": {"i": i},
                    "result": {"v": i + 1.5, "tag": "x"},
                    "status": "ok",
                }
            )
    return rows


def test_no_trace_of_a_workflow_reaches_its_own_registry():
    rows = _leak_traces()
    cf = build_crossfit(rows, n_folds=5, seed=0)
    workflows = sorted({r["workflow_id"] for r in rows})
    for w in workflows:
        own = cf.registry_for(w)
        assert f"private_{w}" not in own.tools()
        # ...while every other fold's registry did learn it
        others = [cf.registries[k] for k in range(5) if k != cf.fold(w)]
        assert all(f"private_{w}" in r.tools() for r in others)
    assert cf.assignment == {w: fold_of(w) for w in workflows}


def test_crossfit_round_trips(tmp_path):
    cf = build_crossfit(syn.traces(n_workflows=20, calls_per_workflow=3), n_folds=5)
    cf.save(tmp_path / "cf.json")
    back = CrossFit.load(tmp_path / "cf.json")
    assert [r.to_json()["tools"] for r in back.registries] == [r.to_json()["tools"] for r in cf.registries]
    assert back.assignment == cf.assignment and back.n_rules == cf.n_rules
