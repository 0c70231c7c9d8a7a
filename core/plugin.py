"""The plugin interface: everything a study needs to know about a world, from that world's package.

Each world ships one ``Plugin`` (``environments/<name>/plugin.py`` as ``PLUGIN``), found through
``core.worlds``. The harness asks the plugin and imports no world: how to build the
environment, which tasks a world-specific selection rule picks, the fault a task plants itself
(a world's own perturbation modes), where contracts come from (clean traces to mine, a JSON Schema per tool's
result, a public database), which scripted agents and users can play it, how the harness's stock
players read its text conventions (``core.players``), and an oracle.

Every method has a neutral default, so a small world overrides only what it has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.players import PlayerConventions
from core.protocol import Environment, Task, ToolCall


@dataclass(frozen=True)
class PlannedFault:
    """A fault the world plants in a task itself (no injector).

    ``label`` enters episode and pair ids (e.g. a perturbation mode, "P3"); ``fault_class`` is what
    records call it (e.g. the payload kind, "negative_value"; "none" for a clean task);
    ``fault_kind`` is its family (none | explicit_transient | implicit_permanent ...).
    """

    label: str
    fault_class: str
    fault_kind: str


@dataclass(frozen=True)
class Database:
    """A public database for contracts: record collections, and which tools return which records.

    ``collections`` maps a collection name to a list of records or ``{id: record}``;
    ``bindings`` maps a tool to ``[(collection, context)]``, the JSON context in its result where a
    record of that collection sits (``$`` for the whole result, ``$.orders[*]`` for list elements).
    """

    collections: Mapping[str, Any]
    bindings: Mapping[str, Sequence[tuple[str, str]]] = field(default_factory=dict)


PolicyFactory = Callable[[], Any]  # -> an object with respond(messages, tools, rng) -> assistant message dict


class Plugin:
    """Base class of a world's plugin; override what the world provides."""

    name: str = ""
    description: str = ""
    # contract sources the world offers, in the order a monitor combines them
    contract_sources: tuple[str, ...] = ("traces",)

    def make(self, **options: Any) -> Environment:
        raise NotImplementedError(f"plugin {self.name!r} does not build an environment")

    def unavailable(self) -> str | None:
        """None when the world can start on this machine; else what is missing and the command that
        fetches it (data not downloaded, an install not made). Cheap: no environment is built."""
        return None

    def select(self, env: Environment, rule: str, params: Mapping[str, Any], seed: int) -> list[Task] | None:
        """Tasks for a world-specific selection rule, or None when the rule is not the world's."""
        return None

    def planned_fault(self, env: Environment, task: Task) -> PlannedFault | None:
        """The fault ``task`` plants itself, or None when the world plants none."""
        return None

    def clean_traces(self, env: Environment, **options: Any) -> Iterable[Mapping[str, Any]]:
        """Clean tool executions: ``{tool, arguments, result, status, task_id, group_id}`` rows."""
        raise NotImplementedError(f"environment {self.name!r} offers no clean traces")

    def tool_schemas(self, env: Environment) -> Mapping[str, Mapping[str, Any]]:
        """A JSON Schema of each tool's success result."""
        raise NotImplementedError(f"environment {self.name!r} offers no result schemas")

    def database(self, env: Environment) -> Database:
        raise NotImplementedError(f"environment {self.name!r} offers no public database")

    def scripted_policies(self) -> Mapping[str, PolicyFactory]:
        """Scripted agents written for this world, by behaviour name (trusting, skeptic ...)."""
        return {}

    def player_conventions(self) -> PlayerConventions | None:
        """The adapter that reads this world's text conventions for the stock scripted players
        (trusting, receipt-aware, skeptic, noisy), or None: they then read the tool schemas alone.
        Return the same object on every call. A player the world ships itself
        (``scripted_policies``) takes precedence over a stock one of the same name."""
        return None

    def scripted_users(self) -> Mapping[str, PolicyFactory]:
        """Scripted users for this world (they answer the messages a user model would get)."""
        return {}

    def presentation(self, env: Environment) -> Mapping[str, Any]:
        """How this world's results read, for every table and report of its runs (written beside the
        records as ``world.json``): ``endpoint`` (what a record's ``success`` means here), ``unit`` (what a
        ``group_id`` is: "workflow", "user"), ``paper`` (the key of the paper's figures for this world in
        ``results/paper``, or None when the paper ran none) and ``notes`` (caveats to state beside every
        table). Empty: the tables say "the world's judge" and "group"."""
        return {}

    def data_digest(self, env: Environment) -> str | None:
        """A hash of the world's data (its generated dataset or its data folder), for provenance."""
        return None

    def published_traffic(self, **options: Any) -> tuple[str, str]:
        """A file of a real model's published trajectories in this world (tau-bench's historical
        format: a JSON list of runs with an OpenAI-style message list each), for ``python -m
        harness.evaluations organic``: ``(path, what makes it appear when it is missing)``. The file
        need not exist yet; ``options`` are the world's ``make`` options (a domain)."""
        raise NotImplementedError(f"environment {self.name!r} knows no published trajectories")

    def oracle(self, env: Environment, task_id: str) -> list[ToolCall]:
        """The calls that solve ``task_id``."""
        raise NotImplementedError(f"environment {self.name!r} has no oracle")
