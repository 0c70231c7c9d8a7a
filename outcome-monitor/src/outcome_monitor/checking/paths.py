"""JSON paths over tool results: contexts (the root or the elements of a list), fields and getters.

A *context* is where a rule is evaluated: ``$`` (the whole result), every element of a list of
objects (``$.items[*]``) or every entry of a map keyed by ids (``$.variants.*``: one rule for all
entries, whatever their keys). A *field* is relative to its context: ``price``, ``a.b``, the element
itself (``""``), a derived ``len(items)`` / ``sum(items[*].amount)``, an argument ``arg.x``, or the
entry's own key ``#key`` (map entries only).
Mining flattens results into rows of fields; checking compiles each needed field into a getter
once, at load time. Knows nothing about rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from outcome_monitor.checking.values import MISSING, is_number

ROOT = "$"
ARG = "arg."
ENTRIES = ".*"  # a context step over the values of a map keyed by ids (``$.variants.*``)
KEY = "#key"  # the field holding a map entry's key (``variants.*.item_id == #key``)

Getter = Callable[[Any], Any]


def net_field(list_name: str, key: str, by: str, plus: Any, minus: Any) -> str:
    """The derived field "sum of ``list[*].key``, counted + where ``by`` is ``plus`` and - where it
    is ``minus``" (a ledger: payments minus refunds)."""
    return f"net({list_name}[*].{key} by {by}: {plus} - {minus})"


def parse_net(field: str) -> tuple[str, str, str, str, str] | None:
    """(list, key, by, plus, minus) of a ``net(...)`` field, else None."""
    if not (field.startswith("net(") and field.endswith(")")):
        return None
    body = field[4:-1]
    column, sep, rest = body.partition(" by ")
    by, sep2, signs = rest.partition(": ")
    plus, sep3, minus = signs.partition(" - ")
    list_name, sep4, key = column.partition("[*].")
    if not (sep and sep2 and sep3 and sep4):
        return None
    return list_name, key, by, plus, minus


def display_path(context: str, field: str) -> str:
    """The JSON path a human reads: ``$.items[*].amount``, ``len($.items)``, ``arg.ticker``,
    ``key($.variants.*)``."""
    if field.startswith(ARG):
        return field
    if field == KEY:
        return f"key({context})"
    for fn in ("len", "sum", "net", "each", "keys"):
        if field.startswith(fn + "(") and field.endswith(")"):
            return f"{fn}({context}.{field[len(fn) + 1 : -1]})"
    return context if field == "" else f"{context}.{field}"


_STEP = re.compile(r"\[\*\]|\.\*(?=$|[.\[)])")


def concrete(path: str, index: tuple[int | str, ...]) -> str:
    """Fill the ``[*]`` and ``.*`` of a context path with the list indices and map keys of one
    violation, left to right: ``$.variants.*.price`` -> ``$.variants['9690244451'].price``."""
    it = iter(index)

    def fill(m: re.Match[str]) -> str:
        i = next(it, None)
        if i is None:
            return m.group(0)
        return f"[{i}]" if isinstance(i, int) else f"[{str(i)!r}]"

    return _STEP.sub(fill, path)


def is_entry_index(index: tuple[int | str, ...]) -> bool:
    """Whether a violation's index passes through a map entry (its key is a string)."""
    return any(type(i) is str for i in index)


# ---------------------------------------------------------------------------- mining: flatten


# map path (``$.variants``, ``$.items[*].options``) -> the keys that also keep rules of their own
Maps = Mapping[str, frozenset[str]]
NO_MAPS: Maps = {}


def flatten(
    result: Any,
    args: Mapping[str, Any],
    out: dict[str, list[dict[str, Any]]],
    context: str = ROOT,
    maps: Maps = NO_MAPS,
    key: str | None = None,
) -> None:
    """Append one row per context element of ``result`` to ``out[context]`` (arguments included).
    The values of a map in ``maps`` are elements of the context ``<map>.*``, each row with its key
    (``#key``); the map's own row keeps only the entries of the keys ``maps`` names."""
    row: dict[str, Any] = {"": result}
    if key is not None:
        row[KEY] = key
    if isinstance(result, dict):
        kept = maps.get(context) if maps else None
        if kept is None:
            _flatten_obj(result, "", context, row, args, out, maps)
        else:  # the element itself is a map keyed by ids (a result {id: record, ...})
            sub = context + ENTRIES
            for k, v in result.items():
                flatten(v, args, out, sub, maps, str(k))
                if k in kept:
                    row[str(k)] = v
                    if isinstance(v, dict):
                        _flatten_obj(v, f"{k}.", context, row, args, out, maps)
    for k, v in args.items():
        if not isinstance(v, (dict, list)):
            row[ARG + k] = v
    out.setdefault(context, []).append(row)


def _flatten_obj(
    obj: dict[Any, Any],
    prefix: str,
    context: str,
    row: dict[str, Any],
    args: Mapping[str, Any],
    out: dict[str, list[dict[str, Any]]],
    maps: Maps = NO_MAPS,
) -> None:
    for key, value in obj.items():
        name = prefix + str(key)
        row[name] = value
        if isinstance(value, dict):
            kept = maps.get(f"{context}.{name}") if maps else None
            if kept is None:
                _flatten_obj(value, name + ".", context, row, args, out, maps)
                continue
            row[f"len({name})"] = len(value)
            sub = f"{context}.{name}{ENTRIES}"
            for k, v in value.items():
                flatten(v, args, out, sub, maps, str(k))
                if k in kept:  # a frequent key keeps rules of its own (options.color)
                    row[f"{name}.{k}"] = v
                    if isinstance(v, dict):
                        _flatten_obj(v, f"{name}.{k}.", context, row, args, out, maps)
        elif isinstance(value, list):
            row[f"len({name})"] = len(value)
            records = [el for el in value if isinstance(el, dict)]
            if records:
                # every element, records and what came beside them (a text block after a JSON one):
                # an element's type is learned from all of them, its fields from the records
                sub = f"{context}.{name}[*]"
                for el in value:
                    flatten(el, args, out, sub, maps)
                if len(records) == len(value):
                    for k in value[0]:
                        if all(is_number(el.get(k)) for el in value):
                            row[f"sum({name}[*].{k})"] = sum(el[k] for el in value)


