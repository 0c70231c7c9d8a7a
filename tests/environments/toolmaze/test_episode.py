"""Episode runtime: first-touch activation, transient vs permanent, errors, finish and the round cap."""

import pytest

from core.protocol import Environment, Episode, ToolCall
from environments.toolmaze.catalog import build_catalog
from environments.toolmaze.dag import build_arguments


def _first(env, split, pred):
    for t in env.tasks(split):
        inst = env.instance(t.task_id)
        if pred(inst):
            return inst
    raise AssertionError(f"no task in {split} matches")


def test_protocol_and_exposed_tools(env):
    assert isinstance(env, Environment)
    inst = env.instance("C2_task_001_P0")
    assert isinstance(env.episode("C2_task_001_P0"), Episode)  # protocol v2, async
    ep = env.start("C2_task_001_P0")
    names = [s.name for s in ep.tools()]
    assert names[-1] == "finish" and set(names) == set(inst.base.exposed)
    assert set(env.tool_specs()) >= set(names)


def test_bad_calls_never_raise(env):
    ep = env.start("C1_task_001_P0")
    r = ep.call(ToolCall("no_such_tool", {}))
    assert r.status == "error" and r.meta["validation_error"] and r.meta["perturbed"] is False
    name = ep.instance.base.exposed[0]
    r = ep.call(ToolCall(name, {"bogus": 1}))
    assert r.status == "error" and r.content["validation_errors"]
    r = ep.call(ToolCall(name, "not a dict"))
    assert r.status == "error"
    assert ep.hits == 0 and len(ep.history) == 3


@pytest.mark.parametrize("mode", ["P1", "P2", "P3", "P4"])
def test_c1_victim_transient_vs_permanent(env, mode, clean_args):
    inst = _first(env, f"C1/{mode}", lambda i: i.base.paths[0].tools[0] == i.c1_victim)
    ep = env.start(inst.task.task_id)
    args = clean_args(inst, inst.c1_victim)
    first = ep.call(ToolCall(inst.c1_victim, args))
    second = ep.call(ToolCall(inst.c1_victim, args))
    assert first.meta["perturbed"] and first.meta["fault_kind"] == inst.faults[inst.c1_victim].kind
    assert "contract_class" in first.meta
    assert (first.status == "error") == (mode in ("P1", "P2"))
    assert second.meta["perturbed"] == (mode in ("P2", "P4"))
    assert ep.hits == (2 if mode in ("P2", "P4") else 1)


@pytest.mark.parametrize("mode", ["P2", "P4"])
def test_first_touch_makes_whichever_route_is_touched_first_fail(env, mode, clean_args):
    inst = _first(env, f"C2/{mode}", lambda i: any(s.alt_type == "one_to_one" for s in i.base.slots))
    slot = next(s for s in inst.base.slots if s.substitutable)
    for order in (slot.routes, tuple(reversed(slot.routes))):
        ep = env.start(inst.task.task_id)
        fields, results = {}, []
        # feed the slot from a clean upstream
        for name in inst.base.paths[0].tools:
            if name in {t for r in slot.routes for t in r.tools}:
                break
            res = ep.call(ToolCall(name, clean_args(inst, name)))
            fields.update(res.content)
        for route in order:
            res = ep.call(ToolCall(route.tools[0], clean_args(inst, route.tools[0])))
            results.append(res.meta["perturbed"])
        assert results[0] is True and not any(results[1:])
        assert ep.activated == {slot.slot_id: order[0].route_id}


def test_many_to_many_activates_only_on_entry_tools(env, clean_args):
    inst = _first(env, "C3/P4", lambda i: True)
    slot = next(s for s in inst.base.slots if s.alt_type == "many_to_many")
    a, b = slot.routes
    ep = env.start(inst.task.task_id)
    ep.call(ToolCall(b.tools[1], clean_args(inst, b.tools[1])))  # a non-entry tool first: no activation
    assert ep.activated == {}
    ep.call(ToolCall(a.tools[0], clean_args(inst, a.tools[0])))
    assert ep.activated == {slot.slot_id: a.route_id}
    hit = ep.call(ToolCall(a.tools[1], clean_args(inst, a.tools[1])))
    clean = ep.call(ToolCall(b.tools[1], clean_args(inst, b.tools[1])))
    assert hit.meta["perturbed"] and hit.status == "ok" and not clean.meta["perturbed"]


def test_c4_activates_once_per_slot(env, clean_args):
    inst = _first(env, "C4/P2", lambda i: True)
    subs = [s for s in inst.base.slots if s.substitutable]
    assert len(subs) >= 2
    ep = env.start(inst.task.task_id)
    for s in subs:
        route = s.routes[-1]
        for name in route.tools:
            ep.call(ToolCall(name, clean_args(inst, name)))
    assert ep.activated == {s.slot_id: s.routes[-1].route_id for s in subs}
    assert ep.hits == len(subs)


def test_p0_is_clean_and_finish_ends_the_episode(env):
    inst = env.instance("C4_task_003_P0")
    ep = env.start(inst.task.task_id)
    fields = {}
    catalog = build_catalog()
    for name in inst.base.paths[-1].tools:
        res = ep.call(ToolCall(name, build_arguments(catalog[name], inst.base.inputs, fields)))
        assert res.status == "ok" and res.meta == {"perturbed": False}
        fields.update(res.content)
    assert ep.state["actions"][0]["confirmation_code"] == fields["confirmation_code"]
    r = ep.call(ToolCall("finish", {"status": "done", "answer": fields["confirmation_code"]}))
    assert r.terminal and r.status == "ok"
    after = ep.call(ToolCall(inst.base.exposed[0], {}))
    assert after.status == "error" and after.terminal
    assert ep.score().success


def test_round_cap(env):
    ep = env.start("C1_task_002_P0")
    for _ in range(25):
        ep.call(ToolCall("nothing", {}))
    capped = ep.call(ToolCall("finish", {"status": "done", "answer": ""}))
    assert capped.status == "error" and capped.terminal and len(ep.history) == 25
    assert not ep.score().success


def test_call_never_raises_on_arbitrary_arguments(env):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    inst = env.instance("C4_task_002_P4")
    names = list(inst.base.exposed) + ["ghost"]
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10**6),
        st.floats(allow_nan=False, width=32),
        st.text(max_size=8),
    )
    catalog = build_catalog()

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(names), st.data())
    def check(name, data):
        keys = [p.name for p in catalog[name].params] if name in catalog else ["x"]
        args = data.draw(st.dictionaries(st.sampled_from(keys + ["extra"]), scalars, max_size=4))
        ep = env.start(inst.task.task_id)
        res = ep.call(ToolCall(name, args))
        assert res.status in ("ok", "error") and "perturbed" in res.meta

    check()
