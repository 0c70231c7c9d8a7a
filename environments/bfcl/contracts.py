"""The documented response schemas as the monitor's schema source, reconciled with the package's results.

A few documents say otherwise than the code: ``send_message`` documents ``message_id`` as an integer and
returns ``{"new_id": ...}``. A type the package's own ground-truth results (every category) contradict
is dropped from the schema the monitor learns (the field stays, with its description); everything else
is the document as written. ``reconciled()`` lists what was dropped.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from environments.bfcl.tools import catalog

_JSON = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
}


def _ok(value: Any, t: str) -> bool:
    if t in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _JSON.get(t, object))


@cache
def reconciled() -> tuple[tuple[str, str], ...]:
    """(tool, field) pairs whose documented type some clean ground-truth result breaks."""
    from environments.bfcl.data import CATEGORIES
    from environments.bfcl.traces import traces

    cat = catalog()
    broken: set[tuple[str, str]] = set()
    for row in traces(CATEGORIES):
        schema = cat[row["tool"]].output_schema or {}
        if row["status"] != "ok" or not isinstance(row["result"], dict):
            continue
        for key, value in row["result"].items():
            t = (schema.get("properties") or {}).get(key, {}).get("type")
            if t and not _ok(value, t):
                broken.add((row["tool"], key))
    return tuple(sorted(broken))


def contract_schemas(env: Any = None) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    drop = set(reconciled())
    for name, spec in catalog().items():
        if not spec.output_schema:
            continue
        schema = copy.deepcopy(dict(spec.output_schema))
        for key, prop in (schema.get("properties") or {}).items():
            if (name, key) in drop:
                prop.pop("type", None)
                prop.pop("items", None)
        out[name] = schema
    return out
