"""BFCL's documented parameter and response types as JSON Schema.

The documents use Python-flavoured type names (``dict``, ``float``, ``tuple``, ``any``); JSON Schema has
``object``, ``number``, ``array`` and no type at all. Everything else (descriptions, enums, items,
properties, required, defaults) is kept as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TYPE_MAP = {
    "dict": "object",
    "float": "number",
    "integer": "integer",
    "int": "integer",
    "string": "string",
    "str": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "object": "object",
    "number": "number",
    "null": "null",
}


def to_json_schema(node: Any) -> Any:
    """``node`` with every BFCL type name mapped to JSON Schema's (``any``: no type constraint)."""
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            if value == "any":
                continue
            if value not in TYPE_MAP:
                raise ValueError(f"BFCL type {value!r} has no JSON Schema mapping")
            out["type"] = TYPE_MAP[value]
        elif key == "properties" and isinstance(value, Mapping):
            out["properties"] = {k: to_json_schema(v) for k, v in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    return out


def parameters_schema(doc: Mapping[str, Any]) -> dict[str, Any]:
    schema = to_json_schema(doc.get("parameters") or {"type": "dict", "properties": {}})
    schema["type"] = "object"
    schema.setdefault("properties", {})
    return schema


def response_schema(doc: Mapping[str, Any]) -> dict[str, Any] | None:
    """The documented result as a JSON Schema (an object whose fields are optional), or None."""
    if not doc.get("response"):
        return None
    return to_json_schema(doc["response"])
