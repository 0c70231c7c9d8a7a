"""Seeded task generation: 400 base tasks (C1-C4) as slot DAGs, valid paths, oracle traces, faults.

A base task is Source slot -> Processor slot -> Action slot. A slot is fixed (one route) or
substitutable (one_to_one / one_to_many / many_to_many routes); valid paths are the product of
slot routes. Each (base task, mode) is an ``Instance`` carrying the public ``Task`` and the hidden
oracle data. Must not know episodes or judging.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.protocol import Task
from core.seeding import rng, sha256_hex
from environments.toolmaze.catalog import FINISH, Tool, build_catalog, catalog_specs
from environments.toolmaze.faults import MODES, Fault, make_fault, mode_flags
from environments.toolmaze.vocab import CROSS_DOMAIN_ACTION_DOMAINS, DOMAINS, PROCESSORS, Domain
from environments.toolmaze.world import execute

COMPLEXITIES = ("C1", "C2", "C3", "C4")
TASKS_PER_COMPLEXITY = 100
_NAMES = ("ana", "ben", "chen", "dana", "eli", "fatima", "gus", "hana", "ivan", "jo")
_ID_PREFIX = {"account_id": "ACC", "employee_id": "EMP", "site_id": "SITE", "ledger_id": "LED"}


@dataclass(frozen=True)
class Route:
    route_id: str
    tools: tuple[str, ...]


@dataclass(frozen=True)
class Slot:
    slot_id: str
    cap: str
    kind: str  # source | processor | action
    alt_type: str  # fixed | one_to_one | one_to_many | many_to_many
    routes: tuple[Route, ...]

    @property
    def substitutable(self) -> bool:
        return len(self.routes) > 1


@dataclass(frozen=True)
class Path:
    path_id: str
    tools: tuple[str, ...]
    group_choices: tuple[str, ...]
    trace: tuple[dict[str, Any], ...]  # oracle execution: {step, tool, arguments, result, status}


@dataclass(frozen=True)
class BaseTask:
    workflow_id: str
    complexity: str
    domains: tuple[str, ...]
    inputs: dict[str, Any]
    query: str
    slots: tuple[Slot, ...]
    paths: tuple[Path, ...]
    expected_action: dict[str, Any]  # {"tool", "arguments"} (identical on every valid path)
    exposed: tuple[str, ...]


@dataclass(frozen=True)
class Instance:
    task: Task
    base: BaseTask
    mode: str
    faults: dict[
        str, Fault
    ]  # victim tool -> payload (C1: one; C2-C4: one per route of each substitutable slot)
    c1_victim: str | None
    solvable: bool


# --------------------------------------------------------------------------------------------


def build_arguments(tool: Tool, query: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any] | None:
    """Arguments from the source tags: query values and earlier output fields (None if one is missing)."""
    args: dict[str, Any] = {}
    for p in tool.params:
        if p.source.startswith("query."):
            pool, key = query, p.source[len("query.") :]
        else:
            pool, key = fields, p.source
        if key not in pool:
            return None
        args[p.name] = pool[key]
    return args


def run_path(seed: int, tools: tuple[str, ...], inputs: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    catalog = build_catalog()
    fields: dict[str, Any] = {}
    trace = []
    state: dict[str, Any] = {}
    for step, name in enumerate(tools):
        tool = catalog[name]
        args = build_arguments(tool, inputs, fields)
        if args is None:
            raise AssertionError(f"path {tools} cannot feed {name}")
        status, content = execute(seed, tool, args, state)
        if status != "ok":
            raise AssertionError(f"clean path step {name} failed: {content}")
        fields.update(content)
        trace.append({"step": step, "tool": name, "arguments": args, "result": content, "status": status})
    return tuple(trace)


def _source_routes(domain: Domain, subject_cap: str) -> list[Route]:
    subject = next(s for s in domain.subjects if s.cap == subject_cap)
    routes = [Route(f"direct_{p}", (f"get_{subject.cap}_{p}",)) for p in domain.providers]
    routes.append(
        Route(f"via_{subject.noun}_ref", (f"resolve_{subject.noun}_ref", f"get_{subject.noun}_by_ref"))
    )
    routes.append(
        Route(f"via_{subject.noun}_uid", (f"lookup_{subject.noun}_uid", f"fetch_{subject.noun}_by_uid"))
    )
    return routes


def _processor_routes(domain: Domain, kind_idx: int) -> list[Route]:
    kind = PROCESSORS[kind_idx]
    routes = [Route(f"direct_{p}", (f"{domain.prefix}_{kind.verb}_{p}",)) for p in domain.providers]
    routes.append(
        Route(
            f"via_{kind.factor}",
            (f"{domain.prefix}_get_{kind.factor_verb}", f"{domain.prefix}_apply_{kind.factor_verb}"),
        )
    )
    return routes


def _choose_routes(r: random.Random, routes: list[Route], alt_type: str) -> tuple[Route, ...]:
    directs = [x for x in routes if len(x.tools) == 1]
    chains = [x for x in routes if len(x.tools) > 1]
    if alt_type == "fixed":
        return (r.choice(routes),)
    if alt_type == "one_to_one":
        return tuple(r.sample(directs, r.choice([2, 3])))
    if alt_type == "one_to_many":
        return (r.choice(directs), r.choice(chains))
    if alt_type == "many_to_many":
        return tuple(chains)
    raise ValueError(alt_type)


def _contact_value(r: random.Random, key: str) -> str:
    if key.endswith("email"):
        return f"{r.choice(_NAMES)}.{r.randint(10, 99)}@example.com"
    return f"{_ID_PREFIX[key]}-{r.randint(10000, 99999)}"


def _query(labels: list[str], details: list[str], inputs: dict[str, Any]) -> str:
    parts = [f"{label} ({detail})" for label, detail in zip(labels, details, strict=True)]
    sentence = "Please " + ", then ".join(parts) + ". Finish with the confirmation code."
    return sentence + "\nInputs: " + "; ".join(f"{k}={v}" for k, v in inputs.items())


def build_base_task(seed: int, complexity: str, index: int) -> BaseTask:
    r = rng(seed, "toolmaze.task", complexity, index)
    domain = r.choice(DOMAINS)
    subject = r.choice(domain.subjects)
    kind_idx = r.randrange(len(PROCESSORS))
    kind = PROCESSORS[kind_idx]
    if r.random() < 0.3:
        act_domain_name = r.choice(CROSS_DOMAIN_ACTION_DOMAINS)
        act_domain = next(d for d in DOMAINS if d.name == act_domain_name)
    else:
        act_domain = domain
    act_name, act_label, contact = act_domain.actions[kind_idx]
    inputs = {
        subject.key: r.choice(subject.values),
        "quantity": r.randint(1, 9),
        kind.selector: r.choice(kind.values),
        contact: _contact_value(r, contact),
    }

    s_routes, p_routes = _source_routes(domain, subject.cap), _processor_routes(domain, kind_idx)
    if complexity == "C1":
        s_alt, p_alt = "fixed", "fixed"
    elif complexity == "C2":
        alt = r.choice(["one_to_one", "one_to_many"])
        s_alt, p_alt = (alt, "fixed") if r.random() < 0.5 else ("fixed", alt)
    elif complexity == "C3":
        s_alt, p_alt = "many_to_many", "fixed"
    else:
        s_alt = r.choice(["one_to_one", "one_to_many", "many_to_many"])
        p_alt = r.choice(["one_to_one", "one_to_many"])
    slots = (
        Slot("s1", f"{domain.name}.{subject.cap}", "source", s_alt, _choose_routes(r, s_routes, s_alt)),
        Slot("s2", f"{domain.name}.{kind.cap}", "processor", p_alt, _choose_routes(r, p_routes, p_alt)),
        Slot("s3", f"{act_domain.name}.{act_name}", "action", "fixed", (Route("direct", (act_name,)),)),
    )
    workflow_id = f"{complexity}_task_{index + 1:03d}"
    paths = []
    for combo in itertools.product(*(s.routes for s in slots)):
        tools = tuple(t for route in combo for t in route.tools)
        choices = tuple(f"{s.slot_id}:{route.route_id}" for s, route in zip(slots, combo, strict=True))
        paths.append(Path(f"path_{len(paths) + 1}", tools, choices, run_path(seed, tools, inputs)))
    last = paths[0].trace[-1]
    expected = {"tool": last["tool"], "arguments": last["arguments"]}
    exposed = tuple(dict.fromkeys(t for p in paths for t in p.tools)) + (FINISH,)
    details = [
        f"{subject.key} {inputs[subject.key]}, quantity {inputs['quantity']}",
        f"{kind.selector} {inputs[kind.selector]}",
        f"{contact} {inputs[contact]}",
    ]
    query = _query([subject.label, kind.label, act_label], details, inputs)
    domains = tuple(dict.fromkeys([domain.name, act_domain.name]))
    return BaseTask(workflow_id, complexity, domains, inputs, query, slots, tuple(paths), expected, exposed)


def build_instance(seed: int, base: BaseTask, mode: str) -> Instance:
    catalog = build_catalog()
    flags = mode_flags(mode)
    solvable = not (base.complexity == "C1" and flags["permanent"])
    task = Task(
        task_id=f"{base.workflow_id}_{mode}",
        group_id=base.workflow_id,
        query=base.query,
        env="toolmaze",
        split="test",
        terminal_tool=FINISH,
        strata={"complexity": base.complexity, "mode": mode},
        meta={
            "complexity": base.complexity,
            "mode": mode,
            "domains": list(base.domains),
            **flags,
            "solvable": solvable,
        },
    )
    clean_by_tool = {step["tool"]: step["result"] for p in base.paths for step in p.trace}
    victims: list[str] = []
    c1_victim = None
    if mode != "P0":
        r = rng(seed, "toolmaze.victim", base.workflow_id, mode)
        if base.complexity == "C1":
            slot = r.choice([s for s in base.slots if s.kind != "action"])
            c1_victim = slot.routes[0].tools[-1]
            victims = [c1_victim]
        else:
            victims = [route.tools[-1] for s in base.slots if s.substitutable for route in s.routes]
    faults = {}
    for v in victims:
        fr = rng(seed, "toolmaze.fault", base.workflow_id, mode, v)
        faults[v] = make_fault(catalog[v], mode, clean_by_tool[v], fr, seed)
    return Instance(task, base, mode, faults, c1_victim, solvable)


@dataclass(frozen=True)
class Dataset:
    seed: int
    instances: dict[str, Instance]  # task_id -> instance, ordered C1..C4, task index, P0..P4

    def sha256(self) -> str:
        if self.seed not in _HASHES or _HASHES[self.seed][0] is not self:
            _HASHES[self.seed] = (self, dataset_sha256(self))
        return _HASHES[self.seed][1]


_HASHES: dict[int, tuple[Dataset, str]] = {}


def _instance_record(inst: Instance) -> dict[str, Any]:
    b = inst.base
    return {
        "task_id": inst.task.task_id,
        "workflow_id": b.workflow_id,
        "query": b.query,
        "meta": dict(inst.task.meta),
        "inputs": b.inputs,
        "exposed": list(b.exposed),
        "slots": [
            {
                "slot_id": s.slot_id,
                "cap": s.cap,
                "alt_type": s.alt_type,
                "routes": [[r.route_id, list(r.tools)] for r in s.routes],
            }
            for s in b.slots
        ],
        "paths": [
            {
                "path_id": p.path_id,
                "tools": list(p.tools),
                "group_choices": list(p.group_choices),
                "trace": list(p.trace),
            }
            for p in b.paths
        ],
        "expected_action": b.expected_action,
        "c1_victim": inst.c1_victim,
        "faults": {k: [f.kind, f.contract_class, f.status, f.content] for k, f in inst.faults.items()},
    }


def dataset_sha256(ds: Dataset) -> str:
    specs = {
        n: [
            s.openai_schema(),
            s.kind,
            s.domain,
            s.capability,
            list(s.substitutes),
            list(s.output_fields),
            s.output_schema,
        ]
        for n, s in catalog_specs().items()
    }
    return sha256_hex(
        {"seed": ds.seed, "catalog": specs, "instances": [_instance_record(i) for i in ds.instances.values()]}
    )


@lru_cache(maxsize=4)
def build_dataset(seed: int = 0) -> Dataset:
    """All 2,000 instances for one seed, built once per process."""
    instances: dict[str, Instance] = {}
    for c in COMPLEXITIES:
        for i in range(TASKS_PER_COMPLEXITY):
            base = build_base_task(seed, c, i)
            for mode in MODES:
                inst = build_instance(seed, base, mode)
                instances[inst.task.task_id] = inst
    return Dataset(seed, instances)
