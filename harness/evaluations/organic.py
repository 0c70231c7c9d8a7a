"""Organic fire rate on real model traffic: tau-bench's published trajectories, checked by the monitor.

A trajectories file in tau-bench's ``historical_trajectories`` format (a JSON list of runs, each
``{task_id, trial, reward, info, traj}``, ``traj`` the OpenAI-style message list) is read into its tool
calls: each assistant ``tool_calls`` entry paired with the ``tool`` message answering it by id. A
result is JSON when its text is a JSON object or array (what tau-bench's JSON tools return), else the
text itself. The tools' own ``Error: ...`` results are counted apart: never learned as clean, never
checked. Every other result is checked, two ways:

- **cross-fitted by task on the traffic itself**: five folds over task ids (``crossfit.assign_folds``,
  all trials of a task in one fold); fold k's rules are learned with the monitor's public ``learn``
  from the other folds' clean results and check fold k's results;
- **the world's own contracts** (the world that publishes the runs, ``Plugin.published_traffic``): the registries a run of that world
  checks with (``harness.run.registries``: its clean traces cross-fitted by group, merged with its
  shared sources), each run checked by the fold that never saw its task's group; and the single
  registry of all the world's traces (``sources.world_registry``).

A key the runs' results hold but the world's current database calls by another name (tau-bench renamed
users' ``address.province`` to ``address.state`` after these runs) is found by comparing each
record-returning result with the database record its arguments name, and fires it explains are
counted and named as that data change, never dropped. Knows no particular world.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ERROR_PREFIX = "Error:"  # how tau-bench's tools answer a call they refuse
N_FOLDS = 5
SYSTEMATIC = 0.9  # a key difference held by this share of the compared records is a data change
MIN_COMPARED = 5  # ... over at least this many records


class OrganicError(RuntimeError):
    """The trajectories file is missing or not in the expected format (one line, names the fix)."""


@dataclass(frozen=True)
class Call:
    """One tool call of one run and the result the tool gave."""

    run: int  # the run's index in the file
    task: int  # the run's task_id (an index into the domain's test tasks)
    trial: int
    index: int  # the call's position among the run's tool results
    tool: str
    arguments: dict[str, Any]
    result: Any  # parsed JSON, or the text
    error: bool  # the tool's own ``Error: ...`` answer

    @property
    def workflow(self) -> str:
        return f"task_{self.task}"  # the cross-fitting group: every trial of a task together

    def row(self) -> dict[str, Any]:
        """The monitor's trace row."""
        return {
            "tool": self.tool,
            "arguments": self.arguments,
            "result": self.result,
            "status": "error" if self.error else "ok",
            "task_id": self.workflow,
            "workflow_id": self.workflow,
        }


# ------------------------------------------------------------------------------------------
# Reading the file.


def published(env_name: str | None, options: Mapping[str, Any]) -> tuple[str, Path, str]:
    """(world, file, how to get it) of the published trajectories a world knows
    (``Plugin.published_traffic``); with no world named, the first discovered world that knows any."""
    from core.worlds import UnknownEnvironmentError, discover, get_plugin

    names = [env_name] if env_name else sorted(discover())
    for name in names:
        try:
            path, hint = get_plugin(name).published_traffic(**dict(options))
        except UnknownEnvironmentError as exc:
            raise OrganicError(str(exc.args[0] if exc.args else exc)) from None
        except NotImplementedError as exc:
            if env_name:
                raise OrganicError(f"{exc}; pass --file") from None
            continue
        return name, Path(path), hint
    raise OrganicError("no discovered world knows published trajectories; pass --file")


def load_runs(path: str | os.PathLike[str], hint: str = "pass --file") -> list[dict[str, Any]]:
    path = Path(path)
    if not path.is_file():
        raise OrganicError(f"no published trajectories at {path}: {hint}")
    try:
        runs = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise OrganicError(f"{path} is not JSON ({exc})") from None
    if not isinstance(runs, list) or not all(isinstance(r, dict) and "traj" in r for r in runs):
        raise OrganicError(f"{path}: expected a JSON list of runs with 'traj' message lists")
    return runs


def parse_result(text: str) -> Any:
    """JSON objects and arrays are parsed (tau-bench's JSON tools); any other text stays text."""
    if text[:1] in ("{", "["):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else json.dumps(content)


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_raw": raw}


