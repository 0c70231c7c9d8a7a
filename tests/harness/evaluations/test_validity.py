import pytest

from harness.evaluations.validity import StudyOptions, format_report, run_validity


@pytest.mark.slow
def test_validity_study_on_toolmaze_small_and_seeded():
    opts = StudyOptions(
        env="toolmaze",
        folds=(0,),
        per_fault=2,
        propagation_tasks=1,
        fault_ids=("united-2", "steam-1", "narr-d-1", "phe-2"),
    )
    rep = run_validity(opts)
    det = rep["incident_detection"]
    assert {f["id"] for f in det["faults"]} == set(opts.fault_ids)
    s = det["summary"]
    assert s["overall"]["faults"] == s["structured"]["faults"] + s["string"]["faults"]
    for f in det["faults"]:
        assert 0 <= f["flagged"] <= f["applied"] <= 2
    assert rep["clean"]["responses"] > 0 and 0 <= rep["clean"]["fired"] <= rep["clean"]["responses"]
    p = rep["propagation"]["summary"]
    assert p["propagated"] <= p["trackable"] <= p["hit_episodes"] <= len(opts.fault_ids)
    assert "Incident detection" in format_report(rep)
    assert run_validity(opts)["incident_detection"] == det  # seeded: identical on a rerun


@pytest.mark.slow
def test_validity_study_side_by_side_vocabularies():
    ids = ("united-2", "steam-1", "null-1")
    opts = StudyOptions(env="toolmaze", folds=(0,), per_fault=2, propagation_tasks=0, fault_ids=ids)
    paper = run_validity(opts)
    both = run_validity(StudyOptions(**{**opts.__dict__, "vocabularies": ("paper", "wide")}))
    assert both["incident_detection"] == paper["incident_detection"]  # the paper's figures unchanged
    wide = both["by_vocabulary"]["wide"]["incident_detection"]
    # the same faults hit the same results under either vocabulary; only what is flagged may differ
    assert [f["applied"] for f in wide["faults"]] == [
        f["applied"] for f in paper["incident_detection"]["faults"]
    ]
    for f in wide["faults"]:
        assert sum(f["missed_by_reason"].values()) == f["applied"] - f["flagged"]
    text = format_report(both)
    assert "wide vocabulary" in text and "paper vocabulary" in text
