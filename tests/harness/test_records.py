"""Episode records: the schema (version 3, upgrades of 1 and 2), crash-safe chained appends, torn-line
repair, the hash chain naming edited, removed, inserted and reordered lines, resume keys, the CLI."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from harness.records import (
    RECORD_FIELDS,
    EpisodeRecord,
    RecordChainError,
    RecordCorruptError,
    RecordSchemaError,
    RecordWriter,
    check_resumable,
    finished_keys,
    head,
    latest_by_episode,
    load_records,
    make_episode_id,
    make_pair_id,
    scan,
    validate_record,
    write_records,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def rec(i: int, status: str = "completed", **kw) -> dict:
    """A version-3 record of episode ``ep<i>`` with every field the runner writes."""
    base = {
        "record_version": 3, "study": "s", "arm": "monitor", "model": "scripted-trusting", "task_id": f"t{i}",
        "group_id": f"w{i % 3}", "strata": {"complexity": "C2", "mode": "P3"}, "fold": i % 5,
        "fault_class": None, "fault_kind": None, "fault_kinds_hit": [], "seed": 0,
        "pair_id": make_pair_id("s", "m", f"t{i}", None, 0, 0), "success": status == "completed",
        "outcome_correct": status == "completed", "status": status, "env": "toolmaze", "replicate": 0,
        "episode_id": f"ep{i}", "scripted": True,
        "tool_calls": [{"tool": "get_price", "arguments": {"sku": "A-1"}, "status": "ok", "perturbed": True,
                        "receipt": True}],
        "n_tool_calls": 1, "ignored_parallel_calls": 0,
        "receipts": [{"call_index": 0, "tool": "get_price", "violated": ["get_price:positive:$:amount"],
                      "rule_class": "positive", "recovery_tools": ["get_quote"], "n_admissible": 1,
                      "next_action": "switched_listed"}],
        "n_receipts": 1, "hit": True, "final_answer": "done", "finish_status": "done", "stop_reason": "terminal",
        "rounds": 2, "user_turns": 0, "prompt_tokens": 100, "completion_tokens": 10, "cost_usd": 0.0,
        "reviewer_calls": 0, "reviewer_prompt_tokens": 0, "reviewer_completion_tokens": 0,
        "reviewer_cost_usd": 0.0, "user_calls": 0, "user_prompt_tokens": 0, "user_completion_tokens": 0,
        "user_cost_usd": 0.0, "latency_s": 0.25, "error": None, "error_kind": None,
        "transcript": f"transcripts/ep{i}.json", "trace_check": None, "outcome": None, "labels": {}, "notices": [],
    }  # fmt: skip
    base.update(kw)
    return base


def written(path: Path, n: int) -> list[bytes]:
    """``n`` records written through the writer; the file's lines (with their newlines)."""
    with RecordWriter(path) as w:
        for i in range(n):
            w.append(rec(i, success=False, status="agent_failed", outcome_correct=False))
    return path.read_bytes().splitlines(keepends=True)


# ---------------------------------------------------------------------------------------------
# the schema


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
    assert validate_record(rec(1, cost_usd=True)) != []  # JSON semantics: true is no number
    assert validate_record(rec(1, latency_s=float("nan"))) != []  # nor is NaN


def test_unknown_key_refused_by_the_model_the_writer_and_the_reader(tmp_path):
    assert any("stop_resaon" in e for e in validate_record(rec(1, stop_resaon="final")))
    with pytest.raises(ValueError, match="stop_resaon"):
        EpisodeRecord(
            **rec(1, stop_resaon="final")
        )  # the runner builds records by keyword: a typo fails there
    path = tmp_path / "episodes.jsonl"
    with (
        RecordWriter(path) as w,
        pytest.raises(ValueError, match="invalid episode record 'ep2'.*stop_resaon"),
    ):
        w.append(rec(2, stop_resaon="final"))
    assert not path.read_bytes()  # nothing written
    lines = written(path, 3)
    extra = lines[1].replace(b'{"record_version":3,', b'{"record_version":3,"stop_resaon":"final",')
    path.write_bytes(lines[0] + extra + lines[2])
    with pytest.raises(RecordSchemaError, match=r"episodes.jsonl:2 \(episode ep1\).*stop_resaon"):
        scan(path)


