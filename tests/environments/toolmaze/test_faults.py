"""Fault payloads: explicit ones are errors; implicit ones are schema-valid yet break their contract class."""

import jsonschema

from environments.toolmaze.catalog import build_catalog, catalog_specs
from environments.toolmaze.faults import EXPLICIT_PERMANENT, EXPLICIT_TRANSIENT, IMPLICIT_CLASS, violations
from environments.toolmaze.world import canonical_args


def test_every_implicit_payload_is_schema_valid_and_breaks_its_contract_class(env, clean_args):
    catalog, specs = build_catalog(), catalog_specs()
    validators = {n: jsonschema.Draft202012Validator(s.output_schema) for n, s in specs.items()}
    kinds, classes = set(), set()
    for mode in ("P3", "P4"):
        for t in env.tasks(mode):
            inst = env.instance(t.task_id)
            assert inst.faults
            for name, fault in inst.faults.items():
                tool = catalog[name]
                assert tool.kind != "action"
                assert fault.status == "ok" and fault.kind in IMPLICIT_CLASS
                validators[name].validate(fault.content)
                broken = violations(tool, canonical_args(tool, clean_args(inst, name)), fault.content)
                assert fault.contract_class in broken, (t.task_id, name, fault.kind, broken)
                kinds.add(fault.kind)
                classes.add(fault.contract_class)
    assert kinds == set(IMPLICIT_CLASS)
    assert classes == {"positive", "domain", "echo", "date_order", "relation"}


def test_explicit_payloads_are_errors_of_the_right_duration(env):
    for mode, allowed in (("P1", EXPLICIT_TRANSIENT), ("P2", EXPLICIT_PERMANENT)):
        seen = set()
        for t in env.tasks(mode):
            for fault in env.instance(t.task_id).faults.values():
                assert fault.status == "error" and fault.contract_class is None
                assert fault.kind in allowed and "error" in fault.content and "code" in fault.content
                seen.add(fault.kind)
        assert seen == set(allowed)


def test_victims_per_complexity(env):
    for t in env.tasks("all"):
        inst = env.instance(t.task_id)
        if t.meta["mode"] == "P0":
            assert not inst.faults
        elif t.meta["complexity"] == "C1":
            assert list(inst.faults) == [inst.c1_victim]
            assert inst.c1_victim in inst.base.paths[0].tools
        else:
            subs = [s for s in inst.base.slots if s.substitutable]
            assert set(inst.faults) == {r.tools[-1] for s in subs for r in s.routes}
