"""``python -m harness.run`` refuses a bad model set-up before any episode, with a message that says the fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harness.config import CONF_DIR

REPO = Path(__file__).resolve().parents[3]


def run_cli(out: Path, *args: str, drop: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run([sys.executable, "-m", "harness.run", *args, f"out={out}"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


def assert_nothing_ran(out: Path) -> None:
    written = {p.name for p in out.rglob("*") if p.is_file() and ".hydra" not in p.parts}
    assert written <= {"run.log"}, written  # Hydra's own folder only: no records, manifest or transcripts


def test_missing_api_key_fails_fast_and_names_the_variable(tmp_path):
    out = tmp_path / "run"
    proc = run_cli(out, "study=table1", "models=[deepseek-chat]", drop=("DEEPSEEK_API_KEY",))
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "DEEPSEEK_API_KEY is not set" in proc.stderr and "export DEEPSEEK_API_KEY=" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert_nothing_ran(out)


def test_unknown_model_lists_the_configured_names(tmp_path):
    out = tmp_path / "run"
    proc = run_cli(out, "study=smoke", "models=[nonexistent-model]")
    assert proc.returncode == 2, proc.stderr[-2000:]
    known = sorted(p.stem for p in (CONF_DIR / "model").glob("*.yaml"))
    assert known and all(name in proc.stderr for name in known)
    assert "nonexistent-model" in proc.stderr and "provider prefix" in proc.stderr
    assert_nothing_ran(out)
