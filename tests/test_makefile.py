"""Every Makefile knob given a bad value is one line from make and exit 2, before any target runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


@pytest.mark.parametrize(
    ("goal", "knob", "value", "says"),
    [
        ("replicate-table1", "OUT", "{file}", "names a file"),
        ("smoke", "OUT", "{file}", "names a file"),
        ("ablations", "OUT", "{file}", "names a file"),
        ("replicate-table1", "LIMIT", "ten", "positive whole number"),
        ("ablations", "LIMIT", "0", "positive whole number"),
        ("replicate-table1", "MODELS", "no-such-model", "unknown model 'no-such-model'"),
        ("replicate-table1", "REPLAY", "{missing}", "no such file"),
        ("figures", "RUN", "{missing}", "no run there"),
        ("verify", "RUN", "{missing}", "no run there"),
        ("report", "RUN", "{missing}", "no run there"),
        ("inspect-export", "RUN", "{missing}", "no run there"),
        ("report", "HTML", "{dir}", "is a folder"),
        ("smoke", "PROGRESS", "maybe", "true or false"),
        ("data-taubench", "TAUBENCH_BASE_URL", "mirror.example", "not a URL"),
        ("data-taubench", "TAUBENCH_TASKS", "{missing}", "no such folder"),
    ],
)
def test_a_bad_knob_is_one_line_and_exit_2(tmp_path, goal, knob, value, says):
    (tmp_path / "file").write_text("x")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "episodes.jsonl").write_text("")
    value = value.format(file=tmp_path / "file", missing=tmp_path / "missing", dir=tmp_path)
    cmd = ["make", "-s", goal, f"{knob}={value}", *([f"RUN={tmp_path / 'run'}"] if knob != "RUN" else [])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    out = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2 and len(out) == 1, out
    assert knob in out[0] and says in out[0]


def test_good_knobs_say_nothing():
    done = subprocess.run(
        ["make", "-s", "help", "LIMIT=3", "MODELS=scripted-trusting,openai/gpt-4o"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "***" not in done.stderr
