"""Validity studies on any world with clean traces: incident detection, clean fire rate, propagation.

- Incident detection: each incident fault is applied (through the real ``FaultInjector``) to clean
  tool results (the world's plugin's ``clean_traces``) whose shape fits it; the cross-fitted registry of the result's workflow fold
  (learned without that workflow) checks the corrupted result. A fault counts as flagged when the
  corruption raises a violation the clean result did not (per application), and a fault is
  *detected* when at least half of its applications are flagged.
- Clean fire rate: every distinct clean tool response, checked by its fold's registry.
- Propagation: the scripted ``trusting`` policy (trusts every result) runs tasks without a planned
  fault with the fault injected; ``propagation.track_episode`` says whether a corrupted value reached later
  arguments or the finish answer, and the judge says whether the episode still passed.

Each of the first two is measured with the registries of each vocabulary asked for
(``vocabularies``: the paper's seven rule classes, ``paper``, as the studies use; the ``wide`` one,
issue 44), side by side; a miss is sorted by why (``diagnose_miss``), so a type left below
``TARGET`` is named with its reasons. Everything is seeded from ``seed``; the monitor is used
unchanged (imported, never configured here but for the vocabulary, a study option).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.protocol import ToolCall, ToolResult, ToolSpec
from core.seeding import canonical_json, rng
from harness.faults import paths as fpaths
from harness.faults.incidents import IncidentFault, Suite, load_suite
from harness.faults.inject import FaultInjector, inject_once
from harness.faults.propagation import summarise, track_episode
from harness.stream import Interposer, StreamContext

NON_TARGET_CATEGORIES = ("write", "terminal")  # implicit faults hit what the agent reads, never side effects
VOCABULARIES = ("paper", "wide")
TARGET = 0.90  # issue 44: a structured type flagged below this with the wide vocabulary is named, with why
STRING_TARGET = 0.80  # issue 44: strings in the incident suite


@dataclass
class StudyOptions:
    env: str  # a discovered world (python -m environments list) that plants its own faults
    env_seed: int = 0
    seed: int = 0
    n_folds: int = 5
    folds: tuple[int, ...] | None = None  # held-out folds to study (None = all)
    per_fault: int = 10  # clean results corrupted per incident fault
    propagation_tasks: int = 3  # trusting-policy episodes per incident fault
    max_attempts: int = 400  # candidate results tried per fault before calling it not applicable
    fault_ids: tuple[str, ...] | None = None
    vocabularies: tuple[str, ...] = ("paper",)  # the first is the report's headline (and top-level keys)
    examples: int = 0  # missed applications kept per fault, to read why
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------
# Data: clean traces, deduplicated; cross-fitted registries.


def clean_rows(env: Any) -> list[dict[str, Any]]:
    """Distinct clean tool executions of the world (per group, tool and arguments), from its plugin."""
    from core.worlds import get_plugin

    seen: set[str] = set()
    rows = []
    for r in get_plugin(env.name).clean_traces(env):
        r = {**r, "workflow_id": r.get("group_id") or r.get("workflow_id")}
        key = canonical_json([r["workflow_id"], r["tool"], r["arguments"]])
        if r.get("status", "ok") == "ok" and key not in seen:
            seen.add(key)
            rows.append(r)
    return rows


def build_registries(
    env: Any,
    rows: Sequence[Mapping[str, Any]],
    n_folds: int,
    seed: int,
    folds: Iterable[int] | None,
    vocabulary: str = "paper",
) -> tuple[dict[str, int], dict[int, Any]]:
    """``(fold of each workflow, {fold: registry})`` for the folds studied: the registries a run of this
    world checks with (its contract sources, cross-fitted; ``harness.run.registries``), not a copy."""
    from core.worlds import get_plugin
    from harness.run.registries import ContractSpec, contract_parts

    plugin = get_plugin(env.name)
    spec = ContractSpec(tuple(plugin.contract_sources), n_folds, seed, vocabulary=vocabulary)
    parts = contract_parts(plugin, env, spec)
    wanted = sorted(set(folds) if folds is not None else range(n_folds))
    registries = {}
    for k in wanted:
        mined = parts.mined.registry(k, "mined") if parts.mined is not None else None
        registries[k] = (
            parts.shared if mined is None else mined.merged(parts.shared) if parts.shared.n_rules else mined
        )
    fold = parts.mined.crossfit.fold if parts.mined is not None else (lambda _w: 0)
    assignment = {r["workflow_id"]: fold(r["workflow_id"]) for r in rows}
    return assignment, registries


# ------------------------------------------------------------------------------------------
# Applying one fault to one clean result through the injector.


def corrupt_row(
    fault: IncidentFault, row: Mapping[str, Any], specs: Mapping[str, ToolSpec], seed: int
) -> ToolResult:
    inj = FaultInjector(fault.config(), seed=seed)
    return inject_once(inj, row["tool"], row["arguments"], row["result"], specs, row["task_id"], seed)


# ------------------------------------------------------------------------------------------
# Why a faulted result drew no new violation.

REASONS = {
    "unchanged": "the fault left the result as it was: nothing in the result to observe",
    "looks_clean": "the faulted place holds what clean results of the tool hold there (the same value, a "
    "list as long, or no such field): no rule of that place alone can tell it from a clean result",
    "no_contract": "the tool has no rule in its held-out fold (its results were never learned)",
    "no_rule": "no rule reads the faulted place (a probe of another type there passes too)",
    "passes": "a rule reads the faulted place, but the faulted value satisfies it",
}
_PROBE = "\u2400probe\u2400"


class CleanIndex:
    """What the clean results of each tool hold at each place (indices dropped): values, list lengths,
    and in how many results the place exists. A faulted result that holds only what some clean result
    holds there cannot be told from a clean one by looking at it."""

    def __init__(self, rows: Iterable[Mapping[str, Any]]):
        self.seen: dict[tuple[str, str], set[str]] = {}
        self.present: dict[tuple[str, str], int] = {}
        self.results: dict[str, int] = {}
        for r in rows:
            tool = str(r["tool"])
            self.results[tool] = self.results.get(tool, 0) + 1
            places = set()
            for p, node in fpaths.walk(r["result"]):
                place = fpaths.generic(p)
                places.add(place)
                self.seen.setdefault((tool, place), set()).add(self._key(node))
            for place in places:
                self.present[tool, place] = self.present.get((tool, place), 0) + 1

    @staticmethod
    def _key(node: Any) -> str:
        if isinstance(node, list):
            return f"len {len(node)}"
        if isinstance(node, dict):
            return "an object"
        return json.dumps(node, sort_keys=True, default=str)

    def looks_clean(self, tool: str, faulted: Any, path: str) -> bool:
        place = fpaths.generic(path)
        parent = path[: path.rfind("[")] if path.endswith("]") else ""
        if parent:  # an element added (a copied record) also made its list a length clean ones never had
            try:
                holder = fpaths.get(faulted, parent)
            except (KeyError, IndexError, TypeError, ValueError):
                holder = None
            if isinstance(holder, list) and self._key(holder) not in self.seen.get(
                (tool, fpaths.generic(parent)), set()
            ):
                return False
        try:
            node = fpaths.get(faulted, path)
        except (KeyError, IndexError, TypeError, ValueError):  # the fault removed the place
            return self.present.get((tool, place), 0) < self.results.get(tool, 0)
        return self._key(node) in self.seen.get((tool, place), set())


def diagnose_miss(
    reg: Any,
    tool: str,
    arguments: Any,
    clean: Any,
    faulted: Any,
    path: str,
    clean_ids: set[str],
    index: CleanIndex | None = None,
) -> str:
    """Why ``faulted`` drew no violation ``clean`` did not (a key of ``REASONS``). Unless the faulted
    result looks like a clean one (``index``), it asks the registry again with the faulted place of
    the clean result replaced by a probe of another type: flagged, a rule reads that place and the
    faulted value passes it; not, no rule reads it."""
    if json.dumps(clean, sort_keys=True, default=str) == json.dumps(faulted, sort_keys=True, default=str):
        return "unchanged"
    if index is not None and index.looks_clean(tool, faulted, path):
        return "looks_clean"
    if not reg.rules_for(tool):
        return "no_contract"
    try:
        original = fpaths.get(clean, path)
        probe = _PROBE if isinstance(original, (dict, list)) else {_PROBE: [_PROBE]}
        probed = fpaths.set_(copy.deepcopy(clean), path, probe)
    except (KeyError, IndexError, TypeError, ValueError):
        return "no_rule"
    return (
        "passes" if any(v.rule_id not in clean_ids for v in reg.check(tool, arguments, probed)) else "no_rule"
    )


def short(value: Any, n: int = 80) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= n else text[: n - 3] + "..."


# ------------------------------------------------------------------------------------------
# Study 1: incident detection.


def incident_detection(
    suite: Suite,
    rows: Sequence[Mapping[str, Any]],
    specs: Mapping[str, ToolSpec],
    assignment: Mapping[str, int],
    registries: Mapping[int, Any],
    opts: StudyOptions,
) -> dict[str, Any]:
    candidates = [
        r
        for r in rows
        if assignment[r["workflow_id"]] in registries
        and (specs.get(r["tool"]) is None or specs[r["tool"]].category not in NON_TARGET_CATEGORIES)
    ]
    per_fault = []
    index: CleanIndex | None = None  # built at the first miss
    for fault in suite.faults:
        if opts.fault_ids and fault.id not in opts.fault_ids:
            continue
        order = list(range(len(candidates)))
        rng(opts.seed, "validity-rows", fault.id).shuffle(order)
        applied = flagged = covered = covered_flagged = 0
        classes: dict[str, int] = {}
        reasons: dict[str, int] = {}
        examples: list[dict[str, Any]] = []
        for attempt, i in enumerate(order):
            if applied >= opts.per_fault or attempt >= opts.max_attempts:
                break
            row = candidates[i]
            res = corrupt_row(fault, row, specs, opts.seed)
            if "injected_fault" not in res.meta:
                continue  # this result's shape does not fit the fault
            applied += 1
            reg = registries[assignment[row["workflow_id"]]]
            has_contract = bool(reg.rules_for(row["tool"]))
            covered += has_contract
            before = {v.rule_id for v in reg.check(row["tool"], row["arguments"], row["result"])}
            new = [
                v for v in reg.check(row["tool"], row["arguments"], res.content) if v.rule_id not in before
            ]
            if new:
                flagged += 1
                covered_flagged += has_contract
                for v in new:
                    classes[v.rule_class] = classes.get(v.rule_class, 0) + 1
            else:
                label = res.meta["injected_fault"]
                index = index or CleanIndex(rows)
                why = diagnose_miss(
                    reg,
                    row["tool"],
                    row["arguments"],
                    row["result"],
                    res.content,
                    label["path"],
                    before,
                    index,
                )
                reasons[why] = reasons.get(why, 0) + 1
                if len(examples) < opts.examples:
                    examples.append(
                        {
                            "tool": row["tool"],
                            "path": label["path"],
                            "clean": short(label.get("original")),
                            "faulted": short(label.get("corrupted")),
                            "reason": why,
                        }
                    )
        per_fault.append(
            {
                "id": fault.id,
                "type": fault.type,
                "kind": fault.kind,
                "fault_class": fault.fault_class,
                "applied": applied,
                "flagged": flagged,
                "flag_rate": flagged / applied if applied else None,
                "detected": bool(applied) and flagged / applied >= 0.5,
                # the same, restricted to targets whose tool has at least one learned contract in its fold
                "applied_covered": covered,
                "flagged_covered": covered_flagged,
                "detected_covered": bool(covered) and covered_flagged / covered >= 0.5,
                "violated_rule_classes": dict(sorted(classes.items())),
                "missed_by_reason": dict(sorted(reasons.items())),
                "missed_examples": examples,
            }
        )
    return {"faults": per_fault, "summary": _detection_summary(per_fault)}


def _share(rows: list[dict[str, Any]], suffix: str = "") -> dict[str, Any]:
    rows = [r for r in rows if r["applied" + suffix]]
    apps = sum(r["applied" + suffix] for r in rows)
    fl = sum(r["flagged" + suffix] for r in rows)
    det = sum(1 for r in rows if r["detected" + suffix])
    return {
        "faults": len(rows),
        "detected": det,
        "detected_pct": 100.0 * det / len(rows) if rows else None,
        "applications": apps,
        "flagged": fl,
        "flagged_pct": 100.0 * fl / apps if apps else None,
    }


def _detection_summary(per_fault: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in per_fault if r["applied"]]
    by_type = {}
    for t in sorted({r["type"] for r in ok}):
        by_type[t] = _share([r for r in ok if r["type"] == t])
    return {
        "overall": _share(ok),
        "structured": _share([r for r in ok if r["kind"] == "structured"]),
        "string": _share([r for r in ok if r["kind"] == "string"]),
        "by_type": by_type,
        "covered": {
            "overall": _share(ok, "_covered"),
            "structured": _share([r for r in ok if r["kind"] == "structured"], "_covered"),
            "string": _share([r for r in ok if r["kind"] == "string"], "_covered"),
        },
        "not_applicable": [r["id"] for r in per_fault if not r["applied"]],
    }


# ------------------------------------------------------------------------------------------
# Study 2: clean fire rate.


def clean_fire_rate(
    rows: Sequence[Mapping[str, Any]], assignment: Mapping[str, int], registries: Mapping[int, Any]
) -> dict[str, Any]:
    n = fired = 0
    by_tool: dict[str, int] = {}
    for r in rows:
        k = assignment[r["workflow_id"]]
        if k not in registries:
            continue
        n += 1
        if registries[k].check(r["tool"], r["arguments"], r["result"]):
            fired += 1
            by_tool[r["tool"]] = by_tool.get(r["tool"], 0) + 1
    return {
        "responses": n,
        "fired": fired,
        "fire_rate_pct": 100.0 * fired / n if n else None,
        "tools_with_fires": len(by_tool),
    }


# ------------------------------------------------------------------------------------------
# Study 3: propagation under the trusting policy.


class _Recorder:
    """The last interposer of a propagation episode: keeps every (call, result) the agent received."""

    def __init__(self) -> None:
        self.history: list[tuple[ToolCall, ToolResult]] = []

    def __call__(self, call: ToolCall, result: ToolResult, ctx: StreamContext) -> ToolResult:
        self.history.append((call, result))
        return result


PROPAGATION_POLICY = "trusting"  # the scripted policy that trusts every result (harness.agents.policies)


def propagation(suite: Suite, env: Any, workflows: Sequence[str], opts: StudyOptions) -> dict[str, Any]:
    """Episodes of the trusting scripted policy on clean tasks with one fault injected each."""
    from core.worlds import get_plugin
    from harness.run.grid import run_policy_episode

    plugin = get_plugin(env.name)
    clean: dict[str, str] = {}
    for t in env.tasks():
        planned = plugin.planned_fault(env, t)
        if planned is None or planned.fault_kind == "none":
            clean.setdefault(t.group_id, t.task_id)
    pool = sorted(w for w in workflows if w in clean)
    rows = []
    for fault in suite.faults:
        if opts.fault_ids and fault.id not in opts.fault_ids:
            continue
        cfg = fault.config()
        cfg["target"] = {**cfg["target"], "exclude_categories": list(NON_TARGET_CATEGORIES)}
        picks = rng(opts.seed, "validity-propagation", fault.id).sample(
            pool, k=min(opts.propagation_tasks, len(pool))
        )
        for wid in picks:
            recorder = _Recorder()
            chain: list[Interposer] = [FaultInjector(cfg, seed=opts.seed), recorder]
            try:
                _, outcome = run_policy_episode(
                    PROPAGATION_POLICY, env, clean[wid], seed=opts.seed, interposers=chain
                )
                success, crashed = bool(outcome.success), False
            except Exception:  # the policy may choke on a corrupted shape; that episode fails
                success, crashed = False, True
            row = track_episode(recorder.history, terminal_tool=env.task(clean[wid]).terminal_tool)
            if row["n_injected"] == 0:
                continue  # the fault found no fitting result in this episode: not a hit
            rows.append(
                {
                    "fault": fault.id,
                    "kind": fault.kind,
                    "workflow_id": wid,
                    "success": success,
                    "crashed": crashed,
                    **{k: row[k] for k in ("trackable", "propagated", "to_arguments", "to_answer")},
                }
            )
    return {
        "summary": {**summarise(rows), "hit_episodes": len(rows), "crashed": sum(r["crashed"] for r in rows)},
        "episodes": rows,
    }


# ------------------------------------------------------------------------------------------
# The whole study.


def make_world(name: str, seed: int) -> Any:
    """The world, with ``seed`` passed only to a world whose ``make`` takes one."""
    import inspect

    from core.worlds import get_plugin

    plugin = get_plugin(name)
    if "seed" in inspect.signature(plugin.make).parameters:
        return plugin.make(seed=seed)
    if seed:
        raise ValueError(f"environment {name!r} takes no seed (its make() has no 'seed'); drop --env-seed")
    return plugin.make()


def run_validity(opts: StudyOptions) -> dict[str, Any]:
    unknown = [v for v in opts.vocabularies if v not in VOCABULARIES]
    if unknown or not opts.vocabularies:
        raise ValueError(f"unknown vocabulary {', '.join(unknown) or '(none)'} (paper, wide or both)")
    env = make_world(opts.env, opts.env_seed)
    suite = load_suite()
    specs = env.tool_specs()
    rows = clean_rows(env)
    by_vocabulary: dict[str, dict[str, Any]] = {}
    for vocab in opts.vocabularies:
        assignment, registries = build_registries(
            env, rows, opts.n_folds, opts.seed, opts.folds, vocabulary=vocab
        )
        by_vocabulary[vocab] = {
            "incident_detection": incident_detection(suite, rows, specs, assignment, registries, opts),
            "clean": clean_fire_rate(rows, assignment, registries),
        }
    held_out = sorted(w for w, k in assignment.items() if k in registries)
    head = by_vocabulary[opts.vocabularies[0]]
    return {
        "env": opts.env,
        "seed": opts.seed,
        "folds": sorted(registries),
        "n_folds": opts.n_folds,
        "vocabulary": opts.vocabularies[0],
        "incident_detection": head["incident_detection"],
        "clean": head["clean"],
        "by_vocabulary": by_vocabulary,
        # the trusting policy sees no monitor: one measurement serves every vocabulary
        "propagation": propagation(suite, env, held_out, opts),
    }


def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{x:5.1f}%"


def format_report(rep: dict[str, Any], paper: Mapping[str, Any] | None = None) -> str:
    s = rep["incident_detection"]["summary"]
    lines = [
        f"Validity study on {rep['env']} (seed {rep['seed']}, folds {rep['folds']} of {rep['n_folds']})",
        "",
        f"{'Incident detection (' + rep.get('vocabulary', 'paper') + ' vocabulary)':<43}"
        "faults  detected        applications  flagged",
    ]
    for name in ("overall", "structured", "string"):
        r = s[name]
        lines.append(
            f"  {name:<38}  {r['faults']:>6}  {r['detected']:>4} {_pct(r['detected_pct'])}"
            f"  {r['applications']:>12}  {r['flagged']:>5} {_pct(r['flagged_pct'])}"
        )
    lines.append("  by type:")
    for t, r in s["by_type"].items():
        lines.append(
            f"    {t:<36}  {r['faults']:>6}  {r['detected']:>4} {_pct(r['detected_pct'])}"
            f"  {r['applications']:>12}  {r['flagged']:>5} {_pct(r['flagged_pct'])}"
        )
    lines.append("  only targets whose tool has a learned contract in its fold:")
    for name in ("overall", "structured", "string"):
        r = s["covered"][name]
        lines.append(
            f"    {name:<36}  {r['faults']:>6}  {r['detected']:>4} {_pct(r['detected_pct'])}"
            f"  {r['applications']:>12}  {r['flagged']:>5} {_pct(r['flagged_pct'])}"
        )
    if s["not_applicable"]:
        lines.append(f"  not applicable on this environment: {', '.join(s['not_applicable'])}")
    c = rep["clean"]
    lines += [
        "",
        f"Clean fire rate: {c['fired']} of {c['responses']} clean responses ({_pct(c['fire_rate_pct']).strip()}),"
        f" {c['tools_with_fires']} tools",
    ]
    if len(rep.get("by_vocabulary", {})) > 1:
        lines += ["", *compare_lines(rep["by_vocabulary"])]
    if "wide" in rep.get("by_vocabulary", {}):
        lines += ["", *below_target_lines(rep["by_vocabulary"]["wide"]["incident_detection"])]
    p = rep["propagation"]["summary"]
    lines += [
        "",
        f"Propagation (trusting policy): {p['hit_episodes']} hit episodes, {p['trackable']} trackable,"
        f" {p['propagated']} propagated ({_pct(p['propagated_pct']).strip()}),"
        f" {p['propagated_and_passed']} of those passed ({_pct(p['propagated_passed_pct']).strip()}),"
        f" {p['crashed']} policy crashes",
    ]
    if paper:
        st, sg = paper.get("structured_value_violations", {}), paper.get("plausible_string_corruption", {})
        lines += [
            "",
            f"Paper (arXiv:2608.19303): flagged {paper.get('flagged_pct_flash_pro')}%, structured "
            f"{st.get('detected')}/{st.get('total')}, strings {sg.get('detected')}/{sg.get('total')}; "
            f"propagation: {paper.get('propagation')}",
        ]
    return "\n".join(lines)


def _cell(r: Mapping[str, Any]) -> str:
    return f"{r['flagged']}/{r['applications']} = {_pct(r['flagged_pct']).strip()}"


def compare_lines(by_vocabulary: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The applications flagged per incident type, one column per vocabulary; the clean fire rates."""
    vocabs = list(by_vocabulary)
    sums = {v: by_vocabulary[v]["incident_detection"]["summary"] for v in vocabs}
    lines = ["Applications flagged, side by side" + "".join(f"  {v + ' vocabulary':>22}" for v in vocabs)]
    for name in ("overall", "structured", "string"):
        lines.append(f"  {name:<32}" + "".join(f"  {_cell(sums[v][name]):>22}" for v in vocabs))
    types = sorted({t for v in vocabs for t in sums[v]["by_type"]})
    for t in types:
        cells = "".join(
            f"  {_cell(sums[v]['by_type'][t]) if t in sums[v]['by_type'] else 'n/a':>22}" for v in vocabs
        )
        lines.append(f"    {t:<30}{cells}")
    cells = ""
    for v in vocabs:
        c = by_vocabulary[v]["clean"]
        cell = f"{c['fired']}/{c['responses']} = {_pct(c['fire_rate_pct']).strip()}"
        cells += f"  {cell:>22}"
    lines.append(f"  {'clean fire (held-out responses)':<32}{cells}")
    return lines


