"""Views: structure read out of text, learned per tool from its clean results and applied before
every check, so the ordinary rule classes reach what a server prints.

A view is a small tree learned where *every* clean value at a place reads the same way:

* ``{"parse": kind, "then": view}``: a string parsed as ``number``, ``boolean``, ``json`` (an object
  or array), ``literal`` (a Python container, as ``[(1, 'a', 2.5)]``), ``kv`` (``key: value`` lines)
  or ``csv`` (a header line and rows); ``{"result": "14"}`` then has a number to sign, and a SQL
  tool's rows have columns;
* ``{"fields": {key: view}}`` and ``{"items": view}``: views inside objects and list elements;
* ``{"tuple": n, "fields": {...}}``: a list that always held ``n`` elements of different kinds (a
  row ``(1, 'a', 2.5)``, content blocks ``[text, image, resource_link]``) becomes an object keyed by
  position (``pos0``, ``pos1``, ...), so each position keeps its own required, type, domain and
  shape rules: a dropped block or a changed ``mimeType`` fires;
* ``literal`` also reads ``repr`` text that is no literal (``datetime.date(2025, 3, 1)``,
  ``Decimal('12.50')``; ``pyrepr``, never ``eval``), and ``"mixed": true`` reads such text where the
  recording already read other results as containers;
* ``{"header": true}``: rows under a header row (``[["id", "name"], [1, "a"]]``) as objects.

At a tool's root (``infer_root_view``, ``tables``): ``"columns": arg`` names tuple rows by the
columns the SQL query in that argument selects (and ``named`` is the view of the named rows);
``"frame": [h, t]`` reads a list of ``h`` leading values, the answer, then ``t`` trailing ones as an
object (``frames``: ``head0``, ``items``, ``tail0``; ``fixed``: the starts its ends keep); ``"table": true`` reads a flat list of cells (a
block per cell) as rows (``tabled``: their view); ``"many": true`` reads one value alone as a
list of one where the recording held lists of such values, and none at all too; ``"wrap"`` puts a
root list under a key (``items``; ``matches_*`` for one-or-many), so its elements have rules of
their own.

A value that no longer reads as its view says (a number that is ``N/A``) stays as it is, and the
type rule learned on the parsed values speaks to it. Knows nothing of rules or receipts.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from outcome_monitor.text.frames import ITEMS as FRAME_ITEMS
from outcome_monitor.text.frames import framed, infer_frame, root_listed
from outcome_monitor.text.mdtables import PAIRS as MD_PAIRS
from outcome_monitor.text.mdtables import ROWS as MD_ROWS
from outcome_monitor.text.mdtables import TEXT as MD_TEXT
from outcome_monitor.text.mdtables import read_md
from outcome_monitor.text.parse import parse_text
from outcome_monitor.text.pyrepr import FAIL as UNREAD_REPR
from outcome_monitor.text.pyrepr import read_repr
from outcome_monitor.text.records import RECORDS, read_records
from outcome_monitor.text.records import consistent as records_consistent
from outcome_monitor.text.tables import (
    FAIL,
    HEADER,
    MAX_TUPLE,
    MIN_DISTINCT,
    POS,
    columns_arg,
    flat_table,
    headed,
    header_rows,
    many_key,
    name_rows,
    one_or_many,
    star_columns,
    tabular,
)

View = dict[str, Any]
MIN_BOOLEAN_ROWS = 7
MAX_TEXT = 200_000  # longer text stays text: parsing it costs more than it tells
WRAP = "items"
ENTRIES = "entries"  # the records of ``Key: value`` lines that repeat together

_NUMBER = re.compile(r"^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$")
_LEADING_ZERO = re.compile(r"^\s*[-+]?0\d")
_KV = re.compile(r"^\s*([A-Za-z][\w .()/-]{0,40}?)\s*:\s*(.*?)\s*$")


def _number(s: str) -> Any:
    if len(s) > 40 or not _NUMBER.match(s) or _LEADING_ZERO.match(s):
        return FAIL  # "00123" is a code, not a number
    try:
        v = float(s) if any(c in s for c in ".eE") else int(s)
    except ValueError:
        return FAIL
    return v if not isinstance(v, float) or math.isfinite(v) else FAIL


# a number and the one word that counts it (``6 rows``, ``36.5 KB``, ``12 ms``): the number is read
_QUANTITY = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s+([A-Za-z%]{1,12})\s*$")
MAX_UNITS = 3  # distinct words after the numbers of one place: more, and they name, not count
MIN_QUANTITIES = 7  # distinct values: fewer may be options to choose from ("4 hours", "24 hours")


def _quantity(s: str) -> Any:
    m = _QUANTITY.match(s) if len(s) <= 40 else None
    return _number(m.group(1)) if m is not None else FAIL


def _units(distinct: list[str]) -> bool:
    units = {m.group(2) for v in distinct if (m := _QUANTITY.match(v)) is not None}
    return len(distinct) >= MIN_QUANTITIES and len(units) <= MAX_UNITS


def _boolean(s: str) -> Any:
    low = s.strip().lower()
    return True if low == "true" else False if low == "false" else FAIL


def _json(s: str) -> Any:
    t = s.strip()
    if not t or t[0] not in "[{" or len(t) > MAX_TEXT:
        return FAIL
    try:
        v = json.loads(t)
    except ValueError:
        return FAIL
    return v if type(v) in (dict, list) else FAIL


def _literal(s: str) -> Any:
    """A Python literal container (``[(1, 'a', 2.5)]``), read as the recording reads text
    (``text.parse_text``: ``ast.literal_eval``, never ``eval``)."""
    t = s.strip()
    if not t or t[0] not in "[{(" or len(t) > MAX_TEXT:
        return FAIL
    v = parse_text(t)
    if type(v) is str:
        # repr text that is no literal (``datetime.date(2025, 3, 1)``, ``Decimal('12.50')``): read
        # without eval (pyrepr)
        v = read_repr(t)
        return v if v is not UNREAD_REPR and type(v) in (dict, list) else FAIL
    return v if type(v) in (dict, list) else FAIL


def _kv(s: str) -> Any:
    """``key: value`` lines (at least two, every non-empty line one) as an object of strings."""
    if len(s) > MAX_TEXT:
        return FAIL
    lines = [ln for ln in s.splitlines() if ln.strip()]
    if len(lines) < 2:
        return FAIL
    out: dict[str, str] = {}
    for ln in lines:
        m = _KV.match(ln)
        if m is None or m.group(1) in out:
            return FAIL
        out[m.group(1)] = m.group(2)
    return out


def _csv(s: str) -> Any:
    """A header line and at least one row, one delimiter, every row as wide as the header."""
    if len(s) > MAX_TEXT:
        return FAIL
    lines = [ln for ln in s.strip().splitlines() if ln.strip()]
    if len(lines) < 2:
        return FAIL
    for delim in (",", "\t", "|", ";"):
        if lines[0].count(delim) < 1:
            continue
        rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delim))
        header = [h.strip() for h in rows[0]]
        if delim == "|":  # markdown tables: | a | b |
            header = [h for h in header if h]
        if len(set(header)) != len(header) or not all(HEADER.match(h) for h in header):
            continue
        body = []
        for row in rows[1:]:
            cells = [c.strip() for c in row]
            if delim == "|":
                cells = cells[1:-1] if len(cells) == len(header) + 2 else cells
                if all(set(c) <= set("-: ") for c in cells):
                    continue  # a markdown rule line
            if len(cells) != len(header):
                break
            body.append(dict(zip(header, cells, strict=True)))
        else:
            return body
    return FAIL


_KEY_LINE = re.compile(r"^\s*([A-Za-z][\w .()/-]{0,30}?):(?:\s+(.*?))?\s*$")


def _key_counts(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for ln in text[:MAX_TEXT].splitlines():
        m = _KEY_LINE.match(ln)
        if m is not None:
            out[m.group(1)] = out.get(m.group(1), 0) + 1
    return out


BODY = "body"


def _lines(text: str, view: View) -> Any:
    """``Key: value`` lines among other text (a log, a commit): the keys every clean text held once
    as fields, the keys that repeat together as records under ``entries`` (a new record at each
    ``start`` key), and the other lines as one text under ``body``. FAIL when none of the keys is
    there (an error page, an error message)."""
    if len(text) > MAX_TEXT:
        return FAIL
    single, record, start = set(view["single"]), set(view["record"]), view.get("start")
    out: dict[str, Any] = {}
    entries: list[dict[str, str]] = []
    body: list[str] = []
    for ln in text.splitlines():
        m = _KEY_LINE.match(ln)
        if m is None:
            body.append(ln)
            continue
        key, value = m.group(1), m.group(2) or ""
        if key in single and key not in out:
            out[key] = value
        elif key in record:
            if key == start or not entries or key in entries[-1]:
                entries.append({})
            entries[-1][key] = value
    if not out and not entries:
        return FAIL
    if record:
        out[ENTRIES] = entries
    if body and BODY not in single:
        # the other lines, as text: a commit's diff, a log's messages keep the text rules (signs)
        out[BODY] = "\n".join(body)
    return out


def _infer_lines(distinct: list[str]) -> View | None:
    counts = [_key_counts(v) for v in distinct]
    common = set.intersection(*(set(c) for c in counts)) if counts else set()
    if not common:
        return None
    single = sorted(k for k in common if all(c[k] == 1 for c in counts))
    if not single:
        # keys that only came as records (how many: as many as the data asked held) are the data's,
        # not the text's own labels: a text that holds none (files without notes) is no error
        return None
    groups: dict[tuple[int, ...], list[str]] = {}
    for k in sorted(common - set(single)):
        groups.setdefault(tuple(c[k] for c in counts), []).append(k)
    record = max(groups.values(), key=len) if groups else []
    view: View = {"parse": "lines", "single": single, "record": record}
    if record:
        first = distinct[0]
        view["start"] = min(record, key=lambda k: first.find(f"{k}:"))
    return view


PARSERS: dict[str, Callable[[str], Any]] = {
    "number": _number,
    "quantity": _quantity,
    "boolean": _boolean,
    "json": _json,
    "literal": _literal,
    "kv": _kv,
    "csv": _csv,
    "md": lambda s: read_md(s, FAIL),  # tables inside text, the text kept beside them (mdtables.py)
    "records": lambda s: read_records(s, FAIL),  # blocks of key: value lines (records.py): after lines
}
_LATE = frozenset({"records"})  # tried after a view of ``Key: value`` lines, whose labels say more


def infer_view(values: Sequence[Any], depth: int = 0) -> View | None:
    """The view every value at one place reads through, or None (nothing to read out)."""
    vs = [v for v in values if v is not None]
    if not vs or depth > 8:
        return None
    kinds = {type(v) for v in vs}
    if str in kinds and len(kinds) == 2 and kinds - {str} <= {list, dict}:
        return _infer_mixed(vs, depth)
    if kinds == {str}:
        distinct = list(dict.fromkeys(vs))
        if len(distinct) < MIN_DISTINCT:
            # "true" / "false": two values, but only with enough rows to have seen both by chance
            if len(vs) >= MIN_BOOLEAN_ROWS and all(_boolean(v) is not FAIL for v in distinct):
                return {"parse": "boolean"}
            return None
        for kind, parse in PARSERS.items():
            if (
                kind in _LATE
                or kind == "number"
                and _codes(distinct)
                or kind == "quantity"
                and not _units(distinct)
            ):
                continue
            parsed = [parse(v) for v in distinct]
            if all(p is not FAIL for p in parsed) and _consistent(kind, parsed):
                return _parsed_view({"parse": kind}, parsed, depth)
        skipped = _infer_skip(distinct, depth)
        if skipped is not None:
            return skipped
        lines = _infer_lines(distinct)
        if lines is not None:
            return _parsed_view(lines, [_lines(v, lines) for v in distinct], depth)
        blocks = [read_records(v, FAIL) for v in distinct]
        if all(b is not FAIL for b in blocks) and records_consistent(blocks):
            return _parsed_view({"parse": "records"}, blocks, depth)
        return None
    if kinds == {dict}:
        keys = list(dict.fromkeys(k for v in vs for k in v))
        if _map_like(vs, keys):
            # keyed by names or ids (ratings by hotel): one view for every entry, named or not yet seen
            sub = infer_view([x for v in vs for x in v.values()], depth + 1)
            return {"entries": sub} if sub is not None else None
        return _fields_view(vs, keys, depth)
    if kinds == {list}:
        if headed(vs):
            return _parsed_view({"header": True}, [header_rows(v) for v in vs], depth)
        width = {len(v) for v in vs}
        if len(width) == 1 and 2 <= (n := width.pop()) <= MAX_TUPLE and _heterogeneous(vs, n):
            positions = {}
            for i in range(n):
                sub = infer_view([v[i] for v in vs], depth + 1)
                if sub is not None:
                    positions[f"{POS}{i}"] = sub
            return {"tuple": n, "fields": positions}
        sub = infer_view([e for v in vs for e in v], depth + 1)
        return {"items": sub} if sub is not None else None
    return None


MAX_SKIP = 3  # header lines before a body (``Contents of <url>:`` above JSON or CSV)


def _skip(text: str, k: int) -> str:
    parts = text.split("\n", k)
    return parts[k] if len(parts) > k else ""


def _infer_skip(distinct: list[str], depth: int) -> View | None:
    """JSON or CSV after the same number of header lines in every clean text (a fetch tool's note
    and URL above the body): ``{"parse": kind, "skip": k}``."""
    for k in range(1, MAX_SKIP + 1):
        bodies = [_skip(v, k) for v in distinct]
        for kind in ("json", "csv"):
            parsed = [PARSERS[kind](b) for b in bodies]
            if all(p is not FAIL for p in parsed) and _consistent(kind, parsed):
                return _parsed_view({"parse": kind, "skip": k}, parsed, depth)
    return None


def _fields_view(vs: list[dict[str, Any]], keys: list[Any], depth: int) -> View | None:
    fields = {}
    for k in keys:
        sub = infer_view([v[k] for v in vs if k in v], depth + 1)
        if sub is not None:
            fields[k] = sub
    return {"fields": fields} if fields else None


def _records_view(parsed: list[dict[str, Any]], depth: int) -> View | None:
    """The view of what records read to: each record's values read again, field by field (records
    of many queries hold many fields, each a few: a table's rows, never a map keyed by ids)."""
    rows = [r for p in parsed for r in p[RECORDS]]
    rest = [{k: x for k, x in p.items() if k != RECORDS} for p in parsed]
    view = infer_view(rest, depth + 1) or {}
    items = _fields_view(rows, list(dict.fromkeys(k for r in rows for k in r)), depth + 2) if rows else None
    if items is not None:
        view = {**view, "fields": {**view.get("fields", {}), RECORDS: {"items": items}}}
    return view or None


