"""The scripted-policy registry: ``scripted/<name>`` answers with the policy registered as ``name``.

Policies register here (``register_policy``); the provider in ``scripted.py`` and the chaos
provider look them up. Which player serves a model on a given world (the world's own, or a stock
policy with or without the world's conventions) is decided before a run by
``harness.agents.policies.players``, which registers what it binds here.
Imports nothing of the harness, so policies and providers can both depend on it without a circle.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol


class Policy(Protocol):
    name: str

    def respond(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        """An assistant message dict: {"role", "content", "tool_calls": [{"id", "type", "function"}]}."""
        ...


class ScriptedPolicyError(RuntimeError):
    """A policy raised: a bug in the harness, never an infra error to retry."""


_FACTORIES: dict[str, Callable[[], Policy]] = {}
_INSTANCES: dict[str, Policy] = {}


def register_policy(name: str, factory: Callable[[], Policy]) -> None:
    """Make ``scripted/<name>`` answer with ``factory()``; re-registering a name replaces it."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


# modules that register policies when imported, loaded on the first miss (by name: no import edge)
LOADERS: list[str] = ["harness.agents.policies"]


def _load_builtin_policies() -> None:
    for module in LOADERS:
        importlib.import_module(module)


def get_policy(name: str) -> Policy:
    """The policy registered as ``name`` (one shared instance: policies must keep no episode state)."""
    if name not in _FACTORIES:
        _load_builtin_policies()
    if name not in _FACTORIES and "?" in name:
        _register_parameterised(name)
    if name not in _FACTORIES:
        raise KeyError(f"no scripted policy {name!r}; registered: {sorted(_FACTORIES)}")
    if name not in _INSTANCES:
        _INSTANCES[name] = _FACTORIES[name]()
    return _INSTANCES[name]


def _register_parameterised(name: str) -> None:
    """``base?k=v&...``: register ``name`` on the fly when ``base``'s factory has a ``from_name`` hook.

    The parameters are checked here, so a bad one fails before a run rather than inside an episode.
    """
    base = name.partition("?")[0]
    from_name = getattr(_FACTORIES.get(base), "from_name", None)
    if from_name is None:
        raise KeyError(
            f"no scripted policy {base!r} taking parameters (in {name!r}); registered: {sorted(_FACTORIES)}"
        )
    try:
        policy = from_name(name)
    except ValueError as exc:
        raise KeyError(f"scripted policy {name!r}: {exc}") from None
    register_policy(name, lambda: from_name(name))
    _INSTANCES[name] = policy


def registered_policies() -> list[str]:
    _load_builtin_policies()
    return sorted(_FACTORIES)
