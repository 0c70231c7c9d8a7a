"""Repeated trials in the analysis: pass^k and pass@k against a hand computation, flip shares, the nested
bootstrap, the design helper from a run's own flips, flip marks for the report, and a one-trial run's
tables unchanged; the cost tables by role."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pandas as pd
import pytest

from analysis import tables, trials
from analysis.__main__ import main
from analysis.load import load_records
from analysis.report.build import episode_index
from analysis.stats import cluster_bootstrap_ci, paired_bootstrap_ci
from core.seeding import rng
from harness.records import write_records
from tests.analysis.conftest import synth_records

FAST = {"seed": 0, "n_resamples": 400, "n_flips": 2000}
MODEL = "model-a"


def trial_records(outcomes: dict[str, dict[str, list[int | None]]], model: str = MODEL) -> list[dict]:
    """Records of ``outcomes[task][arm]`` = one outcome per trial (None: an infrastructure error)."""
    template = synth_records(models=(model,), n_workflows=1, per_workflow=1)[0]
    out = []
    for task, arms in outcomes.items():
        for arm, ys in arms.items():
            for t, y in enumerate(ys):
                rec = copy.deepcopy(template)
                pair = f"{task}:t{t}"
                infra = y is None
                rec.update(
                    arm=arm, model=model, task_id=task, group_id=f"g-{task}", pair_id=pair, trial=t,
                    episode_id=f"{pair}:{arm}", success=bool(y), outcome_correct=None if infra else bool(y),
                    status="infra_error" if infra else ("completed" if y else "agent_failed"),
                    stop_reason="infra_error" if infra else "terminal", fault_class="stale_value",
                )  # fmt: skip
                out.append(rec)
    return out


def frame(records: list[dict], tmp_path: Path, name: str = "run") -> pd.DataFrame:
    run = tmp_path / name
    run.mkdir(parents=True, exist_ok=True)
    write_records(run / "episodes.jsonl", records)
    return load_records(run)


HAND = {
    "A": {"baseline": [0, 0, 0, 0], "monitor": [1, 1, 0, 1]},
    "B": {"baseline": [1, 1, 1, 1], "monitor": [0, 0, 0, 1]},
}


def test_pass_hat_k_and_pass_at_k_match_a_hand_computation(tmp_path):
    df = frame(trial_records(HAND), tmp_path)
    t = {x.name: x for x in trials.trials_tables(df, **{k: FAST[k] for k in ("seed", "n_resamples")})}
    got = t["trials_pass"].frame.set_index(["arm", "k"])
    # monitor: A has c=3 of n=4, B c=1 of 4. pass^k = mean C(c,k)/C(4,k); pass@k = mean 1 - C(4-c,k)/C(4,k)
    hand_hat = {1: (3 / 4 + 1 / 4) / 2, 2: (3 / 6 + 0) / 2, 3: (1 / 4 + 0) / 2, 4: 0.0}
    hand_at = {1: (3 / 4 + 1 / 4) / 2, 2: (1 + (1 - 3 / 6)) / 2, 3: (1 + (1 - 1 / 4)) / 2, 4: (1 + 1) / 2}
    for k in range(1, 5):
        assert got.loc[("monitor", k), "pass_hat_k_pct"] == pytest.approx(100 * hand_hat[k])
        assert got.loc[("monitor", k), "pass_at_k_pct"] == pytest.approx(100 * hand_at[k])
        assert got.loc[("baseline", k), "pass_hat_k_pct"] == pytest.approx(50.0)  # A never, B always
        assert got.loc[("baseline", k), "tasks"] == 2
    flips = t["trials_flips"].frame.set_index("arm")
    assert flips.loc["monitor", "flip_pct"] == 100.0 and flips.loc["baseline", "flip_pct"] == 0.0
    assert flips.loc["monitor - baseline", "flipping_tasks"] == 2  # A: d 1,1,0,1; B: d -1,-1,-1,0
    eff = t["trials_effect"].frame.iloc[0]
    assert eff["pairs"] == 8 and eff["delta_points"] == pytest.approx(100 * (3 + 1 - 0 - 4) / 8)
    assert eff["single_trial_delta_points"] == pytest.approx(100 * ((1 - 0) + (0 - 1)) / 2)


def test_an_infrastructure_trial_is_not_a_trial(tmp_path):
    df = frame(trial_records({"A": {"baseline": [0, 0, 0], "monitor": [1, None, 1]}}), tmp_path)
    rows = pd.DataFrame(trials.pass_rows(trials.task_counts(df), 3)).set_index(["arm", "k"])
    assert rows.loc[("monitor", 2), "pass_hat_k_pct"] == 100.0  # c=2 of n=2 scored
    assert ("monitor", 3) not in rows.index and rows.loc[("baseline", 3), "tasks"] == 1
    assert len(trials.paired_trials(df)) == 2  # the pair whose monitor episode failed is dropped


def noisy_tasks(n_tasks: int, k: int, same: bool, seed: int = 3) -> dict:
    out = {}
    for i in range(n_tasks):
        r = rng(seed, "tasks", i)
        p_b, p_m = r.random() * 0.6, 0.2 + r.random() * 0.8
        ys_b = [int(r.random() < p_b) for _ in range(k)]
        ys_m = [int(r.random() < p_m) for _ in range(k)]
        out[f"T{i:02d}"] = {
            "baseline": ys_b[:1] * k if same else ys_b,
            "monitor": ys_m[:1] * k if same else ys_m,
        }
    return out


def test_the_nested_bootstrap_keeps_a_tasks_trials_together_and_narrows_with_trials(tmp_path):
    same = trials.paired_trials(frame(trial_records(noisy_tasks(40, 4, same=True)), tmp_path, "same"))
    lo, hi = trials.nested_bootstrap_ci(same["d"], same["group_id"], 4000)
    first = same[same["trial"] == 0]
    clo, chi = cluster_bootstrap_ci(first["d"].to_numpy(float), first["group_id"], 4000)
    assert lo <= same["d"].mean() <= hi
    assert abs((hi - lo) - (chi - clo)) < 0.04  # four copies of each trial say no more than one
    ilo, ihi = paired_bootstrap_ci(same["d"].to_numpy(float), 4000)
    assert ihi - ilo < 0.7 * (hi - lo)  # pairs taken as independent: the copies would fake a narrow CI
    assert trials.nested_bootstrap_ci(same["d"], same["group_id"], 4000) == (lo, hi)  # seeded

    noisy = trials.paired_trials(frame(trial_records(noisy_tasks(40, 6, same=False)), tmp_path, "noisy"))
    widths = pd.DataFrame(trials.width_rows(noisy, seed=0, n_resamples=2000))["ci_width_points"].to_numpy()
    assert widths[-1] < widths[0]  # six trials per task pin each task's effect down better than one
    eff = pd.DataFrame(trials.effect_rows(noisy, seed=0, n_resamples=2000)).iloc[0]
    assert eff["ci_width_points"] < eff["single_ci_width_points"]


def test_the_coverage_simulation_prints_the_three_intervals():
    lines = trials.coverage(sims=20, resamples=200)
    assert len(lines) == 4 and all("nested covers" in ln and "iid pairs covers" in ln for ln in lines[1:])


def test_design_from_the_runs_flips(tmp_path, capsys):
    noisy = trial_records(noisy_tasks(30, 4, same=False))
    run = tmp_path / "noisy"
    frame(noisy, tmp_path, "noisy")
    assert main(["design", "--run", str(run), "--effect", "15", "--trials", "1", "--trials", "8"]) == 0
    out = capsys.readouterr().out
    assert "tasks_needed" in out and "flip_pct" in out
    rows = pd.DataFrame(trials.design_rows(trials.paired_trials(load_records(run)), 0.15, (1, 2, 8)))
    need = rows.set_index("trials")["tasks_needed"]
    assert need[1] > need[2] > need[8]  # trials buy down the trial-to-trial share of the variance
    v = trials.variance_parts(trials.paired_trials(load_records(run)))
    z = 1.959963984540054 + 0.8416212335729143
    assert need[2] == math.ceil(z**2 * (v.between + v.within / 2) / 0.15**2)
    steady = trials.paired_trials(frame(trial_records(noisy_tasks(30, 3, same=True)), tmp_path, "steady"))
    flat = pd.DataFrame(trials.design_rows(steady, 0.15, (1, 5)))["tasks_needed"]
    assert flat.nunique() == 1  # no flips: more trials buy nothing
    one = tmp_path / "one"
    frame(synth_records(models=(MODEL,)), tmp_path, "one")
    assert main(["design", "--run", str(one)]) == 2
    assert "one trial per pair" in capsys.readouterr().err


def test_a_one_trial_run_writes_the_tables_it_wrote_before_trials(tmp_path):
    recs = synth_records()
    assert trials.trials_tables(frame(recs, tmp_path, "old")) == []
    # the trial-0 records of a three-trial run give byte-identical tables to the same records written
    # before trials existed (no trial field at all)
    three = [{**r, "pair_id": f"{r['pair_id']}:{t}", "episode_id": f"{r['episode_id']}:{t}", "trial": t}
             for t in range(3) for r in recs]  # fmt: skip
    zero = [r for r in three if r["trial"] == 0]
    legacy = [{k: v for k, v in r.items() if k != "trial"} for r in zero]
    a = tables.all_tables(frame(zero, tmp_path, "zero"), **FAST)
    b = tables.all_tables(frame(legacy, tmp_path, "legacy"), **FAST)
    assert [t.name for t in a] == [t.name for t in b] and not any(t.name.startswith("trials_") for t in a)
    for x, y in zip(a, b, strict=True):
        x.write(tmp_path / "a")
        y.write(tmp_path / "b")
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files and all(
        (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files
    )
    assert (tmp_path / "zero" / "episodes.jsonl").read_bytes() == (
        tmp_path / "legacy" / "episodes.jsonl"
    ).read_bytes()
    many = tables.all_tables(frame(three, tmp_path, "three"), **FAST)
    names = [t.name for t in many]
    assert {"trials_pass", "trials_flips", "trials_effect", "trials_ci_width", "trials_design"} <= set(names)


def test_flip_marks_reach_the_transcript_list(tmp_path):
    df = frame(trial_records(HAND), tmp_path)
    marks = trials.flip_marks(df)
    assert marks["A:t0:monitor"] == "flips 3/4" and marks["A:t2:baseline"] == "stable 0/4"
    index = episode_index(df.to_dict("records"), tmp_path, marks)
    col = {c: i for i, c in enumerate(index.columns)}
    row = next(r for r in index.rows if r[col["episode_id"]] == "B:t3:monitor")
    assert row[col["flip"]] == "flips 1/4" and row[col["trial"]] == "3"
    assert trials.flip_marks(frame(synth_records(), tmp_path, "one")) == {}


def test_figure_passk_is_drawn_for_a_run_with_trials(tmp_path):
    from analysis.figures import all_figures

    ts = trials.trials_tables(frame(trial_records(HAND), tmp_path), n_resamples=200)
    paths = all_figures(ts, tmp_path / "figs")
    assert {p.name for p in paths} == {"figure_passk.png", "figure_passk.pdf"}


def test_cost_tables_price_every_role_in_its_own_column(tmp_path):
    recs = synth_records(models=(MODEL,), arms=("baseline", "monitor", "reviewer"), lift={})
    for r in recs:
        r["user_calls"], r["user_cost_usd"] = 3, 0.004
        if r["arm"] == "reviewer":
            r["reviewer_calls"], r["reviewer_cost_usd"] = 2, 0.05
    df = frame(recs, tmp_path)
    cost = tables.cost(df).frame.set_index(["source", "arm"])
    rev = cost.loc[("this run", "reviewer")]
    assert rev["agent_usd_per_episode"] == pytest.approx(0.011)
    assert rev["user_usd_per_episode"] == pytest.approx(0.004) and rev["user_calls_per_episode"] == 3
    assert rev["reviewer_usd_per_episode"] == pytest.approx(0.05) and rev["reviewer_calls_per_episode"] == 2
    assert rev["usd_per_episode"] == pytest.approx(0.011 + 0.004 + 0.05)
    assert cost.loc[("this run", "baseline"), "usd_per_episode"] == pytest.approx(0.01 + 0.004)
    roles = tables.cost_roles(df).frame
    assert set(roles[roles["arm"] == "baseline"]["role"]) == {"agent", "user"}  # no reviewer calls: no row
    share = roles[roles["arm"] == "reviewer"].set_index("role")["cost_share_pct"]
    assert share.sum() == pytest.approx(100.0) and share["reviewer"] == pytest.approx(100 * 0.05 / 0.065)
    md = tables.cost(df).to_markdown()
    assert all(f"{role}_usd_per_episode" in md for role in ("agent", "user", "reviewer"))


def test_the_report_of_a_trials_run_marks_and_filters_flipping_tasks_in_chromium(tmp_path):
    from analysis.report import build_report
    from analysis.report.browser import browser_missing, headless_chromium

    why = browser_missing()
    if why:
        pytest.skip(f"no headless browser for the report test: {why}")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    frame(trial_records(HAND), tmp_path)
    page = build_report(tmp_path / "run", n_resamples=200, n_flips=500)
    with headless_chromium() as d:
        d.get(page.as_uri())
        WebDriverWait(d, 30).until(lambda x: x.execute_script("return document.body.dataset.ready === '1'"))
        assert d.find_elements(By.CSS_SELECTOR, "img[alt='figure_passk']")
        cells = d.execute_script(
            "return Array.from(document.querySelectorAll('#rows tbody tr')).map(tr => tr.cells[7].textContent)"
        )
        assert len(cells) == 16 and all(("\u21c6" in c) != ("= " in c) for c in cells)
        Select(d.find_element(By.ID, "f-outcome")).select_by_visible_text("task flips across trials")
        rows = d.execute_script(
            "return Array.from(document.querySelectorAll('#rows tbody tr')).map(tr => [tr.cells[1].textContent, tr.cells[7].textContent])"
        )
        assert len(rows) == 8 and {arm for arm, _ in rows} == {"monitor"}  # A's and B's monitor trials flip
        assert sorted(c.split(" ")[0] for _, c in rows) == ["t0", "t0", "t1", "t1", "t2", "t2", "t3", "t3"]