def below_target_lines(detection: Mapping[str, Any]) -> list[str]:
    """With the wide vocabulary: each structured type below ``TARGET`` flagged (and strings below
    ``STRING_TARGET``), its faults below target and why their misses were missed."""
    s = detection["summary"]
    faults = [f for f in detection["faults"] if f["applied"]]
    lines = []
    for t, r in s["by_type"].items():
        of_type = [f for f in faults if f["type"] == t and f["kind"] == "structured"]
        if not of_type or r["flagged_pct"] is None:
            continue
        apps = sum(f["applied"] for f in of_type)
        flagged = sum(f["flagged"] for f in of_type)
        if flagged >= TARGET * apps:
            continue
        lines.append(f"  {t} (structured faults): {flagged}/{apps} flagged; missed:")
        lines += _why(of_type)
    st = s["string"]
    if st["applications"] and st["flagged"] < STRING_TARGET * st["applications"]:
        lines.append(
            f"  strings: {st['flagged']}/{st['applications']} flagged (target {STRING_TARGET:.0%}); missed:"
        )
        lines += _why([f for f in faults if f["kind"] == "string"])
    head = f"Below {TARGET:.0%} flagged with the wide vocabulary (structured types; strings below {STRING_TARGET:.0%}):"
    return (
        [head, *lines]
        if lines
        else [f"Every structured type flagged at >= {TARGET:.0%} with the wide vocabulary"]
    )


def _why(faults: list[dict[str, Any]]) -> list[str]:
    reasons: dict[str, int] = {}
    for f in faults:
        for k, n in f.get("missed_by_reason", {}).items():
            reasons[k] = reasons.get(k, 0) + n
    lines = [f"      {n:>4}  {REASONS[k]}" for k, n in sorted(reasons.items(), key=lambda kv: -kv[1])]
    for f in faults:
        if f["flagged"] < f["applied"]:
            lines.append(f"    {f['id']} ({f['fault_class']}): {f['flagged']}/{f['applied']}")
            for e in f.get("missed_examples", []):
                lines.append(
                    f"      e.g. {e['tool']} {e['path']}: {e['clean']} -> {e['faulted']} ({e['reason']})"
                )
    return lines
