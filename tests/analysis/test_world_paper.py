"""Each run's tables read as its world says (world.json) and stand beside that world's paper figures only.

tau-bench retail: the paper's tau-bench rows (per fault beside per fault, the overall per-model deltas, the
clean spurious-receipt count), the endpoint "database reward (tau-bench)", pairs clustered by user and the
scripted user's limits, never a ToolMaze row. Airline: "paper: retail only" and no paper figure at all.
ToolMaze (and a run written before world.json): the paper's ToolMaze Table 1 and its whole Figure 2.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from analysis import tables
from analysis.__main__ import main
from analysis.load import load_records, load_world
from analysis.report.build import build_report
from analysis.view import resolve
from environments.taubench.plugin import TauBenchPlugin
from environments.toolmaze.plugin import ToolMazePlugin

FAST = {"n_resamples": 200, "n_flips": 2_000}
FAULTS = ("taubench_status", "taubench_conservation")
# Words that only the paper's other worlds' figures carry: none may stand on a tau-bench page.
OTHER_WORLDS = ("ToolMaze", "Qwen", "MiniMax", "AppWorld", "C3/C4", "workflow")


def taubench_records(synth, clean: bool = False, models=("model-a", "model-b")) -> list[dict]:
    """Records shaped like the retail faults study: every task under both faults, two tasks per user."""
    out = []
    for r in synth(models=models, n_workflows=12, per_workflow=2, study="taubench-faults"):
        w, j = int(r["group_id"][2:]), int(r["pair_id"].rsplit(":", 1)[1])
        fault = "none" if clean else FAULTS[j]
        out.append(r | {"env": "taubench", "task_id": f"test-{w}", "group_id": f"user{w // 2}", "strata": {},
                        "fault_class": fault, "fault_kind": "persistent"})  # fmt: skip
    return out


def world_json(plugin, env) -> dict:
    """world.json as the runner writes it (harness.run.study.world_description): the plugin's own words."""
    return {"name": plugin.name, "options": {}, **plugin.presentation(env)}


def retail_world() -> dict:
    return world_json(TauBenchPlugin(), SimpleNamespace(domain=SimpleNamespace(name="retail")))


def airline_world() -> dict:
    return world_json(TauBenchPlugin(), SimpleNamespace(domain=SimpleNamespace(name="airline")))


@pytest.fixture
def run_of(make_run):
    def _run(records: list[dict], world: dict | None, name: str = "run"):
        run = make_run(records, name)
        if world is not None:
            (run / "world.json").write_text(json.dumps(world), encoding="utf-8")
        return run

    return _run


def _all(run):
    return tables.all_tables(load_records(run), world=load_world(run), **FAST)


def _markdown(ts) -> str:
    return "\n".join(t.to_markdown() for t in ts)


def test_retail_tables_stand_beside_the_papers_taubench_rows(synth, run_of):
    run = run_of(taubench_records(synth), retail_world())
    ts = {t.name: t for t in _all(run)}
    # Table 1: the paper's overall per-model deltas on tau-bench, nothing of ToolMaze's Table 1
    p1 = ts["table1"].paper
    assert list(p1["model"]) == ["DeepSeek V4 Flash", "DeepSeek V4 Pro"]
    assert list(p1["delta_points"]) == [14.0, 12.0] and list(p1["p"]) == [0.028, 0.023]
    # per fault beside per fault: the paper's single-fault rows, named as the run's faults map to them
    tf = ts["table1_faults"]
    assert set(tf.frame["paper_fault"]) >= {"order status out of domain", "payment-conservation corruption"}
    pf = tf.paper.set_index("fault")
    status, cons = pf.loc["order status out of domain"], pf.loc["payment-conservation corruption"]
    assert (status["n"], status["baseline_successes"], status["monitor_successes"]) == (50, 6, 20)
    assert (status["wins"], status["losses"], status["p_mcnemar"]) == (14, 0, 0.00012)
    assert (cons["n"], cons["baseline_successes"], cons["monitor_successes"]) == (50, 35, 35)
    assert (cons["wins"], cons["losses"]) == (9, 9)
    # boundaries: each paper row right after the run's rows of its fault; no other world's row
    b = ts["boundaries"].frame
    paper_rows = b[b["source"] == "paper"]
    assert len(paper_rows) == 2 and not paper_rows["study"].str.contains("ToolMaze|AppWorld").any()
    for i in paper_rows.index:
        before = b.loc[i - 1]
        assert before["source"] == "this run"
        assert tables.fault_names([before["fault"]], resolve(load_world(run)))[0] == b.loc[i, "fault"]
    # a faults run holds no clean episodes: the paper's clean count is said, not set beside a row
    assert ts["fire_rates"].paper is None
    assert any("1 spurious receipt in 100 clean tau-bench episodes" in n for n in ts["fire_rates"].notes)
    md = _markdown(ts.values())
    for word in OTHER_WORLDS:
        assert word not in md, word
    # every table names the endpoint, the unit and what the scripted user knows
    for t in ts.values():
        text = "\n".join(t.notes)
        assert "database reward (tau-bench)" in text, t.name
        assert "pairs clustered by user" in text, t.name
        assert "scripted user's cards are built from each task's ground-truth writes" in text, t.name
        assert "skeptic player knows the domain's status values" in text, t.name
        assert "process judge" not in t.to_markdown(), t.name


