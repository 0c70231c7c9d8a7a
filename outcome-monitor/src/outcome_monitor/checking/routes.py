"""Routes: the resource a call names, as a key its results are checked by.

One tool can return a different form for each resource an argument names: a fetch gives a product
page for ``/products/SKU-1.html``, a JSON record for ``/api/products/SKU-1.json`` and a CSV for
``/data/sales.csv``; a file read gives JSON for ``.json`` files and prose for ``.md``. Pooled over
the tool, such results share almost no rule. A route names the resource by its place: the exact
path where the recording met it often (``/api/orders.json``), else its folder and extension
(``/api/products/*.json``), on the URL's host. ``learning/routes.py`` decides which tools and
arguments are routed; here is only the key, used the same way at learning and at checking. A mode
argument's value (``detail=full``) is a route too (``mode_key``), and so is a command line's first
word (``command=wc *``, ``verb_key``): a shell's ``wc`` always prints counts, its ``cp`` nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

SEP = " @ "  # a routed tool's name: "fetch @ 127.0.0.1:8000/api/products/*.json"
MAX_VALUE = 400

# a host, or none before the path (``file:///srv/notes/a.md``)
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]{0,15}://(?:[^\s/]+|/)")
_EXT = re.compile(r"^[A-Za-z0-9]{1,8}$")


def route_keys(value: Any) -> tuple[str, str] | None:
    """``(exact, family)`` keys of a URL or a path, or None for any other value."""
    if type(value) is not str or not value:
        return None
    if value.startswith("data:"):
        kind = value[5:].split(",", 1)[0].split(";", 1)[0].lower() or "text/plain"
        return f"data:{kind}", f"data:{kind}"  # an inline document: its media type is its place
    if len(value) > MAX_VALUE or any(c.isspace() for c in value):
        return None
    if _URL.match(value):
        try:
            parts = urlsplit(value)
        except ValueError:
            return None
        place, path = parts.netloc.lower(), parts.path or "/"
    elif value.startswith(("/", "./", "~/")) or (re.match(r"^[A-Za-z]:[\\/]", value) is not None):
        place, path = "", value.replace("\\", "/")
    else:
        return None
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return place + path, place + path_family(path)


def path_family(path: str) -> str:
    """A path's folder and extension (``/refs/*.bib`` for ``/refs/ml.bib``; ``/refs/*`` without one)."""
    folder, _, leaf = path.rpartition("/")
    stem, dot, ext = leaf.rpartition(".")
    tail = f"*.{ext}" if dot and stem and _EXT.match(ext) else "*"
    return f"{folder}/{tail}"


def base_tool(name: str) -> str:
    """The tool a routed tool's name names (``fetch`` of ``fetch @ <route>``), or the name itself."""
    return name.split(SEP, 1)[0]


def mode_key(arg: str, value: str) -> str:
    """The route of a mode argument's value (``detail=brief``)."""
    return f"{arg}={value}"


_VERB = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_.+-]{0,31})(?:\s|$)")


def verb_of(value: Any) -> str | None:
    """A command line's first word, lowercased (``wc`` of ``wc -l logs/app.log``), or None."""
    if type(value) is not str or len(value) > MAX_VALUE:
        return None
    m = _VERB.match(value)
    return m.group(1).lower() if m else None


def verb_key(arg: str, verb: str) -> str:
    """The route of a command line by its first word (``command=wc *``)."""
    return f"{arg}={verb} *"


def route_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's routes as ``meta["routes"]`` keeps them, with sets to look its keys up in."""
    return {
        "arg": spec["arg"],
        "exact": frozenset(spec["exact"]),
        "families": frozenset(spec["families"]),
        "mode": bool(spec.get("mode")),
        "verb": bool(spec.get("verb")),
    }


def routed_name(tool: str, spec: Mapping[str, Any], arguments: Mapping[str, Any] | None) -> str | None:
    """The routed tool whose rules check this call, or None (the tool's own rules then); ``spec`` as
    ``route_spec`` gives it."""
    if not arguments:
        return None
    if spec["verb"]:
        verb = verb_of(arguments.get(spec["arg"]))
        key = verb_key(spec["arg"], verb) if verb is not None else None
        return f"{tool}{SEP}{key}" if key in spec["exact"] else None
    if spec["mode"]:
        value = arguments.get(spec["arg"])
        key = mode_key(spec["arg"], value) if type(value) is str else None
        return f"{tool}{SEP}{key}" if key in spec["exact"] else None
    keys = route_keys(arguments.get(spec["arg"]))
    if keys is None:
        return None
    exact, family = keys
    if exact in spec["exact"]:
        return f"{tool}{SEP}{exact}"
    if family in spec["families"]:
        return f"{tool}{SEP}{family}"
    return None


__all__ = [
    "SEP",
    "base_tool",
    "mode_key",
    "path_family",
    "route_keys",
    "route_spec",
    "routed_name",
    "verb_key",
    "verb_of",
]
