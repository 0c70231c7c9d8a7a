"""Text results: how a tool's text is read, and the contracts text can carry.

Many MCP servers answer in text. ``parse_text`` reads it as JSON, else as a Python literal (a list or
dict printed by Python, as ``mcp-server-sqlite`` does; read by ``ast.literal_eval``, never ``eval``),
else keeps it as text. Text kept as text gets ``text`` rules learned from clean results
(``text_contracts``): what kind of text it is not (an HTML page or HTTP error, an error phrase, empty)
when no clean result ever was, and a line shape every clean result shares (``commit <40 hex>``).

``error_reason`` tells the recording which text is an error the server sent without ``isError``: the
tool's own error shape seen with ``isError``, or a short list of common error prefixes.
Knows nothing of receipts, transports or environments.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from outcome_monitor.checking.values import MISSING, date_key
from outcome_monitor.text.balance import balance_expected, balance_sentence, compile_balance
from outcome_monitor.text.prose import FORMS as PROSE_FORMS
from outcome_monitor.text.prose import compile_prose, prose_expected, prose_sentence
from outcome_monitor.text.wordsets import compile_words, words_expected, words_sentence

MAX_LITERAL_CHARS = 1_000_000  # literal_eval of a huge text costs its parse; such text stays text
_NOT_JSON = object()

# ---------------------------------------------------------------------------- reading text


def parse_text(text: str) -> Any:
    """JSON, else a Python literal container (``[{'id': 1}]``), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    s = text.strip()
    # only containers: a bare word or number printed by a tool is its text
    if not s or s[0] not in "[{(" or len(s) > MAX_LITERAL_CHARS:
        return text
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    out = _jsonable(value)
    return text if out is _NOT_JSON else out


def _jsonable(v: Any) -> Any:
    """A literal as JSON holds it (tuples as lists), or ``_NOT_JSON`` (a set, bytes, a complex)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else _NOT_JSON
    if isinstance(v, (list, tuple)):
        items = [_jsonable(x) for x in v]
        return _NOT_JSON if any(x is _NOT_JSON for x in items) else items
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            j = _jsonable(x)
            if j is _NOT_JSON or not isinstance(k, (str, int, float, bool)) or k is None:
                return _NOT_JSON
            out[k if isinstance(k, str) else json.dumps(k)] = j
        return out
    return _NOT_JSON


# ---------------------------------------------------------------------------- kinds of text

_HTML = re.compile(r"<!doctype html|<html[\s>]|</(?:html|body|head)>|<(?:body|head|title)[\s>]", re.I)
_HTTP = re.compile(
    r"^\s*HTTP/\d(?:\.\d)? [45]\d\d\b|\b[45]\d\d (?:Bad Gateway|Service Unavailable|Gateway Time-?out|"
    r"Internal Server Error|Not Found|Forbidden|Unauthorized|Bad Request|Too Many Requests)\b",
    re.I | re.M,
)
# an error phrase at the start of one of the first lines (a commit message that mentions a failure
# deep in a log is not the tool failing)
_ERROR = re.compile(
    r"^\s*(?:\[?error\b|exception\b|traceback \(most recent call last\)|fatal:|failed\b|failure\b|panic:|"
    r"[\w.]*(?:error|exception):)|\b(?:internal server error|bad gateway|service unavailable|"
    r"gateway time-?out|permission denied|access denied|connection refused|timed out)\b",
    re.I,
)
HEAD_LINES = 3
# common error prefixes: text starting so is an error even without isError (the recording's check)
ERROR_PREFIXES = (
    "error",
    "exception",
    "traceback (most recent call last)",
    "fatal:",
    "failed",
    "failure",
    "panic:",
    "internal server error",
)
KINDS = ("html", "error", "empty")
_KIND_WORDS = {
    "error_result": "an error (by the status inference that set errors aside when learning)",
    "html": "an HTML page or HTTP error",
    "error": "an error message",
    "empty": "empty",
}


def _head(text: str) -> list[str]:
    lines = [ln for ln in text[:4000].splitlines() if ln.strip()]
    return lines[:HEAD_LINES]


# the letters besides ASCII's that a case-insensitive ASCII letter of a pattern matches (İ ı ſ K):
# a text holding one is left to the regex
_FOLDS = ("\u0130", "\u0131", "\u017f", "\u212a")
# a match of _HTTP holds one of these, folded to lower case: "HTTP/" or a status's words
_HTTP_WORDS = (
    "http/",
    "bad gateway",
    "service unavailable",
    "gateway time",
    "internal server error",
    "not found",
    "forbidden",
    "unauthorized",
    "bad request",
    "too many requests",
)


def _may_be_http(head: str) -> bool:
    """Whether ``_HTTP`` can match ``head``: one of its words is in it (the regex's own search costs
    tens of microseconds on a long text with digits)."""
    if not head.isascii() and any(c in head for c in _FOLDS):
        return True
    low = head.lower()
    for w in _HTTP_WORDS:
        if w in low:
            return True
    return False


def text_kinds(text: str) -> frozenset[str]:
    """Which of html / error / empty ``text`` is (several at once for a 502 page)."""
    if not text or text.isspace():  # what strips to nothing, without the copy
        return frozenset({"empty"})
    kinds = set()
    head = text[:4000]
    # cheap tests first: a tag needs "<", an HTTP status a 4 or a 5 and its words, an error phrase
    # one of its words
    if ("<" in head and _HTML.search(head)) or (
        ("4" in head or "5" in head) and _may_be_http(head) and _HTTP.search(head)
    ):
        kinds.add("html")
    if _may_name_error(head) and any(_ERROR.search(ln) for ln in _head(text)):
        kinds.add("error")
    return frozenset(kinds)


def _may_name_error(head: str) -> bool:
    """Whether ``_ERROR`` can match a line of ``head``: a word of each of its phrases is in it. Only
    ASCII text is ruled out (case-insensitive matching folds some other letters, ı for i)."""
    if not head.isascii():
        return True
    low = head.lower()
    return (
        "error" in low
        or "exception" in low
        or "traceback" in low
        or "fatal:" in low
        or "fail" in low
        or "panic:" in low
        or "bad gateway" in low
        or "unavailable" in low
        or "gateway time" in low
        or "denied" in low
        or "refused" in low
        or "timed out" in low
    )


def error_shape(text: str) -> str:
    """A text's first line as an error's shape: up to its first colon (within 60 characters), else
    its first three words; lower case, digits as ``#`` (``error executing tool read_query``)."""
    lines = _head(text)
    first = lines[0].strip() if lines else ""
    cut = first.find(":")
    head = first[:cut] if 0 < cut <= 60 else " ".join(first.split()[:3])
    return re.sub(r"\d+", "#", head.lower()).strip()


