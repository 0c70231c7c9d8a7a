import pandas as pd
import pytest

from analysis import tables
from analysis.load import build_pairs, load_records
from analysis.tables import SCRIPTED_LABEL, TABLE1_COLUMNS, TABLE1_EXTRA

FAST = {"n_resamples": 500, "n_flips": 20_000}


@pytest.fixture
def records(synth, make_run):
    recs = synth(models=("model-a", "model-b", "model-r"), infra=2)
    return load_records(make_run(recs)), recs


def test_table1_columns_pooled_row_and_counts(records):
    df, recs = records
    t = tables.table1(df, replication=["model-r"], **FAST)
    assert tuple(t.frame.columns) == (*TABLE1_COLUMNS, *TABLE1_EXTRA)
    assert list(t.frame["model"]) == ["model-a", "model-b", "pooled", "model-r"]
    pf = build_pairs(df)
    for model in ("model-a", "model-b", "model-r"):
        p = pf.pairs[pf.pairs["model"] == model]
        row = t.frame.set_index("model").loc[model]
        assert row["n"] == len(p)
        assert row["baseline_successes"] == p["y_base"].sum()
        assert row["monitor_successes"] == p["y_treat"].sum()
        assert row["wins"] == ((p["y_treat"] == 1) & (p["y_base"] == 0)).sum()
        assert row["delta_points"] == pytest.approx(100 * (p["y_treat"].mean() - p["y_base"].mean()))
    pooled = t.frame.set_index("model").loc["pooled"]
    primary = pf.pairs[pf.pairs["model"] != "model-r"]
    assert pooled["n"] == len(primary)  # the replication model is not pooled
    assert pooled["ci_low"] <= pooled["delta_points"] <= pooled["ci_high"]


def test_table1_written_as_csv_and_markdown(records, tmp_path):
    df, _ = records
    t = tables.table1(df, **FAST)
    csv, md = t.write(tmp_path)
    back = pd.read_csv(csv)
    assert list(back.columns) == [*TABLE1_COLUMNS, *TABLE1_EXTRA]
    assert "pooled" in set(back["model"])
    text = md.read_text()
    assert SCRIPTED_LABEL in text and "**paper**" in text and "DeepSeek V4 Flash" in text
    assert "infrastructure error: 6" in text  # 2 infra pairs per model x 3 models


def test_zero_discordant_pairs_give_p_one(synth, make_run):
    recs = synth(models=("m",), lift={"monitor": 0.0})
    same = {r["pair_id"]: r["success"] for r in recs if r["arm"] == "baseline"}
    recs = [dict(r, success=same[r["pair_id"]]) for r in recs]
    t = tables.table1(load_records(make_run(recs)), **FAST)
    row = t.frame.set_index("model").loc["m"]
    assert row["wins"] == row["losses"] == 0
    assert row["p_mcnemar"] == 1.0 and row["p_signflip"] == 1.0 and row["delta_points"] == 0.0


def test_unscripted_titles_have_no_scripted_label(synth, make_run):
    df = load_records(make_run(synth(models=("m",), scripted=False)))
    assert SCRIPTED_LABEL not in tables.table1(df, **FAST).title
    assert SCRIPTED_LABEL in tables.table1(load_records(make_run(synth(models=("m",)), "s")), **FAST).title


def test_strata_nonnegative_check_reflects_the_data(synth, make_run):
    good = tables.table1_strata(load_records(make_run(synth(lift={"monitor": 0.8}), "g")), **FAST)
    assert tables.every_stratum_nonnegative(good)
    assert "every model, every stratum nonnegative: true" in good.to_markdown()
    assert set(good.frame["stratum_by"]) == {"stratum", "fault_class"}
    bad = tables.table1_strata(load_records(make_run(synth(lift={"monitor": -0.2}, p_base=0.6), "b")), **FAST)
    assert not tables.every_stratum_nonnegative(bad)
    assert "nonnegative: false" in bad.to_markdown()


