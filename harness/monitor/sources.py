"""A world's contract sources as registries: the one way the command line and the run's
``harness.run.registries`` build them.

``traces``: contracts mined from the world's clean traces; ``schemas``: each tool's result schema;
``database``: the world's public database, bound to the tools whose results are its records. The
non-trace sources make the *shared* registry, merged into every registry mined from traces. Knows no
world: everything comes through the plugin interface (``core.plugin``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from outcome_monitor.registry import Registry
from outcome_monitor.thresholds import DEFAULT, Thresholds

from core.plugin import Plugin

SOURCES = ("traces", "schemas", "database")


def check_sources(sources: Iterable[str]) -> tuple[str, ...]:
    out = tuple(sources)
    unknown = [s for s in out if s not in SOURCES]
    if unknown:
        raise ValueError(f"unknown contract source(s) {', '.join(map(repr, unknown))} ({', '.join(SOURCES)})")
    return out


def database_registry(plugin: Plugin, env: Any, thresholds: Thresholds = DEFAULT) -> Registry:
    """Contracts of the world's public database, bound to the tools whose results are its records."""
    from outcome_monitor.learning.derive import bind_records, from_records

    db = plugin.database(env)
    by_collection = from_records(db.collections, thresholds)
    rules = []
    for tool, places in sorted(db.bindings.items()):
        for collection, context in places:
            if collection not in by_collection:
                raise ValueError(
                    f"environment {plugin.name!r} binds {tool} to unknown collection {collection!r}"
                )
            rules.extend(bind_records(by_collection[collection], tool, context))
    return Registry(rules, {"source": "database"})


def shared_registry(
    plugin: Plugin, env: Any, sources: Iterable[str], thresholds: Thresholds = DEFAULT
) -> Registry:
    """The rules of every non-trace source in ``sources``, merged (empty when there is none)."""
    sources = check_sources(sources)
    shared = Registry([], {"source": "+".join(s for s in sources if s != "traces") or "none"})
    if "schemas" in sources:
        from outcome_monitor.learning.derive import registry_from_schemas

        shared = shared.merged(registry_from_schemas(plugin.tool_schemas(env)))
    if "database" in sources:
        shared = shared.merged(database_registry(plugin, env, thresholds))
    return shared


def world_registry(
    plugin: Plugin,
    env: Any,
    sources: Iterable[str] | None = None,
    traces: Iterable[Mapping[str, Any]] | None = None,
    trace_options: Mapping[str, Any] | None = None,
    thresholds: Thresholds = DEFAULT,
) -> Registry:
    """One registry of a world from ``sources`` (default: the world's own ``contract_sources``, the
    ones its studies use): contracts mined from all its clean traces (or ``traces``) merged with
    the shared ones. Cross-fitted registries are ``build_crossfit`` over the same traces, each
    merged with ``shared_registry``."""
    from outcome_monitor.registry import learn

    sources = check_sources(plugin.contract_sources if sources is None else sources)
    shared = shared_registry(plugin, env, sources, thresholds)
    if "traces" not in sources:
        return shared
    rows = list(traces) if traces is not None else list(plugin.clean_traces(env, **dict(trace_options or {})))
    mined = learn(rows, thresholds, vocabulary="paper")  # the studies' protocol, pinned
    return mined.merged(shared) if shared.n_rules else mined


__all__ = ["SOURCES", "check_sources", "database_registry", "shared_registry", "world_registry"]
