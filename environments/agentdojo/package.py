"""The installed ``agentdojo`` package, reached only through its public objects.

The world pins one package version and one benchmark version. Nothing of the package is copied here:
its suites (environments, tools, user tasks, utility checks) are imported when a world is made.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from functools import cache
from typing import Any

from core.protocol import WorldUnavailable

PACKAGE_VERSION = "0.1.35"
BENCHMARK_VERSION = "v1.2.2"
SUITES = ("workspace", "travel", "banking", "slack")
INSTALL = "make worlds"  # installs every world's own hash-locked requirements.txt, this one's included


def unavailable() -> str | None:
    """None when the pinned package is importable; else one line saying what to run."""
    if importlib.util.find_spec("agentdojo") is None:
        return f"the agentdojo package is not installed: run `{INSTALL}` (agentdojo=={PACKAGE_VERSION}, hash-locked)"
    found = importlib.metadata.version("agentdojo")
    if found != PACKAGE_VERSION:
        return f"agentdojo {found} is installed, the world pins {PACKAGE_VERSION}: run `{INSTALL}`"
    return None


def require() -> None:
    why = unavailable()
    if why is not None:
        raise WorldUnavailable(why)


@cache
def suite(name: str, version: str = BENCHMARK_VERSION) -> Any:
    """The package's ``TaskSuite`` of ``name`` in benchmark ``version`` (checked names, one clear error)."""
    require()
    from agentdojo.task_suite.load_suites import get_suites

    suites = get_suites(version)
    if not suites:
        raise ValueError(
            f"agentdojo has no benchmark version {version!r}; this world is pinned to {BENCHMARK_VERSION}"
        )
    if name not in suites:
        raise ValueError(
            f"agentdojo {version} has no suite {name!r}: choose one of {', '.join(sorted(suites))}"
        )
    return suites[name]


@cache
def default_environment(name: str, version: str = BENCHMARK_VERSION) -> Any:
    """The suite's environment with its default (benign) injection vectors: loaded once, copied per episode."""
    return suite(name, version).load_and_inject_default_environment({})
