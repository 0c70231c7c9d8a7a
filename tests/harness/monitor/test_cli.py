"""The command line: learn from a trace file, check a stream, explain a registry."""

from __future__ import annotations

import json

from harness.monitor import synthetic as syn
from harness.monitor.cli import main


def test_learn_check_explain(tmp_path, capsys):
    traces = tmp_path / "t.jsonl"
    rows = syn.traces(n_workflows=30, calls_per_workflow=6)
    traces.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["learn", "--input", str(traces), "--out", str(tmp_path / "r.json")]) == 0
    assert main(["learn", "--input", str(traces), "--all-folds", "--out", str(tmp_path / "cf.json")]) == 0
    assert json.loads((tmp_path / "cf.json").read_text())["n_folds"] == 5
    quote = next(r for r in rows if r["tool"] == "get_quote")
    bad = {**quote, "result": {**quote["result"], "price": -3.0}}
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(quote) + "\n" + json.dumps(bad) + "\n")
    for reg in ("r.json", "cf.json"):
        out = tmp_path / f"out-{reg}.jsonl"
        assert (
            main(["check", "--registry", str(tmp_path / reg), "--input", str(inp), "--output", str(out)]) == 0
        )
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert lines[0]["violations"] == [] and lines[0]["receipt"] is None
        assert lines[1]["violations"][0]["rule_class"] == "positive"
        assert (
            lines[1]["receipt"]["violated"] == "price must be positive"
            and lines[1]["result"] == bad["result"]
        )
    capsys.readouterr()
    assert main(["explain", "--registry", str(tmp_path / "r.json"), "--tool", "get_quote"]) == 0
    assert "price must be positive" in capsys.readouterr().out
    assert main(["explain", "--registry", str(tmp_path / "r.json"), "--tool", "missing"]) == 1


def test_bad_inputs_are_one_line_and_a_non_zero_exit(tmp_path):
    """A missing, malformed or empty recording and a registry that is missing, not JSON or of another
    format version: each stops the command with one line naming the file (SystemExit with a message,
    never a traceback)."""
    import pytest

    bad_line = tmp_path / "bad.jsonl"
    bad_line.write_text('{"tool": "a", "arguments": {}, "result": 1}\nnot json\n')
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format_version": 0, "tools": {}}))
    not_json = tmp_path / "not.json"
    not_json.write_text("nope")
    cases = [
        (
            ["learn", "--input", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "r.json")],
            "cannot read",
        ),
        (["learn", "--input", str(bad_line), "--out", str(tmp_path / "r.json")], f"{bad_line}:2 is not JSON"),
        (["learn", "--input", str(empty), "--out", str(tmp_path / "r.json")], "no trace rows"),
        (["explain", "--registry", str(tmp_path / "none.json")], "cannot read the registry"),
        (["explain", "--registry", str(not_json)], "is not JSON"),
        (["explain", "--registry", str(old)], "format_version 0"),
        (
            ["learn", "--env", "toolmaze", "--domain", "x", "--out", str(tmp_path / "r.json")],
            "no domain option",
        ),
    ]
    for argv, words in cases:
        with pytest.raises(SystemExit) as exc:
            main(argv)
        message = str(exc.value.code)
        assert words in message and len(message.splitlines()) == 1, (argv, message)