def _parsed_view(view: View, parsed: list[Any], depth: int) -> View:
    """``view`` with the view of what it parsed to, if any, as ``then``. The text a markdown view
    keeps beside its tables is that same text: read again it would nest one more copy of every
    table rule per level."""
    if view.get("parse") == "md":
        parsed = [{k: x for k, x in p.items() if k != MD_TEXT} for p in parsed]
    then = _records_view(parsed, depth) if view.get("parse") == "records" else infer_view(parsed, depth + 1)
    return {**view, "then": then} if then is not None else view


def _infer_mixed(vs: list[Any], depth: int) -> View | None:
    """A place that held containers and text: the text read as one more container of that kind (a
    SQL tool's rows printed as ``repr`` only when a date or a ``Decimal`` is among them, else sent
    as a literal the recording already read). Containers stay as they are (``mixed``)."""
    kind = next(k for k in {type(v) for v in vs} if k is not str)
    strs = list(dict.fromkeys(v for v in vs if type(v) is str))
    parsed = [_literal(v) for v in strs]
    if any(p is FAIL or type(p) is not kind for p in parsed):
        return None
    view: View = {"parse": "literal", "mixed": True}
    then = infer_view([*parsed, *(v for v in vs if type(v) is not str)], depth + 1)
    if then is not None:
        view["then"] = then
    return view


