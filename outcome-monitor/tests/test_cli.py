"""The command line as a user runs it, ``python -m outcome_monitor`` in a child process: learn, check,
explain and coverage end to end on files, and every bad input one line on stderr (never a
traceback) with a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import fixtures as syn
import pytest
from outcome_monitor.registry import FORMAT_VERSION


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "outcome_monitor", *argv], capture_output=True, text=True, timeout=300
    )


def one_line(res: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed command printed (stderr), after checking there is exactly one."""
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.returncode != 0, (res.returncode, res.stdout, res.stderr)
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    return lines[0]


def write_rows(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS = syn.traces(n_workflows=30, calls_per_workflow=6)


@pytest.fixture(scope="module")
def learned(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cli")
    traces = write_rows(folder / "traces.jsonl", ROWS)
    registry = folder / "registry.json"
    res = run("learn", "--input", str(traces), "--out", str(registry))
    assert res.returncode == 0, res.stderr
    assert f"{len(ROWS)} trace rows -> " in res.stderr and str(registry) in res.stderr
    return traces, registry


def test_learn_writes_a_registry_of_the_current_format(learned):
    _, registry = learned
    obj = json.loads(registry.read_text(encoding="utf-8"))
    assert obj["format_version"] == FORMAT_VERSION and obj["n_rules"] > 0
    assert set(obj["tools"]) == {"get_quote", "place_order", "get_weather"}


def test_check_writes_a_receipt_for_the_faulted_result_only(learned, tmp_path):
    _, registry = learned
    quote = next(r for r in ROWS if r["tool"] == "get_quote")
    bad = {**quote, "result": {**quote["result"], "price": -3.0}}
    inp, out = write_rows(tmp_path / "in.jsonl", [quote, bad]), tmp_path / "out.jsonl"
    res = run("check", "--registry", str(registry), "--input", str(inp), "--output", str(out))
    assert res.returncode == 0, res.stderr
    assert "2 results checked, 1 with violations" in res.stderr
    clean, flagged = (json.loads(line) for line in out.read_text(encoding="utf-8").splitlines())
    assert clean["violations"] == [] and clean["receipt"] is None
    assert flagged["receipt"]["violated"] == "price must be positive" and flagged["result"] == bad["result"]
    assert flagged["violations"][0]["rule_class"] == "positive"


def test_explain_prints_the_rules_in_words(learned):
    _, registry = learned
    res = run("explain", "--registry", str(registry), "--tool", "get_quote")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("rules by source: ") and "price must be positive" in res.stdout
    assert run("explain", "--registry", str(registry), "--tool", "missing").returncode == 1


def test_coverage_names_each_tools_paths(learned):
    traces, registry = learned
    res = run("coverage", "--input", str(traces), "--registry", str(registry), "--json")
    assert res.returncode == 0, res.stderr
    cov = json.loads(res.stdout)
    assert set(cov["tools"]) == {"get_quote", "place_order", "get_weather"}
    assert all(0 < t["share"] <= 1 for t in cov["tools"].values())
    quote = next(r["result"] for r in ROWS if r["tool"] == "get_quote")
    text = run("coverage", "--input", str(traces), "--tool", "get_quote")  # learned on the fly
    assert text.returncode == 0, text.stderr
    assert f"get_quote: {len(quote)} paths, 0 with no rule" in text.stdout
    # a field seen once is named, with why no rule reads it
    rare = {**ROWS[0], "result": {**quote, "rank": 7}, "tool": "get_quote"}
    more = write_rows(traces.parent / "rare.jsonl", [*ROWS, rare])
    text = run("coverage", "--input", str(more), "--tool", "get_quote")
    assert text.returncode == 0, text.stderr
    (line,) = [line for line in text.stdout.splitlines() if "$.rank" in line]
    assert line.split() == ["no", "rule", "$.rank", "(too", "little", "support:", "1", "results", "<", "7)"]


def test_help_and_version_name_the_commands():
    res = run("--help")
    assert res.returncode == 0 and res.stdout.startswith("usage: outcome-monitor")
    for command in ("learn", "check", "explain", "coverage", "proxy"):
        assert command in res.stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("outcome-monitor ")


def test_a_bad_line_stops_learning_or_is_skipped_as_the_user_chose(tmp_path):
    good = json.dumps(ROWS[0])
    bad_line = tmp_path / "bad.jsonl"
    bad_line.write_text(good + "\nnot json\n" + "".join(json.dumps(r) + "\n" for r in ROWS[1:]))
    out = tmp_path / "r.json"
    line = one_line(run("learn", "--input", str(bad_line), "--out", str(out)))
    assert line.startswith(f"error: {bad_line}:2 is not JSON") and "--skip-bad-lines" in line
    assert not out.exists()
    res = run("learn", "--input", str(bad_line), "--out", str(out), "--skip-bad-lines")
    assert res.returncode == 0, res.stderr
    skipped = [line for line in res.stderr.splitlines() if line.startswith("skipped")]
    assert skipped[0].startswith(f"skipped {bad_line}:2: is not JSON") and len(skipped) == 2
    assert json.loads(out.read_text())["n_rules"] > 0
    # a line that is JSON but not a row, the same way
    not_a_row = write_rows(tmp_path / "list.jsonl", [ROWS[0], [1, 2]])
    line = one_line(run("learn", "--input", str(not_a_row), "--out", str(out)))
    assert f"{not_a_row}:2 is not a JSON object" in line


def test_each_bad_input_is_one_line_and_a_non_zero_exit(learned, tmp_path):
    traces, registry = learned
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    only_bad = tmp_path / "only_bad.jsonl"
    only_bad.write_text("nope\n{broken\n")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    not_json = tmp_path / "not.json"
    not_json.write_text("nope")
    reg = json.loads(registry.read_text(encoding="utf-8"))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**reg, "format_version": 0}))
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**reg, "format_version": FORMAT_VERSION + 1}))
    other_kind = tmp_path / "crossfit.json"
    other_kind.write_text(json.dumps({"kind": "crossfit", "format_version": FORMAT_VERSION, "folds": []}))
    a_list = tmp_path / "list.json"
    a_list.write_text("[1, 2]")
    missing = str(tmp_path / "none.jsonl")
    out = str(tmp_path / "r.json")
    cases = [
        (("learn", "--input", missing, "--out", out), f"error: cannot read {missing}"),
        (("learn", "--input", str(empty), "--out", out), "no trace rows to learn from"),
        (("learn", "--input", str(binary), "--out", out), "is not UTF-8 text"),
        (("learn", "--out", out), "learn needs --input"),
        (("coverage", "--input", missing), f"error: cannot read {missing}"),
        (("coverage", "--input", str(empty)), "no trace rows to learn from"),
        (("check", "--registry", str(registry), "--input", missing, "--output", out), "cannot read"),
        (
            ("check", "--registry", missing, "--input", str(traces), "--output", out),
            "cannot read the registry",
        ),
        (("explain", "--registry", missing), "cannot read the registry"),
        (("explain", "--registry", str(not_json)), "is not JSON"),
        (("explain", "--registry", str(a_list)), "is not a registry"),
        (("explain", "--registry", str(old)), "format_version 0"),
        (("explain", "--registry", str(newer)), f"format_version {FORMAT_VERSION + 1}"),
        (("explain", "--registry", str(other_kind)), "is a 'crossfit' file, not a registry"),
        (("check", "--registry", str(other_kind), "--input", str(traces), "--output", out), "not a registry"),
    ]
    for argv, words in cases:
        line = one_line(run(*argv))
        assert words in line, (argv, line)
        assert line.startswith("error: "), (argv, line)
    # told to skip bad lines, and every line is bad: each is named, then one error line, non-zero
    res = run("learn", "--input", str(only_bad), "--out", out, "--skip-bad-lines")
    lines = res.stderr.splitlines()
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert [line.split(": ")[0] for line in lines[:2]] == [f"skipped {only_bad}:1", f"skipped {only_bad}:2"]
    assert lines[-1] == f"error: {only_bad}: no trace rows to learn from"


def test_the_proxy_without_the_mcp_extra_says_what_to_install(tmp_path):
    """The SDK made unimportable (as in a venv without the extra): one line naming the extra."""
    code = (
        "import sys; sys.modules['mcp'] = None; "  # an import of mcp now raises ImportError
        "from outcome_monitor.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, "proxy", "--", sys.executable, "-c", "pass"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert 'pip install "outcome-monitor[mcp]"' in one_line(res)
