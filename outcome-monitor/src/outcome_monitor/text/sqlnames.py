"""The column names a SQL query's select list gives its rows.

A SQL tool that prints rows as tuples (``[(1174, 'Dmitri Sato', 7)]``) names no column; its
``query`` argument does: ``SELECT id, customer, qty FROM orders``. ``select_names`` reads the names
of the outermost select list (an alias after ``AS``, else a column's last dotted part, else the
expression as written), or None where the query does not name them (``SELECT *``, no ``SELECT``, two
columns of one name). It reads; it checks nothing.
"""

from __future__ import annotations

import re

MAX_QUERY_CHARS = 20_000
_START = re.compile(
    r"^\s*(?:\(\s*)*select\s+(?:distinct\s+on\s*\([^()]*\)\s*|distinct\s+|all\s+)?(?:top\s+\d+\s+)?", re.I
)
_ENDS = frozenset({"from", "where", "group", "order", "limit", "having", "union", "window", "qualify",
                   "offset", "fetch", "into", "intersect", "except"})  # fmt: skip
_ALIAS = re.compile(r"^(.*?)\s+as\s+(\"[^\"]+\"|`[^`]+`|\[[^\]]+\]|[A-Za-z_][\w$]*)\s*$", re.I | re.S)
_COLUMN = re.compile(r"^(?:(?:\"[^\"]+\"|[A-Za-z_][\w$]*)\s*\.\s*)*(\"[^\"]+\"|[A-Za-z_][\w$]*)$")
_IMPLICIT = re.compile(r"^(.*[\w)\]\"'`])\s+(\"[^\"]+\"|[A-Za-z_][\w$]*)$", re.S)
_NOT_ALIAS = frozenset({"end", "null", "true", "false", "desc", "asc"})
_WORD = re.compile(r"[A-Za-z_]\w*")


def select_names(query: str) -> list[str] | None:
    """The names of the columns ``query`` selects, in order, or None (not said by the query)."""
    if len(query) > MAX_QUERY_CHARS:
        return None
    m = _START.match(query)
    if m is None:
        return None
    items = _select_items(query, m.end())
    if not items:
        return None
    names = []
    for item in items:
        name = _name(item)
        if name is None:
            return None
        names.append(name)
    return names if len(set(names)) == len(names) else None


_STAR = re.compile(r"^\s*select\s+\*\s+from\s+([A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?)(?:\s|;|$)", re.I)


def star_table(query: str) -> str | None:
    """The table of ``SELECT * FROM table ...`` (its columns are the table's, which the query does
    not name), else None."""
    if len(query) > MAX_QUERY_CHARS:
        return None
    m = _STAR.match(query)
    return m.group(1).lower() if m is not None else None


def _select_items(q: str, i: int) -> list[str]:
    """The select list's items from ``i``: split at commas outside brackets and quotes, up to the
    first clause word (``FROM``, ``WHERE``, ...) at the outer level."""
    items: list[str] = []
    depth, start, n = 0, i, len(q)
    while i < n:
        c = q[i]
        if c in "'\"`":
            close = q.find(c, i + 1)
            if close < 0:
                return []
            i = close + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                break  # the end of a parenthesised query
        elif depth == 0 and c == ",":
            items.append(q[start:i])
            start = i + 1
        elif depth == 0 and c == ";":
            break
        elif (
            depth == 0
            and (c.isalpha() or c == "_")
            and (i == 0 or not (q[i - 1].isalnum() or q[i - 1] in "_.$"))
        ):
            w = _WORD.match(q, i)
            if w is not None and w.group().lower() in _ENDS:
                break
            i = w.end() if w is not None else i + 1
            continue
        i += 1
    items.append(q[start:i])
    return [" ".join(x.split()) for x in items]


def _name(item: str) -> str | None:
    if not item or item == "*" or item.endswith(".*"):
        return None
    m = _ALIAS.match(item)
    if m is not None:
        return _unquote(m.group(2))
    m = _COLUMN.match(item)
    if m is not None:
        return _unquote(m.group(1))
    m = _IMPLICIT.match(item)
    if m is not None and m.group(2).lower() not in _NOT_ALIAS:
        return _unquote(m.group(2))  # ``COUNT(*) n``: an alias without AS
    return item  # an expression without an alias: the engines name it as written


def _unquote(name: str) -> str:
    return name[1:-1] if name[:1] in '"`[' else name


__all__ = ["select_names", "star_table"]
