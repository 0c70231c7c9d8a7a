"""Silent faults on an MCP tool result, as a real server or a broken hop in front of it would produce them.

Written for this benchmark alone: it shares no code with the project's fault library (``harness/faults``)
and imports nothing of the project. A result is first read into a ``Payload`` of one form:

* ``structured``: the result's ``structuredContent`` (a JSON value);
* ``json_text``: one text block that reads as JSON (a server without ``outputSchema`` printing JSON);
* ``literal_text``: one text block that reads as a Python literal (``[{'id': 1}]``, ``[(1, 'a')]``);
* ``text``: any other single text block;
* ``blocks``: several content blocks and no structured content (the list of block dicts).

Two forms hold another inside: structured content that wraps one text (``{"content": "<text>"}``), whose
text reads as one of the forms above, and a ``text`` of header lines before a JSON body (``read_framed``).
The shim tries a fault on the outer form first and, where it finds nothing to change there, on the inner
one, printed back in the server's own layout (``render_like``).

Each fault is ``fault(payload, rng, ctx) -> Payload | None``: the changed payload, or None where the
fault cannot apply to this result (no number to negate, no list to truncate). Every choice comes from
``rng`` (seeded by the shim); nothing here reads the clock.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Path_ = tuple[Any, ...]


@dataclass
class Payload:
    form: str  # structured | json_text | literal_text | text | blocks
    value: Any


@dataclass
class Context:
    """What the shim knows beside the result: the call, and argument values seen earlier per tool."""

    tool: str
    arguments: dict[str, Any]
    seen: dict[tuple[str, str], list[Any]] = field(default_factory=dict)


PLACEHOLDERS = ("N/A", "null", "undefined", "TODO", "Lorem ipsum dolor sit amet", "-", "TBD", "none")
OFF_SET = ("unknown", "pending_review", "UNSPECIFIED", "archived", "other")
ERROR_TEXTS = (
    "Error: upstream request timed out after 30000 ms",
    "Database error: database is locked",
    "fatal: unable to access repository: Connection reset by peer",
    "Traceback (most recent call last):\n  File \"server.py\", line 212, in handle\nKeyError: 'result'",
    "Internal Server Error",
    "Exception: rate limit exceeded, retry later",
)
ERROR_PAGES = tuple(
    f"<!DOCTYPE html>\n<html><head><title>{title}</title></head>\n<body><center><h1>{title}</h1></center>"
    "<hr><center>nginx</center></body></html>\n"
    for title in ("502 Bad Gateway", "503 Service Temporarily Unavailable", "504 Gateway Time-out")
)
DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?")
# a standalone number in text: not part of a word, a date, a hash or a version
NUMBER = re.compile(r"(?<![\w.:/-])\d+(?:\.\d+)?(?![\w.:/-])")
# DuckDB prints DATE columns as datetime.date(2024, 2, 1), which no literal reader takes: read as a marked
# ISO string (so a date fault can move it), printed back as it was
DATE_CALL = re.compile(r"datetime\.date\((\d{4}), (\d{1,2}), (\d{1,2})\)")
MARKED = re.compile(r"'\u00a7date:(\d{4})-(\d{2})-(\d{2})\u00a7'")
KEY_LINE = re.compile(r"^(\s*[A-Za-z][\w .-]{0,30}:\s+)(\S.*)$", re.M)
CATEGORICAL = re.compile(r"^[A-Za-z][A-Za-z_-]{1,24}$")  # one word: a status, a type, a day


# ---- reading and writing a tree (dicts, lists, tuples, scalars) ----


def walk(tree: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, tree
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from walk(v, (*path, k))
    elif isinstance(tree, list | tuple):
        for i, v in enumerate(tree):
            yield from walk(v, (*path, i))


def replaced(tree: Any, path: Path_, new: Any) -> Any:
    """A copy of ``tree`` with the node at ``path`` set to ``new`` (tuples stay tuples)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out = dict(tree)
        out[head] = replaced(tree[head], rest, new)
        return out
    items = list(tree)
    items[head] = replaced(items[head], rest, new)
    return tuple(items) if isinstance(tree, tuple) else items


def removed(tree: Any, path: Path_) -> Any:
    """A copy of ``tree`` without the node at ``path`` (a dict key or a sequence item)."""
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    if isinstance(parent, dict):
        new_parent: Any = {k: v for k, v in parent.items() if k != path[-1]}
    else:
        items = [v for i, v in enumerate(parent) if i != path[-1]]
        new_parent = tuple(items) if isinstance(parent, tuple) else items
    return replaced(tree, path[:-1], new_parent)


def _scalars(tree: Any) -> list[tuple[Path_, Any]]:
    return [(p, v) for p, v in walk(tree) if not isinstance(v, dict | list | tuple)]


