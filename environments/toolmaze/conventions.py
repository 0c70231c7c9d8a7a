"""ToolMaze's planning conventions (README, "Planning conventions") read for the stock scripted players.

``CONVENTIONS`` is what ``ToolMazePlugin.player_conventions`` offers: it parses the query's
``Inputs:`` line, each parameter's ``[from: ...]`` tag, the ``Returns:`` and ``Capability:``
sentences, chain steps (``<capability>.via_<field>.<k>of<n>``), and finds the sub-tasks in the order
the query words them. It reads only text a model is shown: no task, fault or judge. How a player
plans, judges results and follows receipts is the harness's business, not this module's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.players import FROM_REQUEST, FROM_RESULT, FROM_UNKNOWN, Param, ToolInfo

_TAG = re.compile(r"\[from:\s*([^\]]+?)\s*\]\s*$")
_RETURNS = re.compile(r"Returns:\s*(.*?)\.?\s*Capability:", re.S)
_CAPABILITY = re.compile(r"Capability:\s*([^\s]+?)\.?\s*$")
_RETURN_FIELD = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)")
_CHAIN = re.compile(r"^(?P<base>.+)\.via_(?P<via>[A-Za-z0-9_]+)\.(?P<step>\d)of(?P<steps>\d)$")
CONFIRMATION = "confirmation_code"  # the field every Action returns (convention 6)


class ToolMazeConventions:
    """The adapter (``core.players.PlayerConventions``) for ToolMaze's prompts."""

    name = "ToolMaze planning conventions (Capability, source tags)"

    def read_tools(self, schemas: Sequence[Mapping[str, Any]]) -> list[ToolInfo]:
        return [parse_tool(s, i) for i, s in enumerate(schemas)]

    def read_inputs(self, query: str) -> dict[str, str]:
        return parse_inputs(query)

    def subtasks(self, query: str, tools: Sequence[ToolInfo]) -> list[str]:
        """Capabilities in the order their labels appear in the query (tool order breaks ties)."""
        low = query.lower()
        pos: dict[str, tuple[int, int]] = {}
        for t in tools:
            if t.is_terminal or not t.capability:
                continue
            at = _find_label(low, t.label.lower())
            key = (at if at >= 0 else len(low) + t.index, t.index)
            pos[t.capability] = min(pos.get(t.capability, key), key)
        return sorted(pos, key=pos.__getitem__)

    def subtask_label(self, capability: str, tools: Sequence[ToolInfo], query: str) -> str:
        """The sub-task's phrase as the query words it (else a tool's first sentence, else the id)."""
        labels = [t.label for t in tools if t.capability == capability and t.label]
        for label in labels:
            phrase = _query_phrase(query.lower(), label.lower())
            if phrase:
                return phrase
        return labels[0] if labels else capability


CONVENTIONS = ToolMazeConventions()


def parse_inputs(query: str) -> dict[str, str]:
    """The ``key=value`` pairs of the query's last ``Inputs:`` line (values stay strings)."""
    out: dict[str, str] = {}
    lines = [ln for ln in query.splitlines() if ln.strip().startswith("Inputs:")]
    if not lines:
        return out
    for part in lines[-1].strip()[len("Inputs:") :].split(";"):
        key, sep, value = part.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def parse_tool(schema: Mapping[str, Any], index: int) -> ToolInfo:
    fn = schema.get("function", schema)
    desc = str(fn.get("description") or "")
    params_schema = fn.get("parameters") or {}
    required = set(params_schema.get("required") or [])
    params = []
    for pname, pschema in (params_schema.get("properties") or {}).items():
        tag = _TAG.search(str(pschema.get("description") or ""))
        source, key = FROM_UNKNOWN, ""
        if tag:
            ref = tag.group(1)
            source, key = (
                (FROM_REQUEST, ref[len("query.") :]) if ref.startswith("query.") else (FROM_RESULT, ref)
            )
        ptype = pschema.get("type", "string")
        params.append(
            Param(
                pname,
                source,
                key,
                ptype if isinstance(ptype, str) else ptype[0],
                pname in required,
                tuple(pschema.get("enum") or ()),
            )
        )
    returns_m = _RETURNS.search(desc)
    parts = returns_m.group(1).split(",") if returns_m else []
    returns = tuple(m.group(1) for m in map(_RETURN_FIELD.match, parts) if m)
    cap_m = _CAPABILITY.search(desc)
    capability = cap_m.group(1) if cap_m else ""
    chain = _CHAIN.match(capability)
    name = str(fn.get("name"))
    is_action = CONFIRMATION in returns
    return ToolInfo(
        name=name,
        index=index,
        label=desc.split(". ", 1)[0].strip().rstrip("."),
        params=tuple(params),
        returns=returns,
        capability=chain.group("base") if chain else capability,
        chain_step=(chain.group("via"), int(chain.group("step"))) if chain else None,
        is_action=is_action,
        is_terminal=name == "finish" or {"status", "answer"} <= {p.name for p in params} and not capability,
        confirms=CONFIRMATION if is_action else "",
    )


def _find_label(query: str, label: str) -> int:
    """Where the longest word prefix (>= 2 words) of ``label`` occurs in ``query``, else -1."""
    phrase = _query_phrase(query, label)
    return query.find(phrase) if phrase else -1


def _query_phrase(query: str, label: str) -> str:
    """The longest word prefix (>= 2 words) of ``label`` found in ``query`` ("" when none)."""
    words = label.replace(",", " ").replace(":", " ").split()
    for n in range(len(words), 1, -1):
        if " ".join(words[:n]) in query:
            return " ".join(words[:n])
    return ""
