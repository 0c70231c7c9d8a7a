"""Record then replay a tiny ToolMaze study through the real adapter: the records must match exactly.

Only the fields named in ``harness.records.WALL_CLOCK_FIELDS`` may differ; a replay miss must be an
unscored infra error whose message says how to fill the cache.
"""

from __future__ import annotations

import pytest
from hydra import compose, initialize_config_dir

from harness.config import CONF_DIR, register, to_config
from harness.records import WALL_CLOCK_FIELDS, load_records, validate_record
from harness.run.study import run_study

register()
BASE = ["study=smoke", "limit=2", "arm=[baseline,monitor]", "progress=false", "concurrency=2"]


def config(*extra: str):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return to_config(compose("config", overrides=[*BASE, *extra]))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    root = tmp_path_factory.mktemp("replay")
    cache = root / "c.sqlite"
    run_study(config("cache.mode=record", f"cache.path={cache}"), root / "record")
    run_study(config("cache.mode=replay", f"cache.path={cache}"), root / "replay")
    return (
        root,
        load_records(root / "record" / "episodes.jsonl"),
        load_records(root / "replay" / "episodes.jsonl"),
    )


@pytest.mark.slow
def test_replay_reproduces_every_record_field(recorded):
    _, original, replayed = recorded
    assert len(original) == len(replayed) > 0
    assert all(r["status"] in ("completed", "agent_failed") for r in original)  # nothing to hide behind
    by_id = {r["episode_id"]: r for r in replayed}
    assert set(by_id) == {r["episode_id"] for r in original}
    for rec in original:
        other = by_id[rec["episode_id"]]
        assert set(rec) == set(other)
        differing = {k for k in rec if rec[k] != other[k]}
        assert differing <= WALL_CLOCK_FIELDS, (rec["episode_id"], differing)
    # the comparison is not vacuous: episodes did real work, and some got receipts
    assert all(r["rounds"] > 0 and r["prompt_tokens"] > 0 for r in original)
    assert any(r["n_receipts"] > 0 for r in original)


@pytest.mark.slow
def test_toolmaze_records_carry_the_payload_kind(recorded):
    _, original, _ = recorded
    for rec in original:
        assert rec["fault_kind"] in ("implicit_transient", "implicit_permanent")
        assert rec["fault_class"] not in ("P3", "P4")
        if rec["fault_kinds_hit"]:  # the planned label is the payload the agent walks into first
            assert rec["fault_kinds_hit"][0] == rec["fault_class"]
    assert any(r["fault_kinds_hit"] for r in original)


@pytest.mark.slow
def test_replay_miss_is_an_unscored_infra_error_that_says_how_to_fix_it(recorded):
    root, _, _ = recorded
    # a model the recording never used: every request misses
    out = root / "miss"
    counts = run_study(
        config(
            "cache.mode=replay",
            f"cache.path={root / 'c.sqlite'}",
            "arm=[baseline]",
            "model=[scripted-skeptic]",
        ),
        out,
    )
    records = load_records(out / "episodes.jsonl")
    assert counts["by_status"] == {"infra_error": len(records)} and records
    for rec in records:
        assert validate_record(rec) == []
        assert rec["success"] is False and rec["trace_check"] is None  # never scored
        assert rec["error_kind"] == "cache_miss"
        assert "cache.mode=record" in rec["error"] and "cache.path" in rec["error"]
