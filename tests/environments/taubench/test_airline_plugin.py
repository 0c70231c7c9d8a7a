"""The plugin on the airline domain: the option, clean traces of the test split, result schemas, the database
source (random valid writes, never a task's ground truth; the flight days a search returns), carded selection."""

from __future__ import annotations

import jsonschema
import pytest

from core.worlds import get_plugin
from environments.taubench.airline import DOMAIN


@pytest.fixture(scope="module")
def plugin():
    return get_plugin("taubench")


def test_the_domain_option(plugin, data_dir, airline_env):
    env = plugin.make(data_dir=str(data_dir.parent), domain="airline")
    assert env.domain.name == "airline" and len(env.tool_specs()) == 14
    assert [t.task_id for t in env.tasks()] == [f"test-{i}" for i in range(50)]
    assert env.system_prompt.startswith("# Airline Agent Policy")
    assert plugin.data_digest(env) != plugin.data_digest(plugin.make(data_dir=str(data_dir)))
    with pytest.raises(ValueError, match="unknown tau-bench domain 'cargo'"):
        plugin.make(data_dir=str(data_dir.parent), domain="cargo")


def test_clean_traces_default_to_the_test_split_and_random_calls_stay_clean(plugin, airline_env):
    rows = list(plugin.clean_traces(airline_env))
    assert rows == list(plugin.clean_traces(airline_env, split="test"))
    assert rows != list(plugin.clean_traces(airline_env, seed=1))
    random_rows = [r for r in rows if r["source"] == "random"]
    assert len(random_rows) == 4 * 50 and {r["status"] for r in random_rows} == {"ok", "error"}
    assert {DOMAIN.tools[r["tool"]].category for r in random_rows if r["status"] == "ok"} == {"read"}
    for r in random_rows:
        if r["tool"] == "get_reservation_details" and r["status"] == "ok":
            assert r["result"]["user_id"] == r["group_id"]  # a fold holds its customer's records


def test_result_schemas_accept_every_clean_result_and_every_record(plugin, airline_env):
    schemas = plugin.tool_schemas(airline_env)
    assert set(schemas) == {n for n, t in DOMAIN.tools.items() if t.returns == "json"}
    validators = {n: jsonschema.Draft202012Validator(s) for n, s in schemas.items()}
    checked = 0
    for r in plugin.clean_traces(airline_env):
        if r["status"] == "ok" and r["tool"] in schemas:
            validators[r["tool"]].validate(r["result"])
            checked += 1
    assert checked > 150
    db = plugin.database(airline_env)
    for record in db.collections["reservations"].values():
        validators["get_reservation_details"].validate(record)
    for record in db.collections["users"].values():
        validators["get_user_details"].validate(record)
    for record in db.collections["flight_days"].values():
        validators["search_direct_flight"].validate([record])


def test_database_post_states_come_from_random_writes_not_the_ground_truth(plugin, airline_env):
    db = plugin.database(airline_env)
    added = {c: [k for k in v if "~" in k] for c, v in db.collections.items()}
    assert added["reservations"] and added["users"]
    assert all(k.split("~")[1].startswith("random-") for c in ("reservations", "users") for k in added[c])
    post = [db.collections["reservations"][k] for k in added["reservations"]]
    assert any(r.get("status") == "cancelled" for r in post)  # cancellations
    assert any(r["reservation_id"] == "HATHAT" for r in post)  # bookings
    assert any(p["amount"] < 0 for r in post for p in r["payment_history"])  # refunds
    assert db.bindings["get_reservation_details"] == [("reservations", "$")]
    assert db.bindings["search_direct_flight"] == [("flight_days", "$[*]")]
    assert {r["status"] for r in db.collections["flight_days"].values()} == {"available"}
    assert len(plugin.database(airline_env, split=None).collections["reservations"]) == 2000
    gt = plugin.database(airline_env, split="test").collections["reservations"]
    assert any(k.endswith("~test-0") for k in gt)  # asked for explicitly, a split's ground truth serves


def test_carded_selection_and_oracle(plugin, airline_env):
    from environments.taubench.cards import cards_of

    params = {"split": "test", "n": 27, "salt": "taubench-airline-faults"}
    picked = [t.task_id for t in plugin.select(airline_env, "carded_hash", params, 0)]
    assert sorted(picked) == sorted(c["task_id"] for c in cards_of("test", "airline")["cards"])
    with pytest.raises(ValueError, match="asked for 28"):
        plugin.select(airline_env, "carded_hash", dict(params, n=28), 0)
    calls = plugin.oracle(airline_env, "test-0")
    assert [c.name for c in calls] == ["book_reservation"]


@pytest.mark.slow
def test_airline_study_runs_and_the_monitor_flags_the_cabin(data_dir, tmp_path):
    """Through python -m harness.run: the status-like fault is flagged and receipt-aware recovers."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "run"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=taubench-airline-faults",
            "fault=[taubench_airline_status]",
            "model=[scripted-receipt-aware,scripted-trusting]",
            f"out={out}",
            "progress=false",
        ],
        cwd=root,
        env=dict(os.environ, TAUBENCH_DATA=str(data_dir.parent)),
        check=True,
        capture_output=True,
    )
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 27 * 2 * 2 and all(r["scripted"] for r in rows)
    solved = {(r["model"], r["arm"]): 0 for r in rows}
    for r in rows:
        solved[(r["model"], r["arm"])] += r["success"]
    assert solved[("scripted-receipt-aware", "monitor")] > solved[("scripted-receipt-aware", "baseline")]
    assert solved[("scripted-trusting", "monitor")] == solved[("scripted-trusting", "baseline")] < 27
    violated = {v for r in rows if r["arm"] == "monitor" for rc in r["receipts"] for v in rc["violated"]}
    assert violated == {
        "get_reservation_details:domain:$:cabin",
        "search_direct_flight:domain:$[*]:status",
    }
