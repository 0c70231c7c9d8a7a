"""The deterministic judge: actions, provenance of their arguments, finish status, aborts, trace check."""

from core.protocol import ToolCall
from environments.toolmaze.judge import oracle_suffix_cost
from environments.toolmaze.policies import run_policy


def _replay(env, task_id, steps, finish="done"):
    ep = env.start(task_id)
    for name, args in steps:
        ep.call(ToolCall(name, args))
    if finish:
        ep.call(ToolCall("finish", {"status": finish, "answer": "x", "reason": "r"}))
    return ep


def _oracle_steps(inst, path=0):
    return [(s["tool"], s["arguments"]) for s in inst.base.paths[path].trace]


def test_clean_path_passes_and_wrong_finish_fails(env):
    inst = env.instance("C2_task_005_P0")
    assert _replay(env, inst.task.task_id, _oracle_steps(inst)).score().success
    out = _replay(env, inst.task.task_id, _oracle_steps(inst), finish="aborted").score()
    assert not out.success and "finish" in out.details["reason"]
    out = _replay(env, inst.task.task_id, _oracle_steps(inst), finish=None).score()
    assert not out.success


def test_action_with_tampered_arguments_fails(env):
    inst = env.instance("C1_task_010_P0")
    steps = _oracle_steps(inst)
    name, args = steps[-1]
    bad = dict(args, amount=args["amount"] + 1)
    out = _replay(env, inst.task.task_id, steps[:-1] + [(name, bad), (name, args)]).score()
    assert not out.success and out.details["trace_check"]["wrong_actions"] == 1


def test_acting_on_a_corrupted_record_fails_even_with_clean_arguments(env):
    # P3: the corrupted record comes first; the same clean-derived action arguments are reused
    task = next(
        t
        for t in env.tasks("C1/P3")
        if env.instance(t.task_id).faults[env.instance(t.task_id).c1_victim].kind == "out_of_domain_enum"
    )
    inst = env.instance(task.task_id)
    out = _replay(env, task.task_id, _oracle_steps(inst)).score()
    assert not out.success and out.details["trace_check"]["hit"]
    # retrying the victim before acting makes the same arguments pass
    steps = _oracle_steps(inst)
    k = next(i for i, (n, _) in enumerate(steps) if n == inst.c1_victim)
    retried = steps[: k + 1] + [steps[k]] + steps[k + 1 :]
    out = _replay(env, task.task_id, retried).score()
    assert out.success and out.details["trace_check"]["retried"]
    assert out.details["trace_check"]["c_act"] == out.details["trace_check"]["c_oracle"]


def test_unsolvable_c1_permanent_passes_only_by_aborting_after_a_hit(env):
    inst = env.instance("C1_task_004_P2")
    assert not inst.solvable
    steps = _oracle_steps(inst)
    upto = steps[: next(i for i, (n, _) in enumerate(steps) if n == inst.c1_victim) + 1]
    assert _replay(env, inst.task.task_id, upto, finish="aborted").score().success
    assert not _replay(env, inst.task.task_id, [], finish="aborted").score().success  # never met the fault
    assert not _replay(env, inst.task.task_id, upto, finish="done").score().success


def test_switching_route_passes_and_trace_check_records_it(env):
    task = next(t for t in env.tasks("C3/P4"))
    out, history = run_policy(env, task.task_id, "oracle")
    tc = out.details["trace_check"]
    assert out.success and tc["hit"] and tc["switched"] and tc["matched_path"]
    assert tc["victim"] in env.instance(task.task_id).faults
    assert tc["c_oracle"] == oracle_suffix_cost(
        env.instance(task.task_id), history[tc["first_hit_step"]][0].name
    )


def test_c_oracle_rules(env):
    c1 = env.instance("C1_task_001_P4")
    assert oracle_suffix_cost(c1, c1.c1_victim) == 0
    t1 = env.instance("C1_task_001_P1")
    path = t1.base.paths[0].tools
    assert oracle_suffix_cost(t1, t1.c1_victim) == 1 + len(path) - 1 - path.index(t1.c1_victim)