def test_pair_id_shared_by_arms_and_episode_ids_differ():
    a = make_episode_id("s", "baseline", "m", "t1", "f", 0, 0)
    b = make_episode_id("s", "monitor", "m", "t1", "f", 0, 0)
    assert a != b and "/" not in a
    assert make_pair_id("s", "m", "t1", "f", 0, 0) == make_pair_id("s", "m", "t1", "f", 0, 0)
    assert make_pair_id("s", "m", "t1", "f", 0, 0) != make_pair_id("s", "m", "t1", "f", 0, 1)


def test_version_1_and_2_records_load_upgraded_in_memory(tmp_path):
    v1 = load_records(DATA / "records_v1.jsonl", repair=False)
    v2 = load_records(DATA / "records_v2.jsonl", repair=False)
    raw1 = [json.loads(line) for line in (DATA / "records_v1.jsonl").read_text().splitlines()]
    raw2 = [json.loads(line) for line in (DATA / "records_v2.jsonl").read_text().splitlines()]
    assert (
        len(v1) == len(v2) == 4
        and {"workflow_id", "complexity"} <= set(raw1[0])
        and "group_id" not in raw1[0]
    )
    for old, new in zip(raw1, v1, strict=True):
        assert list(new) == list(RECORD_FIELDS)  # the version-3 shape, every field
        assert new["record_version"] == 1  # where it came from stays visible
        assert new["group_id"] == old["workflow_id"]
        assert new["strata"] == {"complexity": old["complexity"], "mode": old["mode"]}
        assert new["outcome_correct"] is None and new["user_calls"] == 0  # version 1 had neither
    for old, new in zip(raw2, v2, strict=True):
        assert list(new) == list(RECORD_FIELDS) and new["record_version"] == 2 and "workflow_id" not in new
        assert {k: new[k] for k in RECORD_FIELDS if k not in ("record_version", "notices", "trial")} == {
            k: old[k] for k in RECORD_FIELDS if k not in ("record_version", "notices", "trial")
        }
        assert new["notices"] == []  # version 3's own field, "nothing noticed" for older records
        assert new["trial"] == 0  # written before trials existed: the one trial, 0
    # the same episodes: version 1 differs from version 2 only in what version 1 never recorded
    never_in_v1 = {"record_version", "outcome_correct", "outcome", "user_turns", "user_calls", "user_prompt_tokens",
                   "user_completion_tokens", "user_cost_usd"}  # fmt: skip
    assert [{k: r[k] for k in RECORD_FIELDS if k not in never_in_v1} for r in v1] == [
        {k: r[k] for k in RECORD_FIELDS if k not in never_in_v1} for r in v2
    ]
    # versions refuse keys they never wrote, and a line without a record_version is not guessed at
    path = tmp_path / "episodes.jsonl"
    path.write_text(json.dumps({**raw2[0], "surprise": 1}) + "\n")
    with pytest.raises(RecordSchemaError, match=r":1 .*surprise.*never written in record version 2"):
        load_records(path)
    path.write_text(json.dumps({k: v for k, v in raw2[0].items() if k != "record_version"}) + "\n")
    with pytest.raises(RecordSchemaError, match="record_version None"):
        load_records(path)


