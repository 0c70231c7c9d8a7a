"""Reading OpenAI tool schemas with no world's conventions: what generic mode knows of a tool.

Each tool becomes a ``core.players.ToolInfo`` whose parameters carry their JSON type, whether they
are required and their enum, and whose effect is decided from the tool's name and description
alone (``effect``): read, write or terminal. Also the one coercion of request text to a JSON type
that every player uses. Knows nothing of tasks, faults, monitors or any particular world.

The effect rule (a write is never called without a reason, and generic mode has none):
1. terminal: a name word says the episode ends (finish, done, complete, end, terminate) and every
   required parameter is an answer field (status, answer, reason, summary ...), or the tool takes
   both ``status`` and ``answer``;
2. write: a name word, or the description's first word, is a verb that changes something
   (cancel, update, send, transfer, return ...); a write verb outweighs a read verb;
3. read: a name word, or the description's first word, is a verb that only looks
   (get, find, list, search, look, show, read, fetch, calculate ...);
4. anything else is unknown and treated as a write: a tool that might change the world is not
   called on a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.players import FROM_UNKNOWN, Param, ToolInfo

READ_VERBS = frozenset(
    "get find list search lookup look read fetch query show describe view count retrieve inspect browse "
    "preview calculate compute".split()
)
WRITE_VERBS = frozenset(
    "add append apply approve assign book buy cancel change charge checkout create delete deposit disable "
    "edit enable exchange follow insert like login logout mark modify move pay place post purchase put "
    "refund register remove rename replace reply reset restore return save schedule send set share sign "
    "signup start stop submit subscribe transfer unfollow unlike unsubscribe update upload upsert withdraw "
    "write".split()
)
TERMINAL_WORDS = frozenset("finish done complete end terminate".split())
ANSWER_PARAMS = frozenset("status answer final_answer reason summary result output message".split())
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def words(text: str) -> list[str]:
    """Lower-case words of a tool name (snake, kebab, dotted or camel case) or of a sentence."""
    return [w.lower() for w in _WORD.findall(text)]


def effect(name: str, description: str, params: Sequence[Param]) -> str:
    """``read``, ``write`` or ``terminal`` by the rule in the module docstring."""
    name_words = set(words(name))
    names = {p.name for p in params}
    required = {p.name for p in params if p.required}
    if (name_words & TERMINAL_WORDS and required <= ANSWER_PARAMS) or {"status", "answer"} <= names:
        return "terminal"
    first = (words(description) or [""])[0]
    if name_words & WRITE_VERBS or first in WRITE_VERBS:
        return "write"
    if name_words & READ_VERBS or first in READ_VERBS:
        return "read"
    return "write"  # unknown effect: not called on a guess


def read_schemas(tools: Sequence[Mapping[str, Any]]) -> list[ToolInfo]:
    """The tools as generic mode sees them: parameters with types and enums, an effect, no sub-tasks."""
    out = []
    for index, schema in enumerate(tools):
        fn = schema.get("function", schema)
        name = str(fn.get("name") or "")
        desc = str(fn.get("description") or "")
        spec = fn.get("parameters") or {}
        required = set(spec.get("required") or [])
        params = []
        for pname, pschema in (spec.get("properties") or {}).items():
            pschema = pschema if isinstance(pschema, Mapping) else {}
            ptype = pschema.get("type", "string")
            params.append(
                Param(
                    str(pname),
                    FROM_UNKNOWN,
                    "",
                    ptype if isinstance(ptype, str) else (list(ptype) or ["string"])[0],
                    pname in required,
                    tuple(pschema.get("enum") or ()),
                )
            )
        kind = effect(name, desc, params)
        out.append(
            ToolInfo(
                name=name,
                index=index,
                label=desc.split(". ", 1)[0].strip().rstrip("."),
                params=tuple(params),
                is_action=kind == "write",
                is_terminal=kind == "terminal",
            )
        )
    return out


def coerce(value: Any, json_type: str) -> Any:
    """A request string as the JSON type the parameter wants (integers are written as digits)."""
    if not isinstance(value, str):
        return value
    try:
        if json_type == "integer":
            return int(value)
        if json_type == "number":
            number = float(value)
            return int(number) if number.is_integer() and "." not in value else number
    except ValueError:
        return value
    return value