def infer_root_view(
    results: Sequence[Any], arguments: Sequence[Mapping[str, Any] | None] | None = None
) -> View | None:
    """A tool's view (``infer_view`` over its clean results), and ``wrap`` when every result then
    is a list: a list at the root becomes ``{"items": [...]}``, so its elements are records with
    rules of their own (``$.items[*].pos2``) and its length a field, as for a list inside an object.
    With the calls' ``arguments`` (one per result), rows printed as tuples are named by the SQL
    query that selected them (``columns``: the argument; ``named``: the view of the named rows)."""
    many = one_or_many(results)
    if many:
        results = [[r] if r is not None and type(r) is not list else r for r in results]
    listed = results  # as the view reads them: it frames them itself
    frame = infer_frame(results)
    if frame is not None:  # what a server puts around its answer: the ends by position, the rest a list
        results = [framed(r, frame["frame"], frame.get("fixed")) for r in results]
    view = infer_view(results)
    if many:
        view = {**(view or {}), "many": True}
    if frame is not None:
        view = {**(view or {}), **frame}
    pairs = [(r, a) for r, a in zip(listed, arguments or [None] * len(listed), strict=True) if r is not None]
    read = [apply_view(view, r) if view is not None else r for r, _ in pairs]
    tables = [flat_table(r) if type(r) is list else FAIL for r in read]
    if tabular(read, tables):
        view = {**(view or {}), "table": True}
        sub = infer_view(tables)
        if sub is not None:
            view["tabled"] = sub
        read = [apply_view(sub, t) for t in tables] if sub is not None else tables
    arg = columns_arg(read, [a for _, a in pairs]) if arguments is not None else None
    if arg is not None:
        view = {**(view or {}), "columns": arg}
        star = star_columns(read, [a for _, a in pairs], arg)
        if star:
            view["star"] = star
        named = [name_rows(r, a, arg, star) for r, (_, a) in zip(read, pairs, strict=True)]
        sub = infer_view(named)
        if sub is not None:
            view["named"] = sub
        read = [apply_view(sub, r) for r in named] if sub is not None else named
    if read and all(type(r) is list for r in read) and any(r for r in read):
        # one value or a list of them (one block per match) under a key of its own: its length is
        # how many matched, not a size to pool with the lists of other tools
        view = {**(view or {}), "wrap": many_key(read) if many else WRAP}
    return view