def test_ablations_skip_absent_arms_and_apply_holm(synth, make_run):
    recs = synth(arms=("baseline", "monitor", "no-tools"), lift={"monitor": 0.4, "no-tools": 0.1})
    t = tables.ablations(load_records(make_run(recs)), **FAST)
    assert set(t.frame["contrast"]) == {"recovery list restored", "full vs baseline", "stripped vs baseline"}
    assert any("localized vs generic" in n and "generic" in n for n in t.notes)
    assert (t.frame["p_holm"] >= t.frame["p_headline"]).all()
    paper_rows = t.frame[(t.frame["model"] != "pooled") & (t.frame["endpoint"] == "success")]
    assert paper_rows["paper_delta_points"].notna().all()
    assert t.frame.loc[t.frame["model"] == "pooled", "paper_delta_points"].isna().all()
    pooled = t.frame[t.frame["model"] == "pooled"]
    assert (pooled["mde_posthoc_points"] > 0).all()
    assert (t.frame["mde_posthoc_points"].dropna() > 0).all()  # blank: not reached with a model's few pairs


def test_receipt_cost_and_fire_tables_count_records(records):
    df, recs = records
    ok = [r for r in recs if r["status"] != "infra_error"]
    post = tables.post_receipt_actions(df).frame.set_index(["source", "arm"])
    mon = [x for r in ok if r["arm"] == "monitor" for x in r["receipts"]]
    assert post.loc[("this run", "monitor"), "receipt_events"] == len(mon)
    share = sum(x["next_action"] == "stopped" for x in mon) / len(mon)
    assert post.loc[("this run", "monitor"), "stopped_pct"] == pytest.approx(100 * share)
    assert post.loc[("paper", "monitor"), "switched_listed_pct"] == 48.6
    adm = tables.admissible(df).frame.set_index(["source", "arm"])
    assert adm.loc[("this run", "monitor"), "events_with_at_least_two"] == sum(
        x["n_admissible"] >= 2 for x in mon
    )
    cost = tables.cost(df).frame.set_index(["source", "arm"])
    assert cost.loc[("this run", "monitor"), "added_usd_per_episode"] > 0
    assert cost.loc[("paper", "reviewer"), "added_pct"] == 498
    fire = tables.fire_rates(df).frame
    assert fire[fire["arm"] == "baseline"]["receipts"].sum() == 0
    assert fire[fire["arm"] == "monitor"]["receipts"].sum() == len(mon)


def test_boundaries_one_row_per_study_beside_paper(synth, make_run):
    recs = synth(study="implicit") + synth(study="clean", p_base=0.6, lift={"monitor": 0.0})
    t = tables.boundaries(load_records(make_run(recs)), **FAST)
    run = t.frame[t.frame["source"] == "this run"]
    assert sorted(run["study"]) == ["clean", "implicit"]
    assert (t.frame["source"] == "paper").sum() == 5


def test_table1_detail_keeps_iid_ci_midp_and_mde(records, tmp_path):
    df, _ = records
    t = tables.table1(df, **FAST)
    t.write(tmp_path)
    detail = pd.read_csv(tmp_path / "table1_detail.csv").set_index("model")
    row = detail.loc["pooled"]
    assert row["ci_iid_low"] <= row["delta_points"] <= row["ci_iid_high"]
    assert row["p_midp"] <= row["p_mcnemar"]
    assert row["discordance"] == pytest.approx((row["wins"] + row["losses"]) / row["n"])


def test_strata_are_the_worlds_own_and_version_1_records_still_read(
    synth, make_run, make_plain_run, v1_shape
):
    recs = synth(models=("m",))
    t = tables.table1_strata(load_records(make_run(recs)), **FAST)
    assert set(t.frame[t.frame["stratum_by"] == "stratum"]["stratum"]) == {"C3 P3", "C4 P3"}
    other = [dict(r, strata={"split": "test", "writes": ("yes", "no")[i % 2]}) for i, r in enumerate(recs)]
    t = tables.table1_strata(load_records(make_run(other, "w")), **FAST)
    assert set(t.frame[t.frame["stratum_by"] == "stratum"]["stratum"]) <= {"test yes", "test no"}
    # version 1 (ToolMaze-era) records: workflow_id, complexity and mode columns
    v1 = [v1_shape(r) for r in recs]
    assert "complexity" in v1[0] and "group_id" not in v1[0]
    t = tables.table1_strata(load_records(make_plain_run(v1, "v1")), **FAST)
    assert set(t.frame[t.frame["stratum_by"] == "stratum"]["stratum"]) == {"C3 P3", "C4 P3"}


def test_tables_are_reproducible_for_a_seed(records):
    df, _ = records
    a = tables.ablations(df, **FAST).frame
    b = tables.ablations(df, **FAST).frame
    pd.testing.assert_frame_equal(a, b)
    c = tables.ablations(df, seed=1, **FAST).frame
    assert not a[["ci_low", "ci_high"]].equals(c[["ci_low", "ci_high"]])