def error_reason(text: str, own_shapes: Iterable[str] = ()) -> str | None:
    """Why ``text`` (sent without ``isError``) is an error, or None: ``the tool's own error shape
    'SHAPE'`` when it matches one seen with ``isError``, ``the common error prefix 'P'``, or an HTML
    page / HTTP error."""
    shape = error_shape(text)
    if shape and shape in set(own_shapes):
        return f"the tool's own error shape {json.dumps(shape)} (seen with isError)"
    low = text.lstrip().lower()
    for p in ERROR_PREFIXES:
        if low.startswith(p):
            return f"the common error prefix {json.dumps(p)}"
    if "html" in text_kinds(text) and _HTTP.search(text[:4000]):
        return "an HTTP error page"
    return None


# ---------------------------------------------------------------------------- line shapes

_HEAD_WORD = re.compile(r"[A-Za-z][\w-]{0,23}:?")
_HEX = re.compile(r"[0-9a-fA-F]{7,64}")
_INT = re.compile(r"-?\d+")
_TOKEN_END = r"(?![0-9A-Za-z])"


def _shapes(text: str) -> set[tuple[str, str, int]]:
    """(head word, class of the next token, its length for hex) of each line that has one."""
    out: set[tuple[str, str, int]] = set()
    for line in text.splitlines():
        parts = line.split(None, 2)
        if len(parts) < 2 or not _HEAD_WORD.fullmatch(parts[0]):
            continue
        tok = parts[1].strip("'\"`,;()[]")
        if _HEX.fullmatch(tok) and any(c.isdigit() for c in tok) and not tok.isdigit():
            out.add((parts[0], "hex", len(tok)))
        elif _INT.fullmatch(tok):
            out.add((parts[0], "int", 0))
        elif date_key(tok) is not None:
            out.add((parts[0], "date", 0))
    return out


def _shape_regex(head: str, cls: str, n: int) -> tuple[str, str]:
    """(regex over one line, how a receipt says it)."""
    token = {
        "hex": rf"[0-9a-fA-F]{{{n}}}",
        "int": r"-?\d+",
        "date": r"\d{4}-\d{2}-\d{2}\S*",
    }[cls]
    words = {"hex": f"<{n} hex digits>", "int": "<integer>", "date": "<date>"}[cls]
    return rf"^\s*{re.escape(head)}\s+['\"`(\[]?{token}{_TOKEN_END}", f"{head} {words}"


# ---------------------------------------------------------------------------- rules


def text_expected(p: Mapping[str, Any]) -> str:
    if p.get("form") in PROSE_FORMS:
        return prose_expected(p)
    if p.get("form") == "balanced":
        return balance_expected(p)
    if p.get("form") == "words":
        return words_expected(p)
    if p.get("form") == "ends":
        return f"a text ending with {json.dumps(p['end'])}"
    if p.get("form") == "names_arg":
        return f"a text naming the {p['arg']} asked for"
    if "line" in p:
        return f"a line shaped like {p['example']}"
    return f"not {_KIND_WORDS.get(p['not'], p['not'])}"


