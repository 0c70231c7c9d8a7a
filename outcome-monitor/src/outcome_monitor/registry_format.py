"""The registry file a user keeps: its format version, its JSON Schema (``registry.schema.json``,
shipped in the package), reading a file of this or an older version (or refusing it in one line),
and ``explain``'s words for each rule.

A registry file is ``{"format_version", "kind", "meta", "n_rules", "tools": {tool: [rule, ...]}}``;
docs/monitor/registry-format.md describes every field. Version 1 is the only one so far: a change
to the file's layout, or to how a rule's id is made, is a new version, and the versions before it
stay readable (``_UPGRADES``). Knows nothing about checking.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from outcome_monitor._version import __version__
from outcome_monitor.checking.rules import PRIORITY, RULE_CLASSES, Rule

if TYPE_CHECKING:
    from outcome_monitor.registry import Registry

FORMAT_VERSION = 1
KIND = "outcome-monitor-registry"
SCHEMA_FILE = "registry.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a registry file of ``FORMAT_VERSION``."""
    text = resources.files("outcome_monitor").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


# ------------------------------------------------------------------------------ versions


def _v1(obj: dict[str, Any]) -> dict[str, Any]:
    return obj


# version -> a function turning a file of that version into one of FORMAT_VERSION
_UPGRADES = {1: _v1}


def version_problem(obj: Mapping[str, Any]) -> str | None:
    """Why a registry of this format version cannot be read, in words that say what to do, or None."""
    version = obj.get("format_version")
    if version is None:
        return "has no format_version: it is not a registry written by outcome-monitor"
    if type(version) is int and version in _UPGRADES:
        return None
    reads = ", ".join(map(str, sorted(_UPGRADES)))
    if type(version) is int and version > FORMAT_VERSION:
        return (
            f"has format_version {version}, written by a newer outcome-monitor: this one ({__version__}) "
            f"reads version {reads}; upgrade it (pip install -U outcome-monitor) or learn the registry again"
        )
    return (
        f"has format_version {version!r}, which this outcome-monitor ({__version__}) cannot read "
        f"(it reads version {reads}); learn the registry again (outcome-monitor learn)"
    )


# ------------------------------------------------------------------------------ reading, writing


def write(registry: Registry) -> dict[str, Any]:
    """The registry as the JSON object of a registry file."""
    return {
        "format_version": FORMAT_VERSION,
        "kind": KIND,
        "meta": registry.meta,
        "n_rules": registry.n_rules,
        "tools": {t: [r.to_json() for r in registry.rules[t]] for t in registry.tools()},
    }


def read(obj: Mapping[str, Any]) -> tuple[list[Rule], dict[str, Any]]:
    """(rules, meta) of a registry file's JSON object, of this format version or an older one.

    Raises ``ValueError`` with one line: another version (``unsupported registry format_version
    ...``, what to do), another kind of file, or a rule that is not one (which, where)."""
    if not isinstance(obj, Mapping):
        raise ValueError("a registry is a JSON object with format_version, kind and tools")
    problem = version_problem(obj)
    if problem is not None:
        raise ValueError(f"unsupported registry format_version: the file {problem}")
    if obj.get("kind") not in (None, KIND):
        raise ValueError(f"a {obj.get('kind')!r} file, not a registry")
    obj = _UPGRADES[obj["format_version"]](dict(obj))
    tools, meta = obj.get("tools", {}), obj.get("meta", {})
    if not isinstance(tools, Mapping) or not isinstance(meta, Mapping):
        raise ValueError("'tools' and 'meta' must be JSON objects")
    rules = []
    for tool, rs in tools.items():
        if not isinstance(rs, list):
            raise ValueError(f"the rules of tool {tool!r} are not a list")
        for i, r in enumerate(rs):
            if not _is_rule(r):
                raise ValueError(f"rule {i} of tool {tool!r} {_rule_problem(r)}")
            rules.append(Rule.from_json(r))
    return rules, _viewed_by_id(rules, dict(meta))


_CLASSES = frozenset(RULE_CLASSES)


def _is_rule(r: Any) -> bool:
    """Whether ``r`` has what checking reads from a rule: one expression, cheap beside building the
    rule (``_rule_problem`` says what is wrong only once something is)."""
    return (
        isinstance(r, dict)
        and type(r.get("tool")) is str
        and type(r.get("context")) is str
        and r.get("class") in _CLASSES
        and type(fields := r.get("fields")) is list
        and 0 < len(fields) == sum(type(f) is str for f in fields)
        and isinstance(r.get("params", {}), dict)
        and isinstance(r.get("support", {}), dict)
    )


