"""The conformance kit: a world checked through the protocol before anyone trusts its numbers.

In the spirit of Gymnasium's ``check_env``: ``check_world(name)`` builds the world from its plugin
(with the options of its own ``conf/env/<name>.yaml``) and checks, through ``core.protocol`` only:

- tools: every tool's argument schema (and result schema, when given) is a valid JSON Schema;
- tasks: the task list is the same for the same options, and every task has a group;
- episode: an episode opens, takes a call, hears text, scores and closes;
- bad calls: an unknown tool and a call missing its required arguments come back as error results;
- state: where an episode offers state access, a value of a result is located, corrupted, and the
  state's digest changes;
- contracts: the world's clean traces mine at least one rule for every tool they call;
- faults: every fault its studies name finds a target in at least one clean result.

Each finding that fails says what to implement. A check the world cannot offer on this machine
(its tasks need a download, it has no clean traces) is skipped with the reason, never failed or
passed silently. ``python -m harness.conformance [WORLD ...]`` prints the report; exit 1 on a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from core import offline, worlds
from core.plugin import Plugin
from core.protocol import Environment, StateAccess, ToolCall, ToolResult, ToolSpec, WorldUnavailable

PASS, FAIL, SKIP = "pass", "FAIL", "skip"


@dataclass(frozen=True)
class Finding:
    check: str
    status: str  # pass | FAIL | skip
    message: str


@dataclass
class Report:
    world: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(f.status != FAIL for f in self.findings)

    def add(self, check: str, status: str, message: str) -> None:
        self.findings.append(Finding(check, status, message))

    def text(self) -> str:
        lines = [f"{self.world}: {'conforms' if self.passed else 'does NOT conform'}"]
        lines += [f"  [{f.status}] {f.check}: {f.message}" for f in self.findings]
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# what the world's own configs say


def world_config(name: str) -> dict[str, Any]:
    """The world's ``conf/env/<name>.yaml`` as plain data ({} when it has none)."""
    path = worlds.config_file("env", name)
    return (yaml.safe_load(path.read_text()) or {}) if path is not None else {}


def study_faults(name: str) -> dict[str, dict[str, Any]]:
    """Every fault config the world's studies name (``override /fault:``, one or a list), each with
    the env options of the study that names it (a fault is tried on the world that study makes)."""
    world = worlds.discover().get(name)
    out: dict[str, dict[str, Any]] = {}
    for path in sorted((world.conf / "study").glob("*.yaml")) if world and world.conf else []:
        data = yaml.safe_load(path.read_text()) or {}
        options = dict(((data.get("study") or {}).get("env") or {}).get("options") or {})
        names = {str(f) for f in data.get("faults") or []}
        for entry in data.get("defaults") or []:
            if isinstance(entry, dict):
                for key, value in entry.items():
                    if key in ("override /fault", "/fault", "fault"):
                        names.update(str(v) for v in (value if isinstance(value, list) else [value]))
        for fault in names:
            out.setdefault(fault, options)
    return dict(sorted(out.items()))


# ---------------------------------------------------------------------------------------------
# the checks


def check_tools(report: Report, specs: Mapping[str, ToolSpec]) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not specs:
        report.add("tools", FAIL, "the world exposes no tool: tool_specs() must return {name: ToolSpec}")
        return
    bad = []
    for name, spec in specs.items():
        for what, schema in (("parameters", spec.parameters), ("output_schema", spec.output_schema)):
            if schema is None:
                continue
            try:
                Draft202012Validator.check_schema(dict(schema))
            except SchemaError as exc:
                bad.append(f"{name}.{what}: {exc.message}")
        if (spec.parameters or {}).get("type") != "object":
            bad.append(f"{name}.parameters: type must be 'object' (an agent calls tools with a JSON object)")
    if bad:
        report.add(
            "tools", FAIL, f"{len(bad)} invalid tool schema(s), e.g. {bad[0]}; fix the ToolSpec schemas"
        )
    else:
        report.add("tools", PASS, f"{len(specs)} tools, every schema valid")


