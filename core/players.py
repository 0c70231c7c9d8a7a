"""What a world tells the stock scripted players about its tools: the shared data types and the adapter.

The harness's stock players (trusting, receipt-aware, skeptic, noisy) read only what a model reads:
chat messages and OpenAI tool schemas. A world whose prompts follow text conventions of their own
(a line of request values, tags saying where each parameter's value comes from, sentences naming
what a tool returns and which sub-task it serves) can offer a ``PlayerConventions`` adapter through
``core.plugin.Plugin.player_conventions``: it turns that text into the plain structures below, and
the players plan over them. A world without one is played from the schemas alone (generic mode).

These types live in ``core`` because both sides need them and a world may import only ``core``.
Nothing here knows a particular world, the harness, or how a player judges a result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

# where a parameter's value comes from
FROM_REQUEST = "request"  # a value the user's request states (``key`` names it)
FROM_RESULT = "result"  # a field of an earlier tool result (``key`` is the field's name)
FROM_UNKNOWN = ""  # nothing says: a planner cannot fill it from the conventions


@dataclass(frozen=True)
class Param:
    """One parameter of a tool as a player sees it."""

    name: str
    source: str  # FROM_REQUEST | FROM_RESULT | FROM_UNKNOWN
    key: str  # the request key or the result field the value comes from ("" when unknown)
    type: str  # the JSON type the schema asks for ("string" when it says none)
    required: bool
    enum: tuple[Any, ...] = ()  # the schema's allowed values, when it lists them


@dataclass(frozen=True)
class ToolInfo:
    """One tool as a player sees it.

    ``capability`` is the sub-task the tool serves ("" when none is stated); a tool that is one step
    of a chain providing that sub-task has ``chain_step`` = (the intermediate field the chain passes
    on, the step's number, from 1). ``is_action`` marks a tool that changes the world (a write),
    ``is_terminal`` the tool that ends the episode; ``confirms`` names the result field that
    confirms a write ("" when none).
    """

    name: str
    index: int  # position in the tool list: the stable order of routes
    label: str  # what the tool does, in the words of its description's first sentence
    params: tuple[Param, ...]
    returns: tuple[str, ...] = ()  # the result's top-level fields, when the description names them
    capability: str = ""
    chain_step: tuple[str, int] | None = None
    is_action: bool = False
    is_terminal: bool = False
    confirms: str = ""


@runtime_checkable
class PlayerConventions(Protocol):
    """A world's text conventions, read for the stock players (one object, returned each time).

    ``name`` says in words which conventions these are (players quote it when the tools they are
    given carry none). The other methods are pure functions of what a model is shown.
    """

    name: str

    def read_tools(self, schemas: Sequence[Mapping[str, Any]]) -> list[ToolInfo]:
        """The OpenAI tool schemas, in order, as ``ToolInfo`` (``index`` = position in the list)."""
        ...

    def read_inputs(self, query: str) -> dict[str, str]:
        """The values the user's request states, by key (values stay text)."""
        ...

    def subtasks(self, query: str, tools: Sequence[ToolInfo]) -> list[str]:
        """The request's sub-tasks (capabilities) in the order they must be done."""
        ...

    def subtask_label(self, capability: str, tools: Sequence[ToolInfo], query: str) -> str:
        """The sub-task in words, for the player's messages."""
        ...


def unwrap_receipt(content: Any) -> tuple[Any, dict[str, Any] | None]:
    """(result, receipt or None) of a tool message a player reads: results are JSON text or plain
    strings; the monitor's receipt wraps the raw result as ``{tool_result, outcome_monitor}``."""
    try:
        obj = json.loads(content) if isinstance(content, str) else content
    except (TypeError, ValueError):
        return content, None
    if isinstance(obj, dict) and "outcome_monitor" in obj and "tool_result" in obj:
        inner = obj["tool_result"]
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except ValueError:
                pass
        return inner, obj["outcome_monitor"] if isinstance(obj["outcome_monitor"], dict) else {}
    return obj, None
