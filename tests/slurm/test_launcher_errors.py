"""``hydra/launcher=slurm`` where there is no SLURM: one line saying so, no traceback, nothing submitted.

Needs no cluster (it runs in ``make test``): the SLURM commands are kept off PATH.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_slurm_on_path_is_one_line_and_submits_nothing(tmp_path):
    bin_dir = tmp_path / "bin"  # a PATH with a shell and this python, but no sbatch, srun or sacct
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to("/bin/bash")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{bin_dir}"
    out = tmp_path / "sweep"
    done = subprocess.run(
        [sys.executable, "-m", "harness.run", "-m", "study=smoke", "arm=baseline,monitor",
         "hydra/launcher=slurm", f"out={out}", "progress=false"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    said = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 1, done.stderr[-2000:]
    assert len(said) == 1 and said[0].startswith("error: no SLURM here: sbatch, srun, sacct not on PATH"), (
        said
    )
    assert "Traceback" not in done.stdout + done.stderr
    assert not (out / ".submitit").exists() and not list(out.glob("*/episodes.jsonl"))