def text_sentence(a: str, p: Mapping[str, Any]) -> str:
    if p.get("form") in PROSE_FORMS:
        return prose_sentence(a, p)
    if p.get("form") == "balanced":
        return balance_sentence(a, p)
    if p.get("form") == "words":
        return words_sentence(a, p)
    if p.get("form") == "ends":
        return (
            f"{a} must end with {json.dumps(p['end'])} (as every clean result did: a text cut short does not)"
        )
    if p.get("form") == "names_arg":
        return f"{a} must name the {p['arg']} the call asked for (as every clean result did)"
    if "line" in p:
        return f"{a} must have a line shaped like {p['example']} (as every clean result had)"
    if p["not"] == "empty":
        return f"{a} must not be empty (no clean result was)"
    return f"{a} must not be {_KIND_WORDS.get(p['not'], p['not'])} (no clean result was)"


def compile_text(rule: Any) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    """The check of a ``text`` rule: only a string is judged (other values belong to the type rule)."""
    f, p = rule.fields[0], rule.params
    if p.get("form") in PROSE_FORMS:
        return compile_prose(f, p)
    if p.get("form") == "balanced":
        return compile_balance(f, p)
    if p.get("form") == "words":
        return compile_words(f, p)
    if p.get("form") == "ends":
        end = p["end"]

        def check_end(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(f, MISSING)
            return (v[-80:],) if type(v) is str and not v.endswith(end) else None

        return check_end
    if p.get("form") == "names_arg":
        arg, unless, each = p["arg"], p.get("unless"), p.get("each", False)

        def check_names(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v, asked = vals.get(f, MISSING), args.get(arg, MISSING)
            if unless is not None and unless in args:  # a call of the other form (named_args.py)
                return None
            if type(v) is not str:
                return None
            if type(asked) is list and each:  # each name asked for, as learned (named_args.py)
                missing = [x for x in asked if type(x) is str and len(x) >= 3 and x not in v]
                return (v,) if missing else None
            return (v,) if type(asked) is str and asked and asked not in v else None

        return check_names
    if "line" in p:
        search = re.compile(p["line"], re.M).search

        def check_line(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(f, MISSING)
            return (v,) if type(v) is str and search(v) is None else None

        return check_line
    kind = p["not"]

    def check_kind(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
        v = vals.get(f, MISSING)
        return (v,) if type(v) is str and kind in text_kinds(v) else None

    return check_kind


# a text cut short loses its last character: a newline or a closing bracket every clean text ended
# with (never a letter or a full stop: prose ends as it likes)
ENDINGS = ("\n", "}", "]", ")", ">")
MIN_ENDING_CHARS = 20  # texts, not short values (those have shapes)


def ending_params(texts: list[str], min_distinct: int) -> dict[str, Any] | None:
    """``{"form": "ends", "end": c}`` when at least ``min_distinct`` distinct texts, each of 20
    characters or more, all ended with the same character ``c`` of ``ENDINGS``, else None."""
    distinct = set(texts)
    if len(distinct) < min_distinct or any(len(t) < MIN_ENDING_CHARS for t in distinct):
        return None
    ends = {t[-1] for t in distinct}
    if len(ends) != 1 or next(iter(ends)) not in ENDINGS:
        return None
    return {"form": "ends", "end": next(iter(ends))}


MAX_LINE_RULES = 2
_CLASS_ORDER = {"hex": 0, "date": 1, "int": 2}


def text_contracts(results: list[Any], min_presence: int) -> list[dict[str, Any]]:
    """The params of each ``text`` rule of a tool whose every clean result is text, from at least
    ``min_presence`` distinct results: each kind of text no clean result was, and up to
    ``MAX_LINE_RULES`` line shapes every clean result has (hex ids first, then dates, then integers).
    (``registry.learn`` makes them rules on the result itself; rules.py imports this module.)"""
    if not results or any(type(r) is not str for r in results):
        return []
    texts = list(dict.fromkeys(results))
    if len(texts) < min_presence:
        return []
    out = []
    seen_kinds = set().union(*(text_kinds(t) for t in texts))
    for kind in KINDS:
        if kind not in seen_kinds:
            out.append({"form": f"not_{kind}", "not": kind})
    shared = set.intersection(*(_shapes(t) for t in texts))
    for head, cls, k in sorted(shared, key=lambda s: (_CLASS_ORDER[s[1]], s))[:MAX_LINE_RULES]:
        regex, example = _shape_regex(head, cls, k)
        out.append({"form": f"line_{head.rstrip(':').lower()}_{cls}", "line": regex, "example": example})
    return out
