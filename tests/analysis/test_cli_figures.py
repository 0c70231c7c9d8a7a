import json

import matplotlib.image as mpimg
import pandas as pd
import pytest

from analysis.__main__ import main
from analysis.tables import TABLE1_COLUMNS

FAST = ["--resamples", "300", "--flips", "5000"]


@pytest.mark.slow
def test_figures_command_writes_every_table_and_figure(synth, make_run, capsys):
    recs = synth(arms=("baseline", "monitor", "no-tools", "generic", "deferred")) + synth(study="clean")
    run = make_run(recs)
    out = run / "analysis"
    assert main([str(run), "--out", str(out), *FAST]) == 0  # the alias form
    for name in ("table1", "table1_strata", "ablations", "boundaries", "post_receipt_actions", "admissible", "cost",
                 "fire_rates"):  # fmt: skip
        assert (out / f"{name}.csv").stat().st_size > 0
        assert (out / f"{name}.md").read_text().startswith("## ")
    for fig in ("figure1", "figure2", "figure3"):
        assert (out / f"{fig}.pdf").stat().st_size > 0
        img = mpimg.imread(out / f"{fig}.png")
        assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 400
    for name in ("table1", "table1_outcome"):  # both endpoints, the same columns, the user-facing ones first
        cols = list(pd.read_csv(out / f"{name}.csv").columns)
        assert cols[: len(TABLE1_COLUMNS)] == list(TABLE1_COLUMNS)
    assert (out / "figure1_outcome.png").stat().st_size > 0
    assert str(out / "figure3.png") in capsys.readouterr().out


def test_table1_command_writes_into_the_run(synth, make_run, capsys):
    run = make_run(synth(models=("m",)))
    assert main(["table1", "--run", str(run), *FAST]) == 0
    assert "pooled" in set(pd.read_csv(run / "table1.csv")["model"])
    assert "Table 1" in capsys.readouterr().out


def test_ablations_command_notes_skipped_contrasts(synth, make_run, capsys):
    run = make_run(synth(models=("m",)))
    assert main(["ablations", "--run", str(run), *FAST]) == 0
    assert "skipped 'immediate vs deferred'" in capsys.readouterr().out


@pytest.mark.slow
def test_figures_and_report_warn_of_a_changed_record_and_still_write(synth, make_run, capsys):
    run = make_run(synth(models=("m",), n_workflows=4, per_workflow=1))
    path = run / "episodes.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    eid = json.loads(lines[3])["episode_id"]
    lines[3] = lines[3].replace(
        b'"n_tool_calls":', b'"n_tool_calls":1', 1
    )  # 4 calls become 14: a valid record
    path.write_bytes(b"".join(lines))
    said = f"line 4 (episode {eid}): edited"
    assert main(["figures", "--run", str(run), *FAST]) == 0
    err = capsys.readouterr().err
    warned = [ln for ln in err.splitlines() if said in ln]
    assert len(warned) == 1 and warned[0].startswith("warning: "), err
    assert (run / "table1.csv").stat().st_size > 0 and (run / "figure1.png").stat().st_size > 0
    page = run / "report.html"
    assert main(["report", "--run", str(run), "--out", str(page), *FAST]) == 0
    assert said in capsys.readouterr().err and said in page.read_text()