def _number_in(v: Any) -> float | None:
    """The number a leaf says: a JSON number, or a string that is one (``"14"``, ``"6.0"``)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, str) and re.fullmatch(r"-?\d+(?:\.\d+)?", v.strip()):
        return float(v)
    return None


def _tree(p: Payload) -> bool:
    return p.form in ("structured", "json_text", "literal_text")


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return items[rng.randrange(len(items))]


# ---- the faults ----


def drop_field(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A field missing: one key of one object, one column of one row, or one ``key: value`` line."""
    if _tree(p):
        spots = [(*path, k) for path, v in walk(p.value) if isinstance(v, dict) for k in v]
        spots += [
            (*path, i)
            for path, v in walk(p.value)
            if isinstance(v, tuple) and len(v) > 1
            for i in range(len(v))
        ]
        return Payload(p.form, removed(p.value, _pick(rng, spots))) if spots else None
    if p.form == "text":
        lines = p.value.split("\n")
        keyed = [i for i, line in enumerate(lines) if KEY_LINE.match(line)]
        if not keyed:
            return None
        gone = _pick(rng, keyed)
        return Payload("text", "\n".join(line for i, line in enumerate(lines) if i != gone))
    return _drop_block(p, rng)


def _drop_block(p: Payload, rng: random.Random) -> Payload | None:
    if p.form == "blocks" and len(p.value) > 1:
        gone = rng.randrange(len(p.value))
        return Payload("blocks", [b for i, b in enumerate(p.value) if i != gone])
    return None


