"""Contracts derived without traces: from a JSON Schema / OpenAPI response schema, and from a
public database given as record collections.

Both produce ordinary ``Rule`` objects (``source`` = "schema" or "records"), so a registry mixes
them freely with mined ones. Knows nothing about receipts or environments.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.paths import ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.crossrecord import cross_record_rules, entry_lookups
from outcome_monitor.learning.mapdetect import detect_maps
from outcome_monitor.learning.mine import mine_tool
from outcome_monitor.registry import Registry
from outcome_monitor.thresholds import DEFAULT, Thresholds

_FORMATS = {
    "date": r"\d{4}-\d{2}-\d{2}",
    "date-time": r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?",
    "email": r"[^@\s]+@[^@\s]+\.[^@\s]+",
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
}


# ------------------------------------------------------------------------------ JSON Schema


def from_json_schema(tool: str, schema: Mapping[str, Any]) -> list[Rule]:
    """Rules a response schema states: required, types (non-required fields are nullable), enums,
    sign bounds (minimum 0 / exclusiveMinimum 0), formats and patterns; arrays of objects become
    ``[*]`` contexts. Local ``$ref`` pointers (``#/...``) are resolved against ``schema``."""
    out: list[Rule] = []
    _walk(tool, schema, schema, ROOT, "", True, out)
    return out


def registry_from_schemas(schemas: Mapping[str, Mapping[str, Any]]) -> Registry:
    return Registry(
        [r for tool, s in sorted(schemas.items()) for r in from_json_schema(tool, s)], {"source": "schema"}
    )


def _resolve(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    seen = 0
    while isinstance(node, Mapping) and "$ref" in node and seen < 20:
        ref = str(node["$ref"])
        if not ref.startswith("#/"):
            return {}
        target: Any = root
        for part in ref[2:].split("/"):
            target = (
                target.get(part.replace("~1", "/").replace("~0", "~"), {})
                if isinstance(target, Mapping)
                else {}
            )
        node, seen = target, seen + 1
    return node if isinstance(node, Mapping) else {}


def _types(node: Mapping[str, Any]) -> list[str]:
    t = node.get("type")
    types = list(t) if isinstance(t, list) else ([t] if t else [])
    for alt in node.get("anyOf", []) or node.get("oneOf", []) or []:
        if isinstance(alt, Mapping) and isinstance(alt.get("type"), str):
            types.append(alt["type"])
    if node.get("nullable"):
        types.append("null")
    return sorted(set(types))


def _walk(
    tool: str, node: Any, root: Mapping[str, Any], context: str, field: str, required: bool, out: list[Rule]
) -> None:
    node = _resolve(node, root)
    types = _types(node)
    if types:
        params: dict[str, Any] = {"types": types if required or "null" in types else sorted({*types, "null"})}
        pattern = node.get("pattern") or _FORMATS.get(str(node.get("format", "")))
        if pattern:
            params["pattern"] = pattern
        out.append(Rule(tool, "type", context, (field,), params, {}, "schema"))
    if "enum" in node and field:
        values = [v for v in node["enum"] if v is not None]
        out.append(
            Rule(
                tool,
                "domain",
                context,
                (field,),
                {"values": values, "nullable": not required or None in node["enum"]},
                {},
                "schema",
            )
        )
    lo, xlo = node.get("minimum"), node.get("exclusiveMinimum")
    if field and (
        xlo is not None
        and xlo is not True
        and xlo >= 0
        or (xlo is True and lo is not None and lo >= 0)
        or (lo is not None and lo > 0)
    ):
        out.append(Rule(tool, "positive", context, (field,), {"strict": True}, {}, "schema"))
    elif field and lo is not None and lo == 0:
        out.append(Rule(tool, "positive", context, (field,), {"strict": False}, {}, "schema"))
    prefix = f"{field}." if field else ""
    props = node.get("properties") or {}
    req = set(node.get("required") or [])
    for name, sub in props.items():
        # a field its object requires is required only where that object is (an optional ``moved``
        # holding a required ``from``: a result without ``moved`` is whole)
        if name in req and required:
            out.append(Rule(tool, "required", context, (prefix + name,), {}, {}, "schema"))
        _walk(tool, sub, root, context, prefix + name, name in req and required, out)
    items = _resolve(node.get("items"), root) if isinstance(node.get("items"), Mapping) else None
    if items and field is not None and ("object" in _types(items) or items.get("properties")):
        sub_context = f"{context}.{field}[*]" if field else f"{context}[*]"
        if field and node.get("minItems", 0) >= 1:
            out.append(Rule(tool, "positive", context, (f"len({field})",), {"strict": True}, {}, "schema"))
        _walk(tool, items, root, sub_context, "", True, out)


# ------------------------------------------------------------------------------ records


def shape_pattern(values: list[str]) -> tuple[str, str] | None:
    """A regex every value fits when all values share one shape (``#W1234567`` -> ``#W\\d{7}``).

    Shape: digits and letters abstracted to runs, other characters literal; run lengths kept
    when they never vary. Returns (pattern, example) or None.
    """
    shapes = {re.sub(r"[A-Za-z]+", "a", re.sub(r"\d+", "9", v)) for v in values}
    if len(shapes) != 1 or any(c.isspace() for c in next(iter(shapes))):
        return None
    tokens = [re.findall(r"\d+|[A-Za-z]+|[^\dA-Za-z]", v) for v in values]
    if len({len(t) for t in tokens}) != 1:
        return None
    parts = []
    for col in zip(*tokens, strict=True):
        first = col[0]
        if len(set(col)) == 1:
            parts.append(re.escape(first))
        elif first[0].isdigit():
            lengths = {len(c) for c in col}
            parts.append(rf"\d{{{lengths.pop()}}}" if len(lengths) == 1 else r"\d+")
        else:
            lengths = {len(c) for c in col}
            parts.append(rf"[A-Za-z]{{{lengths.pop()}}}" if len(lengths) == 1 else "[A-Za-z]+")
    return "".join(parts), values[0]


def from_records(collections: Mapping[str, Any], thresholds: Thresholds = DEFAULT) -> dict[str, list[Rule]]:
    """Contracts of each record collection of a public database, keyed by collection.

    A collection is a list of records or a mapping ``{id: record}`` (whose keys are then the ids).
    Rules are mined as if every record were a clean result (required, types, positive values,
    categorical domains, in-record relations such as ``sum(payments[*].amount) == total``), plus id
    formats (one shared character shape over >= 7 distinct values) and cross-record relations:
    a field whose values are all keys of another collection must stay a known key, agree with the
    record it points at, and ids must belong to their owner (``crossrecord``). Rules carry the
    placeholder tool ``@<collection>``; ``bind_records`` retargets them to a tool.
    """
    th = thresholds
    key_values: dict[str, list[Any]] = {}
    lists: dict[str, list[Mapping[str, Any]]] = {}
    by_key: dict[str, dict[str, Mapping[str, Any]]] = {}
    for name, coll in collections.items():
        if isinstance(coll, Mapping):  # {id: record}, as public databases are often shipped
            lists[name] = list(coll.values())
            key_values[name] = sorted(coll, key=str)
            by_key[name] = {str(k): r for k, r in coll.items() if isinstance(r, Mapping)}
        else:
            lists[name] = list(coll)
            k = _key_field(lists[name])
            if k:
                key_values[name] = sorted({r[k] for r in lists[name] if k in r}, key=str)
                by_key[name] = {str(r[k]): r for r in lists[name] if k in r}
    out: dict[str, list[Rule]] = {}
    # the records are the population: categorical domains up to max_domain_records values, a value
    # seen once allowed while the estimated unseen mass stays below 1 - confidence
    th_records = dataclasses.replace(
        th, max_domain=th.max_domain_records, max_unseen_mass=max(th.max_unseen_mass, 1 - th.confidence)
    )
    for name, recs in sorted(lists.items()):
        tool = f"@{name}"
        rules = mine_tool(tool, [({}, dict(rec)) for rec in recs], th_records)
        for r in rules:
            r.source = "records"
        formats = _formats(tool, recs, th)
        # a format rule replaces the plain type rule of its field
        shaped = {r.fields[0] for r in formats}
        rules = [
            r for r in rules if not (r.cls == "type" and r.context == ROOT and r.fields[0] in shaped)
        ] + formats
        refs = _references(tool, name, recs, key_values, th)
        # a field whose values are another collection's keys is checked against those keys (a
        # value domain beside it would share its rule id and say less)
        referenced = {r.fields[0] for r in refs}
        rules = [
            r for r in rules if not (r.cls == "domain" and r.context == ROOT and r.fields[0] in referenced)
        ]
        rules.extend(refs)
        rules.extend(cross_record_rules(tool, name, recs, by_key, th))
        rules.extend(entry_lookups(tool, name, recs, detect_maps(recs, th), th))
        out[name] = rules
    _widen_shared_domains(out, lists)
    return out


def _walk_values(
    obj: Any, trail: list[str], out: dict[tuple[str, ...], set[Any]], tails: set[tuple[str, str]]
) -> None:
    """The scalars of a record whose last two keys are one of ``tails``, under their key trail
    (list indices are not part of a trail). Leaves are handled inline and a trail becomes a tuple
    only on a match: a catalog has ~100k nodes and few of them are wanted."""
    t = type(obj)  # exact JSON types: an abc isinstance per node costs more than the walk
    if t is dict:
        parent = trail[-1] if trail else None
        for k, v in obj.items():
            tv = type(v)
            if tv is dict or tv is list:
                trail.append(str(k))
                _walk_values(v, trail, out, tails)
                trail.pop()
            elif (tv is str or tv is bool or tv is int) and (parent, str(k)) in tails:
                out.setdefault((*trail, str(k)), set()).add(v)
    elif t is list:
        wanted = len(trail) >= 2 and (trail[-2], trail[-1]) in tails  # a list of scalars under a wanted key
        for v in obj:
            tv = type(v)
            if tv is dict or tv is list:
                _walk_values(v, trail, out, tails)
            elif wanted and (tv is str or tv is bool or tv is int):
                out.setdefault(tuple(trail), set()).add(v)


def _widen_shared_domains(out: dict[str, list[Rule]], lists: Mapping[str, list[Mapping[str, Any]]]) -> None:
    """A categorical field named by at least two keys (``options.gender``) may take every value
    another collection holds under the same trailing keys (a catalog's ``variants.<id>.options.gender``):
    an order item can be any variant of the catalog, not only the variants earlier orders happened
    to hold. One-key fields (``status``) are never widened: a bare name says too little."""
    wanted = {
        tuple(r.fields[0].split("."))
        for rules in out.values()
        for r in rules
        if r.cls == "domain" and not r.params.get("reference") and r.fields[0].count(".") >= 1
    }
    if not wanted:
        return
    wanted_tails = {(k[-2], k[-1]) for k in wanted}
    # per collection, the trails indexed by their last two keys (every wanted key has two or more)
    tails: dict[str, dict[tuple[str, ...], list[tuple[tuple[str, ...], set[Any]]]]] = {}
    for name, recs in lists.items():
        acc: dict[tuple[str, ...], set[Any]] = {}
        for rec in recs:
            _walk_values(rec, [], acc, wanted_tails)
        by_tail: dict[tuple[str, ...], list[tuple[tuple[str, ...], set[Any]]]] = {}
        for trail, values in acc.items():
            by_tail.setdefault(trail[-2:], []).append((trail, values))
        tails[name] = by_tail
    for name, rules in out.items():
        for i, r in enumerate(rules):
            key = tuple(r.fields[0].split("."))
            if key not in wanted or r.cls != "domain" or r.params.get("reference"):
                continue
            extra: set[Any] = set()
            for other, by_tail in tails.items():
                if other != name:
                    for trail, values in by_tail.get(key[-2:], ()):
                        if trail[-len(key) :] == key:
                            extra |= values
            if extra - set(r.params["values"]):
                widened = sorted({*r.params["values"], *extra}, key=lambda v: (str(type(v)), v))
                rules[i] = Rule(
                    r.tool,
                    r.cls,
                    r.context,
                    r.fields,
                    {**r.params, "values": widened},
                    {**r.support, "widened_from": len(r.params["values"])},
                    r.source,
                )


def bind_records(rules: list[Rule], tool: str, context: str = ROOT) -> list[Rule]:
    """Copies of record rules for a tool whose result (or its elements at ``context``) is a record."""
    out = []
    for r in rules:
        ctx = r.context.replace(ROOT, context, 1) if r.context.startswith(ROOT) else r.context
        out.append(Rule(tool, r.cls, ctx, r.fields, dict(r.params), dict(r.support), r.source))
    return out


def _key_field(recs: list[Mapping[str, Any]]) -> str | None:
    if not recs:
        return None
    for k in recs[0]:
        if k == "id" or k.endswith("_id"):
            vals = [r.get(k) for r in recs]
            if all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in vals) and len(
                set(vals)
            ) == len(vals):
                return k
    return None


def _formats(tool: str, recs: list[Mapping[str, Any]], th: Thresholds) -> list[Rule]:
    out = []
    for f in sorted({k for r in recs for k in r}):
        vals = [r[f] for r in recs if f in r]
        if (
            not vals
            or not all(isinstance(v, str) and v for v in vals)
            or len(set(vals)) < th.min_distinct_sign
        ):
            continue
        shaped = shape_pattern(sorted(set(vals)))
        if shaped:
            params = {"types": ["string"], "pattern": shaped[0], "example": shaped[1]}
            out.append(Rule(tool, "type", ROOT, (f,), params, {"distinct": len(set(vals))}, "records"))
    return out


def _references(
    tool: str, name: str, recs: list[Mapping[str, Any]], key_values: Mapping[str, list[Any]], th: Thresholds
) -> list[Rule]:
    out = []
    for f in sorted({k for r in recs for k in r}):
        vals = {r[f] for r in recs if isinstance(r.get(f), (str, int)) and not isinstance(r.get(f), bool)}
        if len(vals) < th.min_distinct_sign:
            continue
        for other, keys in sorted(key_values.items()):
            if other == name:
                continue
            if vals <= set(keys):
                params = {"values": keys, "nullable": False, "reference": other}
                out.append(Rule(tool, "domain", ROOT, (f,), params, {"distinct": len(vals)}, "records"))
    return out
