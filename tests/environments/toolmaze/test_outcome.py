"""The outcome endpoint and the payloads behind it: trusting an implicit payload leads to a wrong outcome.

``success`` stays ToolMaze's process judge; ``details["outcome_correct"]`` judges the outcome alone.
"""

import pytest

from core.protocol import ToolCall
from environments.toolmaze.catalog import build_catalog
from environments.toolmaze.dag import build_arguments
from environments.toolmaze.policies import run_policy

MAX_NAIVE_SHARE = 0.05  # the bar: trusting an implicit payload must almost never end well


def _implicit_tasks(env):
    return [t for m in ("P3", "P4") for t in env.tasks(m)]


def _downstream_fields(inst, victim: str) -> set[str]:
    """Output fields that tools after ``victim``'s route on a valid path take as arguments (from the schemas)."""
    catalog = build_catalog()
    slot = next(s for s in inst.base.slots for r in s.routes if victim in r.tools)
    own = {t for r in slot.routes for t in r.tools}
    later = {t for p in inst.base.paths if victim in p.tools for t in p.tools[p.tools.index(victim) + 1 :]}
    return {
        prm.source for t in later - own for prm in catalog[t].params if not prm.source.startswith("query.")
    }


def test_naive_outcome_share_over_all_implicit_instances_is_small(env):
    tasks = _implicit_tasks(env)
    assert len(tasks) == 800
    outs = [run_policy(env, t.task_id, "naive")[0] for t in tasks]
    share = sum(o.details["outcome_correct"] for o in outs) / len(outs)
    assert share <= MAX_NAIVE_SHARE, share
    # the naive run met the payload and went on: it acted on it, or finished done (never aborted)
    assert all(o.details["trace_check"]["hit"] and not o.details["trace_check"]["aborted"] for o in outs)
    solvable = [o for o in outs if o.details["solvable"]]
    assert (
        sum(o.details["trace_check"]["wrong_actions"] > 0 for o in solvable) / len(solvable)
        >= 1 - MAX_NAIVE_SHARE
    )


def test_every_implicit_payload_corrupts_a_value_a_later_step_consumes(env):
    for t in _implicit_tasks(env):
        inst = env.instance(t.task_id)
        clean = {s["tool"]: s["result"] for p in inst.base.paths for s in p.trace}
        for victim, fault in inst.faults.items():
            fields = _downstream_fields(inst, victim)
            assert fields, (t.task_id, victim)
            changed = {f for f in fields if fault.content.get(f) != clean[victim].get(f)}
            assert changed, (t.task_id, victim, fault.kind)


def test_oracle_is_outcome_correct_on_every_solvable_task(env):
    for t in env.tasks():
        if not t.meta["solvable"]:
            continue
        out = run_policy(env, t.task_id, "oracle")[0]
        assert out.success and out.details["outcome_correct"], (t.task_id, out.details["outcome_reason"])


def test_naive_is_not_outcome_correct_on_a_perturbed_task(env):
    out, history = run_policy(env, "C2_task_007_P3", "naive")
    tc = out.details["trace_check"]
    assert tc["hit"] and tc["finished"] and tc["wrong_actions"] == 1
    assert not out.success and not out.details["outcome_correct"]
    assert "clean-derived" in out.details["outcome_reason"]
    assert run_policy(env, "C2_task_007_P0", "naive")[0].details["outcome_correct"]


def test_retry_once_control_recovers_transient_payloads_only(env):
    for mode, want in (("P0", True), ("P1", True), ("P2", False), ("P3", True), ("P4", False)):
        out, history = run_policy(env, f"C3_task_012_{mode}", "retry_once")
        assert out.details["outcome_correct"] is want and out.success is want, mode
        reads = [c.name for c, _ in history if build_catalog()[c.name].kind in ("source", "processor")]
        assert all(reads.count(n) == 2 for n in reads), mode  # every read tool twice, no detection


def _replay(env, task_id, steps, finish="done"):
    ep = env.start(task_id)
    for name, args in steps:
        ep.call(ToolCall(name, args))
    if finish:
        ep.call(ToolCall("finish", {"status": finish, "answer": "x", "reason": "r"}))
    return ep.score()


@pytest.mark.parametrize("mode", ["P2", "P4"])
def test_unsolvable_c1_outcome_is_a_correct_abort(env, mode):
    tasks = env.tasks(f"C1/{mode}")
    for t in tasks:
        out = run_policy(env, t.task_id, "oracle")[0]
        assert (
            not out.details["solvable"]
            and out.details["outcome_correct"]
            and out.details["trace_check"]["aborted"]
        )
        assert not run_policy(env, t.task_id, "naive")[0].details["outcome_correct"]
    inst = env.instance(tasks[0].task_id)
    steps = [(s["tool"], s["arguments"]) for s in inst.base.paths[0].trace]
    upto = steps[: next(i for i, (n, _) in enumerate(steps) if n == inst.c1_victim) + 1]
    assert _replay(env, inst.task.task_id, upto, "aborted").details["outcome_correct"]
    assert not _replay(env, inst.task.task_id, [], "aborted").details[
        "outcome_correct"
    ]  # never met the fault
    assert not _replay(env, inst.task.task_id, upto, "done").details["outcome_correct"]
    assert not _replay(env, inst.task.task_id, steps, "aborted").details[
        "outcome_correct"
    ]  # acted, then aborted


def test_the_endpoints_differ_when_the_right_action_skips_the_recovery(env):
    # P3 C1: the corrupted record comes first; the action still gets the clean-derived arguments
    task = next(t for t in env.tasks("C1/P3") if env.instance(t.task_id).c1_victim)
    inst = env.instance(task.task_id)
    out = _replay(env, task.task_id, [(s["tool"], s["arguments"]) for s in inst.base.paths[0].trace])
    assert out.details["trace_check"]["hit"] and out.details["trace_check"]["correct_actions"] == 1
    assert not out.success and out.details["outcome_correct"]


def test_an_action_fed_from_a_corrupted_payload_is_not_outcome_correct(env):
    # a processor victim's result goes straight into the action's amount
    inst = next(
        i
        for i in map(env.instance, (t.task_id for t in env.tasks("C1/P3")))
        if build_catalog()[i.c1_victim].kind == "processor"
    )
    ep = env.start(inst.task.task_id)
    fields: dict = {}
    query = dict(inst.base.inputs)
    for name in inst.base.paths[0].tools:
        res = ep.call(ToolCall(name, build_arguments(build_catalog()[name], query, fields)))
        fields.update(res.content)
    ep.call(ToolCall("finish", {"status": "done", "answer": "x", "reason": ""}))
    out = ep.score()
    tc = out.details["trace_check"]
    assert tc["tainted_actions"] == 1 and tc["wrong_actions"] == 1 and not out.details["outcome_correct"]
