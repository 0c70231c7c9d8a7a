"""Scripted policies over every instance: oracle passes everywhere, naive and retry-only fail where they must."""

import collections

import pytest

from environments.toolmaze.env import ToolMazeEnv
from environments.toolmaze.metrics import prr, rc, tsr
from environments.toolmaze.policies import run_policy

EXPECTED_TSR = {
    "oracle": {m: 1.0 for m in ("P0", "P1", "P2", "P3", "P4")},
    "naive": {"P0": 1.0, "P1": 0.0, "P2": 0.0, "P3": 0.0, "P4": 0.0},
    "retry_only": {"P0": 1.0, "P1": 1.0, "P2": 0.0, "P3": 1.0, "P4": 0.0},
    "retry_once": {"P0": 1.0, "P1": 1.0, "P2": 0.0, "P3": 1.0, "P4": 0.0},
}
# the outcome endpoint agrees here: none of these policies acts on clean values without recovering
EXPECTED_OUTCOME = EXPECTED_TSR


@pytest.mark.slow
def test_policy_tsr_table_per_cell():
    env = ToolMazeEnv(seed=0)
    cells = collections.defaultdict(list)
    for t in env.tasks():
        for policy in EXPECTED_TSR:
            out, _ = run_policy(env, t.task_id, policy)
            cells[(policy, t.meta["complexity"], t.meta["mode"])].append(out)
    for (policy, _c, mode), outs in cells.items():
        assert tsr(outs) == EXPECTED_TSR[policy][mode], (policy, _c, mode)
        outcome = sum(o.details["outcome_correct"] for o in outs) / len(outs)
        assert outcome == EXPECTED_OUTCOME[policy][mode], (policy, _c, mode)
        if mode != "P0":
            assert all(o.details["trace_check"]["hit"] for o in outs)  # every policy meets the fault
            assert prr(outs) == tsr(outs)
        if policy == "oracle":
            assert rc(outs) < 0.25


def test_policies_on_one_workflow():
    env = ToolMazeEnv(seed=0)
    for mode, want in (
        ("P0", (1, 1, 1)),
        ("P1", (1, 0, 1)),
        ("P2", (1, 0, 0)),
        ("P3", (1, 0, 1)),
        ("P4", (1, 0, 0)),
    ):
        outs = [
            run_policy(env, f"C4_task_010_{mode}", p)[0]
            for p in ("oracle", "naive", "retry_only", "retry_once")
        ]
        assert tuple(int(o.success) for o in outs) == (*want, want[2]), mode
        assert tuple(int(o.details["outcome_correct"]) for o in outs) == (*want, want[2]), mode
    with pytest.raises(KeyError):
        run_policy(env, "C1_task_001_P0", "psychic")
