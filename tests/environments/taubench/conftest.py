"""Fixtures: the shared tau-bench retail copy (../shared/taubench/retail from the repo root) and one environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "taubench" / "retail"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not (SHARED / "orders.json").is_file():
        pytest.skip(f"tau-bench data not found at {SHARED} (the shared copy beside the repository)")
    return SHARED


@pytest.fixture(scope="session")
def env(data_dir):
    from environments.taubench.env import TauBenchEnv

    return TauBenchEnv(data_dir=data_dir)


@pytest.fixture(scope="session")
def raw(data_dir) -> dict:
    """The files parsed straight from disk, independent of the loader."""
    return {
        name: json.loads((data_dir / f"{name}.json").read_text())
        for name in ("users", "orders", "products", "tasks_test", "tasks_train", "tasks_dev")
    }


@pytest.fixture(scope="session")
def airline_env(data_dir):
    from environments.taubench.env import TauBenchEnv

    if not (data_dir.parent / "airline" / "flights.json").is_file():
        pytest.skip(f"tau-bench airline data not found at {data_dir.parent / 'airline'}")
    return TauBenchEnv(data_dir=data_dir.parent, domain="airline")
