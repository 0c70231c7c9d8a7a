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
  shape rules: a dropped block or a changed ``mimeType`` fires.

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

from outcome_monitor.text.parse import parse_text
from outcome_monitor.text.pyrepr import FAIL as UNREAD_REPR
from outcome_monitor.text.pyrepr import read_repr
from outcome_monitor.text.sqlnames import select_names

View = dict[str, Any]
FAIL: Any = type("Fail", (), {"__repr__": lambda self: "<unreadable>"})()
MIN_DISTINCT = 3  # a view is learned from at least this many distinct values at its place
MIN_BOOLEAN_ROWS = 7
MAX_TUPLE = 30
MAX_TEXT = 200_000  # longer text stays text: parsing it costs more than it tells
POS = "pos"
WRAP = "items"
WRAP_MANY = "matches"
ENTRIES = "entries"  # the records of ``Key: value`` lines that repeat together

_NUMBER = re.compile(r"^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$")
_LEADING_ZERO = re.compile(r"^\s*[-+]?0\d")
_HEADER = re.compile(r"^[A-Za-z_#][\w .#()/-]{0,30}$")
_KV = re.compile(r"^\s*([A-Za-z][\w .()/-]{0,40}?)\s*:\s*(.*?)\s*$")


def _number(s: str) -> Any:
    if len(s) > 40 or not _NUMBER.match(s) or _LEADING_ZERO.match(s):
        return FAIL  # "00123" is a code, not a number
    try:
        v = float(s) if any(c in s for c in ".eE") else int(s)
    except ValueError:
        return FAIL
    return v if not isinstance(v, float) or math.isfinite(v) else FAIL


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
        if len(set(header)) != len(header) or not all(_HEADER.match(h) for h in header):
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


def _lines(text: str, view: View) -> Any:
    """``Key: value`` lines among other text (a log, a commit): the keys every clean text held once
    as fields, and the keys that repeat together as records under ``entries`` (a new record at each
    ``start`` key). FAIL when none of the keys is there (an error page, an error message)."""
    if len(text) > MAX_TEXT:
        return FAIL
    single, record, start = set(view["single"]), set(view["record"]), view.get("start")
    out: dict[str, Any] = {}
    entries: list[dict[str, str]] = []
    for ln in text.splitlines():
        m = _KEY_LINE.match(ln)
        if m is None:
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
    return out


def _infer_lines(distinct: list[str]) -> View | None:
    counts = [_key_counts(v) for v in distinct]
    common = set.intersection(*(set(c) for c in counts)) if counts else set()
    if not common:
        return None
    single = sorted(k for k in common if all(c[k] == 1 for c in counts))
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
    "boolean": _boolean,
    "json": _json,
    "literal": _literal,
    "kv": _kv,
    "csv": _csv,
}


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
            if kind == "number" and _codes(distinct):
                continue
            parsed = [parse(v) for v in distinct]
            if all(p is not FAIL for p in parsed) and _consistent(kind, parsed):
                view: View = {"parse": kind}
                then = infer_view(parsed, depth + 1)
                if then is not None:
                    view["then"] = then
                return view
        lines = _infer_lines(distinct)
        if lines is not None:
            then = infer_view([_lines(v, lines) for v in distinct], depth + 1)
            if then is not None:
                lines["then"] = then
            return lines
        return None
    if kinds == {dict}:
        keys = list(dict.fromkeys(k for v in vs for k in v))
        if _map_like(vs, keys):
            # keyed by names or ids (ratings by hotel): one view for every entry, named or not yet seen
            sub = infer_view([x for v in vs for x in v.values()], depth + 1)
            return {"entries": sub} if sub is not None else None
        fields = {}
        for k in keys:
            sub = infer_view([v[k] for v in vs if k in v], depth + 1)
            if sub is not None:
                fields[k] = sub
        return {"fields": fields} if fields else None
    if kinds == {list}:
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
    many = _one_or_many(results)
    if many:
        results = [[r] if r is not None and type(r) is not list else r for r in results]
    view = infer_view(results)
    if many:
        view = {**(view or {}), "many": True}
    pairs = [
        (r, a) for r, a in zip(results, arguments or [None] * len(results), strict=True) if r is not None
    ]
    read = [apply_view(view, r) if view is not None else r for r, _ in pairs]
    tables = [flat_table(r) if type(r) is list else FAIL for r in read]
    if _tabular(read, tables):
        view = {**(view or {}), "table": True}
        sub = infer_view(tables)
        if sub is not None:
            view["tabled"] = sub
        read = [apply_view(sub, t) for t in tables] if sub is not None else tables
    arg = _columns_arg(read, [a for _, a in pairs]) if arguments is not None else None
    if arg is not None:
        view = {**(view or {}), "columns": arg}
        named = [_name_rows(r, a, arg) for r, (_, a) in zip(read, pairs, strict=True)]
        sub = infer_view(named)
        if sub is not None:
            view["named"] = sub
        read = [apply_view(sub, r) for r in named] if sub is not None else named
    if read and all(type(r) is list for r in read) and any(r for r in read):
        # one value or a list of them (one block per match) under a key of its own: its length is
        # how many matched, not a size to pool with the lists of other tools
        view = {**(view or {}), "wrap": _many_key(read) if many else WRAP}
    return view