def _codes(values: list[str]) -> bool:
    """Digits that name rather than count: ids and postal codes (all digits, one length of four or
    more, or eight digits or more). Read as numbers, they would meet rules of other sources that
    hold them as strings (a database's product ids)."""
    if not all(v.isdigit() for v in values):
        return False
    lengths = {len(v) for v in values}
    return (len(lengths) == 1 and min(lengths) >= 4) or max(lengths) >= 8


MAP_KEYS = 7  # as mapdetect: many keys, each object holding few of them
MAP_SHARE = 0.5


def _map_like(dicts: list[dict[str, Any]], keys: list[Any]) -> bool:
    return len(keys) >= MAP_KEYS and sum(len(d) for d in dicts) <= MAP_SHARE * len(keys) * len(dicts)


def _consistent(kind: str, parsed: list[Any]) -> bool:
    """Text that happens to split the same way is not a table: the tables of one place share their
    header, and ``key: value`` answers share at least two keys."""
    if kind == "csv":
        return len({tuple(rows[0]) for rows in parsed if rows}) == 1
    if kind == "kv":
        common = set.intersection(*(set(d) for d in parsed))
        return len(common) >= 2
    if kind == "md":  # tables of one place share a column or a named field
        named = [{k for r in d.get(MD_ROWS, ()) for k in r} | set(d.get(MD_PAIRS, {})) for d in parsed]
        return bool(set.intersection(*named))
    return True


