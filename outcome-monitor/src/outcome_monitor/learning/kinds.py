"""Things of one kind speak for each other (wide vocabulary): where the recording showed a value
possible for one of them, none of the others is held to less.

* **Tools of one shape.** Tools whose results hold the same fields at one place (a server's
  ``validate_cpf``, ``validate_pis``, ``validate_cnpj``: ``valid``, ``formatted``, ``raw``,
  ``error``) answer alike: a type one of them held at a field (``formatted: null`` for a number
  that failed its check) is a type the others may hold there, though their own calls happened
  never to show it. A tool's type rule widens to the types its siblings held; siblings share
  ``MIN_SHARED_FIELDS`` fields or more at the place, and hold every field the tool does. Signs
  likewise: a 0 a sibling's records held at the field (a fix's ``remaining_violations`` starting at
  a file's first character) makes the tool's ``> 0`` a ``>= 0``, a negative drops it; records with
  the very same fields at another place count as siblings for signs (a lint's ``violations``).
* **Fields of one name.** A sign a field broke is no sign of the fields of the same records whose
  names end in the same word (a ``mismatch_score`` of -1 beside a ``score``).
* **A column's statistics.** A median, mean or maximum is never below the minimum beside it: a
  minimum of 0 makes their ``> 0`` a ``>= 0``, a negative one drops it; percentiles (``p1``,
  ``p95``, ``q3``) count as such, and a route's column takes its tool's minimum too.
* **Records of one shape under one object** (``planetary_states``: ``mercury``, ``venus``,
  ``mars``, each with ``daily_motion_deg``): a sign one of them broke (Saturn's retrograde
  motion, negative) is no sign of the kind, so none of them keeps it; and a type one of them held
  is a type of the kind (``metros.31080.numeric`` an integer in every call that asked for annual
  figures, a float in ``metros.17820``'s hourly ones).

Knows nothing of receipts or environments; called by ``vocabulary.learn_wide`` after admission.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.routes import base_tool
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import is_number, json_type, last_word
from outcome_monitor.learning.executions import Execution

MIN_SHARED_FIELDS = 3

Place = tuple[str, str]  # context, field


def kind_rules(rules: list[Rule], index: Mapping[str, list[Execution]]) -> list[Rule]:
    """``rules`` with types widened to their sibling tools' and signs of a kind some member broke
    dropped (see the module's words)."""
    fields, types, least = _observed(index)
    out = []
    for r in rules:
        if r.cls == "type" and r.fields and r.fields[0]:
            wider = _sibling_types(r, fields, types) | _kin_types(r, fields, types)
            if wider - set(r.params.get("types", ())):
                union = wider | set(r.params["types"])
                union -= {"integer"} if "number" in union else set()  # a number covers an integer
                r = replace(r, params={**r.params, "types": sorted(union)})
        elif (
            r.cls == "positive"
            and r.fields
            and (_kin_broke(r, fields, least) or _namesake_broke(r, fields, least))
        ):
            continue
        elif r.cls == "positive" and r.fields and r.params.get("strict", True):
            floor = min(_sibling_least(r, fields, least), _least_minimum(r, fields, least))
            if floor < 0:
                continue
            if floor == 0:  # a file's first character is at 0 in a sibling's answer: so may it be here
                r = replace(r, params={**r.params, "strict": False})
        out.append(r)
    return out


def _observed(
    index: Mapping[str, list[Execution]],
) -> tuple[
    dict[tuple[str, str], set[str]], dict[tuple[str, str, str], set[str]], dict[tuple[str, str, str], float]
]:
    """Per tool and context: the fields seen; per tool, context and field: the JSON types seen, and
    the least number held there."""
    fields: dict[tuple[str, str], set[str]] = {}
    types: dict[tuple[str, str, str], set[str]] = {}
    least: dict[tuple[str, str, str], float] = {}
    for tool, executions in index.items():
        for ex in executions:
            for context, rows in ex.rows.items():
                seen = fields.setdefault((tool, context), set())
                for row in rows:
                    for f, v in row.items():
                        if f.startswith((ARG, "#")) or "(" in f:
                            continue
                        seen.add(f)
                        types.setdefault((tool, context, f), set()).add(json_type(v))
                        if is_number(v) and v < least.get((tool, context, f), 1):
                            least[(tool, context, f)] = v
    return fields, types, least


def _sibling_types(
    r: Rule, fields: dict[tuple[str, str], set[str]], types: dict[tuple[str, str, str], set[str]]
) -> set[str]:
    own = fields.get((r.tool, r.context), set())
    if len(own) < MIN_SHARED_FIELDS or r.fields[0] not in own:
        return set()
    out: set[str] = set()
    for (tool, context), theirs in fields.items():
        if tool != r.tool and context == r.context and own <= theirs:
            out |= types.get((tool, context, r.fields[0]), set())
    if "number" in r.params.get("types", ()):
        out.discard("integer")  # within "number" already: no widening
    return out


def _kin_broke(
    r: Rule, fields: dict[tuple[str, str], set[str]], least: dict[tuple[str, str, str], float]
) -> bool:
    """Whether a record of the same shape as the one holding ``r``'s field, under the same object,
    held a negative number at the same field."""
    return any(least.get((r.tool, r.context, f), 0) < 0 for f in _kin_fields(r, fields))


def _namesake_broke(
    r: Rule, fields: dict[tuple[str, str], set[str]], least: dict[tuple[str, str, str], float]
) -> bool:
    """Whether another field of the same records, whose name ends in the same word, held a negative
    number: an alignment's ``score`` positive in every clean call beside a ``mismatch_score`` of
    -1 is a score of a kind that can fall below 0 (two unlike sequences)."""
    word = last_word(r.fields[0])
    if len(word) < 3:
        return False
    own = fields.get((r.tool, r.context), set())
    return any(
        f != r.fields[0] and last_word(f) == word and least.get((r.tool, r.context, f), 0) < 0 for f in own
    )


MINIMA = ("min", "minimum", "min_value", "lowest")
_QUANTILE = re.compile(r"[pP]\d{1,3}|[qQ][1-4]|\d{1,2}%|percentile_?\d{1,3}|pct_?\d{1,2}")
LOCATIONS = frozenset({"max", "maximum", "max_value", "highest", "mean", "avg", "average", "median", "mode"})


def _least_minimum(
    r: Rule, fields: dict[tuple[str, str], set[str]], least: dict[tuple[str, str, str], float]
) -> float:
    """The least number the column's minimum beside ``r``'s statistic held (1 if none, or none below
    1): a median, mean or maximum is never below its column's minimum, so a minimum of 0 in a clean
    call lets a column of mostly zeros have a median of 0 (a profile's ``stats.median``)."""
    parent, dot, leaf = r.fields[0].rpartition(".")
    if leaf.lower() not in LOCATIONS and not _QUANTILE.fullmatch(leaf):
        return 1
    out: float = 1
    for tool in {r.tool, base_tool(r.tool)}:  # a route's column may be its tool's, met at 0 elsewhere
        own = fields.get((tool, r.context), set())
        for name in MINIMA:
            f = f"{parent}{dot}{name}"
            if f in own:
                out = min(out, least.get((tool, r.context, f), 1))
    return out


def _sibling_least(
    r: Rule, fields: dict[tuple[str, str], set[str]], least: dict[tuple[str, str, str], float]
) -> float:
    """The least number another tool's records of the same shape held at ``r``'s field (1 if none
    was below 1): records holding every field ``r``'s do, ``MIN_SHARED_FIELDS`` or more, at the same
    place or, with the very same fields, at another (a lint's ``violations`` and a fix's
    ``remaining_violations``)."""
    own = fields.get((r.tool, r.context), set())
    if len(own) < MIN_SHARED_FIELDS or r.fields[0] not in own:
        return 1
    out: float = 1
    for (tool, context), theirs in fields.items():
        if tool != r.tool and (own == theirs or (context == r.context and own <= theirs)):
            out = min(out, least.get((tool, context, r.fields[0]), 1))
    return out


def _kin_types(
    r: Rule, fields: dict[tuple[str, str], set[str]], types: dict[tuple[str, str, str], set[str]]
) -> set[str]:
    """The types records of the same shape under the same object held at the same field."""
    out: set[str] = set()
    for f in _kin_fields(r, fields):
        out |= types.get((r.tool, r.context, f), set())
    return out


def _kin_fields(r: Rule, fields: dict[tuple[str, str], set[str]]) -> list[str]:
    """The same field of the records of the same shape as the one holding ``r``'s field, under the
    same object (``metros.17820.numeric`` for ``metros.31080.numeric``)."""
    parent, _, leaf = r.fields[0].rpartition(".")
    holder, _, member = parent.rpartition(".")
    if not holder or not member:
        return []
    own = fields.get((r.tool, r.context), set())
    prefix = f"{holder}."
    shape = {f[len(parent) + 1 :] for f in own if f.startswith(parent + ".")}
    out = []
    for f in own:
        if not f.startswith(prefix) or not f.endswith("." + leaf):
            continue
        kin = f[len(prefix) : -len(leaf) - 1]
        if kin == member or "." in kin:
            continue
        if {g[len(prefix) + len(kin) + 1 :] for g in own if g.startswith(f"{prefix}{kin}.")} == shape:
            out.append(f)
    return out
