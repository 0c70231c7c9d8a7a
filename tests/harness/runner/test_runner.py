"""The runner in-process: fake world, scripted policies without litellm, a stand-in monitor."""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import FakeCompletion, load_fakeworld, policy_factory  # noqa: E402

from harness.config import CONF_DIR, register, to_config  # noqa: E402
from harness.llm.models import InfraError  # noqa: E402
from harness.records import latest_by_episode, load_records, validate_record  # noqa: E402
from harness.run.study import run_study  # noqa: E402

register()
fw = load_fakeworld()
ARMS = ["baseline", "monitor", "deferred", "reviewer"]
MODELS = ["scripted-trusting", "scripted-receipt-aware"]
N_TASKS = 4  # 2 complexities x 2 modes x 1 per cell


def config(*extra: str):
    overrides = [
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "study.selection.params.salt=test",
        f"arm=[{','.join(ARMS)}]",
        f"model=[{','.join(MODELS)}]",
        "progress=false",
        "concurrency=2",
        *extra,
    ]
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return to_config(compose("config", overrides=overrides))


def monitors(workflow_id: str, variant: str, detector: str):
    return fw.NegativePriceMonitor(variant)


def run(tmp: Path, *extra: str, factory=policy_factory):
    return run_study(config(*extra), tmp, factory=factory, monitors=monitors)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    counts = run(run_dir)
    return run_dir, counts, load_records(run_dir / "episodes.jsonl")


def test_every_episode_recorded_once_and_valid(finished):
    run_dir, counts, records = finished
    n = N_TASKS * len(ARMS) * len(MODELS)
    assert counts["planned"] == counts["ran_now"] == len(records) == n
    assert len({r["episode_id"] for r in records}) == n
    for rec in records:
        assert validate_record(rec) == []
        assert (run_dir / rec["transcript"]).exists()
        assert rec["scripted"] is True and rec["status"] in ("completed", "agent_failed")
        assert rec["fault_class"] == "negative_price" and rec["hit"] is True
        assert rec["strata"]["mode"] in ("P3", "P4") and rec["group_id"] == rec["task_id"].split("_")[0]


def test_pairs_share_everything_but_the_arm(finished):
    _, _, records = finished
    pairs = defaultdict(list)
    for r in records:
        pairs[r["pair_id"]].append(r)
    assert len(pairs) == N_TASKS * len(MODELS)
    for group in pairs.values():
        assert sorted(r["arm"] for r in group) == sorted(ARMS)
        assert (
            len({(r["task_id"], r["model"], r["fault_class"], r["seed"], r["replicate"]) for r in group}) == 1
        )


def test_arms_behave_as_designed(finished):
    _, _, records = finished
    by = {(r["arm"], r["model"], r["task_id"]): r for r in records}
    for r in records:
        if r["arm"] in ("monitor", "deferred"):
            assert r["n_receipts"] >= 1 and r["receipts"][0]["n_admissible"] == 2
        else:
            assert r["n_receipts"] == 0
        if r["arm"] == "reviewer":
            assert 1 <= r["reviewer_calls"] <= 5
        else:
            assert r["reviewer_calls"] == 0
    # the receipt-aware policy recovers through the listed tool; trusting never does
    for task in {r["task_id"] for r in records}:
        ra = by[("monitor", "scripted-receipt-aware", task)]
        assert ra["success"] and ra["receipts"][0]["next_action"] == "switched_listed"
        assert not by[("baseline", "scripted-trusting", task)]["success"]


def test_manifest_and_config_written(finished):
    run_dir, counts, _ = finished
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["counts"]["planned"] == counts["planned"]
    assert manifest["finished"] and len(manifest["config_hash"]) == 64
    assert "hydra-core" in manifest["packages"] and "commit" in manifest["git"]
    assert (run_dir / "config.yaml").read_text().count("fakeworld") >= 1


def test_rerun_skips_everything(finished, tmp_path):
    run_dir, _, records = finished
    before = (run_dir / "episodes.jsonl").read_bytes()
    counts = run(run_dir)
    assert counts["ran_now"] == 0 and counts["skipped_finished"] == len(records)
    assert (run_dir / "episodes.jsonl").read_bytes() == before