def check_tasks(report: Report, plugin: Plugin, options: Mapping[str, Any]) -> list[Any]:
    """The world's tasks (twice from fresh worlds: the same list), or [] when it has none here."""
    try:
        first = [t.task_id for t in plugin.make(**options).tasks()]
        again = plugin.make(**options).tasks()
    except WorldUnavailable as exc:  # its tasks need a download this machine lacks: say so, skip
        report.add("tasks", SKIP, f"no tasks on this machine ({type(exc).__name__}: {str(exc)[:200]})")
        return []
    except Exception as exc:  # noqa: BLE001  (a bug in the world is the finding)
        report.add(
            "tasks",
            FAIL,
            f"tasks() raised {type(exc).__name__}: {str(exc)[:200]}; it must list the "
            "world's tasks, or raise core.protocol.WorldUnavailable saying what to fetch",
        )
        return []
    if not again:
        report.add("tasks", FAIL, "tasks() returned no task: a world needs at least one task")
    elif first != [t.task_id for t in again]:
        report.add(
            "tasks",
            FAIL,
            "two worlds made with the same options list different tasks: derive tasks from the seed",
        )
    elif any(not t.group_id for t in again):
        report.add("tasks", FAIL, "a task has no group_id: set Task.group_id (the unit of cross-fitting)")
    else:
        report.add("tasks", PASS, f"{len(again)} tasks, the same list for the same options")
    return again


