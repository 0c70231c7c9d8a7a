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