def test_resume_after_a_partial_file_matches(finished, tmp_path):
    """Drop records (and tear the last line) as a crash would; the rerun restores the same set."""
    run_dir, _, records = finished
    lines = (run_dir / "episodes.jsonl").read_bytes().splitlines(keepends=True)
    (tmp_path / "episodes.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][:40])
    run(tmp_path)
    resumed = latest_by_episode(load_records(tmp_path / "episodes.jsonl"))
    assert len(load_records(tmp_path / "episodes.jsonl")) == len(records)  # no duplicates
    assert {e: r["success"] for e, r in resumed.items()} == {r["episode_id"]: r["success"] for r in records}


def test_budget_stops_scheduling_and_resume_finishes(tmp_path):
    counts = run(tmp_path, "budget.tokens=1", "concurrency=1")
    records = load_records(tmp_path / "episodes.jsonl")
    assert counts["stopped_by_budget"] and len(records) == 1
    assert records[0]["status"] == "budget_exhausted" and records[0]["success"] is False
    counts = run(tmp_path)
    latest = latest_by_episode(load_records(tmp_path / "episodes.jsonl"))
    assert len(latest) == counts["planned"]
    assert not any(r["status"] == "budget_exhausted" for r in latest.values())


def test_usd_budget_counts_reviewer_cost(tmp_path):
    counts = run(tmp_path, "budget.usd=0.05", "concurrency=1")
    spent = sum(r["cost_usd"] + r["reviewer_cost_usd"] for r in load_records(tmp_path / "episodes.jsonl"))
    assert counts["stopped_by_budget"] and spent >= 0.05
    assert counts["ran_now"] < counts["planned"]


def flaky_factory(spec, replicate):
    """The trusting model's provider is down: every call raises an InfraError."""
    good = policy_factory(spec, replicate)

    async def complete(messages, tools):
        if spec.name == "scripted-trusting" and tools:
            raise InfraError("rate_limit", "429 from the fake provider")
        return await good(messages, tools)

    return complete


def test_infra_errors_are_kept_apart_and_retried_on_request(tmp_path):
    run(tmp_path, factory=flaky_factory)
    first = latest_by_episode(load_records(tmp_path / "episodes.jsonl"))
    infra = {e for e, r in first.items() if r["status"] == "infra_error"}
    assert infra == {e for e, r in first.items() if r["model"] == "scripted-trusting"}
    assert all(not first[e]["success"] and "429" in first[e]["error"] for e in infra)
    again = run(tmp_path)  # without the flag: nothing to do
    assert again["ran_now"] == 0
    retried = run(tmp_path, "retry_infra_errors=true")
    assert retried["ran_now"] == len(infra)
    final = latest_by_episode(load_records(tmp_path / "episodes.jsonl"))
    assert not any(r["status"] == "infra_error" for r in final.values())
    assert Counter(r["status"] for r in final.values())["completed"] > 0


def test_changed_study_refuses_to_mix(finished):
    run_dir, _, _ = finished
    with pytest.raises(ValueError, match="different configuration; changed: seed"):
        run(run_dir, "seed=1")


def test_round_cap_is_an_agent_failure(tmp_path):
    def looping(spec, replicate):
        async def complete(messages, tools):
            call = {
                "id": "x",
                "type": "function",
                "function": {"name": "get_price_a", "arguments": json.dumps({"item": "item-1"})},
            }
            return FakeCompletion({"role": "assistant", "content": None, "tool_calls": [call]})

        return complete

    run(tmp_path, "study.env.max_rounds=3", "arm=[baseline]", factory=looping)
    for rec in load_records(tmp_path / "episodes.jsonl"):
        assert rec["status"] == "agent_failed" and rec["stop_reason"] == "round_cap" and rec["rounds"] == 3


def test_progress_text_shows_outcomes_mix_and_cost():
    from harness.run.shared import Spend, progress_text

    text = progress_text(
        Counter(completed=2, infra_error=1), Counter(baseline=2, monitor=1), Counter(m=3), Spend(usd=0.25)
    )
    assert "ok 2" in text and "infra 1" in text and "$0.2500" in text
    assert "baseline:2 monitor:1" in text and "m:3" in text


def test_the_summary_and_the_bar_give_the_effective_model_call_rate(finished):
    from harness.run.shared import rate_text

    _, counts, records = finished
    assert counts["model_calls"] >= sum(int(r["rounds"]) for r in records) > 0  # reviewer calls too
    assert counts["calls_per_minute"] > 0 and counts["tokens_per_minute"] > 0
    text = rate_text({"calls_per_minute": 1234.4, "tokens_per_minute": 56789.0})
    assert text == "1234 req/min 56789 tok/min"


def test_a_study_crosses_its_tasks_with_several_faults(tmp_path):
    cfg = config(
        "fault=[negative_or_zero,missing_field]",
        "study.selection.rule=all",
        "+study.selection.params.where={mode:[P0]}",
        "arm=[baseline]",
        "model=[scripted-trusting]",
    )
    counts = run(
        tmp_path,
        "fault=[negative_or_zero,missing_field]",
        "study.selection.rule=all",
        "+study.selection.params.where={mode:[P0]}",
        "arm=[baseline]",
        "model=[scripted-trusting]",
    )
    records = load_records(tmp_path / "episodes.jsonl")
    assert counts["planned"] == len(records) == 2 * 12 and list(cfg.fault) == [
        "negative_or_zero",
        "missing_field",
    ]
    by_fault = Counter(r["fault_class"] for r in records)
    assert by_fault == {"negative_or_zero": 12, "missing_field": 12}
    for r in records:  # each episode met its own fault only
        hit = {f["name"] for f in r["labels"].get("injected_faults", [])}
        assert hit <= {r["fault_class"]}
    for fault in by_fault:
        assert any(r["labels"].get("injected_faults") for r in records if r["fault_class"] == fault)
    assert len({r["pair_id"] for r in records}) == 24


def test_calls_made_before_the_bar_exists_are_counted():
    """Forked workers start calling before the parent makes its progress bar: the rate counts from
    when the work began, not from the bar (a loaded machine once dropped 9 of 132 calls)."""
    import time

    from harness.run.shared import Progress, Spend

    spend = Spend(tokens=100)
    since = (time.monotonic(), spend.calls, spend.tokens)
    for _ in range(5):  # what the workers did before the parent got to its bar
        spend.calls += 1
        spend.tokens += 10
    cfg = config("progress=false")
    rates = Progress(3, cfg, spend, since).rates()
    assert rates["model_calls"] == 5 and rates["tokens_per_minute"] > 0
    assert Progress(3, cfg, spend).rates()["model_calls"] == 0  # without since: from the bar
