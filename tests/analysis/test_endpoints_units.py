"""Both endpoints, statistics labelled by their unit, the clustered pooled headline, Holm, design MDE, per-model
ablations, and the frozen-table comparison of replicate_table1."""

import importlib.util
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from analysis import paper, stats, tables
from analysis.__main__ import main
from analysis.load import build_pairs, has_endpoint, load_records
from analysis.tables import ENDPOINT_LABELS, TABLE1_COLUMNS, UNIT_CLUSTERS, UNIT_PAIRS
from harness.agents.policies.noisy import NoisyParams

FAST = {"n_resamples": 300, "n_flips": 5_000}
ROOT = Path(__file__).resolve().parents[2]


def _flip_outcome(recs: list[dict], every: int = 3) -> list[dict]:
    """outcome_correct differs from success on every ``every``-th monitor record (a corrupted value trusted)."""
    out = []
    for i, r in enumerate(recs):
        r = dict(r)
        if r["arm"] == "monitor" and r["success"] and i % every == 0:
            r["outcome_correct"] = False
        out.append(r)
    return out


@pytest.fixture
def run(synth, make_run):
    recs = _flip_outcome(synth(models=("model-a", "model-b", "model-r"), per_workflow=1))
    return load_records(make_run(recs)), recs


def test_build_pairs_scores_the_named_endpoint_and_counts_missing_values(run, synth, make_run):
    df, recs = run
    succ, outc = build_pairs(df), build_pairs(df, endpoint="outcome_correct")
    by_pair = {(r["pair_id"], r["arm"]): r for r in recs}
    for row in outc.pairs.itertuples(index=False):
        assert row.y_treat == int(by_pair[(row.pair_id, "monitor")]["outcome_correct"])
    assert outc.pairs["y_treat"].sum() < succ.pairs["y_treat"].sum()  # the flipped records count
    blank = [
        dict(r, outcome_correct=None) if i < 4 and r["arm"] == "baseline" else r for i, r in enumerate(recs)
    ]
    pf = build_pairs(load_records(make_run(blank, "blank")), endpoint="outcome_correct")
    assert pf.dropped_no_endpoint == sum(
        1 for r in blank if r["arm"] == "baseline" and r["outcome_correct"] is None
    )
    with pytest.raises(ValueError, match="endpoint"):
        build_pairs(df, endpoint="reward")


def test_both_tables_are_labelled_by_endpoint_and_unit(run):
    df, _ = run
    t1 = tables.table1(df, replication=["model-r"], **FAST)
    t2 = tables.table1(df, replication=["model-r"], endpoint="outcome_correct", **FAST)
    assert (t1.name, t2.name) == ("table1", "table1_outcome")
    assert ENDPOINT_LABELS["success"] in t1.title and ENDPOINT_LABELS["outcome_correct"] in t2.title
    assert tuple(t2.frame.columns[: len(TABLE1_COLUMNS)]) == TABLE1_COLUMNS
    for t in (t1, t2):
        md = t.to_markdown()
        assert UNIT_PAIRS in md and UNIT_CLUSTERS in md
        assert "pairs, ignores shared workflows" in md  # the pooled McNemar, printed but not headlined
        assert "post-hoc MDE" in md and "design-stage MDE" in md
    assert t2.paper is None and t1.paper is not None  # the paper reports the process judge only
    assert (t1.frame["monitor_successes"] != t2.frame["monitor_successes"]).any()


def test_pooled_headline_is_the_clustered_test_and_models_use_pairs(run):
    df, _ = run
    f = tables.table1(df, replication=["model-r"], **FAST).frame.set_index("model")
    pooled = f.loc["pooled"]
    assert pooled["headline_unit"] == UNIT_CLUSTERS and pooled["p_headline"] == pooled["p_signflip"]
    for m in ("model-a", "model-b"):
        assert f.loc[m, "headline_unit"] == UNIT_PAIRS and f.loc[m, "p_headline"] == f.loc[m, "p_mcnemar"]


def test_holm_column_adjusts_the_headline_family(run):
    df, _ = run
    f = tables.table1(df, replication=["model-r"], **FAST).frame.set_index("model")
    fam = f.drop(index="model-r")
    assert (fam["p_holm"] >= fam["p_headline"] - 1e-15).all()
    assert np.allclose(fam["p_holm"], stats.holm(fam["p_headline"].to_numpy()))
    assert math.isnan(f.loc["model-r", "p_holm"])  # replication rows are outside the family
    # the family has three tests: the smallest p is multiplied by three (unless capped at 1)
    smallest = fam["p_headline"].idxmin()
    assert fam.loc[smallest, "p_holm"] == pytest.approx(min(1.0, 3 * fam.loc[smallest, "p_headline"]))


def test_design_mde_falls_with_n_and_is_the_exact_power_mde():
    d = paper.paper_discordance()["pooled"]
    assert d == pytest.approx(69 / 320)  # (62 + 7) / 320 from the paper's pooled row
    values = [stats.design_mde(n, d) for n in (40, 80, 160, 320)]
    assert all(a > b for a, b in zip(values, values[1:], strict=False))
    assert values[1] == stats.mde_exact(80, d, 0.8, 0.05)
    # at the design MDE the exact McNemar has 80% power
    m = values[1]
    assert stats.mcnemar_exact_power(80, (d + m) / 2, (d - m) / 2) == pytest.approx(0.8, abs=1e-3)
    with pytest.raises(ValueError, match="n_pairs"):
        stats.design_mde(0, d)
    with pytest.raises(ValueError, match="discordance"):
        stats.design_mde(80, 0.0)