MIN_NAMED_QUERIES = 3


def _signatures(x: Any) -> Any:
    if type(x) is dict:
        return ("object", frozenset(x))
    return "number" if type(x) in (int, float) else type(x).__name__


def _one_or_many(results: Sequence[Any]) -> bool:
    """Whether a place holds a list of like elements, or one of them alone: a server that sends one
    content block per match (a row, a cell) sends one block when one matched, and the recording
    reads one block as its value, several as a list. Each lone value must be shaped like an element
    of the lists (an object with keys the elements had, a scalar of an element's type), and the
    recording must hold an empty list there too (no block: nothing matched)."""
    vs = [r for r in results if r is not None]
    lists = [r for r in vs if type(r) is list]
    singles = [r for r in vs if type(r) is not list]
    if not lists or not singles or not any(lists) or all(lists):
        # no result of no match in the recording: read as a list, its length would be kept positive
        # though a search that finds nothing is as clean
        return False
    kinds = {_signatures(e) for r in lists for e in r}
    if any(type(e) is list for r in lists for e in r):
        return False
    for x in singles:
        sig = _signatures(x)
        if type(x) is dict:
            if not any(type(k) is tuple and k[0] == "object" and sig[1] <= k[1] for k in kinds):
                return False
        elif sig not in kinds:
            return False
    return True


def _many_key(read: list[Any]) -> str:
    """The key a list of one or more matches is read under: named for its elements' fields
    (``matches_cell_value``), so tools of other matches keep lengths of their own."""
    keys = sorted({str(k) for r in read for e in r if type(e) is dict for k in e})
    name = "_".join(re.sub(r"\W+", "", k) for k in keys)[:40]
    return f"{WRAP_MANY}_{name}" if name else WRAP_MANY


