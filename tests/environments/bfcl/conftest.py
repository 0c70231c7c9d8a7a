"""The BFCL tests need the pinned bfcl-eval wheel (``make data-bfcl``); without it they skip with one reason."""

from __future__ import annotations

import pytest


def require_bfcl(module: bool = True) -> None:
    """Skip (the whole calling module, by default) when the wheel or mpmath is missing."""
    from environments.bfcl.paths import unavailable

    why = unavailable()
    if why is not None:
        pytest.skip(f"BFCL world cannot start here: {why}", allow_module_level=module)


@pytest.fixture(scope="session")
def base_env():
    require_bfcl(module=False)
    from environments.bfcl.env import BfclEnv

    return BfclEnv("base")
