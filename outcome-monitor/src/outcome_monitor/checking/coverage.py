"""Which parts of a tool's results a registry checks: every result path seen in clean traces, the
rules that read it, and for a path no rule reads (or only shape rules: present, typed) the reason.

Paths are generalised as mining sees them: list elements ``[*]``, the entries of a map keyed by ids
``.*`` (``detect_maps``), so ``$.variants.*.price`` is one path however many variants there are.
Leaves only (strings, numbers, booleans, nulls). Knows nothing about worlds or runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from outcome_monitor.checking.paths import ARG, ENTRIES, KEY, ROOT, parse_net
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import json_type
from outcome_monitor.learning.executions import index_executions
from outcome_monitor.learning.mapdetect import detect_maps
from outcome_monitor.registry import Registry
from outcome_monitor.thresholds import DEFAULT, Thresholds

SHAPE_CLASSES = frozenset({"required", "type"})
_FREE_TEXT_LEN = 24  # a categorical value is a word or a code; longer strings read as text


@dataclass
class PathCoverage:
    tool: str
    path: str
    results: int  # distinct clean executions whose result holds the path
    values: int  # occurrences (list elements and map entries each count)
    distinct: int
    types: list[str]
    classes: list[str] = field(default_factory=list)  # classes of the rules that read it
    reason: str = ""  # why no rule (or no value rule) reads it

    @property
    def covered(self) -> bool:
        return bool(self.classes)

    @property
    def value_rule(self) -> bool:
        return any(c not in SHAPE_CLASSES for c in self.classes)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "results": self.results,
            "values": self.values,
            "distinct": self.distinct,
            "types": self.types,
            "rules": self.classes,
            "reason": self.reason,
        }


@dataclass
class Coverage:
    paths: list[PathCoverage]
    _by_tool: dict[str, list[PathCoverage]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_tool = {}
        for p in self.paths:  # one pass: per-tool figures of many tools stay linear
            self._by_tool.setdefault(p.tool, []).append(p)

    def tools(self) -> list[str]:
        return sorted(self._by_tool)

    def of(self, tool: str | None) -> list[PathCoverage]:
        """The paths of ``tool`` (None: all)."""
        return self.paths if tool is None else self._by_tool.get(tool, [])

    def share(self, tool: str | None = None) -> float:
        """Share of result paths some rule reads."""
        ps = self.of(tool)
        return sum(p.covered for p in ps) / len(ps) if ps else 1.0

    def value_share(self, tool: str | None = None) -> float:
        """Share of result paths a rule beyond presence and type reads (sign, domain, relation ...)."""
        ps = self.of(tool)
        return sum(p.value_rule for p in ps) / len(ps) if ps else 1.0

    def summary(self) -> dict[str, Any]:
        return {
            "paths": len(self.paths),
            "covered": sum(p.covered for p in self.paths),
            "with_value_rule": sum(p.value_rule for p in self.paths),
            "share": self.share(),
            "value_share": self.value_share(),
        }

    def to_json(self, tool: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"summary": self.summary(), "tools": {}}
        for t in [tool] if tool else self.tools():
            ps = self.of(t)
            out["tools"][t] = {
                "paths": len(ps),
                "share": self.share(t),
                "value_share": self.value_share(t),
                "no_rule": [p.to_json() for p in ps if not p.covered],
                "shape_only": [p.to_json() for p in ps if p.covered and not p.value_rule],
            }
        return out

    def lines(self, tool: str | None = None) -> list[str]:
        s = self.summary()
        out = [
            f"{s['paths']} result paths: {s['covered']} read by some rule ({100 * s['share']:.1f}%), "
            f"{s['with_value_rule']} by a rule beyond presence and type ({100 * s['value_share']:.1f}%)"
        ]
        for t in [tool] if tool else self.tools():
            ps = self.of(t)
            bare = [p for p in ps if not p.covered]
            shape = [p for p in ps if p.covered and not p.value_rule]
            out.append(f"{t}: {len(ps)} paths, {len(bare)} with no rule, {len(shape)} with shape rules only")
            for p in bare:
                out.append(f"  no rule      {p.path}  ({p.reason})")
            for p in shape:
                out.append(f"  shape only   {p.path}  ({p.reason}; rules: {', '.join(p.classes)})")
        return out


def path_coverage(
    registry: Registry, traces: Iterable[Mapping[str, Any]], th: Thresholds = DEFAULT
) -> Coverage:
    """Coverage of ``registry`` over the result paths of ``traces`` (rows ``{tool, arguments,
    result[, status]}``; errors skipped), per tool."""
    out: list[PathCoverage] = []
    for tool, executions in index_executions(traces).items():
        results = [e.result for e in executions]
        maps = detect_maps(results, th)
        seen: dict[str, dict[str, Any]] = {}
        for i, res in enumerate(results):
            _leaves(res, ROOT, maps, seen, i)
        read: dict[str, set[str]] = {}
        for r in registry.rules_for(tool):
            for p in rule_paths(r):
                read.setdefault(generalise(p, maps), set()).add(r.cls)
        for path in sorted(seen):
            st = seen[path]
            classes = sorted(read.get(path, ()))
            pc = PathCoverage(
                tool,
                path,
                len(st["results"]),
                st["values"],
                len(st["distinct"]),
                sorted(st["types"]),
                classes,
            )
            if not pc.value_rule:
                pc.reason = _reason(pc, st, th)
            out.append(pc)
    return Coverage(out)


def _leaves(obj: Any, path: str, maps: Mapping[str, Any], seen: dict[str, dict[str, Any]], i: int) -> None:
    t = type(obj)
    if t is dict:
        entries = path in maps
        for k, v in obj.items():
            _leaves(v, path + ENTRIES if entries else f"{path}.{k}", maps, seen, i)
    elif t is list:
        for v in obj:
            _leaves(v, path + "[*]", maps, seen, i)
    else:
        st = seen.get(path)
        if st is None:
            st = seen[path] = {"results": set(), "values": 0, "distinct": set(), "types": set(), "text": 0}
        st["results"].add(i)
        st["values"] += 1
        st["types"].add(json_type(obj))
        if len(st["distinct"]) <= 1000:  # enough to tell a domain from an open field
            st["distinct"].add((t, obj))
        if t is str and (" " in obj.strip() and len(obj) > _FREE_TEXT_LEN or len(obj) > 2 * _FREE_TEXT_LEN):
            st["text"] += 1


def _reason(pc: PathCoverage, st: dict[str, Any], th: Thresholds) -> str:
    kinds = set(pc.types) - {"null"}
    if pc.results < th.min_presence:
        return f"too little support: {pc.results} results < {th.min_presence}"
    if len(kinds - {"integer", "number"} if {"integer", "number"} <= kinds else kinds) > 1:
        return f"no stable type: {', '.join(sorted(kinds))}"
    if kinds <= {"integer", "number"}:
        signs = {(v > 0) - (v < 0) for t, v in st["distinct"] if t in (int, float)}
        if len(signs) > 1:
            return "numbers of either sign: no sign rule"
        return "numbers: no rule admitted"
    if st["text"] * 2 >= pc.values:
        return f"free text ({pc.distinct} distinct values)"
    if pc.distinct > th.max_domain:
        return f"too many distinct values for a domain: {pc.distinct}"
    return "no rule admitted (contradicted, or too few results per value)"


_SEG = re.compile(r"\[\*\]|\.\*(?=$|[.\[])|\.[^.\[]+")


def rule_paths(r: Rule) -> list[str]:
    """The result paths (contexts and fields joined) a rule reads; arguments and keys are not paths."""
    fields = list(r.fields)
    g = r.params.get("guard")
    if g:
        fields.append(g["field"])
    out = []
    for f in fields:
        if f.startswith(ARG) or f == KEY:
            continue
        net = parse_net(f)
        if net is not None:
            lst, key, by, _, _ = net
            out += [f"{r.context}.{lst}[*].{key}", f"{r.context}.{lst}[*].{by}"]
            continue
        for fn in ("len(", "sum(", "each("):
            if f.startswith(fn) and f.endswith(")"):
                f = f[len(fn) : -1]
                break
        out.append(r.context if f == "" else f"{r.context}.{f}")
    return out


def generalise(path: str, maps: Mapping[str, Any]) -> str:
    """``$.variants.1234.price`` -> ``$.variants.*.price`` when ``$.variants`` is a map (a rule of one
    frequent key, ``options.color``, reads the map's entries too)."""
    out = ROOT
    for m in _SEG.finditer(path[len(ROOT) :]):
        seg = m.group(0)
        if out in maps and seg not in ("[*]", ENTRIES):
            seg = ENTRIES
        out += seg
    return out


__all__ = ["Coverage", "PathCoverage", "generalise", "path_coverage", "rule_paths"]
