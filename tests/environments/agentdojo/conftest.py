"""The AgentDojo world's tests need the agentdojo package (environments/agentdojo/requirements.txt: make worlds; make test installs it)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _agentdojo_installed() -> None:
    from environments.agentdojo import package

    why = package.unavailable()
    if why is not None:
        pytest.skip(why)