def _rule_problem(r: Any) -> str:
    """What makes ``r`` not a rule, in words (the checks that keep a bad file from failing later,
    mid-check)."""
    if not isinstance(r, dict):
        return "is not a JSON object"
    for key, kind in (("tool", str), ("class", str), ("context", str), ("fields", list)):
        if not isinstance(r.get(key), kind):
            return f"has no {key!r} ({'text' if kind is str else 'a list'})"
    if r["class"] not in RULE_CLASSES:
        return f"has the unknown class {r['class']!r}"
    if not r["fields"] or not all(isinstance(f, str) for f in r["fields"]):
        return "has fields that are not a list of names"
    for key in ("params", "support"):
        if not isinstance(r.get(key, {}), dict):
            return f"has {key!r} that is not a JSON object"
    return "is not a rule"


def _viewed_by_id(rules: list[Rule], meta: dict[str, Any]) -> dict[str, Any]:
    """``meta["viewed_rules"]`` naming each rule by its id. Files written before collection and
    lookup ids carried their selectors (``unique(id)``) name such a rule by its bare id, which
    then named each rule of that form on that field: each of them is the rule meant."""
    viewed = meta.get("viewed_rules")
    if not viewed:
        return meta
    named = set(viewed)
    # only a collection or relation rule's id carries selectors (checking/rules.py)
    missing = {
        r.rule_id
        for r in rules
        if r.cls in ("collection", "relation") and r.rule_id not in named and _bare_id(r) in named
    }
    if missing:
        meta["viewed_rules"] = sorted(named | missing)
    return meta


def _bare_id(r: Rule) -> str:
    form = r.params.get("form", "")
    tail = f":{form}" if form else ""
    return f"{r.tool}:{r.cls}{tail}:{r.context}:{'|'.join(r.fields)}"


# ------------------------------------------------------------------------------ explain


# the support counts in words (a rule's evidence), in the order learning writes them
_SUPPORT_WORDS = {
    "n": "seen {} times",
    "distinct": "{} distinct values",
    "points": "{} data points",
    "pooled_n": "{} values pooled over tools with this field",
    "pooled_tools": "from {} tools",
    "pooled_distinct": "{} distinct values pooled over tools",
    "known_set": "completed to the {} values of a known set",
    "widened_from": "widened from {} values",
}
_SOURCE_WORDS = {
    "traces": "learned from clean traces",
    "schema": "declared by the tool's output schema",
    "records": "mined from the database's records",
}


def support_words(support: Mapping[str, Any]) -> str:
    """``seen 120 times, 87 distinct values`` (empty where the rule was declared, not counted)."""
    words = []
    for k, v in support.items():
        if k == "pooled_n" and "pooled_tools" in support:
            words.append(f"{v} values pooled over {support['pooled_tools']} tools with this field")
        elif k != "pooled_tools" or "pooled_n" not in support:
            words.append(_SUPPORT_WORDS.get(k, k.replace("_", " ") + " {}").format(v))
    return ", ".join(words)


def source_words(source: str) -> str:
    """``learned from clean traces and declared by the tool's output schema`` for ``traces+schema``."""
    return " and ".join(_SOURCE_WORDS.get(s, f"from {s}") for s in source.split("+"))


def rule_line(r: Rule, viewed: bool = False) -> str:
    """One rule in words: the tool, the rule's sentence (naming its field), its class, where it
    comes from, its support and its id. ``viewed``: the rule reads the result through its tool's
    view (text read as fields), which the line says."""
    support = support_words(r.support)
    origin = source_words(r.source) + (f" ({support})" if support else "")
    if viewed:
        origin += ", on the result as its view reads it"
    article = "An" if r.cls[0] in "aeiou" else "A"
    line = f"{r.tool}: {r.sentence(plain=True)}. {article} {r.cls.replace('_', '-')} rule {origin}; id {r.rule_id}"
    # a learned example can span lines (the shape of a whole text result): one rule, one line
    return line.translate(_ONE_LINE)


_ONE_LINE = str.maketrans({"\n": "\\n", "\r": "\\r", "\t": "\\t"})


def explain_lines(registry: Registry, tool: str | None = None) -> list[str]:
    """Per tool a heading (``get_order (12 rules)``), then one ``rule_line`` per rule, most basic
    class first."""
    viewed = set(registry.meta.get("viewed_rules") or ())
    lines = []
    for t in [tool] if tool else registry.tools():
        rs = registry.rules.get(t, [])
        lines.append(f"{t} ({len(rs)} rules)")
        for r in sorted(rs, key=lambda r: (PRIORITY[r.cls], r.rule_id)):
            lines.append("  " + rule_line(r, r.rule_id in viewed))
    return lines


__all__ = [
    "FORMAT_VERSION",
    "KIND",
    "explain_lines",
    "read",
    "rule_line",
    "schema",
    "source_words",
    "support_words",
    "version_problem",
    "write",
]
