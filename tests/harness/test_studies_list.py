"""``make studies`` (``python -m harness.run.sizes``; ``python -m harness.studies_list`` without counts): each study's whole one-line
description, its world, whether that world is ready here (and the command that makes it ready), and
its episode count as the planner would schedule it."""

from __future__ import annotations

import re

import pytest
from hydra import compose, initialize_config_dir

from harness import studies_list
from harness.config import CONF_DIR, register, to_config
from harness.run.sizes import EpisodeCounter


def test_every_description_is_one_whole_line():
    rows = studies_list.studies()
    assert len(rows) >= 10
    long = {k: len(v) for k, v in rows.items() if len(v) > studies_list.DESCRIPTION_WIDTH}
    assert not long, f"descriptions over {studies_list.DESCRIPTION_WIDTH} characters: {long}"
    cut = [k for k, v in rows.items() if not re.search(r"[.?!]$", v)]
    assert not cut, f"descriptions that stop mid-sentence (the sentence goes on below): {cut}"


def test_a_cut_description_is_caught(tmp_path):
    study = tmp_path / "cut.yaml"
    study.write_text("# @package _global_\n# A study that goes on and\n# on below.\n")
    assert not re.search(r"[.?!]$", studies_list.description(study))


def test_the_listing_names_world_readiness_and_the_whole_description(monkeypatch):
    def unready(world: str) -> str | None:
        return "data missing: run `make data-toolmaze` (or set X)" if world == "toolmaze" else None

    monkeypatch.setattr(studies_list, "readiness", unready)
    rows = studies_list.rows()
    lines = studies_list.render(rows, count=False)
    text = "\n".join(lines)
    for name, line in studies_list.studies().items():
        row = next(ln for ln in lines if ln.split()[:1] == [name])
        assert line in row  # the whole description, on the study's own line
    table1 = next(r for r in rows if r["study"] == "table1")
    assert table1["world"] == "toolmaze" and table1["ready"] == "needs make data-toolmaze"
    assert "toolmaze: not ready: data missing: run `make data-toolmaze` (or set X)" in text
    assert all(r["ready"] == "ready" for r in rows if r["world"] not in ("toolmaze", "-"))


@pytest.mark.parametrize("study", ["smoke", "table1-replication"])
def test_the_episode_count_is_the_planners(study):
    """The listing counts without a run's model checks; the count is the schedule the run would make."""
    from harness.run.plan import plan_run

    register()
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(compose("config", overrides=[f"study={study}"]))
    counter = EpisodeCounter()
    try:
        n = counter.count(study)
    finally:
        counter.close()
    assert n == len(plan_run(cfg).schedule) > 0


def test_a_study_of_an_unready_world_has_no_count(monkeypatch):
    monkeypatch.setattr(studies_list, "readiness", lambda world: "missing: run `make it`")
    counter = EpisodeCounter()
    assert studies_list.plan_cells("smoke", "missing: run `make it`", counter) == (
        "missing: run `make it`",
        "-",
    )
    assert counter.envs == {}  # nothing was built


def test_make_studies_prints_counts_and_readiness(monkeypatch, capsys):
    """The listing with counts, a world not ready here (its studies have none) and the others counted."""
    from harness.run import sizes

    monkeypatch.setattr(
        studies_list, "readiness", lambda w: None if w == "toolmaze" else f"{w}: run `make {w}`"
    )
    assert sizes.main([]) == 0
    out = capsys.readouterr().out.splitlines()
    smoke = next(ln for ln in out if ln.split()[:1] == ["smoke"])
    assert smoke.split()[1:3] == ["toolmaze", "ready"] and int(smoke.split()[3]) > 0
    assert studies_list.studies()["smoke"] in smoke
    bfcl = next(ln for ln in out if ln.split()[:1] == ["bfcl-clean"])
    assert bfcl.split()[1:5] == ["bfcl", "needs", "make", "bfcl"] and bfcl.split()[5] == "-"


def test_a_long_command_is_said_under_the_table_not_in_its_column():
    assert studies_list.ready_cell("run `make data-x` first") == "needs make data-x"
    long = "run `DATA_ROOT=<dir> /a/very/long/path/to/a/venv/bin/tool download data`"
    assert studies_list.ready_cell(long) == "not ready (see below)"
    assert studies_list.ready_cell(None) == "ready"
