"""Episode records: schema, crash-safe appends, torn-line repair, resume keys."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.records import (
    RecordCorruptError,
    RecordWriter,
    finished_keys,
    latest_by_episode,
    load_records,
    make_episode_id,
    make_pair_id,
    validate_record,
)

ROOT = Path(__file__).resolve().parents[2]


def rec(i: int, status: str = "completed", **kw) -> dict:
    base = {
        "record_version": 2,
        "study": "s",
        "arm": "monitor",
        "model": "scripted-trusting",
        "task_id": f"t{i}",
        "group_id": f"w{i % 3}",
        "fold": i % 5,
        "fault_class": None,
        "fault_kind": None,
        "seed": 0,
        "replicate": 0,
        "success": status == "completed",
        "status": status,
        "episode_id": f"ep{i}",
        "pair_id": make_pair_id("s", "m", f"t{i}", None, 0, 0),
        "tool_calls": [],
        "receipts": [],
        "error": None,
    }
    base.update(kw)
    return base


def test_valid_record_passes_and_each_break_is_named():
    assert validate_record(rec(1)) == []
    bad = rec(1, status="crashed")
    del bad["arm"]
    bad["success"] = "yes"
    errors = validate_record(bad)
    assert any("arm" in e for e in errors)
    assert any("status" in e for e in errors)
    assert any("success" in e for e in errors)
    assert validate_record(rec(1, status="infra_error", success=True)) != []


def test_pair_id_shared_by_arms_and_episode_ids_differ():
    a = make_episode_id("s", "baseline", "m", "t1", "f", 0, 0)
    b = make_episode_id("s", "monitor", "m", "t1", "f", 0, 0)
    assert a != b and "/" not in a
    assert make_pair_id("s", "m", "t1", "f", 0, 0) == make_pair_id("s", "m", "t1", "f", 0, 0)
    assert make_pair_id("s", "m", "t1", "f", 0, 0) != make_pair_id("s", "m", "t1", "f", 0, 1)


def test_writer_round_trip_and_rejects_invalid(tmp_path):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        for i in range(5):
            w.append(rec(i))
        with pytest.raises(ValueError, match="invalid episode record"):
            w.append({"episode_id": "x"})
    assert [r["episode_id"] for r in load_records(path)] == [f"ep{i}" for i in range(5)]
    assert path.read_bytes().endswith(b"\n")


def test_torn_final_line_is_truncated_and_backed_up(tmp_path):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        w.append(rec(0))
        w.append(rec(1))
    whole = path.read_bytes()
    partial = json.dumps(rec(2)).encode()[:40]
    path.write_bytes(whole + partial)
    assert len(load_records(path, repair=False)) == 2
    assert path.read_bytes() == whole + partial  # no repair asked: file untouched
    assert [r["episode_id"] for r in load_records(path)] == ["ep0", "ep1"]
    assert path.read_bytes() == whole
    assert (tmp_path / "episodes.jsonl.torn").read_bytes().startswith(partial)
    with RecordWriter(path) as w:  # appending after repair gives clean lines
        w.append(rec(2))
    assert [r["episode_id"] for r in load_records(path)] == ["ep0", "ep1", "ep2"]


def test_corruption_in_the_middle_names_the_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    lines = [json.dumps(rec(0)), "{not json", json.dumps(rec(2))]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordCorruptError, match=r"episodes.jsonl:2"):
        load_records(path)


def test_latest_wins_and_retry_infra_reopens_only_infra_errors(tmp_path):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        w.append(rec(0, status="infra_error", error="429"))
        w.append(rec(1, status="agent_failed"))
        w.append(rec(2, status="infra_error"))
        w.append(rec(0, status="completed"))  # ep0 retried successfully
        w.append(rec(3, status="budget_exhausted"))
    latest = latest_by_episode(load_records(path))
    assert latest["ep0"]["status"] == "completed" and len(latest) == 4
    assert finished_keys(path) == {"ep0", "ep1", "ep2", "ep3"}
    assert finished_keys(path, retry_infra=True) == {"ep0", "ep1", "ep3"}
    assert finished_keys(tmp_path / "missing.jsonl") == set()


_CHILD = textwrap.dedent(
    """
    import json, os, sys, time
    sys.path.insert(0, {root!r})
    from harness.records import RecordWriter
    sys.path.insert(0, {testdir!r})
    from test_records import rec
    path, n, tear = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "tear"
    w = RecordWriter(path)
    for i in range(n):
        w.append(rec(i, final_answer="x" * 20000))
    if tear:
        # the kernel got only part of record n's single write() before the process died
        line = (json.dumps(rec(n, final_answer="x" * 20000)) + "\\n").encode()
        os.write(w._fd, line[: len(line) // 2])
        os.fsync(w._fd)
    print("ready", flush=True)
    time.sleep(60)
    """
)


def _kill_child(path: Path, n: int, tear: bool) -> None:
    code = _CHILD.format(root=str(ROOT), testdir=str(Path(__file__).parent))
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(path), str(n), "tear" if tear else "clean"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "ready"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL


def _resume(path: Path, total: int) -> None:
    done = finished_keys(path)
    with RecordWriter(path) as w:
        for i in range(total):
            if f"ep{i}" not in done:
                w.append(rec(i, final_answer="x" * 20000))


@pytest.mark.parametrize("tear", [True, False])
def test_sigkill_mid_append_then_resume_loses_and_duplicates_nothing(tmp_path, tear):
    path = tmp_path / "episodes.jsonl"
    _kill_child(path, 7, tear)
    before = load_records(path)
    assert [r["episode_id"] for r in before] == [f"ep{i}" for i in range(7)]
    assert (tmp_path / "episodes.jsonl.torn").exists() == tear
    _resume(path, 12)
    ids = [r["episode_id"] for r in load_records(path)]
    assert ids == [f"ep{i}" for i in range(12)]  # each once, in order, none lost
