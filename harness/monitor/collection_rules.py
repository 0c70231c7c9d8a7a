"""Collection rules (class ``collection``, the wider vocabulary): what the clean results say about the
size and the members of a list or a map, learned per tool.

Forms (``params["form"]``), each over one list or map field of a context element:

* ``len_eq``: the list always held ``n`` elements (every clean result, at least ``min_presence``
  distinct ones): a truncated or padded list fires;
* ``len_le_arg``: never longer than the call's numeric argument ``arg`` (a ``limit``), which took
  ``min_distinct_eq`` values or more and was reached at least once;
* ``has_keys``: a map (keyed by names or ids) that always held ``keys``: a dropped entry fires,
  though what is left is still a valid map;
* ``echo_set``: the ids or names a list argument ``arg`` asked for are exactly those of
  ``each(list[*].k)`` (``subset``: among them): an entity swapped for another fires.

The checks and their words; ``vocabulary`` mines them. Knows nothing of receipts or environments.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from harness.monitor.values import MISSING, is_number

Values = Mapping[str, Any]
Verdict = tuple[Any, ...] | None

MAX_KEYS = 20  # a receipt names at most this many kept keys


def compile_collection(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    form = p["form"]
    if form == "len_eq":
        n = int(p["n"])

        def check_len(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            return (len(v),) if isinstance(v, (list, dict)) and len(v) != n else None

        return check_len
    if form == "len_le_arg":
        arg = str(p["arg"])

        def check_limit(vals: Values, args: Values) -> Verdict:
            v, limit = vals.get(f, MISSING), args.get(arg, MISSING)
            if not isinstance(v, list) or not is_number(limit):
                return None
            return (len(v),) if len(v) > limit else None

        return check_limit
    if form == "has_keys":
        keys = tuple(p["keys"])

        def check_keys(vals: Values, args: Values) -> Verdict:
            # the result itself (field ""): its values are the element's own fields
            v = vals.get(f, MISSING) if f else vals
            if not isinstance(v, dict):
                return None
            gone = [k for k in keys if k not in v]
            return (sorted(v),) if gone else None

        return check_keys
    if form in ("echo_set", "subset"):
        arg, key, exact = str(p["arg"]), str(p["key"]), form == "echo_set"

        def check_members(vals: Values, args: Values) -> Verdict:
            items, asked = vals.get(f, MISSING), args.get(arg, MISSING)
            if not isinstance(items, list) or not isinstance(asked, list):
                return None
            got = [e.get(key) for e in items if isinstance(e, dict)]
            try:
                g, a = set(got), set(asked)
            except TypeError:
                return None
            return (got,) if (g != a if exact else not g <= a) else None

        return check_members
    raise ValueError(f"unknown collection form {form!r}")


def collection_expected(p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form == "len_eq":
        return f"{p['n']} elements"
    if form == "len_le_arg":
        return f"at most arg.{p['arg']} elements"
    if form == "has_keys":
        return "entries " + ", ".join(json.dumps(k, ensure_ascii=False) for k in p["keys"][:MAX_KEYS])
    return f"{p['key']}s {'==' if form == 'echo_set' else 'among'} arg.{p['arg']}"


def collection_sentence(a: str, p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form == "len_eq":
        return f"{a} must hold {p['n']} elements (as every clean result did)"
    if form == "len_le_arg":
        return f"{a} must hold at most the argument {p['arg']} elements"
    if form == "has_keys":
        keys = p["keys"]
        shown = ", ".join(json.dumps(k, ensure_ascii=False) for k in keys[:MAX_KEYS])
        more = f" (and {len(keys) - MAX_KEYS} more)" if len(keys) > MAX_KEYS else ""
        return f"{a} must hold the entries {shown}{more} (as every clean result did)"
    if form == "echo_set":
        return f"the {p['key']}s of {a} must be exactly those the argument {p['arg']} asked for"
    return f"the {p['key']}s of {a} must be among those the argument {p['arg']} asked for"


__all__ = ["collection_expected", "collection_sentence", "compile_collection"]
