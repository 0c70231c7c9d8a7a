"""Tool specs from the package's function specs, and results as JSON.

A tool's argument schema is the JSON Schema of its pydantic input model; its result schema is the JSON
Schema (serialization mode) of its declared return type: a schema source for contracts. Results reach
the agent as JSON (``model_dump(mode="json")`` for models), never as the package's YAML text.

The package does not say which tools change the environment; the first word of a tool's name does
(``send_``, ``create_``, ``update_`` ... write; ``get_``, ``search_``, ``list_`` ... read). A name with a
first word in neither list is refused, so a new tool cannot pass as a read unnoticed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.protocol import ToolSpec

READ_VERBS = frozenset({"get", "search", "list", "read", "check"})
WRITE_VERBS = frozenset(
    {
        "send",
        "create",
        "delete",
        "update",
        "cancel",
        "reschedule",
        "add",
        "append",
        "share",
        "reserve",
        "schedule",
        "invite",
        "remove",
        "post",
    }
)


class UnknownEffect(ValueError):
    """A tool whose name's first word is neither a read nor a write verb."""


def category_of(name: str) -> str:
    verb = name.split("_", 1)[0]
    if verb in WRITE_VERBS:
        return "write"
    if verb in READ_VERBS:
        return "read"
    raise UnknownEffect(
        f"agentdojo tool {name!r}: its first word {verb!r} is neither a read nor a write verb; "
        "add it to READ_VERBS or WRITE_VERBS in environments/agentdojo/tools.py"
    )


def _plain_schema(node: Any) -> Any:
    """A pydantic JSON Schema without its ``title`` keys (noise in every prompt)."""
    if isinstance(node, Mapping):
        return {k: _plain_schema(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_plain_schema(v) for v in node]
    return node


def result_schema(return_type: Any) -> dict[str, Any] | None:
    """The JSON Schema of what a tool returns, as its JSON result is shaped; None when it has no type."""
    if return_type is None:
        return None
    from pydantic import TypeAdapter

    return _plain_schema(TypeAdapter(return_type).json_schema(mode="serialization"))


def output_paths(schema: Any, defs: Mapping[str, Any] | None = None, at: str = "$") -> tuple[str, ...]:
    """The JSON paths of a result schema's fields (``$[*].sender``, ``$.balance``): what a receipt's
    recovery list matches a violated field against (``ToolSpec.output_fields``). Maps keyed by names
    (``additionalProperties``) are ``$.*``."""
    if not isinstance(schema, Mapping):
        return ()
    defs = defs if defs is not None else schema.get("$defs") or {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return output_paths(defs.get(ref.rsplit("/", 1)[-1]), defs, at)
    out: list[str] = []
    for branch in schema.get("anyOf") or ():
        out += output_paths(branch, defs, at)
    for name, sub in (schema.get("properties") or {}).items():
        out += [f"{at}.{name}", *output_paths(sub, defs, f"{at}.{name}")]
    if isinstance(schema.get("items"), Mapping):
        out += output_paths(schema["items"], defs, f"{at}[*]")
    if isinstance(schema.get("additionalProperties"), Mapping):
        out += [f"{at}.*", *output_paths(schema["additionalProperties"], defs, f"{at}.*")]
    return tuple(dict.fromkeys(out))


def spec_of(function: Any, suite: str) -> ToolSpec:
    """A ``ToolSpec`` of one of the package's ``Function`` objects."""
    params = _plain_schema(function.parameters.model_json_schema())
    params.setdefault("properties", {})
    params["type"] = "object"
    output = result_schema(function.return_type)
    return ToolSpec(
        name=function.name,
        description=function.description,
        parameters=params,
        category=category_of(function.name),
        domain=suite,
        output_fields=output_paths(output),
        output_schema=output,
    )


def to_json(value: Any) -> Any:
    """A tool's return value as JSON data: pydantic models by ``model_dump(mode="json")``."""
    from pydantic import BaseModel
    from pydantic_core import to_jsonable_python

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return to_jsonable_python(value)
