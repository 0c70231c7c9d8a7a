"""Where the AppWorld side lives on disk: its virtual environment, its cache, its data root.

Everything sits under the project's git-ignored ``.appworld/`` folder (licence: generated docs and
decrypted code are never committed); ``APPWORLD_ROOT`` may point elsewhere at the user's data
download. Pure path logic: imports nothing heavy and never ``appworld``.
"""

from __future__ import annotations

import os
from pathlib import Path

APPWORLD_VERSION = "0.1.3.post1"
REPO = Path(__file__).resolve().parents[2]
HOME = Path(os.environ.get("OM_APPWORLD_HOME", REPO / ".appworld"))
VENV = HOME / "venv"
PYTHON = VENV / "bin" / "python"
CACHE = HOME / "cache"
STAMP = HOME / "setup.stamp"
PACKAGE_DIR = Path(__file__).resolve().parent
SERVER = PACKAGE_DIR / "server" / "main.py"
SETUP_HINT = "run `make appworld-setup` (creates .appworld/venv with appworld==" + APPWORLD_VERSION + ")"


def root() -> Path:
    """AppWorld's data root: ``$APPWORLD_ROOT`` when set, else ``.appworld/root``."""
    return Path(os.environ.get("APPWORLD_ROOT") or HOME / "root")


def tasks_dir() -> Path:
    return root() / "data" / "tasks"


def has_task_data() -> bool:
    return tasks_dir().is_dir()


def data_hint() -> str:
    return (
        f"AppWorld task data not found at {tasks_dir()}: run `APPWORLD_ROOT=<dir> {PYTHON.parent}/appworld "
        "download data` (needs the internet), then set APPWORLD_ROOT=<dir>"
    )


def is_set_up() -> bool:
    return STAMP.exists() and PYTHON.exists()


def bridge_env() -> dict[str, str]:
    """The environment a bridge process runs with: every AppWorld cache under ``.appworld/``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    env["APPWORLD_CACHE"] = str(CACHE)
    env["APPWORLD_ROOT"] = str(root())
    env["PYTHONUNBUFFERED"] = "1"
    return env