def extract_calls(runs: Sequence[Mapping[str, Any]]) -> tuple[list[Call], dict[str, int]]:
    """Every answered tool call, in file order; and counts of what could not be paired."""
    calls: list[Call] = []
    unpaired = Counter[str]()
    for n, run in enumerate(runs):
        try:
            task, trial = int(run["task_id"]), int(run.get("trial", 0))
        except (KeyError, TypeError, ValueError):
            raise OrganicError(f"run {n} has no integer task_id") from None
        asked: dict[str, Mapping[str, Any]] = {}
        answered: set[str] = set()
        index = 0
        for msg in run["traj"]:
            if not isinstance(msg, dict):
                continue
            for tc in msg.get("tool_calls") or ():
                asked[str(tc.get("id"))] = tc.get("function") or {}
            if msg.get("role") != "tool":
                continue
            call_id = str(msg.get("tool_call_id"))
            fn = asked.get(call_id)
            if fn is None:
                unpaired["results without a call"] += 1
            answered.add(call_id)
            text = _text(msg.get("content"))
            error = text.startswith(ERROR_PREFIX)
            calls.append(
                Call(
                    n,
                    task,
                    trial,
                    index,
                    str(msg.get("name") or (fn or {}).get("name", "")),
                    _arguments((fn or {}).get("arguments")),
                    text if error else parse_result(text),
                    error,
                )
            )
            index += 1
        unpaired["calls without a result"] += len(set(asked) - answered)
    return calls, {k: v for k, v in unpaired.items() if v}


# ------------------------------------------------------------------------------------------
# Checking.


@dataclass(frozen=True)
class Fire:
    call: Call
    violations: tuple[Any, ...]  # the monitor's Violation objects
    data_change: bool = False  # every violation is explained by the upstream data change

    def to_json(self) -> dict[str, Any]:
        c = self.call
        return {
            "run": c.run,
            "task_id": c.task,
            "trial": c.trial,
            "call": c.index,
            "tool": c.tool,
            "arguments": c.arguments,
            "violations": [v.to_json() for v in self.violations],
            "data_change": self.data_change,
        }


def check_all(
    calls: Iterable[Call],
    registry_of: Callable[[Call], Any],
    explained: Callable[[Call, Any], bool] = lambda _c, _v: False,
) -> tuple[int, list[Fire]]:
    """(results checked, fires): every non-error call checked by ``registry_of(call)``."""
    checked, fires = 0, []
    for c in calls:
        if c.error:
            continue
        checked += 1
        found = registry_of(c).check(c.tool, c.arguments, c.result)
        if found:
            fires.append(Fire(c, tuple(found), all(explained(c, v) for v in found)))
    return checked, fires


def _learn(rows: list[dict[str, Any]], vocabulary: str | None) -> Any:
    from harness.monitor import learn

    return learn(rows) if vocabulary is None else learn(rows, vocabulary=vocabulary)


def crossfit_arm(
    calls: Sequence[Call], seed: int = 0, vocabulary: str | None = None
) -> tuple[int, list[Fire]]:
    """Fold k learned (``learn``, its default vocabulary unless told) from the other folds' clean
    results, checks fold k's results."""
    from harness.monitor.crossfit import assign_folds

    fold = assign_folds((c.workflow for c in calls), N_FOLDS, seed)
    clean = [c for c in calls if not c.error]  # an error result is never learned as clean
    registries = {
        k: _learn([c.row() for c in clean if fold[c.workflow] != k], vocabulary)
        for k in sorted(set(fold.values()))
    }
    return check_all(calls, lambda c: registries[fold[c.workflow]])


# ------------------------------------------------------------------------------------------
# The world: its registries, its database, and what changed in it since the runs.


@dataclass
class World:
    name: str
    options: dict[str, Any]
    folds: dict[str, Any]  # the studies' protocol: {"group of run task": registry}
    fold_of: Callable[[Call], str]
    whole: Any  # sources.world_registry: every trace, shared sources merged
    database: Any  # core.plugin.Database
    reads: frozenset[str]  # the tools that change nothing (a write's result is a post-state)


