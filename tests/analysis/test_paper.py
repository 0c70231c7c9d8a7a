import json
from pathlib import Path

import pytest

from analysis import paper

SHARED = Path(__file__).resolve().parents[3] / "shared" / "paper" / "reported.json"


def test_paper_counts_are_consistent():
    t1 = paper.paper_table1()
    pooled = t1["pooled"]
    assert sum(r["n"] for r in t1["rows"]) == pooled["n"]
    for key in ("baseline_successes", "monitor_successes", "wins", "losses"):
        assert sum(r[key] for r in t1["rows"]) == pooled[key]
    for r in t1["rows"] + t1["replication"]:
        assert r["delta_points"] == pytest.approx(
            100 * (r["monitor_successes"] - r["baseline_successes"]) / r["n"]
        )
    pct = paper.paper_post_receipt_actions()["pct"]
    assert sum(pct.values()) == pytest.approx(100.0, abs=0.1)


@pytest.mark.skipif(not SHARED.exists(), reason="background material not on this machine")
def test_paper_file_agrees_with_the_reported_figures():
    rep = json.loads(SHARED.read_text())
    t1 = rep["table1_toolmaze_implicit"]
    ours = paper.paper_table1()
    assert [r["model"] for r in ours["rows"]] == [r["model"] for r in t1["rows"]]
    for a, b in zip(ours["rows"], t1["rows"], strict=True):
        assert {k: a[k] for k in b if k != "family"} == {k: b[k] for k in b if k != "family"}
    assert ours["pooled"]["ci_low"] == t1["pooled"]["ci95_task_clustered_bootstrap"][0]
    for a, b in zip(paper.paper_ablations()["rows"], rep["figure3_ablations"]["rows"], strict=True):
        assert (a["delta_points"], [a["ci_low"], a["ci_high"]]) == (b["delta_points"], b["ci95"])
    assert [b["study"] for b in paper.paper_boundaries()] == [
        b["study"] for b in rep["figure2_boundaries"]["rows"]
    ]
    pr = rep["post_receipt_actions"]
    assert (
        paper.paper_post_receipt_actions()["pct"]["switched_listed"]
        == pr["switched_to_listed_recovery_tool_pct"]
    )
    assert (
        paper.paper_cost()["reviewer"]["added_usd_per_episode"]
        == rep["cost"]["reviewer_added_usd_per_episode"]
    )