def test_a_version_2_file_resumed_is_chained_from_its_first_new_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    old = (DATA / "records_v2.jsonl").read_bytes()
    path.write_bytes(old)
    with RecordWriter(path) as w:
        w.append(rec(9))
    s = scan(path)
    assert s.breaks == [] and [r["record_version"] for r in s.records] == [2, 2, 2, 2, 3]
    assert head(path)["seq"] == 5  # numbered after the four older lines
    path.write_bytes(old.replace(b'"seed": 0', b'"seed": 1', 1) + path.read_bytes()[len(old) :])
    brk = scan(path).breaks
    assert [(b.line, b.kind) for b in brk] == [(5, "edited")] and "4 unchained older lines" in brk[0].detail


# ---------------------------------------------------------------------------------------------
# writing, repair, resume


def test_writer_round_trip_and_rejects_invalid(tmp_path):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        for i in range(5):
            w.append(rec(i))
        with pytest.raises(ValueError, match="invalid episode record"):
            w.append({"episode_id": "x"})
    assert [r["episode_id"] for r in load_records(path)] == [f"ep{i}" for i in range(5)]
    # read back as written, without the line's seq and chain (a trial-0 line omits trial; it reads as 0)
    assert load_records(path)[0] == {**rec(0), "trial": 0}
    assert path.read_bytes().endswith(b"\n")
    assert head(path)["seq"] == 5
    with RecordWriter(path) as w:  # a second writer links to the first one's last line
        w.append(rec(5))
    assert scan(path).breaks == [] and head(path)["seq"] == 6


def test_torn_final_line_is_truncated_backed_up_and_reported(tmp_path, caplog):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        w.append(rec(0))
        w.append(rec(1))
    whole = path.read_bytes()
    partial = json.dumps(rec(2)).encode()[:40]
    path.write_bytes(whole + partial)
    assert len(load_records(path, repair=False)) == 2
    assert path.read_bytes() == whole + partial  # no repair asked: file untouched
    with caplog.at_level(logging.WARNING, logger="harness"):
        assert [r["episode_id"] for r in load_records(path)] == ["ep0", "ep1"]
    assert [r.name for r in caplog.records] == ["harness.records.files"]
    assert "cut short" in caplog.text and "episodes.jsonl.torn" in caplog.text and "40 bytes" in caplog.text
    assert path.read_bytes() == whole
    assert (tmp_path / "episodes.jsonl.torn").read_bytes().startswith(partial)
    with RecordWriter(path) as w:  # appending after repair gives clean lines
        w.append(rec(2))
    assert [r["episode_id"] for r in load_records(path)] == ["ep0", "ep1", "ep2"]
    path.write_bytes(path.read_bytes() + partial)
    caplog.clear()
    with (
        caplog.at_level(logging.WARNING, logger="harness"),
        RecordWriter(path) as w,
    ):  # the writer repairs too
        w.append(rec(3))
    assert "cut short" in caplog.text and scan(path).breaks == []


def test_corruption_in_the_middle_names_the_line(tmp_path):
    path = tmp_path / "episodes.jsonl"
    lines = written(path, 3)
    path.write_bytes(lines[0] + b"{not json\n" + lines[2])
    with pytest.raises(RecordCorruptError, match=r"episodes.jsonl:2"):
        load_records(path)


def test_latest_wins_and_retry_infra_reopens_only_infra_errors(tmp_path):
    path = tmp_path / "episodes.jsonl"
    with RecordWriter(path) as w:
        w.append(rec(0, status="infra_error", success=False, error="429"))
        w.append(rec(1, status="agent_failed", success=False))
        w.append(rec(2, status="infra_error", success=False))
        w.append(rec(0, status="completed"))  # ep0 retried successfully: a later line of the same chain
        w.append(rec(3, status="budget_exhausted", success=False))
    assert scan(path).breaks == []
    latest = latest_by_episode(load_records(path))
    assert latest["ep0"]["status"] == "completed" and len(latest) == 4
    assert finished_keys(path) == {"ep0", "ep1", "ep2", "ep3"}
    assert finished_keys(path, retry_infra=True) == {"ep0", "ep1", "ep3"}
    assert finished_keys(tmp_path / "missing.jsonl") == set()


