"""The wider vocabulary: learning from a user's recording that real traffic cannot fool, and the rule
classes past the paper's seven.

``learn(rows)`` (the default, ``vocabulary="wide"``) runs ``learn_wide``:

1. errors set aside by one status inference (``status.split_clean``), counted per tool;
2. views learned per tool (``views``: numbers, booleans, JSON, Python literals, tables and ``key:
   value`` lines read out of text; content blocks and rows by position) and applied;
3. the paper's classes mined per tool (``admit(per_tool=True)``: one tool's clean results never
   erase another's rule) with the recording's support bound on domains;
4. domains mended: a field that never varied and reads like an identifier is a constant only with
   the support an unseen value would need (the rule of succession: 1 / (n + 1) below 1 -
   confidence); a word of a vocabulary (``cancelled``, ``image/png``) keeps the usual support; a domain inside a
   well-known set (weekdays, months) becomes that set (a clock that moved two days is not a fault);
5. rules of the new classes: ``text`` on every text field (not an HTML page or an error, not empty),
   ``shape`` (a pattern per string field, kept only where held-out values match; no placeholder
   where no clean value was one) and ``collection`` (sizes, kept entries, echoed members).

The paper's studies keep ``vocabulary="paper"`` (the seven classes, registries pinned by hash).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from harness.monitor.executions import Execution, index_executions
from harness.monitor.paths import ARG, KEY, ROOT
from harness.monitor.rules import Rule
from harness.monitor.status import split_clean
from harness.monitor.text import text_contracts, text_kinds
from harness.monitor.thresholds import DEFAULT, Thresholds
from harness.monitor.values import json_type
from harness.monitor.views import View, apply_view, infer_root_view

VOCABULARIES = ("paper", "wide")

# sets every user knows whole: a sample of a few of them is the set, not a closed domain of those few
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
KNOWN_SETS: tuple[tuple[str, ...], ...] = (
    _WEEKDAYS,
    tuple(d[:3] for d in _WEEKDAYS),
    _MONTHS,
    tuple(m[:3] for m in _MONTHS),
)
MIN_TEXT_EMPTY = 14  # "never empty" asks twice the usual evidence: an empty note is a common legitimate value


def constant_floor(th: Thresholds) -> int:
    """Distinct executions a one-value domain needs: an unseen value's chance after n identical ones
    is 1 / (n + 1) (Laplace's rule of succession), which must fall below 1 - confidence."""
    return math.ceil(1 / (1 - th.confidence))


_WORDLIKE = re.compile(r"^(?:[a-z][a-z0-9_ ./+-]{0,39}|[A-Z]{1,4}|[A-Z][a-z]+(?: [A-Za-z]+)*)$")


def id_like(value: Any) -> bool:
    """A constant that reads like an identifier (``HATHAT``, ``W0100123``, a hash) rather than a word
    of a vocabulary (``cancelled``, ``image/png``, ``USD``, ``Economy``): seen constant in a sample,
    an identifier says only that the sample asked about one thing."""
    if type(value) is not str:
        return False
    return not _WORDLIKE.match(value) or any(c.isdigit() for c in value) and not value.islower()


def known_set(values: list[Any]) -> list[str] | None:
    """The well-known set ``values`` are drawn from, written as they are (case kept), or None."""
    if not values or not all(type(v) is str for v in values):
        return None
    for whole in KNOWN_SETS:
        for style in (str, str.lower, str.upper):
            written = [style(x) for x in whole]
            if set(values) <= set(written):
                return written
    return None


def learn_wide(
    traces: Iterable[Mapping[str, Any]], th: Thresholds = DEFAULT
) -> tuple[list[Rule], dict[str, Any]]:
    """The wide vocabulary's rules of a recording, and what ``Registry.meta`` keeps of it (views,
    rows set aside, domains held back)."""
    from harness.monitor.admit import admit
    from harness.monitor.collect import collect
    from harness.monitor.executions import gc_paused

    split = split_clean(traces)
    results: dict[str, list[Any]] = {}
    for r in split.clean:
        results.setdefault(str(r["tool"]), []).append(r.get("result"))
    views: dict[str, View] = {}
    for tool, rs in results.items():
        v = infer_root_view(rs)
        if v is not None:
            views[tool] = v
    rows = [
        {**r, "result": apply_view(views[str(r["tool"])], r.get("result"))} if str(r["tool"]) in views else r
        for r in split.clean
    ]
    index = index_executions(rows)
    held_back: list[dict[str, Any]] = []
    with gc_paused():
        rules = admit([collect(tool, ex, th=th) for tool, ex in index.items()], th, held_back, per_tool=True)
    rules = _mend_domains(rules, th, held_back)
    for tool, ex in index.items():
        rules.extend(_text_rules(tool, ex, th))
        rules.extend(_collection_rules(tool, ex, th))
    meta: dict[str, Any] = {
        "source": "traces",
        "vocabulary": "wide",
        "n_executions": sum(len(v) for v in index.values()),
        "thresholds": th.to_json(),
    }
    if views:
        meta["views"] = views
    if split.flagged or split.inferred:
        meta["set_aside"] = split.to_json()
    if held_back:
        meta["held_back"] = held_back
    return rules, meta


def _mend_domains(rules: list[Rule], th: Thresholds, held_back: list[dict[str, Any]]) -> list[Rule]:
    out = []
    floor = constant_floor(th)
    for r in rules:
        if r.cls != "domain" or r.params.get("reference"):
            out.append(r)
            continue
        values = r.params["values"]
        whole = known_set(values)
        if whole is not None:
            out.append(
                Rule(
                    r.tool,
                    r.cls,
                    r.context,
                    r.fields,
                    {**r.params, "values": whole},
                    {**r.support, "known_set": len(whole)},
                    r.source,
                )
            )
            continue
        if len(values) == 1 and id_like(values[0]) and r.support.get("n", 0) < floor:
            held_back.append(
                {
                    "tool": r.tool,
                    "rule": f"domain {r.path}",
                    "values": 1,
                    "n": r.support.get("n", 0),
                    "reason": f"a constant identifier needs {floor} executions (one unseen value in n + 1)",
                }
            )
            # the type rule the domain had suppressed speaks for the field again
            types = [json_type(values[0])] + (
                ["null"] if r.params.get("nullable") and values[0] is not None else []
            )
            out.append(
                Rule(
                    r.tool,
                    "type",
                    r.context,
                    r.fields,
                    {"types": sorted(set(types))},
                    {"n": r.support.get("n", 0)},
                    r.source,
                )
            )
            continue
        out.append(r)
    return out


def _string_columns(executions: list[Execution]) -> dict[tuple[str, str], list[str]]:
    """(context, field) -> the string values of every field that only ever held strings."""
    cols: dict[tuple[str, str], list[Any]] = {}
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if f.startswith((ARG, "#")) or f == KEY or "(" in f:
                        continue
                    if f == "" and context != ROOT and type(v) is not str:
                        continue
                    cols.setdefault((context, f), []).append(v)
    out: dict[tuple[str, str], list[str]] = {}
    for key, vs in cols.items():
        strings = [v for v in vs if type(v) is str]
        if key == (ROOT, ""):
            # the result itself: text rules for its text answers, when most answers are text
            if len(strings) * 2 >= len(vs):
                out[key] = strings
        elif strings and len(strings) == len([v for v in vs if v is not None]):
            out[key] = strings
    return out


def _text_rules(tool: str, executions: list[Execution], th: Thresholds) -> list[Rule]:
    from harness.monitor.shapes import infer_shape, no_placeholder_params

    rules = []
    for (context, f), values in sorted(_string_columns(executions).items()):
        distinct = list(dict.fromkeys(values))
        if len(distinct) < th.min_presence:
            continue
        support = {"n": len(values), "distinct": len(distinct)}
        shape = infer_shape(distinct)
        if shape is not None:
            rules.append(Rule(tool, "shape", context, (f,), shape, support))
        placeholder = no_placeholder_params(distinct, th.min_presence)
        if placeholder is not None:
            rules.append(Rule(tool, "shape", context, (f,), placeholder, support))
        if shape is not None:
            continue  # a pattern already says what an error page or an empty value is not
        if (context, f) == (ROOT, ""):
            params_list = text_contracts(distinct, th.min_presence)
        else:
            seen = set().union(*(text_kinds(t) for t in distinct))
            params_list = [
                {"form": f"not_{kind}", "not": kind}
                for kind in ("html", "error", "empty")
                if kind not in seen and (kind != "empty" or len(values) >= MIN_TEXT_EMPTY)
            ]
        for params in params_list:
            rules.append(Rule(tool, "text", context, (f,), params, support))
    return rules


def _collection_rules(tool: str, executions: list[Execution], th: Thresholds) -> list[Rule]:
    return [
        Rule(tool, "collection", context, (f,), params, support)
        for context, f, params, support in mine_collections(executions, th)
    ]


def _values_at(executions: Iterable[Execution]) -> dict[tuple[str, str], list[tuple[Any, dict[str, Any]]]]:
    """(context, field) -> [(value, arguments)] for every list or object field of every element."""
    out: dict[tuple[str, str], list[tuple[Any, dict[str, Any]]]] = {}
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if type(v) in (list, dict) and f and not f.startswith(("#", ARG)) and "(" not in f:
                        out.setdefault((context, f), []).append((v, ex.args))
                whole = row.get("")
                if context == ROOT and type(whole) in (list, dict):
                    out.setdefault((context, ""), []).append((whole, ex.args))
    return out


def mine_collections(
    executions: list[Execution], th: Thresholds = DEFAULT
) -> list[tuple[str, str, dict[str, Any], dict[str, int]]]:
    """(context, field, params, support) of each collection rule of one tool's clean executions."""
    found: list[tuple[str, str, dict[str, Any], dict[str, int]]] = []
    for (context, f), seen in sorted(_values_at(executions).items()):
        distinct = {repr(v) for v, _ in seen}
        if len(seen) < th.min_presence or len(distinct) < th.min_presence:
            continue
        lists = [(v, a) for v, a in seen if type(v) is list]
        dicts = [v for v, _ in seen if type(v) is dict]
        if len(lists) == len(seen):
            found.extend((context, f, p, s) for p, s in _list_rules(lists, th))
        elif len(dicts) == len(seen):
            kept = _kept_keys(dicts)
            if kept:
                found.append((context, f, {"form": "has_keys", "keys": kept}, {"n": len(dicts)}))
    return found


def _list_rules(
    lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds
) -> list[tuple[dict[str, Any], dict[str, int]]]:
    out: list[tuple[dict[str, Any], dict[str, int]]] = []
    lengths = {len(v) for v, _ in lists}
    if len(lengths) == 1 and min(lengths) >= 1:
        out.append(({"form": "len_eq", "n": min(lengths)}, {"n": len(lists)}))
    else:
        numeric_args = sorted({k for _, a in lists for k, x in a.items() if type(x) is int})
        for arg in numeric_args:
            pairs = [(len(v), a[arg]) for v, a in lists if type(a.get(arg)) is int]
            if (
                len(pairs) >= th.min_presence
                and len({lim for _, lim in pairs}) >= th.min_distinct_eq
                and all(n <= lim for n, lim in pairs)
                and any(n == lim for n, lim in pairs)
            ):
                out.append(({"form": "len_le_arg", "arg": arg}, {"n": len(pairs)}))
    out.extend(_echo_sets(lists, th))
    return out


def _echo_sets(
    lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds
) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """Each key of the list's elements whose set of values equals (or sits within) a list argument."""
    out: list[tuple[dict[str, Any], dict[str, int]]] = []
    elements = [e for v, _ in lists for e in v]
    if not elements or not all(type(e) is dict for e in elements):
        return out
    keys = sorted(set.intersection(*(set(e) for e in elements)))
    list_args = sorted({k for _, a in lists for k, x in a.items() if type(x) is list})
    for k in keys:
        if not all(type(e[k]) in (str, int) for e in elements):
            continue
        for arg in list_args:
            pairs = [([e[k] for e in v], a[arg]) for v, a in lists if type(a.get(arg)) is list]
            try:
                sets = [(set(g), set(x)) for g, x in pairs]
            except TypeError:
                continue
            if len(pairs) < th.min_presence or len({frozenset(x) for _, x in sets}) < th.min_distinct_eq:
                continue
            if all(g == x for g, x in sets):
                form = "echo_set"
            elif all(g <= x for g, x in sets):
                form = "subset"
            else:
                continue
            out.append(({"form": form, "arg": arg, "key": k}, {"n": len(pairs)}))
    return out


def _kept_keys(dicts: list[dict[str, Any]]) -> list[str]:
    """Entries every clean map held, where maps differ in their other entries (else it is a record,
    whose fields have required rules of their own)."""
    common = set.intersection(*(set(map(str, d)) for d in dicts))
    union = set().union(*(set(map(str, d)) for d in dicts))
    return sorted(common) if common and common != union else []


__all__ = ["KNOWN_SETS", "VOCABULARIES", "constant_floor", "known_set", "learn_wide", "mine_collections"]
