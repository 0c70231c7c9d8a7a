"""The main job end to end: `make replicate-table1`'s script on the default scripted study must print
REPRODUCED against results/frozen/table1-scripted (a changed receipt text once moved the noisy player's
draws and only this run would have shown it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_default_table1_run_reproduces_the_frozen_table(tmp_path):
    out = tmp_path / "t1"
    done = subprocess.run(
        [sys.executable, "scripts/replicate_table1.py", "--out", str(out), "--progress", "false"],
        cwd=ROOT,
        env={**os.environ, "MPLBACKEND": "Agg"},
        capture_output=True,
        text=True,
    )
    tail = (done.stdout + done.stderr)[-3000:]
    assert done.returncode == 0, tail
    assert "NOT REPRODUCED" not in done.stdout and "REPRODUCED" in done.stdout, tail
