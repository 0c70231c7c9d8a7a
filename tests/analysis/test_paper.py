import json

import pytest

from analysis import paper
from tests.datapaths import PAPER_REPORTED as SHARED
from tests.datapaths import paper_only


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


@paper_only
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


@paper_only
def test_the_taubench_section_agrees_with_the_reported_figures():
    fig2 = json.loads(SHARED.read_text())["figure2_boundaries"]
    reported = {r["study"]: r for r in fig2["rows"]}
    rows = paper.fault_rows("taubench-retail")
    assert [r["fault"] for r in rows] == ["order status out of domain", "payment-conservation corruption"]
    for r in rows:
        rep = reported[r["study"]]
        for key in ("baseline_pct", "monitor_pct", "delta_points", "wins", "losses"):
            assert r[key] == rep[key], (r["study"], key)
        assert r.get("p_mcnemar") == rep.get("p_exact")  # exact McNemar: 14 wins, 0 losses -> 0.00012
        assert 100 * r["baseline_successes"] / r["n"] == rep["baseline_pct"]
        assert 100 * r["monitor_successes"] / r["n"] == rep["monitor_pct"]
    assert [(r["baseline_successes"], r["monitor_successes"]) for r in rows] == [(6, 20), (35, 35)]
    t1 = paper.figures("taubench-retail", "table1")
    assert [(r["model"], r["delta_points"], r["p"]) for r in t1["rows"]] == [
        (r["model"], r["delta_points"], r["p"]) for r in fig2["taubench_overall"]
    ]
    fr = paper.figures("taubench-retail", "fire_rates")
    assert fr["rows"] == [{"fault_class": "none", "episodes": 100, "receipts": 1}]
    assert fig2["clean_spurious_receipts"] == "1 spurious receipt in 100 tau-bench episodes"
    assert paper.section("taubench-retail")["endpoint"] == "database reward (tau-bench)"
    # no ToolMaze figure is this world's: its figures are its own section's only
    assert paper.figures("taubench-retail", "ablations") is None
    assert paper.figures("taubench-retail", "post_receipt_actions") is None
    assert all(r.get("world") == "taubench-retail" for r in paper.world_boundaries("taubench-retail"))
