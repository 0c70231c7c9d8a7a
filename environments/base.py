"""The environment protocol: the one interface ToolMaze, tau-bench retail and AppWorld implement.

The runner, the fault injectors and the monitor only ever see these types, so none of them
special-cases an environment. Environments must not import ``harness``.

Flow of one episode::

    env = get_environment("toolmaze")
    ep = env.start(task_id, seed=0)
    specs = ep.tools()                       # what the agent may call (OpenAI schemas)
    result = ep.call(ToolCall("get_x", {...}))  # never raises for a bad call
    ...until result.terminal or the round cap
    outcome = ep.score(final_answer)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Status = Literal["ok", "error"]


@dataclass(frozen=True)
class ToolSpec:
    """Public description of one tool: what an agent sees, plus metadata a monitor may use.

    ``capability`` groups tools that compute the same thing; ``substitutes`` lists tools the
    environment itself declares as alternatives; ``output_fields`` are the JSON paths the tool's
    result carries (``$.price``, ``$.items[*].amount``). None of this is hidden task data.
    """

    name: str
    description: str
    parameters: Mapping[str, Any]  # JSON Schema of the arguments (type: object)
    category: str = ""  # e.g. Source / Processor / Action, or read / write
    domain: str = ""
    capability: str = ""
    substitutes: tuple[str, ...] = ()
    output_fields: tuple[str, ...] = ()
    output_schema: Mapping[str, Any] | None = None

    def openai_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": _plain(self.parameters),
            },
        }


@dataclass(frozen=True)
class Task:
    """A public task: what the agent is asked. Hidden solution data stays inside the environment."""

    task_id: str
    workflow_id: str  # tasks of one workflow share a fold and a cluster in analysis
    query: str
    env: str
    split: str = "test"
    terminal_tool: str | None = None  # the tool whose call ends the episode (e.g. "finish")
    meta: Mapping[str, Any] = field(default_factory=dict)  # public labels: complexity, mode, domains


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Mapping[str, Any]
    call_id: str = ""


@dataclass
class ToolResult:
    """One tool execution. ``content`` is what the agent sees (JSON-able); ``meta`` never is.

    ``meta`` carries harness-side facts such as ``{"perturbed": True}`` that graders, fault
    studies and analysis may read, but that must never reach the agent or the monitor.
    """

    content: Any
    status: Status = "ok"
    terminal: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The string a model receives as the tool message."""
        if isinstance(self.content, str):
            return self.content
        return json.dumps(self.content, ensure_ascii=False, sort_keys=False)


@dataclass
class Outcome:
    """The grader's verdict. ``details`` holds the trace check and anything analysis wants."""

    success: bool
    score: float
    details: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Episode(Protocol):
    task: Task

    def tools(self) -> list[ToolSpec]:
        """The tools exposed in this episode."""
        ...

    def call(self, call: ToolCall) -> ToolResult:
        """Execute one tool call. Bad calls return ``status="error"`` results, never raise."""
        ...

    def score(self, final_answer: str | None = None) -> Outcome: ...


@runtime_checkable
class Environment(Protocol):
    name: str

    def tasks(self, split: str = "all") -> list[Task]: ...

    def task(self, task_id: str) -> Task: ...

    def start(self, task_id: str, seed: int = 0) -> Episode: ...

    def tool_specs(self) -> dict[str, ToolSpec]:
        """The whole public tool catalog, by name (recovery tools are derived from this)."""
        ...


# --------------------------------------------------------------------------------------------
# Argument validation shared by every environment.

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


def validate_arguments(spec: ToolSpec, arguments: Any) -> list[str]:
    """Messages for every way ``arguments`` fails the tool's parameter schema ([] when valid).

    Checks: arguments is an object, required present, no extra keys, JSON types, enums.
    Booleans are not accepted as numbers (JSON Schema semantics).
    """
    if not isinstance(arguments, Mapping):
        return [f"arguments must be a JSON object, got {type(arguments).__name__}"]
    props: Mapping[str, Any] = spec.parameters.get("properties", {}) or {}
    errors = [f"missing required argument '{k}'" for k in spec.parameters.get("required", []) if k not in arguments]
    for key, value in arguments.items():
        if key not in props:
            errors.append(f"unexpected argument '{key}' (allowed: {', '.join(sorted(props)) or 'none'})")
            continue
        errors.extend(_check_value(key, value, props[key]))
    return errors


def _check_value(key: str, value: Any, schema: Mapping[str, Any]) -> list[str]:
    want = schema.get("type")
    if want is not None:
        names = want if isinstance(want, list) else [want]
        ok = any(_is_type(value, n) for n in names)
        if not ok:
            return [f"argument '{key}' must be {' or '.join(names)}, got {type(value).__name__} {value!r}"[:300]]
    if "enum" in schema and value not in schema["enum"]:
        return [f"argument '{key}' must be one of {list(schema['enum'])}, got {value!r}"]
    return []


def _is_type(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _JSON_TYPES.get(name, (object,)))


def validation_error(tool: str, errors: list[str]) -> ToolResult:
    """The error result every environment returns for an invalid call."""
    return ToolResult(
        content={"error": "Validation failed", "tool": tool, "validation_errors": errors},
        status="error",
        meta={"validation_error": True},
    )


def unknown_tool_error(tool: str, available: list[str]) -> ToolResult:
    return ToolResult(
        content={"error": f"Unknown tool '{tool}'", "available_tools": sorted(available)},
        status="error",
        meta={"validation_error": True},
    )


def _plain(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj
