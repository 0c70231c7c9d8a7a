"""Where the pinned ``bfcl-eval`` wheel lives, and importing it unmodified from there.

The data folder is ``$BFCL_DATA`` when set, else ``<repo>/data/bfcl`` (git-ignored). It holds the wheel
exactly as PyPI serves it (``make data-bfcl``: ``pip download --no-deps``); the wheel is a zip, so its
path goes on ``sys.path`` and ``bfcl_eval`` is imported from it as it is. Only ``mpmath`` (this folder's
``requirements.txt``) is installed beside it; none of the wheel's other dependencies is needed by the multi-turn classes
and the checker. The wheel's sha256 is checked before its first import in a process.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from core.protocol import WorldUnavailable

VERSION = "2026.3.23"
WHEEL = f"bfcl_eval-{VERSION}-py3-none-any.whl"
SHA256 = "3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a"
ENV_VAR = "BFCL_DATA"
DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "data" / "bfcl"
FIX = f"run `make data-bfcl` (or set {ENV_VAR} to a folder holding {WHEEL})"


class DataError(WorldUnavailable):
    """The wheel or mpmath is missing or altered (the message says what to run)."""


def data_dir(folder: str | os.PathLike[str] | None = None) -> Path:
    if folder is not None and str(folder) != "":
        return Path(folder).expanduser()
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else DEFAULT_ROOT


def wheel_path(folder: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(folder) / WHEEL


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def unavailable(folder: str | os.PathLike[str] | None = None) -> str | None:
    """What is missing for the world to start (cheap: no hash, no import), or None."""
    wheel = wheel_path(folder)
    if not wheel.is_file():
        return f"bfcl-eval {VERSION} wheel missing ({wheel}): {FIX}"
    if importlib.util.find_spec("mpmath") is None:
        return "mpmath missing: run `make worlds` (installs environments/bfcl/requirements.txt; make data-bfcl does too)"
    return None


@cache
def _checked(wheel: Path) -> Path:
    digest = file_sha256(wheel)
    if digest != SHA256:
        raise DataError(f"{wheel}: sha256 {digest} is not the pinned {SHA256}; delete it and {FIX}")
    return wheel


def load(folder: str | os.PathLike[str] | None = None) -> ModuleType:
    """The ``bfcl_eval`` package, imported from the verified wheel (once per process)."""
    why = unavailable(folder)
    if why:
        raise DataError(why)
    wheel = _checked(wheel_path(folder).resolve())
    loaded = sys.modules.get("bfcl_eval")
    if loaded is not None:
        where = Path(getattr(loaded, "__file__", "") or "")
        if wheel not in where.parents and str(wheel) not in str(where):
            raise DataError(f"bfcl_eval is already imported from {where}, not from {wheel}")
        return loaded
    if str(wheel) not in sys.path:
        sys.path.append(str(wheel))  # appended: nothing of the project's own is shadowed
    return importlib.import_module("bfcl_eval")