def _signature(x: Any) -> Any:
    if type(x) is dict:
        return ("object", x.get("type") if type(x.get("type")) is str else None, frozenset(x))
    return type(x).__name__


def _heterogeneous(lists: list[list[Any]], n: int) -> bool:
    """Positions of different kinds (a row's id and name, a text block and an image block): a list
    of like elements is a collection, never a tuple."""
    per_position = [{_signature(v[i]) for v in lists} for i in range(n)]
    return any(per_position[i] != per_position[0] for i in range(1, n))


_ROOT_KEYS = ("wrap", "columns", "named", "many", "table", "tabled", "star", "frame", "fixed")


def apply_view(view: View, value: Any, args: Mapping[str, Any] | None = None) -> Any:
    """``value`` read through ``view`` (a copy where anything changes; the raw value is never
    touched); ``args``, the call's arguments, name the rows of a ``columns`` view."""
    if any(k in view for k in _ROOT_KEYS):
        value = root_listed(value, view.get("many"), view.get("frame"), view.get("fixed"))
        inner = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
        value = apply_view(inner, value) if inner else value
        if view.get("table") and type(value) is list:
            table = flat_table(value)
            if table is not FAIL:
                value = apply_view(view["tabled"], table) if "tabled" in view else table
        if "columns" in view:
            value = name_rows(value, args, view["columns"], view.get("star"))
            if "named" in view:
                value = apply_view(view["named"], value)
        wrap = view.get("wrap")
        return {wrap: value} if wrap is not None and type(value) is list else value
    kind = view.get("parse")
    if kind is not None:
        if type(value) is not str:
            if view.get("mixed") and type(value) in (list, dict) and "then" in view:
                return apply_view(view["then"], value)
            return value
        if "skip" in view:
            value = _skip(value, view["skip"])
        parsed = _lines(value, view) if kind == "lines" else PARSERS[kind](value)
        if parsed is FAIL:
            return value
        then = view.get("then")
        return apply_view(then, parsed) if then is not None else parsed
    if view.get("header"):
        rows = header_rows(value)
        if rows is FAIL:
            return value  # no longer a table under its header: the rows' rules speak to it
        return apply_view(view["then"], rows) if "then" in view else rows
    if "tuple" in view:
        if type(value) is not list:
            return value
        value = {f"{POS}{i}": e for i, e in enumerate(value)}
    entries = view.get("entries")
    if entries is not None:
        return {k: apply_view(entries, v) for k, v in value.items()} if type(value) is dict else value
    if "fields" in view:
        if type(value) is not dict:
            return value
        fields = view["fields"]
        out = dict(value)
        for k, sub in fields.items():
            if k in out:
                out[k] = apply_view(sub, out[k])
        return out
    items = view.get("items")
    if items is not None and type(value) is list:
        return [apply_view(items, e) for e in value]
    return value