def test_design_command_prints_the_paper_discordances_and_rejects_bad_input(capsys):
    assert main(["design", "--pairs", "80", "--pairs", "320"]) == 0
    out = capsys.readouterr().out
    expect = 100 * stats.design_mde(80, paper.paper_discordance()["Qwen 3.7 Max"])
    assert f"{expect:.1f}" in out and "Qwen 3.7 Max" in out and "320 pairs" in out
    assert main(["design", "--pairs", "114", "--discordance", "0.3"]) == 0
    assert f"{100 * stats.design_mde(114, 0.3):.1f}" in capsys.readouterr().out
    assert main(["design", "--pairs", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1
    assert main(["design"]) == 2 and "--pairs" in capsys.readouterr().err


def test_ablations_have_per_model_and_pooled_rows_each_with_an_mde(synth, make_run):
    recs = synth(models=("m1", "m2"), arms=("baseline", "monitor", "no-tools"), lift={"monitor": 0.4, "no-tools": 0.1},
                 n_workflows=60, per_workflow=1)  # fmt: skip
    f = tables.ablations(load_records(make_run(recs)), **FAST).frame
    for endpoint in ("success", "outcome_correct"):
        for contrast in ("recovery list restored", "full vs baseline", "stripped vs baseline"):
            g = f[(f["endpoint"] == endpoint) & (f["contrast"] == contrast)].set_index("model")
            assert set(g.index) == {"m1", "m2", "pooled"}
            assert g.loc["pooled", "n"] == g.loc["m1", "n"] + g.loc["m2", "n"]
            assert g["mde_design_points"].notna().all() and (g["mde_design_points"] > 0).all()
            assert "mde_posthoc_points" in g.columns
            # the design MDE of the bigger pooled row is smaller at the same planned discordance
            assert g.loc["pooled", "mde_design_points"] < g.loc["m1", "mde_design_points"]
            assert g.loc["pooled", "headline_unit"] == UNIT_CLUSTERS
    comparable = f[f["paper_comparable"] != ""]
    assert set(comparable["model"]) == {"m1", "m2"} and set(comparable["endpoint"]) == {"success"}
    assert (comparable["paper_mde_points"] == paper.paper_ablations()["mde_points"]).all()


def test_outcome_table_absent_without_outcome_correct(synth, make_run, capsys):
    recs = [{**r, "outcome_correct": None} for r in synth(models=("m",))]  # a world without an outcome grader
    run = make_run(recs)
    df = load_records(run)
    assert not has_endpoint(df, "outcome_correct")
    ts = {t.name: t for t in tables.all_tables(df, **FAST)}
    assert "table1" in ts and "table1_outcome" not in ts
    assert any("no table1_outcome" in n for n in ts["table1"].notes)
    abl = tables.ablations(df, **FAST)
    assert set(abl.frame["endpoint"]) == {"success"}
    assert main(["table1", "--run", str(run), "--resamples", "300", "--flips", "5000"]) == 0
    assert "no table1_outcome table" in capsys.readouterr().out
    assert not (run / "table1_outcome.csv").exists()


def _replicate_module():
    spec = importlib.util.spec_from_file_location(
        "replicate_table1", ROOT / "scripts" / "replicate_table1.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_replicate_compares_both_endpoint_tables(run, tmp_path, capsys):
    df, _ = run
    rep = _replicate_module()
    runs = {}
    for name in ("frozen", "same", "other"):
        d = tmp_path / name
        for endpoint in ("success", "outcome_correct"):
            tables.table1(df, endpoint=endpoint, seed=0 if name != "other" else 1, **FAST).write(d)
        runs[name] = d
    assert rep.report_frozen(runs["same"], runs["frozen"]) == 0
    assert "REPRODUCED: table1.csv, table1_outcome.csv" in capsys.readouterr().out
    # only the outcome table differs: still not reproduced
    shutil.copy(runs["frozen"] / "table1.csv", runs["other"] / "table1.csv")
    assert rep.report_frozen(runs["other"], runs["frozen"]) == 1
    out = capsys.readouterr().out
    assert "NOT REPRODUCED: table1_outcome.csv" in out and "REPRODUCED: table1.csv" not in out
    (runs["same"] / "table1_outcome.csv").unlink()
    assert rep.report_frozen(runs["same"], runs["frozen"]) == 1


def test_policy_captions_cover_every_scripted_player_and_the_retry_control():
    for policy in ("trusting", "receipt-aware", "skeptic", "noisy"):
        assert tables.POLICY_CAPTIONS[policy].endswith(".")
    assert "0 by construction" in tables.POLICY_CAPTIONS["trusting"]
    assert "first" in tables.POLICY_CAPTIONS["receipt-aware"]
    noisy = tables.POLICY_CAPTIONS["noisy"]
    defaults = NoisyParams()  # the stated probabilities are the policy's defaults
    for key in ("p_notice", "p_follow", "p_overreact"):
        assert f"{key}={getattr(defaults, key):g}" in noisy
    spec = importlib.util.spec_from_file_location("policy_table", ROOT / "scripts" / "policy_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert "retry_once" in mod.WORLD_POLICIES and "blind retry" in mod.caption("retry_once")
    assert mod.caption("trusting").strip().startswith("trusting:")
