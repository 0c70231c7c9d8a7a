"""A write's report of what it did (the wide vocabulary): a tool named for a change
(``create_relations``, ``add_tags``, ``delete_files``) that gives back the list argument it was
asked (an ``echo_list``) reports what it changed. An element that already held (a relation already
there) is not created again, and an idempotent write leaves it out of its report: the echo may
leave elements out (``omits``), never add, change or reorder one; and the echoed list's size is the
call's and the store's, so it keeps no rule of being non-empty of its own (a write that found
everything done answers an empty list).

A computation that echoes its input beside its answer (``sum`` giving back ``numbers``) is no
write: its echo stays exact, and a list cut short there fires as before. ``write_tool`` reads a
tool's name (its words, in snake, kebab or camel case) for a verb of change; no other knowledge of
the server is used.
"""

from __future__ import annotations

import re
from dataclasses import replace

from outcome_monitor.checking.rules import Rule

# verbs of change that are seldom nouns in a tool's name ("get_updates" is "updates", not "update")
WRITE_VERBS = frozenset(
    {
        "add",
        "append",
        "assign",
        "cancel",
        "clear",
        "create",
        "delete",
        "edit",
        "insert",
        "merge",
        "modify",
        "move",
        "register",
        "remove",
        "rename",
        "reset",
        "save",
        "send",
        "set",
        "update",
        "upload",
        "upsert",
        "write",
    }
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def name_words(tool: str) -> list[str]:
    """The words of a tool's name, lower case: ``create_relations``, ``createRelations`` and
    ``create-relations`` all give ``["create", "relations"]``."""
    return [w.lower() for w in _WORD.findall(tool)]


def write_tool(tool: str) -> bool:
    """A tool whose name says it changes something (a verb of change among its words)."""
    return any(w in WRITE_VERBS for w in name_words(tool))


def write_reports(rules: list[Rule]) -> list[Rule]:
    """The rules of a recording with write tools' echoes loosened: ``echo_list`` takes ``omits``,
    and a strict ``len(...) > 0`` on the echoed list is dropped."""
    echoed = {
        (r.tool, r.context, r.fields[0])
        for r in rules
        if r.cls == "collection" and r.params.get("form") == "echo_list" and write_tool(r.tool)
    }
    if not echoed:
        return rules
    out: list[Rule] = []
    for r in rules:
        if (r.tool, r.context, r.fields[0]) in echoed and r.params.get("form") == "echo_list":
            out.append(replace(r, params={**r.params, "omits": True}, support=dict(r.support)))
            continue
        f = r.fields[0] if r.fields else ""
        if (
            r.cls == "positive"
            and f.startswith("len(")
            and f.endswith(")")
            and (r.tool, r.context, f[4:-1]) in echoed
        ):
            continue  # the write found nothing to do: an empty report is what it gives
        out.append(r)
    return out


__all__ = ["WRITE_VERBS", "name_words", "write_reports", "write_tool"]
