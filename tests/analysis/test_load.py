import json
from pathlib import Path

import pytest

from analysis.load import COLUMNS, LoadReport, build_pairs, load_records
from harness.records import write_records

DATA = Path(__file__).resolve().parents[1] / "harness" / "data"  # real-shaped records of versions 1 and 2


def test_infra_pairs_dropped_and_counted(synth, make_run):
    recs = synth(models=("m",), n_workflows=5, per_workflow=2, infra=3)
    df = load_records(make_run(recs))
    pf = build_pairs(df)
    n_pairs = 5 * 2
    assert pf.dropped_infra == 3
    assert pf.n == n_pairs - 3
    infra_ids = {r["pair_id"] for r in recs if r["status"] == "infra_error"}
    assert infra_ids.isdisjoint(set(pf.pairs["pair_id"]))


def test_one_armed_pairs_dropped_and_counted(synth, make_run):
    recs = synth(models=("m",), n_workflows=4, per_workflow=1)
    lone = [r for r in recs if r["arm"] == "monitor"][0]["pair_id"]
    recs = [r for r in recs if not (r["pair_id"] == lone and r["arm"] == "baseline")]
    pf = build_pairs(load_records(make_run(recs)))
    assert pf.dropped_missing == 1 and pf.n == 3


def test_pair_outcomes_come_from_each_arm(synth, make_run):
    recs = synth(models=("m",), n_workflows=6, per_workflow=2)
    pf = build_pairs(load_records(make_run(recs)))
    by = {(r["pair_id"], r["arm"]): int(r["success"]) for r in recs}
    for row in pf.pairs.itertuples():
        assert row.y_base == by[(row.pair_id, "baseline")]
        assert row.y_treat == by[(row.pair_id, "monitor")]


def test_torn_line_skipped_and_reported(synth, make_run):
    run = make_run(synth(models=("m",), n_workflows=2, per_workflow=1))
    with (run / "episodes.jsonl").open("a") as fh:
        fh.write('{"study": "x", "arm": "base')
    rep = LoadReport()
    with pytest.warns(UserWarning, match="torn final line"):
        df = load_records(run, rep)
    assert rep.torn_lines == 1 and len(df) == 4
    assert list(df.columns) == list(COLUMNS)


def test_missing_key_bad_status_and_unknown_key_raise_naming_the_line(synth, make_plain_run):
    recs = synth(models=("m",), n_workflows=2, per_workflow=1)
    no_pair = [{k: v for k, v in r.items() if k != "pair_id"} for r in recs]
    with pytest.raises(ValueError, match=r"episodes.jsonl:1 .*pair_id"):
        load_records(make_plain_run(no_pair, "a"))
    bad = [dict(r, status="exploded") for r in recs]
    with pytest.raises(ValueError, match="exploded"):
        load_records(make_plain_run(bad, "b"))
    extra = [*recs[:2], dict(recs[2], complexity="C3"), *recs[3:]]
    with pytest.raises(ValueError, match=r"episodes.jsonl:3 .*complexity"):
        load_records(make_plain_run(extra, "c"))


def test_older_records_fill_what_they_lack_and_list_it(synth, make_plain_run):
    recs = [
        {k: v for k, v in r.items() if k not in ("transcript", "trace_check", "notices")}
        | {"record_version": 2}
        for r in synth(models=("m",))
    ]
    rep = LoadReport()
    df = load_records(make_plain_run(recs), rep)
    assert rep.missing_keys == ["transcript", "trace_check", "notices"]
    assert df["transcript"].isna().all()


def test_versions_1_2_and_3_load_into_the_same_frame(tmp_path):
    v1 = load_records(DATA / "records_v1.jsonl")
    v2 = load_records(DATA / "records_v2.jsonl")
    v3_lines = [
        json.loads(line) | {"record_version": 3, "notices": []}
        for line in (DATA / "records_v2.jsonl").read_text().splitlines()
    ]
    for r in v3_lines:
        del r["workflow_id"]
    run = tmp_path / "v3"
    run.mkdir()
    write_records(run / "episodes.jsonl", v3_lines)
    v3 = load_records(run)
    for df in (v1, v2, v3):
        assert list(df.columns) == list(COLUMNS) and len(df) == 4
    assert list(v1["record_version"]) == [1] * 4 and list(v3["record_version"]) == [3] * 4
    same = [c for c in COLUMNS if c != "record_version"]
    assert v2[same].equals(v3[same])
    assert list(v1["stratum"]) == list(v2["stratum"]) and list(v1["group_id"]) == list(v2["group_id"])
    assert v1["outcome_correct"].isna().all() and not v2["outcome_correct"].isna().any()
    assert build_pairs(v1).n == build_pairs(v2).n == build_pairs(v3).n == 2


def test_a_changed_record_is_a_warning_naming_its_line_and_still_loads(synth, make_run):
    run = make_run(synth(models=("m",), n_workflows=3, per_workflow=1))
    lines = (run / "episodes.jsonl").read_bytes().splitlines(keepends=True)
    target = json.loads(lines[2])
    was, now = (b"true", b"false") if target["success"] else (b"false", b"true")
    lines[2] = lines[2].replace(b'"success":' + was, b'"success":' + now)  # still a valid record
    (run / "episodes.jsonl").write_bytes(b"".join(lines))
    rep = LoadReport()
    with pytest.warns(UserWarning, match=rf"line 3 \(episode {target['episode_id']}\): edited"):
        df = load_records(run, rep)
    assert rep.chain_breaks and rep.chain_breaks[0].startswith(
        f"line 3 (episode {target['episode_id']}): edited"
    )
    assert len(df) == 6 and bool(df.loc[2, "success"]) is not target["success"]  # analysed as it is


def test_duplicate_records_keep_last(synth, make_run):
    recs = synth(models=("m",), n_workflows=2, per_workflow=1)
    first = next(r for r in recs if r["arm"] == "monitor")
    flipped = dict(first, success=not first["success"])
    pf = build_pairs(load_records(make_run(recs + [flipped])))
    assert pf.duplicates == 1
    row = pf.pairs[pf.pairs["pair_id"] == first["pair_id"]].iloc[0]
    assert row.y_treat == int(flipped["success"])
    assert json.dumps(flipped)  # the record stays JSON-able


def test_the_keys_the_report_and_the_export_show_are_schema_fields():
    """They select from a record; a field renamed in the schema must not leave them showing nothing."""
    from analysis.export_inspect import SAMPLE_METADATA
    from analysis.report.build import DETAIL_KEYS, ROW_COLUMNS

    assert set(DETAIL_KEYS) <= set(COLUMNS)
    assert set(SAMPLE_METADATA) <= set(COLUMNS)
    assert set(ROW_COLUMNS) <= set(COLUMNS)
