"""Tables read out of lists: rows under a header row, a flat list of cells (one content block per
cell), one match alone beside lists of them, and tuple rows named by the columns their SQL query
selects. Used by ``views``; each reader gives ``FAIL`` where a value is no such table (then the
value stays as it came, and the rules learned on the read tables speak to it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from outcome_monitor.text.sqlnames import select_names, star_table

FAIL: Any = type("Fail", (), {"__repr__": lambda self: "<unreadable>"})()
MIN_DISTINCT = 3  # a view is learned from at least this many distinct values at its place
MAX_TUPLE = 30
POS = "pos"
WRAP_MANY = "matches"
HEADER = re.compile(r"^[A-Za-z_#][\w .#()/-]{0,30}$")


MIN_NAMED_QUERIES = 3


def _signatures(x: Any) -> Any:
    if type(x) is dict:
        return ("object", frozenset(x))
    return "number" if type(x) in (int, float) else type(x).__name__


def header_rows(value: Any) -> Any:
    """Rows whose first row names the columns (``[["id", "name"], [1, "a"], ...]``, as a sheet is
    read) as objects keyed by those names; ``FAIL`` unless every row is a list as wide as the
    header and the header's cells are distinct names."""
    if type(value) is not list or not value or any(type(r) is not list for r in value):
        return FAIL
    head = value[0]
    k = len(head)
    if not 2 <= k <= MAX_TUPLE or len(set(map(str, head))) != k:
        return FAIL
    if not all(type(h) is str and HEADER.match(h) for h in head) or any(len(r) != k for r in value):
        return FAIL
    return [dict(zip(head, r, strict=True)) for r in value[1:]]


def headed(values: list[Any]) -> bool:
    """Tables with a header row at this place: every value reads so (``header_rows``), at least
    ``MIN_DISTINCT`` distinct ones, some body holds a cell that is no text (else the first row
    could be a row like the others), and some row holds cells of different kinds."""
    tables = [header_rows(v) for v in values]
    if any(t is FAIL for t in tables):
        return False
    if len({json.dumps(v, sort_keys=True) for v in values}) < MIN_DISTINCT:
        return False
    if not any(type(c) is not str and c is not None for t in tables for row in t for c in row.values()):
        return False
    # rows are records when their columns hold different kinds (as views' tuples): rows of like
    # cells stay lists, a collection whose widths the collection rules keep
    return any(len({_signatures(c) for c in row.values() if c is not None}) > 1 for t in tables for row in t)


def one_or_many(results: Sequence[Any]) -> bool:
    """Whether a place holds a list of like elements, or one of them alone: a server that sends one
    content block per match (a row, a cell) sends one block when one matched, and the recording
    reads one block as its value, several as a list. Each lone value must be shaped like an element
    of the lists (an object with keys the elements had, a scalar of an element's type). Whether or
    not the recording held an empty list there (no block: nothing matched), the list read keeps no
    ``> 0`` on its length (``many_length``): a search that finds nothing is as clean."""
    vs = [r for r in results if r is not None]
    lists = [r for r in vs if type(r) is list]
    singles = [r for r in vs if type(r) is not list]
    if not lists or not singles or not any(lists):
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


def many_length(view: Mapping[str, Any] | None) -> str | None:
    """The length field of a list of one or more matches (a ``many`` view's ``wrap``): a field no
    rule may keep above 0."""
    if view is None or not view.get("many") or "wrap" not in view:
        return None
    return f"len({view['wrap']})"


