"""Protocol v2: the one interface every world implements (each folder under ``environments/``, and yours).

The harness sees only these types, so it special-cases no environment; environments must not
import ``harness`` or ``analysis``.

One episode, as the harness drives it::

    env = get_environment("<world>")             # core.worlds
    ep = env.episode(task_id, seed=0, user=None)  # cheap: no I/O yet
    opening = await ep.open()                     # the user's first message (the agent's prompt)
    result = await ep.call(ToolCall("get_x", {...}))   # never raises for a bad call
    turn = await ep.say("Which order?")           # the agent's text goes to the world's user
    ...                                           # until turn.done, a terminal result or the round cap
    outcome = await ep.score()                    # from the world's own record of the episode
    await ep.close()                              # always, also after an error

- **Async** so a world behind a process or HTTP bridge never blocks other episodes. An in-process
  world may stay synchronous and be wrapped by :class:`LocalEpisode`.
- **Conversation**: ``say`` hands the agent's text to the world's user, who answers or ends the
  episode. Worlds without a user end on the first text. A task's hidden instruction
  stays inside the world: the agent sees ``open()``'s message and what the user says.
- **User model**: a world that simulates a user with a language model asks for one
  (``Environment.needs_user``); the harness passes a :class:`UserModel` (messages in, text out)
  and accounts for its cost apart from the agent's.
- **Scoring** is the world's own: it saw every call and every message.
- **State access** (optional, :class:`StateAccess` as ``episode.state``): find the stored record a
  result came from, corrupt it, digest the whole state. State-level faults use it; a world
  without it gets observation-level faults only.
- ``ToolSpec.category`` is ``read``, ``write`` or ``terminal``; ``Task.group_id`` is the unit of
  cross-fitting and clustering; ``Task.strata`` are public labels a study may stratify on.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Status = Literal["ok", "error"]
CATEGORIES = ("read", "write", "terminal")


@dataclass(frozen=True)
class ToolSpec:
    """Public description of one tool: what an agent sees, plus metadata a monitor may use.

    ``category`` is read | write | terminal. ``kind`` is the world's own finer label (e.g.
    Source / Processor / Action / Terminal). ``capability`` groups tools that compute the same
    thing; ``substitutes`` lists tools the world declares as alternatives; ``output_fields`` are
    the JSON paths the result carries (``$.price``, ``$.items[*].amount``). No hidden task data.
    """

    name: str
    description: str
    parameters: Mapping[str, Any]  # JSON Schema of the arguments (type: object)
    category: str = "read"
    domain: str = ""
    capability: str = ""
    substitutes: tuple[str, ...] = ()
    output_fields: tuple[str, ...] = ()
    output_schema: Mapping[str, Any] | None = None
    kind: str = ""

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(
                f"tool {self.name!r}: category must be one of {CATEGORIES}, got {self.category!r}"
            )

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
    """A public task. Hidden solution data (and a simulated user's instruction) stays in the world.

    ``query`` is the public opening text when the world has one; worlds with a user
    leave it empty and open with the user's first message. ``instructions`` (a policy the agent
    must follow) is appended to the harness's system prompt.
    """

    task_id: str
    group_id: str  # tasks of one group share a cross-fitting fold and a cluster in analysis
    query: str
    env: str
    split: str = "test"
    terminal_tool: str | None = None  # the tool whose successful call ends the episode (e.g. "finish")
    strata: Mapping[str, str] = field(default_factory=dict)  # public labels studies stratify on
    meta: Mapping[str, Any] = field(default_factory=dict)  # other public labels
    instructions: str = ""  # the world's standing instructions to the agent (e.g. a customer-service policy)

    @property
    def workflow_id(self) -> str:
        """The first world's word for ``group_id``, kept as an alias."""
        return self.group_id


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
    """The world's verdict. ``details`` holds whatever its grader checked (for transcripts and analysis)."""

    success: bool
    score: float
    details: dict[str, Any] = field(default_factory=dict)


