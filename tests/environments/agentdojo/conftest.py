"""The AgentDojo world's tests need the hash-locked 'agentdojo' extra (make agentdojo; make test installs it)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _agentdojo_installed() -> None:
    from environments.agentdojo import package

    why = package.unavailable()
    if why is not None:
        pytest.skip(why)