def many_key(read: list[Any]) -> str:
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
    if all(type(c) is str for c in cells):
        return _text_table(cells)
    for k in range(2, min(MAX_TUPLE, n // 2) + 1):
        if n % k:
            continue
        rows = [cells[i : i + k] for i in range(0, n, k)]
        head = rows[0]
        header = all(type(h) is str and HEADER.match(h) for h in head) and len(set(head)) == k
        body = rows[1:] if header else rows
        kinds = [{_signatures(r[i]) for r in body if r[i] is not None} for i in range(k)]
        if any(len(c) > 1 for c in kinds) or all(c <= {"str"} for c in kinds):
            continue  # one column of two kinds; or all text, whose width nothing says
        names = head if header else [f"{POS}{i}" for i in range(k)]
        return [dict(zip(names, r, strict=True)) for r in body]
    if n <= MAX_TUPLE and any(type(c) is not str for c in cells if c is not None):
        return [{f"{POS}{i}": c for i, c in enumerate(cells)}]
    return FAIL


def _text_class(c: str) -> tuple[bool, bool, bool, bool]:
    """A text cell's coarse look: capitalised, all lower case, spaced, with digits."""
    return (c[:1].isupper(), c == c.lower(), " " in c, any(ch.isdigit() for ch in c))


def _text_table(cells: list[str]) -> Any:
    """Text cells alone under a header: the smallest width ``k`` whose first row is ``k`` distinct
    names and whose two or more body rows keep each column's look (``_text_class``) with two
    columns of different looks (``ops | Grace``); ``FAIL`` when none fits."""
    n = len(cells)
    for k in range(2, min(MAX_TUPLE, n // 3) + 1):
        if n % k:
            continue
        head, body = cells[:k], [cells[i : i + k] for i in range(k, n, k)]
        if len(set(head)) != k or not all(HEADER.match(h) for h in head):
            continue
        looks = [{_text_class(r[i]) for r in body} for i in range(k)]
        if all(len(c) == 1 for c in looks) and len({next(iter(c)) for c in looks}) > 1:
            return [dict(zip(head, r, strict=True)) for r in body]
    return FAIL


def tabular(read: list[Any], tables: list[Any]) -> bool:
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


def columns_arg(read: list[Any], arguments: list[Mapping[str, Any] | None]) -> str | None:
    """The string argument whose SQL select list names the columns of every row every clean result
    held (tuple rows as wide as its list, or objects of its names), in at least ``MIN_NAMED_QUERIES``
    distinct queries (a query naming no column, ``SELECT *``, leaves tuple rows named by position).
    None otherwise."""
    if not read or not all(type(r) is list for r in read):
        return None
    kinds = {type(row) for r in read for row in r}
    if kinds not in ({list}, {dict}):
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
            if any(len(row) != len(cols) or (type(row) is dict and set(row) != set(cols)) for row in r):
                break  # the query does not say the rows' columns: not what names them
            if r:
                queries.add(q)  # type: ignore[arg-type]
        else:
            if len(queries) >= MIN_NAMED_QUERIES and (best is None or len(queries) > best[0]):
                best = (len(queries), name)
    return best[1] if best is not None else None


def star_columns(read: list[Any], arguments: list[Mapping[str, Any] | None], arg: str) -> dict[str, Any]:
    """Per table, the columns every row of ``SELECT * FROM table`` held in the clean results (the
    keys of object rows, in order; the width of tuple rows), where at least ``MIN_NAMED_QUERIES``
    distinct results of it agreed. A table whose rows differed is left out."""
    seen: dict[str, set[str]] = {}
    spec: dict[str, Any] = {}
    broken: set[str] = set()
    for r, a in zip(read, arguments, strict=True):
        q = a.get(arg) if a else None
        table = star_table(q) if type(q) is str else None
        if table is None or not r:
            continue
        for row in r:
            got: Any = list(row) if type(row) is dict else len(row) if type(row) is list else None
            if got is None or spec.setdefault(table, got) != got:
                broken.add(table)
        seen.setdefault(table, set()).add(json.dumps(r, sort_keys=True, default=str))
    return {t: v for t, v in sorted(spec.items()) if t not in broken and len(seen[t]) >= MIN_NAMED_QUERIES}


def name_rows(
    value: Any, args: Mapping[str, Any] | None, arg: str, star: Mapping[str, Any] | None = None
) -> Any:
    """Rows (lists) as objects keyed by the columns the query in ``args[arg]`` names; by position
    (``pos0``, ...) when it names none. A row of another width than the query names stays a list,
    and an object row without the query's columns becomes the list of its values, so the type rule
    of the rows speaks to it (a column dropped)."""
    if type(value) is not list:
        return value
    q = args.get(arg) if args else None
    cols = select_names(q) if type(q) is str else None
    table = star_table(q) if cols is None and star and type(q) is str else None
    known = star.get(table) if star and table is not None else None
    if type(known) is list:
        cols = known  # the columns every clean SELECT * of this table gave
    out = []
    for row in value:
        if type(row) is dict and cols is not None and set(row) != set(cols):
            row = list(row.values())
        elif type(row) is list:
            if type(known) is int and len(row) != known:
                pass  # narrower or wider than every clean row of this table: stays a list
            elif cols is None or type(known) is int:
                row = {f"{POS}{i}": e for i, e in enumerate(row)}
            elif len(row) == len(cols):
                row = dict(zip(cols, row, strict=True))
        out.append(row)
    return out
