"""What every tau-bench tool file declares, and how a call runs (upstream's ``Env.step`` mechanics).

A tool is a class with ``name``, ``description``, ``parameters`` (JSON Schema), ``category``
(read | write | terminal), ``returns`` ("json" when upstream returns ``json.dumps`` of a value,
else "text") and a static ``invoke(db, **kwargs) -> str`` that returns upstream's string: checks
first, in upstream's order, each failing with its ``Error: ...`` string; mutation only after the
last check. ``execute`` runs one call as upstream's step does (any exception becomes
``Error: <exception>``, an unknown name ``Unknown action <name>``); ``to_result`` turns the string
into a protocol ``ToolResult``. Knows nothing about episodes, users or rewards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from core.protocol import ToolResult, ToolSpec

ERROR_PREFIX = "Error: "


class Tool:
    name: ClassVar[str]
    description: ClassVar[str]
    parameters: ClassVar[dict[str, Any]]
    category: ClassVar[str] = "read"
    returns: ClassVar[str] = "json"

    invoke: ClassVar[Any]  # staticmethod (db, **kwargs) -> str

    @classmethod
    def spec(cls, domain: str = "") -> ToolSpec:
        return ToolSpec(
            name=cls.name,
            description=cls.description,
            parameters=cls.parameters,
            category=cls.category,
            domain=domain,
            kind=cls.category,
        )


def execute(tools: Mapping[str, type[Tool]], db: Any, name: str, arguments: Any) -> str:
    """Run one call on ``db`` as upstream's step does; never raises."""
    tool = tools.get(name)
    if tool is None:
        return f"Unknown action {name}"
    try:
        return tool.invoke(db, **arguments)
    except Exception as exc:  # upstream turns any exception into the observation
        return f"{ERROR_PREFIX}{exc}"


def to_result(tools: Mapping[str, type[Tool]], name: str, raw: str) -> ToolResult:
    """The protocol result of upstream's string: parsed JSON for JSON-returning tools, else the text."""
    tool = tools.get(name)
    if tool is None:
        return ToolResult(raw, status="error", meta={"unknown_tool": True})
    if raw.startswith(ERROR_PREFIX):
        return ToolResult(raw, status="error", terminal=tool.category == "terminal")
    content: Any = json.loads(raw) if tool.returns == "json" else raw
    return ToolResult(content, status="ok", terminal=tool.category == "terminal")


def obj(required: list[str] | None = None, **props: dict[str, Any]) -> dict[str, Any]:
    """A parameters schema: every listed property is required unless ``required`` says otherwise."""
    return {"type": "object", "properties": props, "required": list(props) if required is None else required}


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def strings(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description}


def dump(value: Any) -> str:
    """Upstream's result form: ``json.dumps`` with its default separators."""
    return json.dumps(value)
