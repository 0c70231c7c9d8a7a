"""Name -> world plugin, imported lazily so loading one world never loads the others.

``get_plugin`` also takes a ``module:attr`` reference (a world that lives elsewhere, such as the
tests' small worlds). Nothing outside a world's own folder imports that folder: ask here.
"""

from __future__ import annotations

import importlib
from typing import Any

from environments.base import Environment
from environments.plugin import Plugin

# name -> "module:attribute" of its Plugin
PLUGINS: dict[str, str] = {
    "toolmaze": "environments.toolmaze.plugin:PLUGIN",
    "taubench": "environments.taubench.plugin:PLUGIN",
    "appworld": "environments.appworld.plugin:PLUGIN",
}


class UnknownEnvironmentError(KeyError):
    """No such world (or it is not in this checkout)."""


def get_plugin(name: str) -> Plugin:
    ref = PLUGINS.get(name, name if ":" in name else None)
    if ref is None:
        raise UnknownEnvironmentError(f"unknown environment {name!r}; known: {', '.join(sorted(PLUGINS))}")
    module, _, attr = ref.partition(":")
    try:
        plugin = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as exc:
        raise UnknownEnvironmentError(
            f"environment {name!r} is not available in this checkout ({exc})"
        ) from None
    except AttributeError:
        raise UnknownEnvironmentError(f"environment {name!r}: {module} has no {attr!r}") from None
    if not isinstance(plugin, Plugin):
        raise UnknownEnvironmentError(f"environment {name!r}: {ref} is not an environments.plugin.Plugin")
    return plugin


def get_environment(name: str, **options: Any) -> Environment:
    return get_plugin(name).make(**options)
