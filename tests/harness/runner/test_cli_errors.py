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
    return subprocess.run(
        [sys.executable, "-m", "harness.run", *args, f"out={out}"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def assert_nothing_ran(out: Path) -> None:
    written = {p.name for p in out.rglob("*") if p.is_file() and ".hydra" not in p.parts}
    assert written <= {"run.log"}, written  # Hydra's own folder only: no records, manifest or transcripts


def test_missing_api_key_fails_fast_and_names_the_variable(tmp_path):
    out = tmp_path / "run"
    proc = run_cli(out, "study=table1", "model=[deepseek-chat]", drop=("DEEPSEEK_API_KEY",))
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


def test_a_typo_in_an_arm_or_a_model_group_is_hydras_own_message(tmp_path):
    for override, said in (
        ("arm=monitr", "arm/monitr"),
        ("model=scripted-trustin", "model/scripted-trustin"),
    ):
        out = tmp_path / override.split("=")[0]
        proc = run_cli(out, "study=smoke", override)
        assert proc.returncode != 0 and said in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[
            -2000:
        ]
        assert not (out / "episodes.jsonl").exists()


def test_bad_input_to_the_user_commands_is_one_clear_line(tmp_path):
    """LIMIT=abc, a folder without records, a corrupt line in the middle of the records."""
    env = {**os.environ}
    res = subprocess.run(
        [sys.executable, "scripts/replicate_table1.py", "--limit", "abc"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        res.returncode == 2 and "LIMIT must be a whole number" in res.stderr and "Traceback" not in res.stderr
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    res = subprocess.run(
        [sys.executable, "-m", "analysis", "figures", "--run", str(empty)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2 and "no episode records here" in res.stderr and "Traceback" not in res.stderr
    run = tmp_path / "run"
    proc = run_cli(
        run, "study=smoke", "limit=1", "arm=[baseline]", "model=[scripted-trusting]", "progress=false"
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = (run / "episodes.jsonl").read_text().splitlines()
    (run / "episodes.jsonl").write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    for cmd in (
        [sys.executable, "-m", "analysis", "figures", "--run", str(run)],
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=smoke",
            "limit=1",
            "arm=[baseline]",
            "model=[scripted-trusting]",
            "progress=false",
            f"out={run}",
        ],
    ):
        res = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert res.returncode == 2 and "episodes.jsonl:2: corrupt record" in res.stderr, res.stderr[-2000:]
        assert "Traceback" not in res.stderr


def test_help_lists_every_study_with_its_line_and_without_a_traceback(tmp_path):
    from harness.studies_list import studies

    proc = subprocess.run(
        [sys.executable, "-m", "harness.run", "--help"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    rows = studies()
    assert len(rows) >= 10 and all(name in proc.stdout and line in proc.stdout for name, line in rows.items())


def test_a_missing_world_data_folder_is_one_clear_message(tmp_path):
    """A world that cannot start (here tau-bench without its data) says what to run, no traceback."""
    out = tmp_path / "run"
    proc = run_cli(
        out,
        "study=taubench-clean",
        f"+study.env.options.data_dir={tmp_path / 'nowhere'}",
        drop=("TAUBENCH_DATA",),
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "does not exist" in proc.stderr and "make data-taubench" in proc.stderr
    assert "Traceback" not in proc.stderr and 'File "' not in proc.stderr
    assert_nothing_ran(out)
