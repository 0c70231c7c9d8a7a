"""Every test reads fetched data through tests/datapaths.py, so one variable points them all elsewhere
(CI's no-data step) and each skips with one reason when the data is absent."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# a path built to the shared folder by hand: "shared" as a path part, or ../shared
BY_HAND = re.compile(r"""["']shared["']|\.\./shared|/work/shared""")


def test_no_test_builds_a_path_to_the_shared_folder_by_hand():
    offenders = [
        f"{path.relative_to(TESTS)}:{n}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name not in ("datapaths.py", "test_datapaths.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BY_HAND.search(line)
    ]
    assert not offenders, f"read the shared folder through tests/datapaths.py: {offenders}"


def test_the_data_marker_finds_the_tests_that_read_data(pytestconfig):
    from tests.conftest import _needs_data

    assert _needs_data(TESTS / "environments" / "taubench" / "test_tools.py")  # via its conftest
    assert _needs_data(TESTS / "harness" / "mcp" / "test_serve.py")  # imports datapaths
    assert not _needs_data(TESTS / "harness" / "test_records.py")