# ---------------------------------------------------------------------------------------------
# the chain: what changed, where


def breaks(path: Path, anchor: dict | None = None) -> list[tuple[int, str, str | None]]:
    return [(b.line, b.kind, b.episode_id) for b in scan(path, anchor).breaks]


def test_a_flipped_success_in_the_middle_is_named_by_line_and_episode(tmp_path):
    path = tmp_path / "episodes.jsonl"
    lines = written(path, 9)
    assert breaks(path) == []
    flipped = lines[4].replace(b'"success":false', b'"success":true')
    edited = {k: v for k, v in json.loads(flipped).items() if k not in ("seq", "chain")}
    assert flipped != lines[4] and validate_record(edited) == []  # still a valid record: only the chain tells
    path.write_bytes(b"".join(lines[:4] + [flipped] + lines[5:]))
    assert breaks(path) == [(5, "edited", "ep4")]  # one edit, one break: the lines after it still check
    with pytest.raises(RecordChainError, match=r"episodes.jsonl: line 5 \(episode ep4\): edited") as err:
        load_records(path)
    assert "\n" not in str(err.value) and "out=" in str(err.value) and "harness.verify" in str(err.value)
    assert scan(path).records[4]["success"] is True  # the analysis can still read it (and warns)


def test_removed_inserted_reordered_lines_are_named(tmp_path):
    path = tmp_path / "episodes.jsonl"
    lines = written(path, 8)

    def as_file(*order: int | bytes) -> Path:
        path.write_bytes(b"".join(lines[i] if isinstance(i, int) else i for i in order))
        return path

    assert breaks(as_file(0, 1, 2, 4, 5, 6, 7)) == [(4, "removed", "ep4")]  # record 4 (ep3) is gone
    assert "record 4 missing before record 5" in scan(path).breaks[0].detail
    assert breaks(as_file(1, 2, 3, 4, 5, 6, 7)) == [(1, "removed", "ep1")]  # the first one
    assert breaks(as_file(0, 1, 2, 3, 2, 4, 5, 6, 7)) == [(5, "inserted", "ep2")]  # a copy of line 3
    assert "line 3 holds the first" in scan(path).breaks[0].detail
    foreign = json.dumps(rec(99)).encode() + b"\n"  # a record written by hand, without a chain
    assert breaks(as_file(0, 1, foreign, 2, 3, 4, 5, 6, 7)) == [(3, "inserted", "ep99")]
    assert breaks(as_file(0, 1, 3, 2, 4, 5, 6, 7))[0] == (3, "reordered", "ep3")
    assert "record 4 comes before record 3" in scan(path).breaks[0].detail
    moved = breaks(as_file(0, 1, 2, 4, 5, 6, 7, 3))  # one record moved to the end
    assert moved[0] == (4, "reordered", "ep4") and {k for _, k, _ in moved} == {"reordered"}
    # the last records removed: only the anchor a finished run's manifest keeps can tell
    as_file(0, 1, 2, 3, 4, 5, 6, 7)
    anchor = head(path)
    assert breaks(as_file(0, 1, 2, 3, 4, 5), anchor) == [(7, "removed", None)]
    assert "last 2 record(s) were removed" in scan(path, anchor).breaks[0].detail
    assert breaks(as_file(0, 1, 2, 3, 4, 5)) == []  # without it, a shorter file is a valid one
    # a file re-chained after an edit (the chain recomputed) still differs from the anchor
    records = load_records(as_file(0, 1, 2, 3, 4, 5, 6, 7))
    records[2]["success"] = True
    write_records(path, records)
    assert scan(path).breaks == [] and breaks(path, anchor)[0][1] == "edited"
    # a moved-away file starts over: nothing to check
    path.unlink()
    assert check_resumable(path, anchor).records == []


