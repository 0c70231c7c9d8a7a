"""Which recorded results are errors: one status inference for every entry point (``learn(rows)``, the
command line's ``learn --input``, the proxy's ``--record``).

A server often reports a failure as an ordinary result: text without ``isError`` (``Database error:
Catalog Error: ...``), a structured ``{"error": ...}``, or a wrapper holding such text. Learned as
clean, one such row widens a type rule to "array or string" and, pooled by field name, erases the
required fields of every tool whose results share its shape. So a row is an error when it is flagged
(``status: error``), when its text has the tool's own error shape (the first line of what it sent
flagged), or when it reads as an error by itself: a common error prefix or phrase, an exception
name, a traceback, an HTTP error page, or an object whose only news is an error. ``split_clean``
sets such rows aside and counts them per tool. Knows nothing of transports, rules or environments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from outcome_monitor.text.parse import error_reason, error_shape

# a first line naming an error of some kind before a colon: "Database error: ...", "Catalog Error: ...",
# "ValueError: ...", "SQL error (1064): ...", "Error 404: ..."
_NAMED_ERROR = re.compile(
    r"^\s*\[?[\w .()#/-]{0,40}?(?:error|exception|errno|failure)\b[\w .()#-]{0,20}:", re.I
)
_HEAD_PHRASE = re.compile(
    r"^\s*(?:traceback|unauthorized|forbidden|not authorized|permission denied|access denied|"
    r"could not connect|connection (?:refused|reset|error)|timed out|timeout\b|invalid (?:api key|token)|"
    r"rate limit(?:ed)? exceeded|too many requests|service unavailable|bad gateway|gateway time-?out|"
    r"internal server error|an? (?:unexpected |internal )?error (?:occurred|has occurred))",
    re.I,
)
# keys of an object that carries only the news of a failure (with an error among them)
_ERROR_KEYS = frozenset({"error", "errors", "error_message", "errormessage", "exception"})
_ENVELOPE_KEYS = _ERROR_KEYS | frozenset(
    {
        "message",
        "detail",
        "details",
        "status",
        "code",
        "status_code",
        "success",
        "ok",
        "type",
        "title",
        "trace",
    }
)
# a wrapper of text: {"content": "..."} and the like
_TEXT_KEYS = ("content", "text", "result", "message", "output", "response", "data", "value", "body")


def text_error(text: str, own_shapes: Iterable[str] = ()) -> str | None:
    """Why ``text`` is an error although it was not flagged, or None (``text.error_reason`` plus named
    errors and failure phrases at the start of its first line)."""
    why = error_reason(text, own_shapes)
    if why is not None:
        return why
    first = next((ln for ln in text[:2000].splitlines() if ln.strip()), "")
    m = _NAMED_ERROR.match(first)
    if m is not None:
        return f"an error named at its start ({json.dumps(m.group(0).strip()[:40])})"
    m = _HEAD_PHRASE.match(first)
    if m is not None:
        return f"a failure phrase at its start ({json.dumps(m.group(0).strip()[:40])})"
    return None


def result_error(result: Any, own_shapes: Iterable[str] = (), depth: int = 0) -> str | None:
    """Why a result (as recorded: parsed JSON, a literal, text, or a list of content blocks) is an
    error the server did not flag, or None."""
    if depth > 3:
        return None
    if type(result) is str:
        return text_error(result, own_shapes)
    if type(result) is dict:
        # an object with a key beyond an error's envelope is no error envelope: the common case of
        # a check, so the first such key ends the two envelope tests (none of them runs then)
        if _enveloped(result):
            keys = {str(k).lower() for k in result}
            err = next((result[k] for k in result if str(k).lower() in _ERROR_KEYS), None)
            if err not in (None, "", [], {}, False):
                return f"an object that carries only an error ({json.dumps(sorted(keys))})"
            if result.get("success") is False:
                return 'an object with "success": false'
        if len(result) == 1:
            ((k, v),) = result.items()
            if str(k).lower() in _TEXT_KEYS and type(v) in (str, list, dict):
                why = result_error(v, own_shapes, depth + 1)
                return None if why is None else f"{why}, wrapped in {json.dumps(str(k))}"
        return None
    if type(result) is list and result and len(result) <= 4 and type(result[0]) is str:
        # several content blocks: the first one speaks for the call
        return result_error(result[0], own_shapes, depth + 1)
    return None


def _enveloped(result: dict[Any, Any]) -> bool:
    """Whether every key of ``result``, lower-cased, is one of an error envelope's."""
    for k in result:
        if (k if type(k) is str else str(k)).lower() not in _ENVELOPE_KEYS:
            return False
    return True


def never_error_object(keys: Iterable[str]) -> bool:
    """Whether an object holding these keys is never an error by ``result_error``: two or more keys,
    one of them beyond an error's envelope (so neither an envelope nor a one-key wrapper)."""
    keys = set(keys)
    return len(keys) >= 2 and any(k.lower() not in _ENVELOPE_KEYS for k in keys)


def check_error_result(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """The ``text`` rule ``error_result`` on the result itself (field ``""``, read as sent): it is an
    error by the inference that set a recording's errors aside, where no clean result of the tool was."""
    v = vals.get("", vals)
    return (v,) if result_error(v) is not None else None


@dataclass
class Split:
    """Rows of a recording split by status: the clean ones, and what was set aside per tool."""

    clean: list[Mapping[str, Any]] = field(default_factory=list)
    flagged: dict[str, int] = field(default_factory=dict)  # sent as errors (status "error")
    inferred: dict[str, int] = field(default_factory=dict)  # unflagged, but errors by their content
    examples: dict[str, str] = field(default_factory=dict)  # tool -> the first reason inferred

    def set_aside(self) -> dict[str, int]:
        """Rows set aside as errors per tool (flagged or inferred)."""
        out = dict(self.flagged)
        for t, n in self.inferred.items():
            out[t] = out.get(t, 0) + n
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "flagged": dict(sorted(self.flagged.items())),
            "inferred": dict(sorted(self.inferred.items())),
            "examples": dict(sorted(self.examples.items())),
        }


def split_clean(rows: Iterable[Mapping[str, Any]]) -> Split:
    """The clean rows of a recording, with the errors set aside and counted per tool. The tools'
    own error shapes are read from their flagged rows first, so one pass over the rows sees them all."""
    rows = list(rows)
    shapes: dict[str, set[str]] = {}
    for r in rows:
        if r.get("status") == "error" and type(r.get("result")) is str:
            s = error_shape(r["result"])
            if s:
                shapes.setdefault(str(r.get("tool")), set()).add(s)
    out = Split()
    for r in rows:
        tool = str(r.get("tool"))
        if r.get("status", "ok") == "error":
            out.flagged[tool] = out.flagged.get(tool, 0) + 1
            continue
        why = result_error(r.get("result"), shapes.get(tool, ()))
        if why is not None:
            out.inferred[tool] = out.inferred.get(tool, 0) + 1
            out.examples.setdefault(tool, why)
            continue
        out.clean.append(r)
    return out


__all__ = [
    "Split",
    "check_error_result",
    "never_error_object",
    "result_error",
    "split_clean",
    "text_error",
]
