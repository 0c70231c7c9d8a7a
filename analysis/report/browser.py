"""Debian's headless chromium, driven through its own chromedriver, for the report's test and benchmark.

Never a downloaded browser: the binary and the driver are the system's (``apt-get install chromium
chromium-driver``), selenium is told both paths so its driver manager never runs, and the browser
starts with background networking, component updates and sync off in a fresh profile folder.
:func:`browser_missing` says why a browser cannot start, so tests skip with that reason.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path(os.environ.get("REPORT_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("REPORT_CHROMEDRIVER", "/usr/bin/chromedriver"))
FLAGS: tuple[str, ...] = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
)  # fmt: skip


def browser_missing() -> str | None:
    """None when chromium, its driver and selenium are all here; otherwise what is missing and how to get it."""
    for p, pkg in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not p.is_file():
            return f"{p} not found: install Debian's {pkg} (make browser)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return (
            "selenium is not installed (it is in the dev extra: pip install -c constraints.txt -e '.[dev]')"
        )
    return None


@contextmanager
def headless_chromium(width: int = 1400, height: int = 1000) -> Iterator:
    """A selenium Chrome driver on the system chromium; the profile folder is removed afterwards."""
    why = browser_missing()
    if why:
        raise RuntimeError(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="report-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


__all__ = ["browser_missing", "headless_chromium", "FLAGS"]