def flat_table(cells: list[Any]) -> Any:
    """A flat list of cells (one content block per cell) read as rows: the smallest row width ``k``
    (2 to ``MAX_TUPLE``) that splits it into rows whose every column holds one kind (a ``None`` cell
    any), with a first row of distinct names (the header) naming the columns when the body is not
    all text, else positions (``pos0``, ...). A list too short for two rows is one row. ``FAIL``
    when no width fits (a cell dropped, a number become text): the list stays as it was."""
    n = len(cells)
    if not n or any(type(c) in (list, dict) for c in cells):
        return FAIL
    for k in range(2, min(MAX_TUPLE, n // 2) + 1):
        if n % k:
            continue
        rows = [cells[i : i + k] for i in range(0, n, k)]
        head = rows[0]
        header = all(type(h) is str and _HEADER.match(h) for h in head) and len(set(head)) == k
        body = rows[1:] if header else rows
        kinds = [{_signatures(r[i]) for r in body if r[i] is not None} for i in range(k)]
        if any(len(c) > 1 for c in kinds) or all(c <= {"str"} for c in kinds):
            continue  # one column of two kinds; or all text, whose width nothing says
        names = head if header else [f"{POS}{i}" for i in range(k)]
        return [dict(zip(names, r, strict=True)) for r in body]
    if n <= MAX_TUPLE and any(type(c) is not str for c in cells if c is not None):
        return [{f"{POS}{i}": c for i, c in enumerate(cells)}]
    return FAIL


def _tabular(read: list[Any], tables: list[Any]) -> bool:
    """Every result a flat list read as a table, at least ``MIN_DISTINCT`` of them of two rows or
    more (a width seen repeating, not a single row taken for one). A list of text cells alone, whose
    width nothing says, leaves the place unread: its rows could not be told from a broken table."""
    if not read or any(t is FAIL for t in tables):
        return False
    wide = {
        json.dumps(r, sort_keys=True)
        for r, t in zip(read, tables, strict=True)
        if t is not FAIL and len(t) >= 2
    }
    return len(wide) >= MIN_DISTINCT


def _columns_arg(read: list[Any], arguments: list[Mapping[str, Any] | None]) -> str | None:
    """The string argument whose SQL select list names the columns of every row of the tuple rows
    every clean result held, as wide as its list, in at least ``MIN_NAMED_QUERIES`` distinct queries
    (a query naming no column, ``SELECT *``, leaves its rows named by position). None otherwise."""
    if not read or not all(type(r) is list and all(type(row) is list for row in r) for r in read):
        return None
    if not any(r for r in read):
        return None
    best: tuple[int, str] | None = None
    names = sorted({k for a in arguments if a for k, v in a.items() if type(v) is str})
    for name in names:
        queries: set[str] = set()
        for r, a in zip(read, arguments, strict=True):
            q = a.get(name) if a else None
            cols = select_names(q) if type(q) is str else None
            if cols is None:
                continue
            if any(len(row) != len(cols) for row in r):
                break  # the query does not say the rows' width: not what names them
            if r:
                queries.add(q)  # type: ignore[arg-type]
        else:
            if len(queries) >= MIN_NAMED_QUERIES and (best is None or len(queries) > best[0]):
                best = (len(queries), name)
    return best[1] if best is not None else None


def _name_rows(value: Any, args: Mapping[str, Any] | None, arg: str) -> Any:
    """Rows (lists) as objects keyed by the columns the query in ``args[arg]`` names; by position
    (``pos0``, ...) when it names none. A row of another width than the query names stays a list,
    so the type rule of the rows speaks to it (a column dropped)."""
    if type(value) is not list:
        return value
    q = args.get(arg) if args else None
    cols = select_names(q) if type(q) is str else None
    out = []
    for row in value:
        if type(row) is list:
            if cols is None:
                row = {f"{POS}{i}": e for i, e in enumerate(row)}
            elif len(row) == len(cols):
                row = dict(zip(cols, row, strict=True))
        out.append(row)
    return out


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


_ROOT_KEYS = ("wrap", "columns", "named", "many", "table", "tabled")


def apply_view(view: View, value: Any, args: Mapping[str, Any] | None = None) -> Any:
    """``value`` read through ``view`` (a copy where anything changes; the raw value is never
    touched); ``args``, the call's arguments, name the rows of a ``columns`` view."""
    if any(k in view for k in _ROOT_KEYS):
        if view.get("many") and value is not None and type(value) is not list:
            value = [value]
        inner = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
        value = apply_view(inner, value) if inner else value
        if view.get("table") and type(value) is list:
            table = flat_table(value)
            if table is not FAIL:
                value = apply_view(view["tabled"], table) if "tabled" in view else table
        if "columns" in view:
            value = _name_rows(value, args, view["columns"])
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
        parsed = _lines(value, view) if kind == "lines" else PARSERS[kind](value)
        if parsed is FAIL:
            return value
        then = view.get("then")
        return apply_view(then, parsed) if then is not None else parsed
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
        if view.get("many") and value is not None and type(value) is not list:
            value = [value]
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
    if "tuple" in view:
        out.append(f"{where}: a list of {view['tuple']} read by position ({POS}0, {POS}1, ...)")
    if "entries" in view:
        out.extend(describe(view["entries"], f"{where}.*"))
    for k, sub in view.get("fields", {}).items():
        out.extend(describe(sub, f"{where}.{k}"))
    if "items" in view:
        out.extend(describe(view["items"], f"{where}[*]"))
    return out


__all__ = ["FAIL", "PARSERS", "View", "apply_view", "describe", "infer_root_view", "infer_view", "misreads"]
