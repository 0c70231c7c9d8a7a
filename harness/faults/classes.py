"""The fault classes: one small class per way a tool result can be silently wrong.

Each class declares ``fault_class``, ``kind`` ("structured": the damage is a value property a
contract vocabulary can state, such as a sign, a type or a relation; "string": a well-formed,
plausible value that is simply wrong) and two functions:

- ``eligible(content, arguments, spec)``: the JSON paths it could corrupt, found by rule from the
  result and, when present, the tool's ``output_schema`` (never hand-placed per task);
- ``apply(content, path, arguments, rng, params)``: corrupt ``content`` (already a private deep
  copy) at ``path`` and return an :class:`Applied`.

This module knows nothing about episodes, monitors or configs; ``inject.py`` decides when a fault
fires and ``incidents.yaml`` decides which faults the incident suite holds.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from core.protocol import ToolSpec
from harness.faults import paths
from harness.faults.values import (
    is_categorical,
    is_id_name,
    is_number,
    keyed_nodes,
    leaves,
    mutate_token,
    number_like,
    parse_date,
    pool_for,
    positive_numbers,
    shift_date,
)

MISSING = "<missing>"  # the "corrupted" label of a deleted field

HTML_ERROR_PAGE = (
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1>"
    "</center><hr><center>nginx</center></body></html>"
)


@dataclass
class Applied:
    """One corruption: the new root, where it happened and what changed."""

    content: Any
    path: str
    original: Any
    corrupted: Any


# ------------------------------------------------------------------------------------------
# The classes.


class FaultClass:
    fault_class: ClassVar[str]
    kind: ClassVar[str]  # "structured" | "string"
    description: ClassVar[str]

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        raise NotImplementedError

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        raise NotImplementedError

    def _set(self, content: Any, path: str, new: Any) -> Applied:
        old = paths.get(content, path)
        return Applied(paths.set_(content, path, new), path, old, new)


class NegativeOrZero(FaultClass):
    fault_class = "negative_or_zero"
    kind = "structured"
    description = "a positive quantity (price, count, balance) becomes negative or zero"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return positive_numbers(content)

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        variant = params.get("variant") or rng.choice(["negative", "zero"])
        return self._set(
            content, path, number_like(old, 0) if variant == "zero" else number_like(old, -abs(old))
        )


class OutOfDomainCategorical(FaultClass):
    fault_class = "out_of_domain_categorical"
    kind = "structured"
    description = "a status/enum-like token takes a value outside its domain"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, v in leaves(content) if is_categorical(v, p, spec)]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        if params.get("value"):
            new = str(params["value"])
        elif old.isupper():
            new = rng.choice(["UNKNOWN", "N/A", "LEGACY"])
        else:
            new = f"{old}_{rng.choice(['pending_void', 'legacy', 'unknown', 'deprecated'])}"
        return self._set(content, path, new)


class TypeDrift(FaultClass):
    fault_class = "type_drift"
    kind = "structured"
    description = "a value changes JSON type: number as string, id as int, object as boolean"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        out = []
        for p, v in keyed_nodes(content):
            name = paths.field_name(p)
            if is_number(v) or isinstance(v, bool) or (isinstance(v, dict) and v):
                out.append(p)
            elif isinstance(v, str) and is_id_name(name) and any(c.isdigit() for c in v):
                out.append(p)
        return out

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        if isinstance(old, bool):
            new: Any = "true" if old else "false"
        elif is_number(old):
            new = str(old)
        elif isinstance(old, dict):
            new = True  # the Facebook SDK case: a dictionary became a plain YES/NO
        else:
            new = int("".join(c for c in old if c.isdigit())[:15])
        return self._set(content, path, new)


class MissingField(FaultClass):
    fault_class = "missing_field"
    kind = "structured"
    description = "a field the tool always returns is absent"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, _ in keyed_nodes(content)]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        parent, key = paths.parent_and_key(content, path)
        old = parent.pop(key)
        return Applied(content, path, old, MISSING)


class RenamedField(FaultClass):
    fault_class = "renamed_field"
    kind = "structured"
    description = "a field arrives under another name (camelCase, a version suffix)"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, _ in keyed_nodes(content)]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        parent, key = paths.parent_and_key(content, path)
        assert isinstance(key, str)
        if "_" in key:
            head, *rest = key.split("_")
            new_key = head + "".join(w.capitalize() for w in rest)
        else:
            new_key = rng.choice([key.capitalize(), key + "_value", key + "_v2"])
        items = list(parent.items())
        parent.clear()
        parent.update((new_key if k == key else k, v) for k, v in items)
        return Applied(content, path, key, new_key)


class EchoedArgumentMismatch(FaultClass):
    fault_class = "echoed_argument_mismatch"
    kind = "structured"
    description = "the result is another entity's record: the echoed id/key differs from the argument"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        wanted = {
            str(v).lower()
            for v in arguments.values()
            if isinstance(v, (str, int, float)) and not isinstance(v, bool)
        }
        return [
            p
            for p, v in leaves(content)
            if not isinstance(v, bool) and v is not None and str(v).lower() in wanted
        ]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        new = number_like(old, old + rng.randint(1, 9)) if is_number(old) else mutate_token(str(old), rng)
        applied = self._set(content, path, new)
        # the rest of the record belongs to that other entity too: redraw sibling quantities
        parent, _ = paths.parent_and_key(content, path) if path != "$" else (content, None)
        if isinstance(parent, dict):
            for k, v in parent.items():
                if is_number(v) and v > 0 and not is_id_name(k) and k != paths.field_name(path):
                    parent[k] = number_like(v, v * rng.uniform(0.6, 1.6))
        return applied


class DateOrderViolation(FaultClass):
    fault_class = "date_order_violation"
    kind = "structured"
    description = "a later date/time (end, expiry, checkout) is moved before its earlier partner"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        arg_dates = [d for d in (parse_date(v) for v in arguments.values()) if d is not None]
        out = []
        for p, v in leaves(content):
            d = parse_date(v)
            if d is None:
                continue
            parent, _ = paths.parent_and_key(content, p) if p != "$" else ({}, None)
            siblings = [parse_date(x) for x in parent.values()] if isinstance(parent, dict) else []
            if any(s is not None and s < d for s in siblings) or any(a <= d for a in arg_dates):
                out.append(p)
        return out

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        parent, _ = paths.parent_and_key(content, path)
        partners = [parse_date(x) for x in parent.values()] + [parse_date(v) for v in arguments.values()]
        earliest = min(d for d in partners if d is not None)
        # ``path`` came from ``eligible``, which keeps only fields holding a date
        days = (earliest - cast(dt.date, parse_date(old))).days - rng.randint(1, 30)
        return self._set(content, path, shift_date(old, days))


def _relations(content: Any) -> list[str]:
    """Number fields that are an exact sum/product/difference of siblings, or the sum of a list column."""
    out: list[str] = []
    for p, node in paths.walk(content):
        if not isinstance(node, dict):
            continue
        nums = {k: v for k, v in node.items() if is_number(v) and not is_id_name(k)}
        for k, c in nums.items():
            others = [(a, b) for a in nums for b in nums if a < b and k not in (a, b)]
            for a, b in others:
                x, y = nums[a], nums[b]
                if any(abs(c - r) <= 1e-6 * max(1.0, abs(c)) for r in (x + y, x * y, abs(x - y))) and c != 0:
                    out.append(f"{p}.{k}")
                    break
            else:
                for lv in node.values():
                    if isinstance(lv, list) and lv and all(isinstance(e, dict) for e in lv):
                        cols = set.intersection(*(set(e) for e in lv))
                        for col in sorted(cols):
                            vals = [e[col] for e in lv]
                            if (
                                all(is_number(v) for v in vals)
                                and c != 0
                                and abs(sum(vals) - c) <= 1e-6 * max(1.0, abs(c))
                            ):
                                out.append(f"{p}.{k}")
                                break
                        else:
                            continue
                        break
    out += _conserved(content)
    return list(dict.fromkeys(out))


def _conserved(content: Any) -> list[str]:
    """Numbers nested under a record (e.g. ``payment_history[0].amount``) equal to the sum of one of
    its list columns (``items[*].price``): a conservation relation across lists, not among siblings."""
    out: list[str] = []
    for p, node in paths.walk(content):
        if not isinstance(node, dict):
            continue
        sums: list[tuple[str, float]] = []
        for lk, lv in node.items():
            if isinstance(lv, list) and lv and all(isinstance(e, dict) for e in lv):
                for col in sorted(set.intersection(*(set(e) for e in lv))):
                    vals = [e[col] for e in lv]
                    if all(is_number(v) for v in vals) and not is_id_name(col):
                        sums.append((f"{p}.{lk}", sum(vals)))
        if not sums:
            continue
        for full, leaf in paths.walk(node, p):
            if not (is_number(leaf) and leaf != 0 and "[" in full[len(p) :]) or is_id_name(
                paths.field_name(full)
            ):
                continue
            for listpath, total in sums:
                if not full.startswith(listpath + "[") and abs(total - leaf) <= 1e-6 * max(1.0, abs(leaf)):
                    out.append(full)
                    break
    return out


class BrokenRelation(FaultClass):
    fault_class = "broken_relation"
    kind = "structured"
    description = "a derived number (total, product, conserved sum) no longer matches its parts"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return _relations(content)

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        factor = 1 + rng.choice([-1, 1]) * rng.uniform(0.05, 0.3)
        new = number_like(old, old * factor)
        if new == old:
            new = old + 1
        return self._set(content, path, new)


class CachedErrorPage(FaultClass):
    fault_class = "cached_error_page"
    kind = "structured"
    description = "a cached HTML error page is served inside a field (or as the whole body)"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, _ in leaves(content) if p != "$"] or ["$"]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        if params.get("scope") == "body":
            return Applied(HTML_ERROR_PAGE, "$", content, HTML_ERROR_PAGE)
        return self._set(content, path, HTML_ERROR_PAGE)


class StaleValue(FaultClass):
    fault_class = "stale_value"
    kind = "string"
    description = "a plausible older value: a quantity from an earlier snapshot, a date days back"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return positive_numbers(content) + [p for p, v in leaves(content) if parse_date(v) is not None]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        if isinstance(old, str):
            return self._set(content, path, shift_date(old, -rng.randint(1, 30)))
        new = number_like(old, old * (1 - rng.uniform(0.02, 0.15)))
        return self._set(
            content, path, new if new != old else number_like(old, old - 1) if old > 1 else old / 2
        )


class EmptyOrTruncatedList(FaultClass):
    fault_class = "empty_or_truncated_list"
    kind = "structured"
    description = "a list comes back empty or cut short"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, v in paths.walk(content) if isinstance(v, list) and v]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        variant = params.get("variant") or ("truncate" if len(old) > 1 and rng.random() < 0.5 else "empty")
        new = old[: max(1, len(old) // 2)] if variant == "truncate" and len(old) > 1 else []
        return Applied(paths.set_(content, path, new), path, len(old), len(new))


class DuplicatedRecord(FaultClass):
    fault_class = "duplicated_record"
    kind = "structured"
    description = "a record in a list appears twice"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, v in paths.walk(content) if isinstance(v, list) and v]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        lst = paths.get(content, path)
        i = rng.randrange(len(lst))
        lst.insert(i + 1, copy.deepcopy(lst[i]))
        return Applied(content, f"{path}[{i + 1}]", len(lst) - 1, len(lst))


class UnitMixup(FaultClass):
    fault_class = "unit_mixup"
    kind = "structured"
    description = "a quantity in the wrong unit: cents for dollars (x100), lbf.s for N.s (x4.45)"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return positive_numbers(content)

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        factor = float(params.get("factor", 100))
        new = old / factor if params.get("direction") == "divide" else old * factor
        return self._set(content, path, number_like(old, new))


def _mojibake(s: str) -> str:
    return s.encode("utf-8").decode("latin-1")


_HOMOGLYPHS = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "i": "і"}  # Cyrillic look-alikes


class EncodingCorruption(FaultClass):
    fault_class = "encoding_corruption"
    kind = "string"
    description = "text decoded with the wrong charset, or normalized into look-alike characters"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [p for p, v in leaves(content) if isinstance(v, str) and any(c.isalpha() for c in v)]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        variant = params.get("variant") or (
            "mojibake" if not old.isascii() else rng.choice(["homoglyph", "replacement"])
        )
        if variant == "mojibake" and not old.isascii():
            new = _mojibake(old)
        elif variant == "homoglyph" and any(c in _HOMOGLYPHS for c in old):
            spots = [i for i, c in enumerate(old) if c in _HOMOGLYPHS]
            i = rng.choice(spots)
            new = old[:i] + _HOMOGLYPHS[old[i]] + old[i + 1 :]
        else:
            spots = [i for i, c in enumerate(old) if c.isalpha()]
            i = rng.choice(spots)
            new = old[:i] + "\ufffd" + old[i + 1 :]
        return self._set(content, path, new)


class PlausibleString(FaultClass):
    fault_class = "plausible_string"
    kind = "string"
    description = "a well-formed but wrong string: another valid city, product, name or code"

    def eligible(self, content: Any, arguments: Mapping[str, Any], spec: ToolSpec | None) -> list[str]:
        return [
            p
            for p, v in leaves(content)
            if isinstance(v, str) and any(c.isalnum() for c in v) and parse_date(v) is None and "<" not in v
        ]

    def apply(
        self,
        content: Any,
        path: str,
        arguments: Mapping[str, Any],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Applied:
        old = paths.get(content, path)
        pool = params.get("pool") or pool_for(paths.field_name(path))
        choices = [x for x in (pool or ()) if x != old]
        return self._set(content, path, rng.choice(choices) if choices else mutate_token(old, rng))


CLASSES: dict[str, FaultClass] = {
    c.fault_class: c()
    for c in (
        NegativeOrZero,
        OutOfDomainCategorical,
        TypeDrift,
        MissingField,
        RenamedField,
        EchoedArgumentMismatch,
        DateOrderViolation,
        BrokenRelation,
        CachedErrorPage,
        StaleValue,
        EmptyOrTruncatedList,
        DuplicatedRecord,
        UnitMixup,
        EncodingCorruption,
        PlausibleString,
    )
}


def get_class(name: str) -> FaultClass:
    if name not in CLASSES:
        raise KeyError(f"unknown fault class '{name}'; known: {', '.join(sorted(CLASSES))}")
    return CLASSES[name]


def shape_of(value: Any) -> str:
    """The coarse data shape a target rule can ask for: number, date, text, list, object, other."""
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "date" if parse_date(value) is not None else "text"
    if isinstance(value, list):
        return "list"
    return "object" if isinstance(value, dict) else "other"


def field_filter(eligible: list[str], pattern: str | None) -> list[str]:
    """Keep paths whose field name matches ``pattern`` (a regex over the last key), all when None."""
    if not pattern:
        return eligible
    rx = re.compile(pattern)
    return [p for p in eligible if rx.search(paths.field_name(p)) or rx.search(p)]
