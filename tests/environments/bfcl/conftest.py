"""The BFCL tests need the pinned bfcl-eval wheel (``make data-bfcl``); without it they skip with one reason.

They read data a user must fetch: like the users of tests/datapaths.py they are marked ``data``
(tests/conftest.py), and ``make test-nodata`` runs them with ``BFCL_DATA`` pointed at an empty folder.
The wheel's folder is ``$BFCL_DATA`` or ``data/bfcl`` (``environments/bfcl/paths.py``), not the shared folder.
"""

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
