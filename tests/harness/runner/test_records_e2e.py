"""Tamper evidence end to end: ``verify`` names a record changed after it was written (line and episode
id), a resume refuses a broken chain and leaves the folder byte-identical (``python -m harness.run``:
exit 2, one line), a torn last line is said on the console and in ``run.log``, and every transcript
the runner writes is a ``Transcript``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import load_fakeworld, policy_factory  # noqa: E402

from harness import verify  # noqa: E402
from harness.config import CONF_DIR, register, to_config  # noqa: E402
from harness.records import RecordChainError, Transcript, load_records, scan, write_records  # noqa: E402
from harness.run.study import run_study  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
register()
fw = load_fakeworld()


def config():
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "study.selection.params.salt=test",
        "arm=[baseline,monitor]",
        "model=[scripted-trusting,scripted-receipt-aware]",
        "progress=false",
        "workers=1",
    ]
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return to_config(compose("config", overrides=overrides))


def monitors(group_id: str, variant: str, detector: str):
    return fw.NegativePriceMonitor(variant)


def files(run: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("fake") / "run"
    run_study(config(), run, factory=policy_factory, monitors=monitors)
    return run


def copy(finished: Path, tmp_path: Path) -> tuple[Path, list[bytes]]:
    run = tmp_path / "run"
    shutil.copytree(finished, run)
    return run, (run / "episodes.jsonl").read_bytes().splitlines(keepends=True)


def flip_success(line: bytes) -> bytes:
    was = json.loads(line)["success"]
    new = line.replace(f'"success":{json.dumps(was)}'.encode(), f'"success":{json.dumps(not was)}'.encode())
    assert new != line
    return new


def test_the_run_is_chained_and_its_manifest_anchors_the_last_line(finished):
    s = scan(finished / "episodes.jsonl")
    assert s.breaks == [] and len(s.records) >= 8
    anchor = json.loads((finished / "manifest.json").read_text())["records"]
    assert anchor["seq"] == len(s.records) and anchor["chain"] == s.walk.head[1]
    for rec in s.records:
        Transcript.model_validate_json((finished / rec["transcript"]).read_bytes())


def edited(lines: list[bytes]) -> tuple[list[bytes], int, int]:
    mid = len(lines) // 2
    return [*lines[:mid], flip_success(lines[mid]), *lines[mid + 1 :]], mid, mid


CHANGES = {  # name -> (lines -> (changed lines, 0-based index of the line named, of the record named))
    "edited": edited,
    "removed": lambda ls: ([*ls[:3], *ls[4:]], 3, 4),
    "inserted": lambda ls: ([*ls[:5], ls[1], *ls[5:]], 5, 1),
    "reordered": lambda ls: ([*ls[:2], ls[3], ls[2], *ls[4:]], 2, 3),
}


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_verify_names_the_first_changed_record_by_line_and_episode(finished, tmp_path, capsys, kind):
    run, lines = copy(finished, tmp_path)
    assert verify.main(["--run", str(run)]) == 0
    assert "same    records: " in capsys.readouterr().out
    changed, at, record = CHANGES[kind](lines)
    (run / "episodes.jsonl").write_bytes(b"".join(changed))
    assert verify.main(["--run", str(run)]) == 1
    out = capsys.readouterr().out
    eid = json.loads(lines[record])["episode_id"]
    first = next(ln for ln in out.splitlines() if ln.startswith("CHANGED records"))
    assert first.startswith(f"CHANGED records: line {at + 1} (episode {eid}): {kind}: "), out
    assert "its records were changed after they were written" in out.splitlines()[-1]


def test_verify_names_records_cut_off_the_end_by_the_manifests_anchor(finished, tmp_path, capsys):
    run, lines = copy(finished, tmp_path)
    (run / "episodes.jsonl").write_bytes(b"".join(lines[:-2]))
    assert scan(run / "episodes.jsonl").breaks == []  # the shorter file is a valid chain...
    assert verify.main(["--run", str(run)]) == 1  # ...but not what the run wrote
    assert f"line {len(lines) - 1}: removed: " in capsys.readouterr().out


def test_resume_refuses_a_broken_chain_and_leaves_the_folder_byte_identical(finished, tmp_path):
    run, lines = copy(finished, tmp_path)
    changed, at, _ = edited(lines)
    eid = json.loads(lines[at])["episode_id"]
    torn = json.dumps(
        {"record_version": 3, "study": "smoke"}
    ).encode()  # and a torn tail, not repaired either
    (run / "episodes.jsonl").write_bytes(b"".join(changed) + torn)
    before = files(run)
    with pytest.raises(RecordChainError, match=rf"line {at + 1} \(episode {eid}\): edited") as err:
        run_study(config(), run, factory=policy_factory, monitors=monitors)
    assert "\n" not in str(err.value) and "out=" in str(err.value)
    assert files(run) == before  # manifest, config, records, transcripts: not a byte changed
    assert not (run / "episodes.jsonl.torn").exists()


# ---------------------------------------------------------------------------------------------
# through python -m harness.run (ToolMaze, one scripted model, no monitor arm: about 25 s, then 8 s a rerun)

ARGS = [
    "study=smoke",
    "limit=2",
    "model=[scripted-trusting]",
    "arm=[baseline]",
    "workers=1",
    "progress=false",
]


def cli(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness.run", *ARGS, f"out={out}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "run"
    proc = cli(out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


@pytest.mark.slow
def test_cli_refuses_to_resume_a_changed_record_exit_2_one_line_nothing_changed(cli_run, tmp_path):
    run, lines = copy(cli_run, tmp_path)
    (run / "episodes.jsonl").write_bytes(lines[0] + flip_success(lines[1]))
    eid = json.loads(lines[1])["episode_id"]
    before = files(run)
    proc = cli(run)
    assert proc.returncode == 2, proc.stderr[-3000:]
    err = proc.stderr.strip().splitlines()
    assert err[0].startswith("error: ") and f"line 2 (episode {eid}): edited" in err[0], proc.stderr
    assert err[1:] == ["no episode was run; the run folder is unchanged."] and "Traceback" not in proc.stderr

    def ours(f: dict[str, bytes]) -> dict[str, bytes]:  # Hydra's own files: its config again, the log
        return {k: v for k, v in f.items() if not k.startswith(".hydra") and k != "run.log"}

    assert ours(files(run)) == ours(before)


@pytest.mark.slow
def test_cli_reports_a_torn_last_line_on_the_console_and_in_run_log(cli_run, tmp_path):
    run, lines = copy(cli_run, tmp_path)
    (run / "episodes.jsonl").write_bytes(b"".join(lines) + lines[1][:50])
    proc = cli(run)
    assert proc.returncode == 0, proc.stderr[-3000:]
    said = [ln for ln in (proc.stdout + proc.stderr).splitlines() if "cut short" in ln]
    assert len(said) == 1 and "[WARNING]" in said[0] and "episodes.jsonl.torn" in said[0]
    assert said[0].split(" - ", 1)[1] in (run / "run.log").read_text()
    assert (run / "episodes.jsonl.torn").read_bytes() == lines[1][:50] + b"\n"
    assert len(load_records(run / "episodes.jsonl")) == len(lines)  # the chain runs on past the repair


def test_a_sweep_merges_chained_records_and_refuses_a_job_whose_records_changed(finished, tmp_path, capsys):
    from harness.run.sweep import merge_records

    sweep = tmp_path / "sweep"
    records = load_records(finished / "episodes.jsonl")
    for k, part in enumerate((records[::2], records[1::2])):
        job_path = sweep / f"model=m{k}" / "episodes.jsonl"
        job_path.parent.mkdir(parents=True)
        write_records(job_path, part)
    summary = merge_records(sweep)
    merged = sweep / "episodes.jsonl"
    assert summary["episodes"] == len(records) and scan(merged).breaks == []
    assert summary["records"] == json.loads((sweep / "sweep.json").read_text())["records"]
    assert verify.main(["--run", str(sweep)]) == 0  # a sweep folder: its records only
    capsys.readouterr()
    lines = merged.read_bytes().splitlines(keepends=True)
    merged.write_bytes(b"".join(lines[:-1]))  # the merged file's last record removed: the anchor says so
    assert verify.main(["--run", str(sweep)]) == 1
    assert f"line {len(lines)}: removed" in capsys.readouterr().out
    job = sweep / "model=m1" / "episodes.jsonl"
    job_lines = job.read_bytes().splitlines(keepends=True)
    job.write_bytes(b"".join([job_lines[0], flip_success(job_lines[1]), *job_lines[2:]]))
    before = merged.read_bytes()
    with pytest.raises(RecordChainError, match=r"model=m1/episodes.jsonl: line 2 \(episode .*\): edited"):
        merge_records(sweep)  # a fresh chain would launder the edit: nothing is merged
    assert merged.read_bytes() == before
