"""A world is one folder: a copy of a world's folder under a new name (the old name replaced by the new
one inside the copy only, file names included) is discovered and its studies run, in a temporary copy of
the repository, with no edit anywhere else."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
from tests.datapaths import TAUBENCH_RETAIL as SHARED_RETAIL  # noqa: E402


def copy_repository(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def clone_world(repo: Path, old: str, new: str) -> None:
    """environments/<old> copied to environments/<new>, ``old`` -> ``new`` and ``OLD`` -> ``NEW`` inside."""
    src, dst = repo / "environments" / old, repo / "environments" / new
    for path in sorted(src.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = Path(
            *(
                part.replace(old, new).replace(old.upper(), new.upper())
                for part in path.relative_to(src).parts
            )
        )
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            target.write_bytes(data)
            continue
        target.write_text(text.replace(old, new).replace(old.upper(), new.upper()), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(
    not (SHARED_RETAIL / "orders.json").is_file(), reason=f"tau-bench data not at {SHARED_RETAIL}"
)
def test_a_copied_world_is_discovered_and_its_study_runs(tmp_path):
    repo = tmp_path / "repo"
    copy_repository(repo)
    clone_world(repo, "taubench", "taubclone")
    env = {**os.environ, "TAUBCLONE_DATA": str(SHARED_RETAIL), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("TAUBENCH_DATA", None)

    listed = subprocess.run(
        [sys.executable, "-m", "environments", "list", "--json"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert listed.returncode == 0, listed.stderr[-2000:]
    worlds = {w["name"]: w for w in json.loads(listed.stdout)["worlds"]}
    clone = worlds["taubclone"]
    assert clone["origin"] == str(repo / "environments" / "taubclone")
    assert set(clone["studies"]) == {
        s.replace("taubench", "taubclone") for s in worlds["taubench"]["studies"]
    }
    assert clone["ready"] is True and clone["why"] is None

    out = tmp_path / "run"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=taubclone-faults",
            "limit=2",
            "progress=false",
            f"out={out}",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    records = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert records and {r["env"] for r in records} == {"taubclone"}
    assert {r["fault_class"] for r in records} == {"taubclone_status", "taubclone_conservation"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["study"]["env"]["name"] == "taubclone"
