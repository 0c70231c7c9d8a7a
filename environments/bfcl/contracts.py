"""The documented response schemas as the monitor's schema source, reconciled with the package's results.

A documented response lists the fields a result carries, so each documented field is required, with its
documented type. A few documents say otherwise than the code: ``send_message`` documents ``message_id`` as
an integer and returns ``{"new_id": ...}``; ``check_tire_pressure`` documents ``tirePressure`` and returns
four named pressures; ``cd`` returns ``{}`` when the folder does not change. So a type the package's own
ground-truth results (every category) contradict is dropped (the field stays, with its description), and a
field some of those results omit is not required (nor any field of a tool that sometimes returns no object:
``echo`` into a file returns ``None``, ``list_all_airports`` a list). ``reconciled()`` lists all three. This reconciliation reads
every ground-truth result, studied tasks included: it only removes constraints, and it is a property of
the package (its documents against its code), not of any task; ``scripts/bfcl_contracts.py --documented``
prints the figures with the documents as written.
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
def reconciled() -> tuple[tuple[str, str, str], ...]:
    """(tool, field, what) for each documented type some clean ground-truth result breaks (``type``), each
    documented field some clean ground-truth result omits (``optional``), and each tool some of whose clean
    results are not an object at all (``$``, ``not-object``: no field of it is then required)."""
    from environments.bfcl.data import CATEGORIES
    from environments.bfcl.traces import traces

    cat = catalog()
    broken: set[tuple[str, str, str]] = set()
    for row in traces(CATEGORIES):
        schema = cat[row["tool"]].output_schema or {}
        if row["status"] != "ok":
            continue
        if not isinstance(
            row["result"], dict
        ):  # e.g. echo into a file returns None, list_all_airports a list
            broken.add((row["tool"], "$", "not-object"))
            continue
        props = schema.get("properties") or {}
        for key, value in row["result"].items():
            t = props.get(key, {}).get("type")
            if t and not _ok(value, t):
                broken.add((row["tool"], key, "type"))
        broken.update((row["tool"], key, "optional") for key in props if key not in row["result"])
    return tuple(sorted(broken))


def contract_schemas(env: Any = None, documented: bool = False) -> dict[str, dict[str, Any]]:
    """Each tool's response schema for the monitor: every documented field required, less what the
    package's results contradict (``documented=True``: the documents as written, every field required)."""
    out: dict[str, dict[str, Any]] = {}
    drop = set() if documented else set(reconciled())
    for name, spec in catalog().items():
        if not spec.output_schema:
            continue
        schema = copy.deepcopy(dict(spec.output_schema))
        props = schema.get("properties") or {}
        for key, prop in props.items():
            if (name, key, "type") in drop:
                prop.pop("type", None)
                prop.pop("items", None)
        if (name, "$", "not-object") in drop:  # the documented object is not always what comes back
            schema.pop("type", None)
            out[name] = schema
            continue
        required = [k for k in props if (name, k, "optional") not in drop]
        if required and schema.get("type") == "object":
            schema["required"] = required
        out[name] = schema
    return out