# ---------------------------------------------------------------------------- checking: getters


Chain = tuple[list[str], bool]  # (keys to follow, then expand a map's values (True) or a list (False))


def context_steps(context: str) -> list[Chain]:
    """``$.a.items[*].sub.*`` -> [(["a", "items"], False), (["sub"], True)]: key chains, each
    followed by a list expansion or a map's entries."""
    body = context[len(ROOT) :]
    chains: list[Chain] = []
    pos = 0
    for m in _STEP.finditer(body):
        part = body[pos : m.start()]
        chains.append(([k for k in part.strip(".").split(".") if k], m.group(0) == ENTRIES))
        pos = m.end()
    return chains


def iter_context(result: Any, chains: list[Chain]) -> Iterator[tuple[Any, tuple[int | str, ...]]]:
    """Every element of a context in ``result`` with its list indices and map keys (nothing if
    absent)."""
    if not chains:
        yield result, ()
        return
    yield from _iter(result, chains, 0, ())


def _iter(
    obj: Any, chains: list[Chain], level: int, index: tuple[int | str, ...]
) -> Iterator[tuple[Any, tuple[int | str, ...]]]:
    keys, entries = chains[level]
    for key in keys:
        if not isinstance(obj, dict):
            return
        obj = obj.get(key, MISSING)
    last = level == len(chains) - 1
    if entries:
        if not isinstance(obj, dict):
            return
        for k, el in obj.items():
            if last:
                yield el, index + (k,)
            else:
                yield from _iter(el, chains, level + 1, index + (k,))
        return
    if not isinstance(obj, list):
        return
    for i, el in enumerate(obj):
        if last:
            yield el, index + (i,)
        else:
            yield from _iter(el, chains, level + 1, index + (i,))


def _chain_getter(keys: list[str]) -> Getter:
    if len(keys) == 1:
        k = keys[0]
        return lambda obj: obj.get(k, MISSING) if isinstance(obj, dict) else MISSING

    def get(obj: Any) -> Any:
        for k in keys:
            if not isinstance(obj, dict):
                return MISSING
            obj = obj.get(k, MISSING)
        return obj

    return get


def field_getter(field: str) -> Getter:
    """A getter for a (non-argument) field of one context element, compiled once."""
    if field == "":
        return lambda obj: obj
    if field.startswith("len(") and field.endswith(")"):
        inner = _chain_getter(field[4:-1].split("."))

        def get_len(obj: Any) -> Any:
            v = inner(obj)
            return len(v) if isinstance(v, (list, dict)) else MISSING  # a dict: a map's entries

        return get_len
    net = parse_net(field)
    if net is not None:
        return _net_getter(*net)
    if field.startswith("keys(") and field.endswith(")"):
        inner_map = _chain_getter(field[5:-1].split("."))

        def get_keys(obj: Any) -> Any:
            v = inner_map(obj)
            return list(v) if isinstance(v, dict) else MISSING  # a map's keys

        return get_keys
    if field.startswith("each(") and field.endswith(")"):
        list_part, _, key = field[5:-1].partition("[*].")
        inner = _chain_getter(list_part.split("."))

        def get_each(obj: Any) -> Any:
            # every element's key, for a rule on all of them (an element without it: MISSING)
            v = inner(obj)
            if not isinstance(v, list):
                return MISSING
            out = []
            for el in v:
                x = el.get(key, MISSING) if isinstance(el, dict) else MISSING
                if x is MISSING:
                    return MISSING
                out.append(x)
            return out

        return get_each
    if field.startswith("sum(") and field.endswith(")"):
        list_part, _, key = field[4:-1].partition("[*].")
        inner = _chain_getter(list_part.split("."))

        def get_sum(obj: Any) -> Any:
            v = inner(obj)
            if not isinstance(v, list) or not v:
                return MISSING
            total: float = 0
            for el in v:
                x = el.get(key) if isinstance(el, dict) else None
                if not is_number(x):
                    return MISSING
                total += x
            return total

        return get_sum
    return _chain_getter(field.split("."))


def net_value(v: Any, key: str, by: str, plus: Any, minus: Any) -> Any:
    """The signed sum of a ledger list (0 when empty); MISSING when it is not a list of objects or an
    element has no number or a third category (those belong to other rules)."""
    if not isinstance(v, list):
        return MISSING
    total: float = 0
    for el in v:
        if not isinstance(el, dict):
            return MISSING
        x, c = el.get(key), el.get(by)
        if not is_number(x):
            return MISSING
        if c == plus:
            total += x
        elif c == minus:
            total -= x
        else:
            return MISSING
    return total


def _net_getter(list_name: str, key: str, by: str, plus: str, minus: str) -> Getter:
    inner = _chain_getter(list_name.split("."))
    return lambda obj: net_value(inner(obj), key, by, plus, minus)