def _arguments(spec: ToolSpec) -> dict[str, Any]:
    """Placeholder arguments of the right types for a tool's required parameters."""
    placeholder = {"string": "x", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
    props = (spec.parameters or {}).get("properties") or {}
    out = {}
    for key in (spec.parameters or {}).get("required") or []:
        kind = (props.get(key) or {}).get("type", "string")
        enum = (props.get(key) or {}).get("enum")
        out[key] = enum[0] if enum else placeholder.get(kind if isinstance(kind, str) else kind[0], "x")
    return out


class _QuietUser:
    """A user model for worlds that need one: it answers briefly and never ends the conversation."""

    async def __call__(self, messages: list[dict[str, Any]]) -> str:
        return "Thanks."


async def _episode_round_trip(
    report: Report, env: Environment, task: Any, rows: Sequence[Mapping[str, Any]]
) -> None:
    episode = env.episode(
        task.task_id, seed=0, user=_QuietUser() if getattr(env, "needs_user", False) else None
    )
    steps = []
    try:
        opening = await episode.open()
        steps.append("open")
        if not isinstance(opening, str):
            report.add("episode", FAIL, "open() must return the opening message as text")
        specs = {s.name: s for s in episode.tools()}
        unknown = await episode.call(ToolCall("no_such_tool_xyz", {}))
        missing = [s for s in specs.values() if (s.parameters or {}).get("required") and s.category == "read"]
        errors = [unknown] + ([await episode.call(ToolCall(missing[0].name, {}))] if missing else [])
        if any(not isinstance(r, ToolResult) or r.status != "error" for r in errors):
            report.add(
                "bad call",
                FAIL,
                "an unknown tool or missing required arguments must return "
                "ToolResult(status='error', content=<why>), never raise or succeed",
            )
        else:
            report.add("bad call", PASS, "unknown tool and missing arguments come back as error results")
        result, call = await _a_read_call(episode, specs, task, rows)
        steps.append("call")
        await episode.say("Checking in: is there anything else?")
        steps.append("say")
        outcome = await episode.score()
        steps.append("score")
        if not isinstance(outcome.success, bool):
            report.add("episode", FAIL, "score() must return an Outcome whose success is a bool")
        await _check_state(report, episode, specs, task, rows, call, result)
    except Exception as exc:  # noqa: BLE001  (the world's failure is the finding)
        report.add(
            "episode", FAIL, f"{type(exc).__name__} after {' -> '.join(steps) or 'nothing'}: {exc}"[:300]
        )
        return
    finally:
        try:
            await episode.close()
        except Exception as exc:  # noqa: BLE001
            report.add("episode", FAIL, f"close() raised {type(exc).__name__}: {exc}"[:300])
    report.add("episode", PASS, "open, call, say, score and close ran through the protocol")


async def _a_read_call(
    episode: Any, specs: Mapping[str, ToolSpec], task: Any, rows: Sequence[Mapping[str, Any]]
) -> tuple[ToolResult, ToolCall]:
    """A read call likely to succeed: one the clean traces made for this task, else the first read tool."""
    for row in rows:
        if (
            row.get("task_id") == task.task_id
            and row["tool"] in specs
            and specs[row["tool"]].category == "read"
        ):
            call = ToolCall(row["tool"], dict(row["arguments"]))
            return await episode.call(call), call
    read = next((s for s in specs.values() if s.category == "read"), next(iter(specs.values())))
    call = ToolCall(read.name, _arguments(read))
    return await episode.call(call), call


async def _check_state(
    report: Report,
    episode: Any,
    specs: Mapping[str, ToolSpec],
    task: Any,
    rows: Sequence[Mapping[str, Any]],
    call: ToolCall,
    result: ToolResult,
) -> None:
    state = getattr(episode, "state", None)
    if not isinstance(state, StateAccess):
        report.add(
            "state", SKIP, "no state access (optional): state-level faults fall back to observation level"
        )
        return
    candidates = [(call, result)]
    mine = sorted(rows, key=lambda r: r.get("task_id") != task.task_id)  # this task's calls first
    tools_seen: set[str] = set()
    for row in mine:
        if row["tool"] in specs and specs[row["tool"]].category == "read" and row["tool"] not in tools_seen:
            tools_seen.add(row["tool"])
            again = ToolCall(row["tool"], dict(row["arguments"]))
            candidates.append((again, await episode.call(again)))
    for tried, res in candidates:
        paths = list(_leaf_paths(res.content)) if res.status == "ok" else []
        ref = next((r for r in (state.locate(tried, res, p) for p in paths) if r is not None), None)
        if ref is not None:
            break
    else:
        report.add(
            "state",
            FAIL,
            f"state access offered, but no value of {len(candidates)} read results could be "
            "located: implement StateAccess.locate(call, result, path) for the stored records results come from",
        )
        return
    before = state.digest()
    state.corrupt(ref, "__conformance__")
    if state.digest() == before:
        report.add("state", FAIL, "corrupt() left digest() unchanged: the digest must cover the stored state")
    else:
        report.add(
            "state", PASS, f"a value of a {tried.name} result was located and corrupted; the digest changed"
        )


def _leaf_paths(content: Any, prefix: str = "$") -> Iterable[str]:
    if isinstance(content, Mapping):
        for key, value in content.items():
            yield from _leaf_paths(value, f"{prefix}.{key}")
    elif isinstance(content, list):
        for i, value in enumerate(content[:3]):
            yield from _leaf_paths(value, f"{prefix}[{i}]")
    else:
        yield prefix


def clean_rows(
    report: Report, plugin: Plugin, env: Environment, trace_options: Mapping[str, Any]
) -> list[dict[str, Any]]:
    if "traces" not in plugin.contract_sources:
        report.add(
            "contracts", SKIP, f"no clean traces (contract sources: {', '.join(plugin.contract_sources)})"
        )
        return []
    try:
        rows = [dict(r) for r in plugin.clean_traces(env, **trace_options)]
    except Exception as exc:  # noqa: BLE001
        report.add("contracts", FAIL, f"clean_traces() raised {type(exc).__name__}: {exc}"[:300])
        return []
    return [r for r in rows if r.get("status", "ok") == "ok"]


def check_contracts(
    report: Report, rows: list[dict[str, Any]], schema_rules: Mapping[str, Any] | None = None
) -> None:
    """Every tool the clean traces call carries a mined rule, or (``schema_rules``: the world's result
    schemas' rules by tool, when it offers that source) a schema rule: a tool whose clean results never
    vary (a constant balance, today's date) mines nothing, and its schema is then what checks it."""
    from harness.monitor import learn

    if not rows:
        if not any(f.check == "contracts" for f in report.findings):
            report.add(
                "contracts", FAIL, "clean_traces() gave no successful call: the monitor has nothing to mine"
            )
        return
    registry = learn(rows)
    used = sorted({r["tool"] for r in rows})
    by_schema = [t for t in used if not registry.rules.get(t) and (schema_rules or {}).get(t)]
    bare = [t for t in used if not registry.rules.get(t) and t not in by_schema]
    if bare:
        report.add(
            "contracts",
            FAIL,
            f"{len(bare)} of {len(used)} tools the clean traces call carry no rule "
            f"({', '.join(bare[:5])}{'...' if len(bare) > 5 else ''}): give clean_traces() more varied "
            "successful calls of them (a rule needs support across several groups)",
        )
    else:
        also = (
            f" ({len(by_schema)} by their result schema alone: {', '.join(by_schema[:5])}"
            f"{'...' if len(by_schema) > 5 else ''})"
            if by_schema
            else ""
        )
        report.add(
            "contracts",
            PASS,
            f"{registry.n_rules} rules mined; every one of the {len(used)} tools called has one{also}",
        )


def _schema_rules(plugin: Plugin, env: Environment) -> dict[str, Any]:
    """The rules of the world's result schemas by tool, when it offers that source ({} otherwise)."""
    if "schemas" not in plugin.contract_sources:
        return {}
    from outcome_monitor.learning.derive import registry_from_schemas

    return dict(registry_from_schemas(plugin.tool_schemas(env)).rules)


def check_faults(
    report: Report,
    plugin: Plugin,
    name: str,
    base: Mapping[str, Any],
    traces: Mapping[str, Any],
    rows: list[dict[str, Any]],
) -> None:
    """Each fault the world's studies name finds a target in the clean results of the world its study makes."""
    from harness.config import load_fault
    from harness.faults.inject import build_injector, inject_once

    faults = study_faults(name)
    if not faults:
        report.add("faults", SKIP, "the world's studies name no fault")
        return
    worlds_by_options: dict[str, tuple[Any, list[dict[str, Any]]]] = {}
    for fault, options in faults.items():
        injector = build_injector(load_fault(fault), seed=0)
        if injector is None:
            report.add(f"fault {fault}", SKIP, "no injector (the world plants its own faults, or none)")
            continue
        key = json.dumps(options, sort_keys=True, default=str)
        if key not in worlds_by_options:
            try:
                env = plugin.make(**{**base, **options}) if options else None
            except WorldUnavailable as exc:
                report.add(f"fault {fault}", SKIP, f"its study's world cannot start here ({exc})"[:300])
                continue
            mine = clean_rows(Report(name), plugin, env, traces) if env is not None else rows
            worlds_by_options[key] = (env, mine)
        env, mine = worlds_by_options[key]
        specs = (env or plugin.make(**base)).tool_specs()
        where = f" (study options {options})" if options else ""
        if not mine:
            report.add(f"fault {fault}", SKIP, f"no clean results to try it on{where}")
            continue
        tried = mine[:2000]
        hits = sum(
            1
            for r in tried
            if "injected_fault"
            in inject_once(
                injector, r["tool"], r["arguments"], r["result"], specs, r.get("task_id", "t")
            ).meta
        )
        if hits:
            report.add(
                f"fault {fault}", PASS, f"finds a target in {hits} of {len(tried)} clean results{where}"
            )
        else:
            report.add(
                f"fault {fault}",
                FAIL,
                f"found no target in {len(tried)} clean results{where}: its target "
                "(tool, field, category) matches nothing this world returns; fix the fault config",
            )


def check_world(name: str, options: Mapping[str, Any] | None = None) -> Report:
    """Check the discovered world ``name`` through the protocol (options: its conf/env ``options``)."""
    report = Report(name)
    plugin = worlds.get_plugin(name)
    why = plugin.unavailable()
    if why is not None:
        report.add("ready", SKIP, why)
        return report
    config = world_config(name)
    options = dict(config.get("options") or {}) if options is None else dict(options)
    try:
        env = plugin.make(**options)
    except WorldUnavailable as exc:
        report.add("ready", SKIP, str(exc))
        return report
    except Exception as exc:  # noqa: BLE001
        report.add("make", FAIL, f"make(**{options}) raised {type(exc).__name__}: {exc}"[:300])
        return report
    check_tools(report, env.tool_specs())
    tasks = check_tasks(report, plugin, options)
    rows = clean_rows(report, plugin, env, dict(config.get("traces") or {})) if tasks else []
    if tasks:
        asyncio.run(_episode_round_trip(report, plugin.make(**options), tasks[0], rows))
        check_contracts(report, rows, _schema_rules(plugin, env))
    check_faults(report, plugin, name, options, dict(config.get("traces") or {}), rows)
    closer = getattr(env, "aclose", None)
    if callable(closer):
        asyncio.run(closer())
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m harness.conformance", description=__doc__.split("\n\n")[0])
    ap.add_argument("worlds", nargs="*", help="world names (default: every discovered world)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    reports = [check_world(w) for w in (args.worlds or worlds.world_names())]
    if args.json:
        print(
            json.dumps(
                [
                    {"world": r.world, "passed": r.passed, "findings": [vars(f) for f in r.findings]}
                    for r in reports
                ],
                indent=2,
            )
        )
    else:
        print("\n\n".join(r.text() for r in reports))
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    offline.apply()  # an entry point: offline unless a real model is asked for
    sys.exit(main())
