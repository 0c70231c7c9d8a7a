"""The organic study on synthetic trajectories in tau-bench's historical format: parsing, the tools'
own errors counted apart and never learned, a fire listed with its rule and witness, the data change
named, and the data paths the world uses."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.evaluations import organic as org
from harness.evaluations.__main__ import main


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    fn = {"name": name, "arguments": json.dumps(arguments)}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": fn}],
    }


def _answer(call_id: str, name: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "name": name, "content": content}


def _run(task: int, trial: int, balance: float, error: bool = False) -> dict[str, Any]:
    """One run: a JSON read, a text tool, and (optionally) a refused write."""
    traj = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": "hi"},
        _call("c1", "get_account", {"account_id": f"acct_{task}"}),
        _answer(
            "c1",
            "get_account",
            json.dumps({"account_id": f"acct_{task}", "balance": balance, "owner": f"u{task}"}),
        ),
        _call("c2", "think", {"thought": "ok"}),
        _answer("c2", "think", ""),
    ]
    if error:
        traj += [_call("c3", "pay", {"amount": 5}), _answer("c3", "pay", "Error: account not found")]
    return {"task_id": task, "trial": trial, "reward": 1.0, "info": {}, "traj": traj}


def _runs(bad_task: int | None = None) -> list[dict[str, Any]]:
    """20 tasks x 2 trials; every balance positive and distinct, but task ``bad_task`` trial 1 is negative."""
    out = []
    for task in range(20):
        for trial in range(2):
            balance = 10.0 + 7 * task + trial
            if task == bad_task and trial == 1:
                balance = -42.5
            out.append(_run(task, trial, balance, error=task % 3 == 0))
    return out


def test_parsing_pairs_calls_by_id_parses_json_keeps_text_and_flags_errors():
    runs = [_run(3, 1, 12.5, error=True)]
    runs[0]["traj"].append(_answer("lost", "think", "orphan"))  # a result no call asked for
    runs[0]["traj"].append(_call("c9", "get_account", {"account_id": "x"}))  # a call never answered
    calls, unpaired = org.extract_calls(runs)
    assert [c.tool for c in calls] == ["get_account", "think", "pay", "think"]
    acct, think, pay, _orphan = calls
    assert (acct.task, acct.trial, acct.index, acct.workflow) == (3, 1, 0, "task_3")
    assert acct.arguments == {"account_id": "acct_3"}
    assert acct.result == {"account_id": "acct_3", "balance": 12.5, "owner": "u3"} and not acct.error
    assert think.result == "" and not think.error  # text stays text, an empty answer included
    assert pay.error and pay.result == "Error: account not found" and pay.row()["status"] == "error"
    assert unpaired == {"results without a call": 1, "calls without a result": 1}


def test_result_parsing_only_json_objects_and_arrays():
    assert org.parse_result('{"a": 1}') == {"a": 1}
    assert org.parse_result("[1, 2]") == [1, 2]
    assert org.parse_result("14.0") == "14.0"  # a calculator's number stays the text the tool returned
    assert org.parse_result("{not json") == "{not json"


def test_tool_errors_are_counted_apart_and_never_learned(tmp_path, monkeypatch):
    import harness.monitor

    learned: list[dict[str, Any]] = []
    real = harness.monitor.learn

    def spy(rows, *args, **kwargs):
        rows = list(rows)
        learned.extend(rows)
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(harness.monitor, "learn", spy)
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(_runs()))
    rep = org.organic(path, env_name=None)
    n_errors = sum(1 for task in range(20) if task % 3 == 0) * 2
    assert rep["tool_errors"] == n_errors and rep["tool_errors_by_tool"] == {"pay": n_errors}
    assert rep["tool_calls"] == 40 * 2 + n_errors and rep["checked"] == 80
    assert all(a["checked"] == 80 for a in rep["arms"])  # errors are not checked either
    assert learned and not any(
        r["status"] == "error" or str(r["result"]).startswith("Error") for r in learned
    )
    assert {r["tool"] for r in learned} == {"get_account", "think"}


def test_each_fold_learns_without_its_own_tasks(monkeypatch):
    import harness.monitor

    seen: list[set[str]] = []
    real = harness.monitor.learn

    def spy(rows, *args, **kwargs):
        rows = list(rows)
        seen.append({r["task_id"] for r in rows})
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(harness.monitor, "learn", spy)
    calls, _ = org.extract_calls(_runs())
    org.crossfit_arm(calls)
    assert len(seen) == org.N_FOLDS
    held_out = [{f"task_{t}" for t in range(20)} - s for s in seen]
    assert all(held_out) and set().union(*held_out) == {f"task_{t}" for t in range(20)}
    assert sum(len(h) for h in held_out) == 20  # the folds partition the tasks


def test_a_fire_is_listed_with_its_tool_rule_and_witness(tmp_path):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(_runs(bad_task=7)))
    rep = org.organic(path, env_name=None)
    arm = next(a for a in rep["arms"] if a["arm"] == "crossfit")
    fired = [f for f in arm["fires"] if f["task_id"] == 7 and f["trial"] == 1]
    assert fired, arm["fires"]
    v = next(v for f in fired for v in f["violations"] if v["observed"] == -42.5)
    assert (
        fired[0]["tool"] == "get_account"
        and "balance" in v["path"]
        and v["rule_id"].startswith("get_account:")
    )
    text = org.format_report(rep, {"fire_rate_pct": 0.8, "responses": 53078, "source": "StableToolBench"})
    line = next(ln for ln in text.splitlines() if "witness -42.5" in ln)
    assert "get_account" in line and v["rule_id"] in line and "(7/1)" in line
    assert "the paper (its figure, other traffic)" in text and "0.80%" in text
    clean = org.organic(_write(tmp_path / "clean.json", _runs()), env_name=None)
    assert not any(f["task_id"] == 7 and f["trial"] == 1 for a in clean["arms"] for f in a["fires"])


def _write(path: Path, runs: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(runs))
    return path


@dataclass
class _Db:
    collections: dict[str, Any]
    bindings: dict[str, list[tuple[str, str]]]


@dataclass
class _V:
    path: str


def test_a_renamed_key_is_named_as_a_data_change_and_explains_only_its_fires():
    users = {f"u{i}": {"name": f"n{i}", "address": {"city": "X", "state": f"S{i}"}} for i in range(8)}
    db = _Db({"users": users}, {"get_user": [("users", "$")], "update_user": [("users", "$")]})
    runs = []
    for i in range(8):
        record = {"name": f"n{i}", "address": {"city": "X", "province": f"S{i}"}}
        traj = [_call("c", "get_user", {"user_id": f"u{i}"}), _answer("c", "get_user", json.dumps(record))]
        traj += [
            _call("w", "update_user", {"user_id": f"u{i}"}),
            _answer("w", "update_user", json.dumps({"x": 1})),
        ]
        runs.append({"task_id": i, "trial": 0, "traj": traj})
    calls, _ = org.extract_calls(runs)
    changes = org.data_changes(calls, db, reads={"get_user"})
    assert changes == [
        {
            "tool": "get_user",
            "collection": "users",
            "kind": "renamed",
            "runs": "address.province",
            "database": "address.state",
            "records": 8,
            "compared": 8,
        }
    ]  # update_user is a write: its result is a post-state, never compared
    explained = org.explainer(changes)
    get_user = calls[0]
    assert explained(get_user, _V("$.address.state")) and explained(get_user, _V("$.address.province"))
    assert not explained(get_user, _V("$.address.city")) and not explained(calls[1], _V("$.address.state"))
    assert org.data_changes(calls[:4], db, reads={"get_user"}) == []  # too few records to call it systematic


def test_the_file_is_found_where_the_world_finds_its_data(monkeypatch, tmp_path):
    from environments.taubench.data import ENV_VAR, resolve_root

    monkeypatch.delenv(ENV_VAR, raising=False)
    world, path, hint = org.published(None, {"domain": "airline"})
    assert world == "taubench" and path == resolve_root() / "historical" / "gpt-4o-airline.json"
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert org.published("taubench", {})[1] == tmp_path / "historical" / "gpt-4o-airline.json"
    assert "make data-taubench" in hint
    with pytest.raises(org.OrganicError, match="knows no published trajectories"):
        org.published("toolmaze", {})


def test_missing_or_bad_file_is_one_line_naming_the_fix(tmp_path, capsys, monkeypatch):
    from environments.taubench.data import ENV_VAR

    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert main(["organic", "--no-world"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "make data-taubench" in err and str(tmp_path) in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}')
    assert main(["organic", "--file", str(bad), "--no-world"]) == 2
    assert "expected a JSON list of runs" in capsys.readouterr().err


def test_cli_json_and_table(tmp_path, capsys):
    path = _write(tmp_path / "runs.json", _runs(bad_task=7))
    assert main(["organic", "--file", str(path), "--no-world", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["runs"] == 40 and rep["tasks"] == 20 and rep["trials"] == 2 and rep["world"] is None
    assert [a["arm"] for a in rep["arms"]] == ["crossfit", "crossfit-paper"]
    assert main(["organic", "--file", str(path), "--no-world"]) == 0
    out = capsys.readouterr().out
    assert "40 runs (20 tasks x 2 trials)" in out and "witness -42.5" in out


@pytest.mark.parametrize("argv", [["organic", "--env", "no-such-world"], ["organic", "--domain", "nowhere"]])
def test_an_unknown_world_or_domain_is_one_line(argv, tmp_path, capsys):
    path = _write(tmp_path / "runs.json", _runs())
    assert main([*argv, "--file", str(path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
