"""Generated tasks: counts, ids, meta, queries, valid paths that run clean and agree across routes."""

import re

import jsonschema
import pytest

from environments.toolmaze.catalog import build_catalog, catalog_specs
from environments.toolmaze.dag import build_base_task, build_dataset
from environments.toolmaze.faults import violations
from environments.toolmaze.world import canonical_args


def test_counts_ids_and_meta(env):
    tasks = env.tasks()
    assert len(tasks) == 2000
    for c in ("C1", "C2", "C3", "C4"):
        for m in ("P0", "P1", "P2", "P3", "P4"):
            assert len(env.tasks(f"{c}/{m}")) == 100
    assert len(env.tasks("P3")) == 400 and len(env.tasks("C2")) == 500
    for t in tasks:
        assert re.fullmatch(r"C[1-4]_task_\d{3}_P[0-4]", t.task_id)
        assert t.task_id == f"{t.workflow_id}_{t.meta['mode']}"
        assert t.terminal_tool == "finish"
        assert set(t.meta) == {
            "complexity",
            "mode",
            "domains",
            "explicit",
            "implicit",
            "permanent",
            "transient",
            "solvable",
        }
        assert t.meta["solvable"] == (not (t.meta["complexity"] == "C1" and t.meta["permanent"]))
    with pytest.raises(KeyError):
        env.tasks("C9")


def test_query_inputs_line_feeds_every_query_parameter(env):
    catalog = build_catalog()
    for t in env.tasks("P0"):
        inst = env.instance(t.task_id)
        line = t.query.splitlines()[-1]
        assert line.startswith("Inputs: ")
        pairs = dict(kv.split("=", 1) for kv in line[len("Inputs: ") :].split("; "))
        assert pairs == {k: str(v) for k, v in inst.base.inputs.items()}
        for name in inst.base.exposed[:-1]:
            for p in catalog[name].params:
                if p.source.startswith("query."):
                    assert p.source[6:] in pairs
        for slot in inst.base.slots:  # every sub-task is named in the query by its label
            label = catalog[slot.routes[0].tools[-1]].label
            assert label in t.query


def test_every_valid_path_runs_clean_valid_and_contract_satisfying(env):
    catalog, specs = build_catalog(), catalog_specs()
    validators = {n: jsonschema.Draft202012Validator(s.output_schema) for n, s in specs.items()}
    seen = set()
    for t in env.tasks("P0"):
        inst = env.instance(t.task_id)
        assert inst.base.complexity != "C1" or len(inst.base.paths) == 1
        for path in inst.base.paths:
            assert path.trace[-1]["tool"] == inst.base.expected_action["tool"]
            assert path.trace[-1]["arguments"] == inst.base.expected_action["arguments"]
            for step in path.trace:
                tool = catalog[step["tool"]]
                assert step["status"] == "ok"
                key = (t.workflow_id, tool.name)
                if key in seen:
                    continue
                seen.add(key)
                validators[tool.name].validate(step["result"])
                assert violations(tool, canonical_args(tool, step["arguments"]), step["result"]) == set()


def test_alternative_routes_agree_and_exposed_tools_are_the_union(env):
    for t in env.tasks("P0"):
        inst = env.instance(t.task_id)
        union = {n for p in inst.base.paths for n in p.tools}
        assert set(inst.base.exposed) == union | {"finish"}
        for slot in inst.base.slots:
            if slot.substitutable:
                assert len({r.route_id for r in slot.routes}) == len(slot.routes) >= 2
                if slot.alt_type == "many_to_many":
                    a, b = slot.routes
                    assert not set(a.tools) & set(b.tools) and len(a.tools) >= 2 and len(b.tools) >= 2
        # the result completing each slot is identical whichever route produced it
        for slot in inst.base.slots:
            results = []
            for path in inst.base.paths:
                by_tool = {step["tool"]: step["result"] for step in path.trace}
                results += [by_tool[r.tools[-1]] for r in slot.routes if r.tools[-1] in by_tool]
            assert all(r == results[0] for r in results)
        finals = {p.path_id: p.trace[-1]["result"]["confirmation_code"] for p in inst.base.paths}
        assert len(set(finals.values())) == 1


def test_complexity_structure(env):
    for t in env.tasks("P0"):
        b = env.instance(t.task_id).base
        n_sub = sum(s.substitutable for s in b.slots)
        assert n_sub == {"C1": 0, "C2": 1, "C3": 1, "C4": 2}[b.complexity]
        if b.complexity == "C3":
            assert any(s.alt_type == "many_to_many" for s in b.slots)


def test_generation_is_deterministic_and_seed_dependent():
    a = build_dataset(0)
    assert a is build_dataset(0)  # cached per process
    fresh = build_base_task(0, "C4", 7)
    assert fresh == a.instances["C4_task_008_P0"].base
    other = build_base_task(1, "C4", 7)
    assert (other.inputs, other.slots) != (fresh.inputs, fresh.slots)