def test_seq_and_chain_are_the_lines_not_the_records(tmp_path):
    """The same records written into two files (say, by two workers' orders) read back equal."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_records(a, [rec(0), rec(1)])
    write_records(b, [rec(1), rec(0)])
    assert a.read_bytes() != b.read_bytes()
    assert sorted(load_records(a), key=str) == sorted(load_records(b), key=str)


# ---------------------------------------------------------------------------------------------
# the CLI and the docs


def test_schema_cli_prints_a_valid_json_schema_that_accepts_a_written_line(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "harness.records", "schema"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    schema = json.loads(out.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    line = json.loads(written(tmp_path / "e.jsonl", 1)[0])
    assert list(validator.iter_errors(line)) == []
    assert [e.validator for e in validator.iter_errors({**line, "stop_resaon": "final"})] == [
        "additionalProperties"
    ]
    assert list(validator.iter_errors({**line, "success": "yes"}))
    assert set(schema["properties"]) == {*RECORD_FIELDS, "seq", "chain"}
    transcript = subprocess.run(
        [sys.executable, "-m", "harness.records", "schema", "transcript"], cwd=ROOT, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    jsonschema.Draft202012Validator.check_schema(json.loads(transcript.stdout))


README_START, README_END = "<!-- records:fields -->", "<!-- /records:fields -->"


def readme_fields() -> str:
    text = (ROOT / "docs" / "records.md").read_text()
    return text[text.index(README_START) + len(README_START) : text.index(README_END)].strip() + "\n"


def table_fields(markdown: str, title: str) -> list[str]:
    """The field names of the table under the bold line starting with ``title``."""
    lines = markdown.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"**{title}"))
    names = []
    for ln in lines[start + 1 :]:
        if ln.startswith("**"):
            break
        if ln.startswith("| `"):
            names.append(ln.split("`")[1])
    return names


def test_the_docs_list_every_record_field_and_no_other():
    from harness.records import Receipt, ToolCall
    from harness.records.schema import fields_markdown

    readme = readme_fields()
    assert table_fields(readme, "A line of episodes.jsonl") == [*RECORD_FIELDS, "seq", "chain"]
    assert table_fields(readme, "Receipt") == list(Receipt.__annotations__)
    assert table_fields(readme, "ToolCall") == list(ToolCall.__annotations__)
    assert readme == fields_markdown(), (
        "docs/records.md's record tables differ from the schema's descriptions or types: paste the output of "
        f"`python -m harness.records fields` between {README_START} and {README_END}"
    )


# ---------------------------------------------------------------------------------------------
# kill -9 mid-append

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
    assert scan(path).breaks == []  # and the chain runs through the repair


def test_a_signal_during_an_append_leaves_the_writer_consistent(tmp_path, monkeypatch):
    """Ctrl-C landing while a line is being fsync'ed (where a loaded machine spends its append) must
    not leave the line written but uncounted: the next append would reuse its seq and break the chain."""
    from harness.run import stopping

    path = tmp_path / "episodes.jsonl"
    real_fsync, hit = os.fsync, []

    def fsync_then_signal(fd: int) -> None:
        real_fsync(fd)
        if not hit:
            hit.append(fd)
            # a SIGINT the kernel handed to another thread: Python then runs the main thread's current
            # handler at its next check, here, inside the append (a thread mask cannot stop that)
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)

    with RecordWriter(path) as w, stopping.raising_on_signals():
        w.append(rec(0))
        monkeypatch.setattr(os, "fsync", fsync_then_signal)
        with pytest.raises(stopping.Interrupted):
            w.append(rec(1))
        monkeypatch.setattr(os, "fsync", real_fsync)
        w.append(rec(2))  # as the forked runner does: records already sent are written after the stop
    stopping._REQUESTED.clear()
    assert hit and scan(path).breaks == []
    assert [r["episode_id"] for r in load_records(path)] == ["ep0", "ep1", "ep2"]
