"""Name -> environment factory, imported lazily so loading one world never loads the others."""

from __future__ import annotations

import importlib
from typing import Any

from environments.base import Environment

# "module:attribute"; each factory accepts keyword options from conf/env/<name>.yaml
FACTORIES: dict[str, str] = {
    "toolmaze": "environments.toolmaze.env:ToolMazeEnv",
    "taubench": "environments.taubench.env:TauBenchRetailEnv",
    "appworld": "environments.appworld.env:AppWorldEnv",
}


def get_environment(name: str, **options: Any) -> Environment:
    if name not in FACTORIES:
        raise KeyError(f"unknown environment '{name}'; known: {', '.join(sorted(FACTORIES))}")
    module, _, attr = FACTORIES[name].partition(":")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as exc:
        raise KeyError(f"environment '{name}' is not available in this checkout ({exc})") from exc
    return factory(**options)