class WorldUnavailable(RuntimeError):
    """A world cannot start: its data, install or bridge is missing or altered. The message names
    what is wrong and what to run; callers report it as it is, without a traceback."""


@dataclass(frozen=True)
class UserTurn:
    """The world's user answering the agent: its words, and whether the conversation is over."""

    text: str | None
    done: bool = False


# A simulated user's language model, supplied by the harness: chat messages in, the reply text out.
UserModel = Callable[[list[dict[str, Any]]], Awaitable[str]]


@runtime_checkable
class StateAccess(Protocol):
    """Optional access to a world's stored state, for faults that corrupt the world itself."""

    def locate(self, call: ToolCall, result: ToolResult, path: str) -> Any | None:
        """A reference to the stored value behind ``path`` of ``call``'s result, or None."""
        ...

    def corrupt(self, ref: Any, value: Any) -> None:
        """Overwrite the stored value at ``ref``."""
        ...

    def digest(self) -> str:
        """A hash of the whole state (equal states, equal digests)."""
        ...


@runtime_checkable
class Episode(Protocol):
    task: Task

    def tools(self) -> list[ToolSpec]:
        """The tools exposed in this episode now: the loop reads them at the start and again after each
        user turn, so a world may change them between turns (saying so in the user's words)."""
        ...

    async def open(self) -> str:
        """Start the episode (bridges connect here); returns the user's first message."""
        ...

    async def call(self, call: ToolCall) -> ToolResult:
        """Execute one tool call. Bad calls return ``status="error"`` results, never raise."""
        ...

    async def say(self, text: str) -> UserTurn:
        """The agent's text to the world's user; the user answers or ends the episode."""
        ...

    async def score(self) -> Outcome: ...

    async def close(self) -> None:
        """Release what ``open`` took; safe to call twice and after a failure."""
        ...


@runtime_checkable
class Environment(Protocol):
    name: str
    needs_user: bool  # True: episode() wants a UserModel

    def tasks(self, split: str = "all") -> list[Task]: ...

    def task(self, task_id: str) -> Task: ...

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> Episode:
        """A new, unopened episode of ``task_id``."""
        ...

    def tool_specs(self) -> dict[str, ToolSpec]:
        """The whole public tool catalog, by name (recovery tools are derived from this)."""
        ...


class SyncEpisode(Protocol):
    """The shape of an in-process, synchronous episode that :class:`LocalEpisode` lifts to v2."""

    task: Task

    def tools(self) -> list[ToolSpec]: ...

    def call(self, call: ToolCall) -> ToolResult: ...

    def score(self, final_answer: str | None = None) -> Outcome: ...


class LocalEpisode:
    """Protocol v2 over a synchronous in-process episode.

    ``open`` returns the task's public query; ``say`` ends the conversation (a world without a
    user takes the agent's text as its final answer) unless the inner episode has its own
    ``say(text) -> UserTurn``; ``score`` passes the last text to the inner ``score``. The inner
    episode's optional ``state`` (a :class:`StateAccess`) is exposed as is.
    """

    def __init__(self, inner: SyncEpisode, opening: str | None = None):
        self.inner = inner
        self.task = inner.task
        self._opening = opening if opening is not None else inner.task.query
        self.final_text: str | None = None

    @property
    def state(self) -> StateAccess | None:
        return getattr(self.inner, "state", None)

    def tools(self) -> list[ToolSpec]:
        return self.inner.tools()

    async def open(self) -> str:
        return self._opening

    async def call(self, call: ToolCall) -> ToolResult:
        return self.inner.call(call)

    async def say(self, text: str) -> UserTurn:
        self.final_text = text
        inner_say = getattr(self.inner, "say", None)
        return inner_say(text) if callable(inner_say) else UserTurn(None, done=True)

    async def score(self) -> Outcome:
        return self.inner.score(self.final_text)

    async def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


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
    errors = [
        f"missing required argument '{k}'" for k in spec.parameters.get("required", []) if k not in arguments
    ]
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
            return [
                f"argument '{key}' must be {' or '.join(names)}, got {type(value).__name__} {value!r}"[:300]
            ]
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