def load_world(env_name: str, options: Mapping[str, Any], split: str = "test", seed: int = 0) -> World:
    """The world's registries as its runs build them. Raises ``WorldUnavailable`` (one line) without data."""
    from core.worlds import get_plugin
    from harness.monitor.sources import world_registry
    from harness.run.registries import ContractSpec, contract_parts

    try:
        plugin = get_plugin(env_name)
        env = plugin.make(**dict(options))
    except (KeyError, ValueError, TypeError) as exc:  # an unknown world, domain or option: the user's
        raise OrganicError(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)) from None
    traces = list(plugin.clean_traces(env))
    parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources), N_FOLDS, seed))
    shared, mined = parts.shared, parts.mined
    registries: dict[int, Any] = {}
    for k in range(N_FOLDS):
        reg = mined.registry(k, "mined") if mined is not None else shared
        registries[k] = reg.merged(shared) if mined is not None and shared.n_rules else reg
    tasks = env.tasks(split)

    def group(c: Call) -> str:
        if not 0 <= c.task < len(tasks):
            raise OrganicError(f"run {c.run}: task_id {c.task} is not a task of the {split} split")
        return str(tasks[c.task].group_id)

    fold = mined.crossfit.fold if mined is not None else (lambda _g: 0)
    groups = {group_id: registries[fold(group_id)] for group_id in {str(t.group_id) for t in tasks}}
    whole = world_registry(plugin, env, traces=traces)
    reads = frozenset(n for n, spec in env.tool_specs().items() if spec.category == "read")
    return World(env_name, dict(options), groups, group, whole, plugin.database(env), reads)