def test_a_clean_retail_run_gets_the_clean_count_and_not_the_faults_rows(synth, run_of):
    ts = {t.name: t for t in _all(run_of(taubench_records(synth, clean=True), retail_world()))}
    fr = ts["fire_rates"].paper  # clean episodes (fault class none) beside the paper's spurious receipts
    assert fr.to_dict("records") == [{"fault_class": "none", "episodes": 100, "receipts": 1}]
    assert ts["table1"].paper is None  # the paper's overall rows pool both faults: not this comparison
    assert any("not the same comparison, so not shown" in n for n in ts["table1"].notes)
    assert ts["ablations"].notes[-1] == "paper: the paper reports no ablation contrasts for this world"
    assert "DeepSeek" not in ts["boundaries"].to_markdown()  # no fault of the paper's was played here


def test_airline_says_retail_only_and_compares_with_nothing(synth, run_of):
    ts = _all(run_of(taubench_records(synth), airline_world()))
    md = _markdown(ts)
    for t in ts:
        assert t.paper is None, t.name
        assert any("paper: retail only" in n for n in t.notes), t.name
        assert any("pairs clustered by user" in n for n in t.notes), t.name
    b = next(t for t in ts if t.name == "boundaries").frame
    assert set(b["source"]) == {"this run"}
    for word in (*OTHER_WORLDS, "DeepSeek", "spurious receipt in 100", "order status out of"):
        assert word not in md, word


def test_a_taubench_run_without_world_json_shows_no_paper_figure(synth, run_of):
    ts = _all(run_of(taubench_records(synth), None))
    assert all(t.paper is None for t in ts)
    assert set(next(t for t in ts if t.name == "boundaries").frame["source"]) == {"this run"}
    assert "DeepSeek" not in _markdown(ts)


@pytest.mark.parametrize("with_world_json", [True, False])
def test_toolmaze_keeps_the_papers_table1_and_whole_figure2(synth, run_of, with_world_json):
    world = world_json(ToolMazePlugin(), None) if with_world_json else None
    ts = {t.name: t for t in _all(run_of(synth(), world))}
    assert list(ts["table1"].paper["model"]) == [
        "DeepSeek V4 Flash", "DeepSeek V4 Pro", "Qwen 3.7 Plus", "Qwen 3.7 Max", "pooled", "MiniMax M3",
    ]  # fmt: skip
    assert "table1_faults" not in ts  # one fault per workflow: its own planted faults are the strata
    b = ts["boundaries"].frame
    assert (b["source"] == "paper").sum() == 5 and "fault" not in b.columns and "model" not in b.columns
    assert ts["post_receipt_actions"].frame["source"].eq("paper").sum() == 1


def test_the_cli_and_the_report_of_a_retail_run(synth, run_of, tmp_path):
    run = run_of(taubench_records(synth), retail_world())
    assert main(["table1", "--run", str(run), "--resamples", "200", "--flips", "2000"]) == 0
    md = (run / "table1.md").read_text()
    assert "DeepSeek V4 Pro" in md and "Qwen" not in md and "database reward (tau-bench)" in md
    html = build_report(run, tmp_path / "r.html", **FAST).read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", html.split('<script type="application/json" id="index">')[0])
    assert "order status out of domain" in text and "payment-conservation corruption" in text
    assert "pairs clustered by user" in text and "database reward (tau-bench)" in text
    for word in OTHER_WORLDS:
        assert word not in text, word


def test_the_monitors_coverage_stands_in_every_tables_notes(synth, run_of):
    """coverage.json (what the run's monitor reads of the world's results) becomes one line of every
    table's notes; a file that is no coverage summary is an error naming it."""
    run = run_of(taubench_records(synth), retail_world())
    cov = {"paths": 200, "covered": 150, "with_value_rule": 100, "share": 0.75, "value_share": 0.5,
           "by_tool": {}, "no_rule": [["t", "$.a", "free text"]] * 50}  # fmt: skip
    (run / "coverage.json").write_text(json.dumps(cov), encoding="utf-8")
    ts = _all(run)
    line = "monitor coverage: 75.0% of 200 result paths"
    assert ts and all(line in t.to_markdown() for t in ts)
    (run / "coverage.json").write_text("[]", encoding="utf-8")
    with pytest.raises(ValueError, match="coverage.json: not a coverage summary"):
        load_world(run)
