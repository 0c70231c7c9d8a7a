"""The organic study on the real file: tau-bench's published GPT-4o airline runs (skips without them)."""

from __future__ import annotations

import json

from harness.evaluations import organic as org
from tests.datapaths import TAUBENCH, has_airline, require_historical


def test_the_published_runs_parse_and_every_fire_is_listed(monkeypatch):
    path = require_historical()
    runs = json.loads(path.read_text())
    from environments.taubench.data import ENV_VAR

    monkeypatch.setenv(ENV_VAR, str(TAUBENCH))
    # the evaluation finds the file where the world's plugin says, through the world's data root
    assert org.published("taubench", {"domain": "airline"})[:2] == ("taubench", path)
    rep = org.organic(path, env_name="taubench" if has_airline() else None, options={"domain": "airline"})
    # the file as SOURCE.md describes it: 200 runs, 50 tasks x 4 trials
    assert (rep["runs"], rep["tasks"], rep["trials"]) == (200, 50, 4)
    n_tool_messages = sum(m.get("role") == "tool" for r in runs for m in r["traj"])
    assert rep["tool_calls"] == n_tool_messages and not rep["unpaired"]
    errors = [
        m for r in runs for m in r["traj"] if m.get("role") == "tool" and m["content"].startswith("Error:")
    ]
    assert 0 < rep["tool_errors"] == len(errors) and rep["checked"] == n_tool_messages - len(errors)
    for arm in rep["arms"]:
        assert arm["checked"] == rep["checked"] and arm["fired"] == len(arm["fires"])
        for fire in arm["fires"]:
            assert fire["violations"] and all(v["rule_id"] and "observed" in v for v in fire["violations"])
    if has_airline():
        # the upstream rename since the runs is found in the data and named, and its fires marked
        renamed = [c for c in rep["data_changes"] if c["kind"] == "renamed"]
        assert {(c["tool"], c["runs"], c["database"]) for c in renamed} == {
            ("get_user_details", "address.province", "address.state")
        }
        world = next(a for a in rep["arms"] if a["arm"] == "world")
        marked = [f for f in world["fires"] if f["data_change"]]
        assert world["fired_by_data_change"] == len(marked)
        assert all(f["tool"] == "get_user_details" for f in marked)


def test_the_shared_copy_matches_the_fetchs_pin():
    import hashlib

    from environments.taubench.checksums import HISTORICAL_SHA256

    path = require_historical()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == HISTORICAL_SHA256[path.name]