def key_paths(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every key path of a JSON value (``a.b``, lists as ``[*]``) with the value there (lists: None)."""
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{prefix}.{k}" if prefix else str(k)
            out[p] = v
            out.update(key_paths(v, p))
    elif isinstance(value, list):
        for v in value:
            for p, w in key_paths(v, f"{prefix}[*]").items():
                out.setdefault(p, w)
    return out


def _record_named(call: Call, records: Mapping[str, Any]) -> Any:
    for v in call.arguments.values():
        if isinstance(v, str) and isinstance(records.get(v), dict):
            return records[v]
    return None


def data_changes(calls: Sequence[Call], database: Any, reads: Iterable[str]) -> list[dict[str, Any]]:
    """Key differences between the read tools' results in the runs and the database records they name,
    held by nearly every compared record: renamed keys (same parent, same values), keys gone, keys new.
    Write tools are left out: their results are records after the write."""
    out: list[dict[str, Any]] = []
    reads = set(reads)
    for tool, places in sorted(database.bindings.items()):
        if tool not in reads:
            continue
        for collection, context in places:
            records = database.collections.get(collection)
            if context != "$" or not isinstance(records, Mapping):
                continue
            pairs = [
                (key_paths(c.result), key_paths(rec))
                for c in calls
                if c.tool == tool and not c.error and isinstance(c.result, dict)
                for rec in [_record_named(c, records)]
                if rec is not None
            ]
            if len(pairs) < MIN_COMPARED:
                continue
            only_runs = Counter(p for h, d in pairs for p in h.keys() - d.keys())
            only_db = Counter(p for h, d in pairs for p in d.keys() - h.keys())
            floor = SYSTEMATIC * len(pairs)
            old = sorted(p for p, n in only_runs.items() if n >= floor)
            new = sorted(p for p, n in only_db.items() if n >= floor)
            for o in old:
                parent = o.rpartition(".")[0]
                twin = next(
                    (
                        n
                        for n in new
                        if n.rpartition(".")[0] == parent
                        and sum(h.get(o) == d.get(n) for h, d in pairs) >= floor
                    ),
                    None,
                )
                if twin is not None:
                    new.remove(twin)
                kind = "renamed" if twin is not None else "only in the runs"
                out.append(_change(tool, collection, kind, o, twin, only_runs[o], len(pairs)))
            for n in new:
                out.append(_change(tool, collection, "only in the database", None, n, only_db[n], len(pairs)))
    return out


def _change(
    tool: str, collection: str, kind: str, old: str | None, new: str | None, n: int, of: int
) -> dict[str, Any]:
    return {"tool": tool, "collection": collection, "kind": kind, "runs": old, "database": new,
            "records": n, "compared": of}  # fmt: skip


def explainer(changes: Sequence[Mapping[str, Any]]) -> Callable[[Call, Any], bool]:
    """Whether a violation is about a key the data change touches (its tool, that path or below)."""
    touched: dict[str, set[str]] = {}
    for ch in changes:
        touched.setdefault(ch["tool"], set()).update(p for p in (ch["runs"], ch["database"]) if p)

    def explained(call: Call, violation: Any) -> bool:
        path = _plain_path(str(violation.path))
        return any(path == p or path.startswith(p + ".") for p in touched.get(call.tool, ()))

    return explained


def _plain_path(path: str) -> str:
    import re

    return re.sub(r"\[\d+\]", "[*]", path.removeprefix("$").removeprefix("."))


# ------------------------------------------------------------------------------------------
# The report.


def arm_summary(name: str, label: str, how: str, checked: int, fires: Sequence[Fire]) -> dict[str, Any]:
    changed = sum(f.data_change for f in fires)
    rest = len(fires) - changed
    return {
        "arm": name,
        "label": label,
        "how": how,
        "checked": checked,
        "fired": len(fires),
        "fire_rate_pct": 100.0 * len(fires) / checked if checked else None,
        "fired_by_data_change": changed,
        "fired_otherwise": rest,
        "fire_rate_otherwise_pct": 100.0 * rest / checked if checked else None,
        "fires": [f.to_json() for f in fires],
    }


def organic(
    path: str | os.PathLike[str],
    env_name: str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    split: str = "test",
    hint: str = "pass --file",
) -> dict[str, Any]:
    """The whole study; ``env_name`` None: the cross-fitted arms only."""
    runs = load_runs(path, hint)
    calls, unpaired = extract_calls(runs)
    errors = Counter(c.tool for c in calls if c.error)
    arms = [
        arm_summary(
            "crossfit",
            "the traffic, cross-fitted by task: learn()",
            f"{N_FOLDS} folds over task ids; fold k learned with learn(rows), the library's default for a "
            "user's recording, from the other folds' clean results",
            *crossfit_arm(calls, seed),
        ),
        arm_summary(
            "crossfit-paper",
            "the traffic, cross-fitted by task: paper vocabulary",
            "the same folds learned with learn(rows, vocabulary='paper'): the paper's rule classes, as "
            "its studies learn them",
            *crossfit_arm(calls, seed, vocabulary="paper"),
        ),
    ]
    changes: list[dict[str, Any]] = []
    world: dict[str, Any] | None = None
    if env_name is not None:
        w = load_world(env_name, options or {}, split, seed)
        changes = data_changes(calls, w.database, w.reads)
        explained = explainer(changes)
        label = f"{env_name}" + "".join(f" {v}" for _k, v in sorted(w.options.items()))
        arms.append(
            arm_summary(
                "world",
                f"{label} contracts, its runs' folds",
                f"the world's own contract sources as its runs build them ({N_FOLDS} folds of its clean traces "
                "by group, merged with its shared sources); each run checked by the fold that never saw its "
                "task's group",
                *check_all(calls, lambda c: w.folds[w.fold_of(c)], explained),
            )
        )
        arms.append(
            arm_summary(
                "world-all",
                f"{label} contracts, all its clean traces",
                "the world's own contract sources from all its clean traces (sources.world_registry)",
                *check_all(calls, lambda _c: w.whole, explained),
            )
        )
        world = {"env": env_name, "options": w.options}
    raw = Path(path).read_bytes()
    return {
        "file": str(path),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "runs": len(runs),
        "tasks": len({c.task for c in calls} | {int(r["task_id"]) for r in runs}),
        "trials": len({int(r.get("trial", 0)) for r in runs}),
        "tool_calls": len(calls),
        "unpaired": unpaired,
        "checked": sum(not c.error for c in calls),
        "tool_errors": sum(errors.values()),
        "tool_errors_by_tool": dict(errors.most_common()),
        # what learn's own status inference took for errors among the results the tools did not
        "set_aside_by_learn": _learn([c.row() for c in calls if not c.error], None).meta.get("set_aside"),
        "world": world,
        "data_changes": changes,
        "seed": seed,
        "arms": arms,
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}%"


def _witness(v: Mapping[str, Any], width: int = 60) -> str:
    text = (
        json.dumps(v["observed"], ensure_ascii=False) if not isinstance(v["observed"], str) else v["observed"]
    )
    return text if len(text) <= width else text[: width - 3] + "..."


def format_report(rep: Mapping[str, Any], paper: Mapping[str, Any] | None = None) -> str:
    """The readable table: the counts, each arm's rate, the data change, and every fire grouped."""
    lines = [
        f"Organic fire rate on published model traffic: {rep['file']} (sha256 {rep['sha256'][:12]}...)",
        f"{rep['runs']} runs ({rep['tasks']} tasks x {rep['trials']} trials), {rep['tool_calls']} tool results: "
        f"{rep['checked']} checked, {rep['tool_errors']} the tools' own `{ERROR_PREFIX} ...` answers "
        "(counted apart: never learned as clean, never checked)",
    ]
    if rep["tool_errors_by_tool"]:
        lines.append(
            "  errors by tool: " + ", ".join(f"{t} {n}" for t, n in rep["tool_errors_by_tool"].items())
        )
    aside = (rep.get("set_aside_by_learn") or {}).get("inferred") or {}
    lines.append(
        f"  learn's status inference set aside {sum(aside.values())} of the {rep['checked']} as errors"
        + (": " + ", ".join(f"{t} {n}" for t, n in aside.items()) if aside else "")
    )
    if rep["unpaired"]:
        lines.append("  not paired: " + ", ".join(f"{k} {n}" for k, n in rep["unpaired"].items()))
    w = 52
    lines += ["", f"{'monitor':<{w}} {'checked':>7} {'fired':>5} {'rate':>7}"]
    for a in rep["arms"]:
        lines.append(f"{a['label']:<{w}} {a['checked']:>7} {a['fired']:>5} {_pct(a['fire_rate_pct']):>7}")
        if a["fired_by_data_change"]:
            lines.append(
                f"{'  of which the upstream data change (below)':<{w}} {'':>7} {a['fired_by_data_change']:>5}"
            )
            lines.append(
                f"{'  the rest':<{w}} {'':>7} {a['fired_otherwise']:>5} {_pct(a['fire_rate_otherwise_pct']):>7}"
            )
    if paper is not None:
        lines.append(
            f"{'the paper (its figure, other traffic)':<{w}} {paper.get('responses') or '?':>7} {'':>5} "
            f"{_pct(paper.get('fire_rate_pct')):>7}"
        )
    lines.append("")
    lines += [f"{a['label']}: {a['how']}" for a in rep["arms"]]
    if paper is not None:
        lines.append(f"the paper: {paper.get('source', '')} (the paper's figure, not measured here)")
    if rep["data_changes"]:
        lines += [
            "",
            "Upstream data change since the runs (the runs' results against the world's current database):",
        ]
        for ch in rep["data_changes"]:
            what = {
                "renamed": f"key {ch['runs']} in the runs is {ch['database']} in the database (renamed, same values)",
                "only in the runs": f"key {ch['runs']} is in the runs, not in the database",
                "only in the database": f"key {ch['database']} is in the database, not in the runs",
            }[ch["kind"]]
            lines.append(
                f"  {ch['tool']} ({ch['collection']}): {what}; {ch['records']} of {ch['compared']} compared records. "
                "A data change after the runs, not a fault: fires it explains are marked [upstream data change]"
            )
    elif rep["world"] is not None:
        lines += ["", "No key difference between the runs' results and the world's current database records."]
    for a in rep["arms"]:
        if not a["fires"]:
            continue
        lines += ["", f"Fires of {a['label']} (x count, tool: rule, witness, task/trial):"]
        grouped: dict[tuple[str, str, str, bool], list[str]] = {}
        for f in a["fires"]:
            for v in f["violations"]:
                key = (f["tool"], v["rule_id"], _witness(v), f["data_change"])
                grouped.setdefault(key, []).append(f"{f['task_id']}/{f['trial']}")
        for (tool, rule, witness, changed), where in grouped.items():
            runs = ", ".join(where[:6]) + (f" and {len(where) - 6} more" if len(where) > 6 else "")
            tag = " [upstream data change]" if changed else ""
            lines.append(f"  x{len(where):<4} {tool}: {rule}  witness {witness}{tag}  ({runs})")
    return "\n".join(lines)
