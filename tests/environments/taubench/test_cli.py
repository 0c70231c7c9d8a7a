"""CLI: describe counts, replay (and its database dumps), traces, and one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from environments.taubench.__main__ import main
from environments.taubench.data import folder_digest
from environments.taubench.db import exact_digest
from environments.taubench.replay import run_ground_truth
from tests.environments.taubench.conftest import REPO


@pytest.fixture(autouse=True)
def _data_env(monkeypatch, data_dir):
    monkeypatch.setenv("TAUBENCH_DATA", str(data_dir))


def test_airline_replay_dumps_one_database_per_task(monkeypatch, data_dir, airline_env, tmp_path, capsys):
    monkeypatch.setenv("TAUBENCH_DATA", str(data_dir.parent))  # a root holding retail/ and airline/
    folder = tmp_path / "dbs"
    assert main(["replay", "--domain", "airline", "--split", "test", "--dump-db", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == "test: 50 tasks, reward 1 on 50, semantic 1 on 50"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"test-{i}.json" for i in range(50))
    booked = next(
        t.task_id
        for t in airline_env.tasks("test")
        if "book_reservation" in [a["name"] for a in airline_env.record(t.task_id).actions]
    )
    dumped = json.loads((folder / f"{booked}.json").read_text())
    assert set(dumped) == {"flights", "reservations", "users"} and "HATHAT" in dumped["reservations"]
    assert main(["describe", "--domain", "airline", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["users"], d["reservations"], d["flights"], d["tasks"]) == (500, 2000, 300, {"test": 50})
    assert d["tools"] == 14 and d["tool_categories"] == {"read": 7, "write": 6, "terminal": 1}


def test_describe_counts(capsys, raw, data_dir):
    assert main(["describe", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["users"], d["orders"], d["products"]) == (
        len(raw["users"]),
        len(raw["orders"]),
        len(raw["products"]),
    )
    assert d["variants"] == sum(len(p["variants"]) for p in raw["products"].values())
    assert d["tasks"] == {s: len(raw[f"tasks_{s}"]) for s in ("test", "train", "dev")}
    assert d["tools"] == 16 and d["tool_categories"] == {"read": 8, "write": 7, "terminal": 1}
    import hashlib

    hashes = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in data_dir.iterdir() if p.name != "LICENSE"
    }
    assert d["sha256"] == folder_digest(hashes)


def test_replay_one_task_dumps_what_the_tools_wrote(env, tmp_path, capsys):
    tid = next(
        t.task_id
        for t in env.tasks("test")
        if "modify_pending_order_items" in [a["name"] for a in env.record(t.task_id).actions]
    )
    index = tid.split("-")[1]
    out = tmp_path / "db.json"
    assert main(["replay", "--split", "test", "--task", index, "--dump-db", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["reward"] == 1.0 and d["task_id"] == tid
    dumped = json.loads(out.read_text())
    assert set(dumped) == {"users", "orders", "products"}
    ep = run_ground_truth(env, tid)
    assert exact_digest(dumped) == exact_digest(ep.db.to_dict())  # ints stay ints, float noise kept
    assert exact_digest(dumped) != exact_digest(env.data.base.collections)


def test_replay_split_with_folder_dump(tmp_path, capsys):
    folder = tmp_path / "dbs"
    assert main(["replay", "--split", "dev", "--dump-db", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == "dev: 20 tasks, reward 1 on 20, semantic 1 on 20"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"dev-{i}.json" for i in range(20))


def test_traces_rows(tmp_path, capsys, env):
    out = tmp_path / "t.jsonl"
    assert main(["traces", "--split", "dev", "--out", str(out), "--random-calls", "3"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    gt = sum(len(env.record(t.task_id).actions) for t in env.tasks("dev"))
    assert len(rows) == gt + 3 * 20
    assert all(
        set(r) == {"tool", "arguments", "result", "status", "task_id", "group_id", "source"} for r in rows
    )
    assert all(r["group_id"] == env.task(r["task_id"]).group_id for r in rows)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["replay", "--split", "test", "--task", "115"], "out of range for split test (0..114)"),
        (["replay", "--split", "all", "--task", "1"], "--task needs one split"),
        (["replay", "--split", "bogus"], "invalid choice"),
        (["traces", "--split", "dev"], "--out"),
        (["traces", "--split", "dev", "--out", "-", "--random-calls", "-1"], "--random-calls must be >= 0"),
        (["describe", "--data-dir", "/nonexistent/taubench"], "make data-taubench"),
        (["frobnicate"], "invalid choice"),
        (["replay", "--domain", "airline", "--split", "train"], "the airline domain has only test"),
        (["replay", "--domain", "cargo"], "invalid choice"),
    ],
)
def test_bad_input_one_line_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_dump_db_must_be_a_folder_without_task(tmp_path, capsys):
    f = tmp_path / "file.json"
    f.write_text("{}")
    assert main(["replay", "--split", "dev", "--dump-db", str(f)]) == 2
    assert "must be a folder" in capsys.readouterr().err


def test_real_process_exit_code(data_dir):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "environments.taubench",
            "replay",
            "--split",
            "dev",
            "--task",
            "99",
            "--data-dir",
            str(data_dir),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
