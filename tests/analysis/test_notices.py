"""Notices on the records (what was plugged in and did nothing) become lines of the tables' notes and
of the report, with their episode counts."""

from __future__ import annotations

from analysis import tables
from analysis.load import build_pairs, load_records, notice_counts


def test_notices_reach_the_tables_and_the_report(synth, make_run, tmp_path):
    recs = synth(models=("m",), n_workflows=4, per_workflow=1)
    for r in recs:
        r["notices"] = ["fault_no_target:negative_or_zero"] if r["arm"] == "monitor" else []
    recs[0]["notices"] = [*recs[0]["notices"], "player_generic:m"]
    run = make_run(recs)
    records = load_records(run)
    counts = notice_counts(records)
    assert counts == {
        "fault_no_target:negative_or_zero": sum(r["arm"] == "monitor" for r in recs),
        "player_generic:m": 1,
    }
    assert build_pairs(records).notices == counts
    table = tables.table1(records, n_resamples=50, n_flips=50)
    assert any(
        n.startswith("notice fault_no_target:negative_or_zero in") and "no target" in n for n in table.notes
    )
    from analysis.report.build import build_report

    html = build_report(run, tmp_path / "report.html", n_resamples=50, n_flips=50).read_text()
    assert "notice player_generic:m in 1 episode(s)" in html
