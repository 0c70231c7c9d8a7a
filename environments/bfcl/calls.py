"""Ground-truth call strings as tool calls: ``sort('a.pdf')`` -> ``ToolCall("sort", {"file_name": "a.pdf"})``.

A positional argument takes the name of the method's parameter at its position (the class's own
signature); every argument must be a Python literal (the ground truth's are).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from functools import cache

from core.protocol import ToolCall
from environments.bfcl.paths import load


@cache
def _signatures() -> dict[str, list[str]]:
    """Each public method of the multi-turn classes: its parameter names in order."""
    load()
    from bfcl_eval.constants.executable_backend_config import CLASS_FILE_PATH_MAPPING

    from environments.bfcl.tools import CLASSES

    out: dict[str, list[str]] = {}
    for cls in CLASSES:
        klass = getattr(importlib.import_module(CLASS_FILE_PATH_MAPPING[cls]), cls)
        for name, fn in inspect.getmembers(klass, predicate=inspect.isfunction):
            if not name.startswith("_"):
                out[name] = [p for p in inspect.signature(fn).parameters if p != "self"]
    return out


def parse(text: str, call_id: str = "") -> ToolCall:
    node = ast.parse(text.strip(), mode="eval").body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError(f"not a plain function call: {text!r}")
    name = node.func.id
    params = _signatures().get(name, [])
    if len(node.args) > len(params):
        raise ValueError(f"{text!r}: more positional arguments than {name} has parameters")
    args = {params[i]: ast.literal_eval(a) for i, a in enumerate(node.args)}
    for kw in node.keywords:
        if kw.arg is None:
            raise ValueError(f"{text!r}: **kwargs is not a literal argument")
        args[kw.arg] = ast.literal_eval(kw.value)
    return ToolCall(name, args, call_id=call_id)