def wrong_type(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A value of another type: a number as a string or the reverse, a boolean as text, a string as null."""
    if not _tree(p):
        return None
    spots = [(path, v) for path, v in _scalars(p.value) if v is not None and path]
    if not spots and p.value is not None and not isinstance(p.value, dict | list | tuple):
        spots = [((), p.value)]
    if not spots:
        return None
    path, v = _pick(rng, spots)
    if isinstance(v, bool):
        new: Any = str(v).lower()
    elif isinstance(v, int | float):
        new = str(v)
    elif _number_in(v) is not None:
        n = float(v)
        new = int(n) if n.is_integer() else n
    elif isinstance(v, str):
        new = None
    else:  # a date or another literal object
        new = str(v)
    return Payload(p.form, replaced(p.value, path, new))


def negative_or_zero(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A positive number become negative or zero, wherever it sits (a number, a numeric string, text)."""
    zero = rng.random() < 0.5
    if _tree(p):
        spots = [(path, v) for path, v in _scalars(p.value) if (_number_in(v) or 0) > 0]
        if not spots:
            return None
        path, v = _pick(rng, spots)
        n = _number_in(v) or 0.0
        new_n: float = 0.0 if zero else -n
        new: Any = new_n
        if isinstance(v, int) or (isinstance(v, str) and "." not in v):
            new = int(new_n)
        if isinstance(v, str):
            new = str(new)
        return Payload(p.form, replaced(p.value, path, new))
    if p.form == "text":
        found = [m for m in NUMBER.finditer(p.value) if float(m.group()) > 0]
        if not found:
            return None
        m = _pick(rng, found)
        new_text = "0" if zero else "-" + m.group()
        return Payload("text", p.value[: m.start()] + new_text + p.value[m.end() :])
    return None


def out_of_set(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A categorical value (a status, a type, a day name) replaced by one outside its set."""
    if _tree(p):
        spots = [(path, v) for path, v in _scalars(p.value) if isinstance(v, str) and CATEGORICAL.match(v)]
        if not spots:
            return None
        path, v = _pick(rng, spots)
        return Payload(p.form, replaced(p.value, path, _pick(rng, [o for o in OFF_SET if o != v])))
    if p.form == "text":
        found = [m for m in KEY_LINE.finditer(p.value) if CATEGORICAL.match(m.group(2).strip())]
        if not found:
            return None
        m = _pick(rng, found)
        new = _pick(rng, [o for o in OFF_SET if o != m.group(2).strip()])
        return Payload("text", p.value[: m.start(2)] + new + p.value[m.end(2) :])
    return None


def _lists(p: Payload, least: int) -> list[tuple[Path_, Any]]:
    return [(path, v) for path, v in walk(p.value) if isinstance(v, list) and len(v) >= least]


def empty_list(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A list that had items comes back empty (rows, entries, blocks)."""
    if _tree(p):
        spots = _lists(p, 1)
        return Payload(p.form, replaced(p.value, _pick(rng, spots)[0], [])) if spots else None
    return None


def truncated_list(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A list cut short: only its first items (rows, text records separated by blank lines, blocks)."""
    if _tree(p):
        spots = _lists(p, 2)
        if not spots:
            return None
        path, v = _pick(rng, spots)
        return Payload(p.form, replaced(p.value, path, v[: rng.randrange(1, len(v))]))
    if p.form == "text":
        # records separated by blank lines, each separator kept as it was
        parts = re.split(r"(\n[ \t]*\n\s*)", p.value)
        records = len([r for r in parts[::2] if r.strip()])
        if records < 2 or not parts[0].strip():
            return None
        return Payload("text", "".join(parts[: 2 * rng.randrange(1, records)]))
    if p.form == "blocks" and len(p.value) > 1:
        return Payload("blocks", p.value[: rng.randrange(1, len(p.value))])
    return None


def _whole(p: Payload, text: str) -> Payload:
    """The whole result replaced by ``text``; a structured result of one string keeps its wrapper."""
    if p.form == "structured" and isinstance(p.value, dict) and len(p.value) == 1:
        ((key, v),) = p.value.items()
        if isinstance(v, str):
            return Payload("structured", {key: text})
    return Payload("text", text)


def error_text(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """An error reported as a normal result (no ``isError``)."""
    return _whole(p, _pick(rng, list(ERROR_TEXTS)))


def error_page(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A gateway's HTML error page in place of the result (no ``isError``)."""
    return _whole(p, _pick(rng, list(ERROR_PAGES)))


def placeholder(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A value replaced by a placeholder (``N/A``, ``TODO``, lorem text) where a real value belongs."""
    ph = _pick(rng, list(PLACEHOLDERS))
    if _tree(p):
        spots = [
            (path, v)
            for path, v in _scalars(p.value)
            if v not in (None, "", *PLACEHOLDERS) and not _marked(v)
        ]
        if not spots:
            return None
        return Payload(p.form, replaced(p.value, _pick(rng, spots)[0], ph))
    if p.form == "text":
        found = list(KEY_LINE.finditer(p.value))
        if not found:
            return Payload("text", ph) if p.value.strip() not in PLACEHOLDERS else None
        m = _pick(rng, found)
        return Payload("text", p.value[: m.start(2)] + ph + p.value[m.end(2) :])
    return None


def swapped_entity(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """Another entity's id or name: a row carrying a sibling row's key, or the result naming an entity other
    than the one the call asked for (a value of the same argument from an earlier call)."""
    if _tree(p):
        spots: list[tuple[Path_, Any]] = []
        for path, rows in walk(p.value):
            if not isinstance(rows, list | tuple) or len(rows) < 2:
                continue
            if all(isinstance(r, dict) for r in rows):
                keys = set.intersection(*(set(r) for r in rows))
                for k in sorted(keys, key=str):
                    values = [r[k] for r in rows]
                    if all(isinstance(v, str | int) and not isinstance(v, bool) for v in values):
                        if len(set(values)) == len(values):
                            spots += [((*path, i, k), values) for i in range(len(rows))]
            elif all(isinstance(r, tuple | list) and r for r in rows):
                width = min(len(r) for r in rows)
                for c in range(width):
                    values = [r[c] for r in rows]
                    if all(isinstance(v, str | int) and not isinstance(v, bool) for v in values):
                        if len(set(values)) == len(values):
                            spots += [((*path, i, c), values) for i in range(len(rows))]
        if spots:
            at, values = _pick(rng, spots)
            other = _pick(rng, [v for v in values if v != _node(p.value, at)])
            return Payload(p.form, replaced(p.value, at, other))
    asked = _asked(ctx)
    if not asked:
        return None
    if _tree(p):
        echoed = [(path, v) for path, v in _scalars(p.value) if isinstance(v, str) and v in asked]
        if not echoed:
            return None
        path, v = _pick(rng, echoed)
        return Payload(p.form, replaced(p.value, path, _pick(rng, asked[v])))
    if p.form == "text":
        inside = [v for v in asked if v in p.value]
        if not inside:
            return None
        v = _pick(rng, sorted(inside))
        return Payload("text", p.value.replace(v, _pick(rng, asked[v])))
    return None


def _node(tree: Any, path: Path_) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _asked(ctx: Context) -> dict[str, list[str]]:
    """Each string argument of this call (at least 3 characters) -> other values it had in earlier calls."""
    out: dict[str, list[str]] = {}
    for name, v in ctx.arguments.items():
        if isinstance(v, str) and len(v) >= 3:
            others = sorted({o for o in ctx.seen.get((ctx.tool, name), []) if isinstance(o, str) and o != v})
            if others:
                out[v] = others
    return out


def date_order(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """Dates in the wrong order: the result's distinct dates put back in reverse (a start after its end,
    the newest entry last)."""
    if _tree(p):
        spots = [(path, v) for path, v in _scalars(p.value) if isinstance(v, str) and DATE.search(v)]
        if len({v for _, v in spots}) < 2:
            return None
        out = p.value
        for (path, _), (_, v) in zip(spots, reversed(spots), strict=True):
            out = replaced(out, path, v)
        return Payload(p.form, out)
    if p.form == "text":
        found = list(DATE.finditer(p.value))
        if len({m.group() for m in found}) < 2:
            return None
        pieces, last = [], 0
        for m, new in zip(found, reversed([m.group() for m in found]), strict=True):
            pieces += [p.value[last : m.start()], new]
            last = m.end()
        return Payload("text", "".join(pieces) + p.value[last:])
    return None


def truncated_text(p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A text cut off part-way (30 to 70% kept), with a trailing ``...`` half of the time."""

    def cut(s: str) -> str:
        return s[: max(1, int(len(s) * rng.uniform(0.3, 0.7)))] + ("..." if rng.random() < 0.5 else "")

    if _tree(p):
        spots = [
            (path, v)
            for path, v in _scalars(p.value)
            if isinstance(v, str) and len(v) >= 12 and not _marked(v)
        ]
        if not spots:
            return None
        path, v = _pick(rng, spots)
        return Payload(p.form, replaced(p.value, path, cut(v)))
    if p.form == "text" and len(p.value) >= 12:
        return Payload("text", cut(p.value))
    return None


FAULTS: dict[str, Callable[[Payload, random.Random, Context], Payload | None]] = {
    f.__name__: f
    for f in (
        drop_field,
        wrong_type,
        negative_or_zero,
        out_of_set,
        empty_list,
        truncated_list,
        error_text,
        error_page,
        placeholder,
        swapped_entity,
        date_order,
        truncated_text,
    )
}


# ---- reading a result into a payload and back ----


def read_text(text: str) -> Payload:
    """A text block's payload: JSON, else a Python literal (a list, dict or tuple; never ``eval``), else text."""
    stripped = text.strip()
    if stripped[:1] in ("{", "[", '"') or re.fullmatch(r"-?\d+(?:\.\d+)?|true|false|null", stripped):
        try:
            return Payload("json_text", json.loads(stripped))
        except ValueError:
            pass
    if stripped[:1] in ("[", "(", "{"):
        marked = DATE_CALL.sub(
            lambda m: f"'\u00a7date:{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}\u00a7'", stripped
        )
        try:
            value = ast.literal_eval(marked)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, list | tuple | dict):
            return Payload("literal_text", value)
    return Payload("text", text)


def read_framed(text: str) -> tuple[str, Payload, str] | None:
    """A text of header lines, then a JSON object or array to its end (a fetched JSON file after the fetching
    server's own lines): the head, the body's payload and the whitespace after it; None for any other text."""
    start = re.search(r"^[\[{]", text, re.M)
    if start is None or not text[: start.start()].strip():
        return None
    body = text[start.start() :]
    try:
        value = json.loads(body)
    except ValueError:
        return None
    if not isinstance(value, dict | list):
        return None
    return text[: start.start()], Payload("json_text", value), body[len(body.rstrip()) :]


JSON_STYLES: tuple[dict[str, Any], ...] = (
    {"indent": 2},
    {},
    {"separators": (",", ":")},
    {"indent": 1},
    {"indent": 4},
    {"indent": 2, "ensure_ascii": False},
    {"ensure_ascii": False},
    {"separators": (",", ":"), "ensure_ascii": False},
)


def render_like(original: str, was: Payload, p: Payload) -> str:
    """``p`` printed the way ``original`` printed ``was``: the same JSON layout (when one of the common ones
    reproduces it) and the same whitespace around it. Text and literal forms print as ``render`` prints them."""
    if p.form != "json_text" or was.form != "json_text":
        return render(p)
    core = original.strip()
    lead, trail = original[: len(original) - len(original.lstrip())], original[len(original.rstrip()) :]
    style = next((s for s in JSON_STYLES if json.dumps(was.value, **s) == core), JSON_STYLES[0])
    return lead + json.dumps(p.value, **style) + trail


def _marked(v: Any) -> bool:
    return isinstance(v, str) and v.startswith("\u00a7date:")


def render(p: Payload) -> str:
    """The text a server would print for this payload (its first text block)."""
    if p.form == "text":
        return str(p.value)
    if p.form == "literal_text":
        return MARKED.sub(lambda m: f"datetime.date({int(m[1])}, {int(m[2])}, {int(m[3])})", repr(p.value))
    if p.form == "structured" and isinstance(p.value, dict) and list(p.value) == ["result"]:
        v = p.value["result"]
        if isinstance(v, str):  # FastMCP's wrapped text: the block is the bare text
            return v
    return json.dumps(p.value, indent=2)


def same(a: Payload, b: Payload) -> bool:
    """Whether a fault left the result saying the same thing (then it does not count as applied)."""
    return a.form == b.form and a.value == b.value and render(a) == render(b)
