"""Fixtures: the tau-bench retail copy (tests/datapaths.py says where) and one environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
from tests.datapaths import require_airline, require_retail  # noqa: E402


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return require_retail()


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

    require_airline()
    return TauBenchEnv(data_dir=data_dir.parent, domain="airline")
