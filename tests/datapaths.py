"""Where the tests find data a user must fetch, in one place.

A user's fresh clone has no ``../shared`` beside it: every test that reads data skips with one reason
when the data is absent. ``OM_TEST_SHARED`` points the tests at another shared folder (CI's no-data step
points it at an empty folder to prove the skips). Tests read data only through this module; a test in
``tests/test_datapaths.py`` checks that no test builds a path to the shared folder by hand.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ENV_VAR = "OM_TEST_SHARED"
SHARED = Path(os.environ.get(ENV_VAR) or REPO.parent / "shared")

TAUBENCH = SHARED / "taubench"  # the data root: <root>/retail, <root>/airline
TAUBENCH_RETAIL = TAUBENCH / "retail"
TAUBENCH_AIRLINE = TAUBENCH / "airline"
TAUBENCH_HISTORICAL = (
    TAUBENCH / "historical" / "gpt-4o-airline.json"
)  # upstream's published GPT-4o airline runs
PAPER_REPORTED = SHARED / "paper" / "reported.json"


def has_retail() -> bool:
    return (TAUBENCH_RETAIL / "orders.json").is_file()


def has_airline() -> bool:
    return (TAUBENCH_AIRLINE / "flights.json").is_file()


def skip_reason(what: str, path: Path) -> str:
    return f"{what} not found at {path} (fetch it with the command in its README, or set {ENV_VAR})"


def require_retail() -> Path:
    """The tau-bench retail folder, or skip the test with one reason."""
    if not has_retail():
        pytest.skip(skip_reason("tau-bench retail data", TAUBENCH_RETAIL))
    return TAUBENCH_RETAIL


def require_airline() -> Path:
    if not has_airline():
        pytest.skip(skip_reason("tau-bench airline data", TAUBENCH_AIRLINE))
    return TAUBENCH_AIRLINE


def require_historical() -> Path:
    """tau-bench's published GPT-4o airline trajectories (``make data-taubench``), or skip with one reason."""
    if not TAUBENCH_HISTORICAL.is_file():
        pytest.skip(skip_reason("tau-bench's published GPT-4o airline runs", TAUBENCH_HISTORICAL))
    return TAUBENCH_HISTORICAL


retail_only = pytest.mark.skipif(
    not has_retail(), reason=skip_reason("tau-bench retail data", TAUBENCH_RETAIL)
)
paper_only = pytest.mark.skipif(
    not PAPER_REPORTED.is_file(), reason=skip_reason("the paper's reported figures", PAPER_REPORTED)
)
