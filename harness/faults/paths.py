"""JSON paths over tool results: enumerate leaves, read and write by path (``$.a.b[0].c``).

Pure helpers over plain JSON values; they know nothing about faults or tools.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def parse(path: str) -> list[str | int]:
    """``$.items[0].price`` -> ``["items", 0, "price"]``."""
    if not path.startswith("$"):
        raise ValueError(f"path must start with '$': {path!r}")
    steps: list[str | int] = []
    rest = path[1:]
    pos = 0
    for m in _TOKEN.finditer(rest):
        if m.start() != pos:
            raise ValueError(f"bad path {path!r}")
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if pos != len(rest):
        raise ValueError(f"bad path {path!r}")
    return steps


def join(steps: list[str | int]) -> str:
    return "$" + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in steps)


_UNADDRESSABLE = re.compile(r"[.\[\]]")


def walk(value: Any, prefix: str = "$") -> Iterator[tuple[str, Any]]:
    """Every node (containers included) with its path, parents before children, keys in order.

    A key the path syntax cannot spell (one holding ``.``, ``[`` or ``]``, such as an e-mail address
    keying a map) is left out with what lies under it: no path could read or write it back."""
    yield prefix, value
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(key, str) and _UNADDRESSABLE.search(key):
                continue
            yield from walk(child, f"{prefix}.{key}")
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from walk(child, f"{prefix}[{i}]")


def get(value: Any, path: str) -> Any:
    for step in parse(path):
        value = value[step]
    return value


def set_(value: Any, path: str, new: Any) -> Any:
    """Set ``path`` in place and return the root (the root itself is replaced when path is ``$``)."""
    steps = parse(path)
    if not steps:
        return new
    parent = value
    for step in steps[:-1]:
        parent = parent[step]
    parent[steps[-1]] = new
    return value


def parent_and_key(value: Any, path: str) -> tuple[Any, str | int]:
    steps = parse(path)
    if not steps:
        raise ValueError("the root has no parent")
    parent = value
    for step in steps[:-1]:
        parent = parent[step]
    return parent, steps[-1]


def field_name(path: str) -> str:
    """The last object key on the path (``$.items[0].price`` -> ``price``), '' for the root."""
    for step in reversed(parse(path)):
        if isinstance(step, str):
            return step
    return ""


def generic(path: str) -> str:
    """Index-free form used to match schema fields: ``$.items[3].price`` -> ``$.items[*].price``."""
    return re.sub(r"\[\d+\]", "[*]", path)
