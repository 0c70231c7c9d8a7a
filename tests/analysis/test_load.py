import json

import pytest

from analysis.load import RECORD_KEYS, LoadReport, build_pairs, load_records


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
    assert set(RECORD_KEYS) <= set(df.columns)


def test_missing_core_key_and_bad_status_raise(synth, make_run, tmp_path):
    recs = synth(models=("m",), n_workflows=2, per_workflow=1)
    no_pair = [{k: v for k, v in r.items() if k != "pair_id"} for r in recs]
    with pytest.raises(ValueError, match="pair_id"):
        load_records(make_run(no_pair, "a"))
    bad = [dict(r, status="exploded") for r in recs]
    with pytest.raises(ValueError, match="exploded"):
        load_records(make_run(bad, "b"))


def test_optional_keys_filled_and_listed(synth, make_run):
    recs = [
        {k: v for k, v in r.items() if k not in ("transcript", "trace_check")} for r in synth(models=("m",))
    ]
    rep = LoadReport()
    df = load_records(make_run(recs), rep)
    assert rep.missing_keys == ["transcript", "trace_check"]
    assert df["transcript"].isna().all()


def test_duplicate_records_keep_last(synth, make_run):
    recs = synth(models=("m",), n_workflows=2, per_workflow=1)
    first = next(r for r in recs if r["arm"] == "monitor")
    flipped = dict(first, success=not first["success"])
    pf = build_pairs(load_records(make_run(recs + [flipped])))
    assert pf.duplicates == 1
    row = pf.pairs[pf.pairs["pair_id"] == first["pair_id"]].iloc[0]
    assert row.y_treat == int(flipped["success"])
    assert json.dumps(flipped)  # the record stays JSON-able
