"""The golden hash of the generated dataset: identical on every run, process and hash seed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from environments.toolmaze.__main__ import describe, main
from environments.toolmaze.env import ToolMazeEnv

# Changed deliberately (issue 11): implicit payloads now corrupt the values later steps consume;
# before: 56217b414e719c23a952f61d97223818e61e9806624d6d5d21e46db5181cca72.
GOLDEN_SEED0 = "fbdcd167d1ba33bdeef5a7df01681e4b8926c5fb2d1926dfd3a005fb34afb251"
ROOT = Path(__file__).resolve().parents[3]


def test_golden_hash_seed0():
    assert ToolMazeEnv(seed=0).dataset.sha256() == GOLDEN_SEED0


@pytest.mark.slow
def test_hash_is_stable_across_processes_and_hash_seeds():
    code = "from environments.toolmaze.env import ToolMazeEnv; print(ToolMazeEnv(0).dataset.sha256())"
    outs = set()
    for hs in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True
        )
        outs.add(res.stdout.strip())
    assert outs == {GOLDEN_SEED0}


def test_describe_json(capsys):
    assert main(["describe", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["instances"] == 2000 and info["sha256"] == GOLDEN_SEED0
    assert all(v == 100 for row in info["cells"].values() for v in row.values())
    assert info == describe(ToolMazeEnv(seed=0))


def test_traces_cli(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["traces", "--mode", "P0", "--complexity", "C3", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    env = ToolMazeEnv(seed=0)
    want = sum(len(p.trace) for t in env.tasks("C3/P0") for p in env.instance(t.task_id).base.paths)
    assert len(lines) == want
    for line in lines:
        assert {
            "task_id",
            "workflow_id",
            "complexity",
            "mode",
            "tool",
            "arguments",
            "result",
            "status",
        } <= set(line)
        assert line["complexity"] == "C3" and line["mode"] == "P0" and line["status"] == "ok"
    assert main(["traces", "--mode", "P4", "--complexity", "C1", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert any(x["perturbed"] for x in lines) and {x["mode"] for x in lines} == {"P4"}


@pytest.mark.slow
def test_policies_cli_prints_both_endpoints(capsys):
    assert main(["policies", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert set(table) == {"oracle", "naive", "retry_only", "retry_once"}
    for rows in table.values():
        for row in rows.values():
            assert all({"tsr", "prr", "rc", "outcome"} <= set(cell) for cell in row.values())
    assert table["oracle"]["C3"]["P4"]["outcome"] == 1.0 and table["naive"]["C3"]["P4"]["outcome"] == 0.0
    assert main(["policies"]) == 0
    text = capsys.readouterr().out
    assert "outcome-correct" in text and "over all P3/P4 instances" in text
