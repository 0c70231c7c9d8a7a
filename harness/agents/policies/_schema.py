"""Reading what a model is shown: the query's ``Inputs:`` line and the OpenAI tool schemas.

Holds the parsers of ToolMaze's public planning conventions (environments/toolmaze/README.md):
parameter source tags, ``Returns:`` and ``Capability:`` sentences, chain steps. Knows nothing of
tasks, faults or monitors: only text a model receives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_TAG = re.compile(r"\[from:\s*([^\]]+?)\s*\]\s*$")
_RETURNS = re.compile(r"Returns:\s*(.*?)\.?\s*Capability:", re.S)
_CAPABILITY = re.compile(r"Capability:\s*([^\s]+?)\.?\s*$")
_RETURN_FIELD = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)")
_CHAIN = re.compile(r"^(?P<base>.+)\.via_(?P<via>[A-Za-z0-9_]+)\.(?P<step>\d)of(?P<steps>\d)$")


@dataclass(frozen=True)
class Param:
    name: str
    source: str  # "query" | "field" | "" (untagged: the planner cannot fill it)
    key: str  # the Inputs key or the output field the value comes from
    type: str
    required: bool


@dataclass(frozen=True)
class ToolInfo:
    name: str
    index: int  # position in the tool list: the stable order of routes
    label: str  # first sentence of the description (the sub-task phrase in the query)
    params: tuple[Param, ...]
    returns: tuple[str, ...]
    capability: str

    @property
    def base_capability(self) -> str:
        m = _CHAIN.match(self.capability)
        return m.group("base") if m else self.capability

    @property
    def chain_step(self) -> tuple[str, int] | None:
        """(intermediate field, step number) for a chain step, None for a direct tool."""
        m = _CHAIN.match(self.capability)
        return (m.group("via"), int(m.group("step"))) if m else None

    @property
    def is_action(self) -> bool:
        return "confirmation_code" in self.returns

    @property
    def is_terminal(self) -> bool:
        names = {p.name for p in self.params}
        return self.name == "finish" or {"status", "answer"} <= names and not self.capability


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


def coerce(value: Any, json_type: str) -> Any:
    """A query string as the JSON type the parameter wants (integers are written as digits)."""
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


def parse_tool(schema: dict, index: int) -> ToolInfo:
    fn = schema.get("function", schema)
    desc = str(fn.get("description") or "")
    params_schema = fn.get("parameters") or {}
    required = set(params_schema.get("required") or [])
    params = []
    for pname, pschema in (params_schema.get("properties") or {}).items():
        tag = _TAG.search(str(pschema.get("description") or ""))
        source, key = "", ""
        if tag:
            ref = tag.group(1)
            source, key = ("query", ref[len("query.") :]) if ref.startswith("query.") else ("field", ref)
        ptype = pschema.get("type", "string")
        params.append(
            Param(pname, source, key, ptype if isinstance(ptype, str) else ptype[0], pname in required)
        )
    returns_m = _RETURNS.search(desc)
    parts = returns_m.group(1).split(",") if returns_m else []
    returns = tuple(m.group(1) for m in map(_RETURN_FIELD.match, parts) if m)
    cap_m = _CAPABILITY.search(desc)
    label = desc.split(". ", 1)[0].strip().rstrip(".")
    return ToolInfo(
        str(fn.get("name")), index, label, tuple(params), returns, cap_m.group(1) if cap_m else ""
    )


def parse_tools(tools: list[dict]) -> list[ToolInfo]:
    return [parse_tool(t, i) for i, t in enumerate(tools)]