def misreads(view: View, value: Any, where: str = "$") -> list[tuple[str, Any]]:
    """Places a view reads as text that hold something else (a number where ``"14"`` always was):
    ``(path, value)`` each. The read value passes its own rules there, so this is what speaks."""
    out: list[tuple[str, Any]] = []
    if any(k in view for k in _ROOT_KEYS):
        value = root_listed(value, view.get("many"), view.get("frame"), view.get("fixed"))
        inner = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
        return misreads(inner, value, where) if inner else out
    if "parse" in view:
        if value is not None and type(value) is not str and not view.get("mixed"):
            out.append((where, value))
        return out
    if "tuple" in view:
        if type(value) is not list:
            return out
        value = {f"{POS}{i}": e for i, e in enumerate(value)}
    if "entries" in view and type(value) is dict:
        for k, x in value.items():
            out.extend(misreads(view["entries"], x, f"{where}.{k}"))
    if "fields" in view and type(value) is dict:
        for k, sub in view["fields"].items():
            if k in value:
                out.extend(misreads(sub, value[k], f"{where}.{k}"))
    items = view.get("items")
    if items is not None and type(value) is list:
        for i, e in enumerate(value):
            out.extend(misreads(items, e, f"{where}[{i}]"))
    return out


def describe(view: View, where: str = "$") -> list[str]:
    """The view in words, one line per place that is read (``explain``)."""
    out: list[str] = []
    if any(k in view for k in _ROOT_KEYS):
        inner = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
        out = [f"{where}: one value alone read as a list of one"] if view.get("many") else []
        if "frame" in view:
            h, t = view["frame"]
            out.append(
                f"{where}: a list of {h} leading and {t} trailing values around the answer, read as "
                f"{{head0.., {json.dumps(FRAME_ITEMS)}: [...], tail0..}}"
            )
            for end, start in sorted(view.get("fixed", {}).items()):
                out.append(f"{where}.{end}: starts with {json.dumps(start)} (else the list stays unread)")
        out.extend(describe(inner, where) if inner else [])
        if view.get("table"):
            out.append(
                f"{where}: a flat list of cells read as rows (named by its header row, else by position)"
            )
            out.extend(describe(view["tabled"], f"{where}[*]") if "tabled" in view else [])
        if "columns" in view:
            out.append(f"{where}[*]: rows named by the columns the {view['columns']} argument selects")
            out.extend(describe(view["named"], where) if "named" in view else [])
        if "wrap" in view:
            out.append(f"{where}: a list, read as {{{json.dumps(view['wrap'])}: [...]}}")
        return out
    kind = view.get("parse")
    if kind is not None:
        out.append(f"{where}: text read as {kind}")
        if "then" in view:
            out.extend(describe(view["then"], where))
        return out
    if view.get("header"):
        out.append(f"{where}: rows under a header row, read as objects keyed by its names")
        out.extend(describe(view["then"], where) if "then" in view else [])
    if "tuple" in view:
        out.append(f"{where}: a list of {view['tuple']} read by position ({POS}0, {POS}1, ...)")
    if "entries" in view:
        out.extend(describe(view["entries"], f"{where}.*"))
    for k, sub in view.get("fields", {}).items():
        out.extend(describe(sub, f"{where}.{k}"))
    if "items" in view:
        out.extend(describe(view["items"], f"{where}[*]"))
    return out


__all__ = [
    "FAIL",
    "PARSERS",
    "View",
    "apply_view",
    "describe",
    "flat_table",
    "header_rows",
    "infer_root_view",
    "infer_view",
    "misreads",
]
