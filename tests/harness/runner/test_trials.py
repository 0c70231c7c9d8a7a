"""Repeated trials (``trials: k``): each pair played k times, trial 0 exactly as before trials existed.

The schedule pairs arms within a trial, ids and the sampling draw of trial 0 are the old ones, a record's
``trial`` is left off its line when 0 (old lines read as trial 0), the reply cache keys on the trial, and
a run killed mid-way resumes with each (pair, trial) recorded once, also after raising ``trials``.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.seeding import sha256_hex
from harness.config import Config
from harness.llm.cache import key_for
from harness.llm.models import ModelSpec
from harness.records import EpisodeRecord, load_records, make_episode_id, make_pair_id
from harness.records.files import encode
from harness.records.schema import upgrade
from harness.run.manifest import identity_hash
from harness.run.schedule import Selected, build_schedule, sampling_draw

REPO = Path(__file__).resolve().parents[3]
SEL = [Selected(f"t{i}", f"g{i}", "p3", "p3", "implicit", {"c": "C3"}) for i in range(3)]


def test_trial_zero_keeps_the_ids_it_had_before_trials_existed():
    # the formula before trials: sha256 of the same list without a trial element
    old_pair = sha256_hex(["pair", "s", "m", "t0", "p3", 0, 1])
    old_digest = sha256_hex(["episode", "s", "monitor", "m", "t0", "p3", 0, 1])[:16]
    assert make_pair_id("s", "m", "t0", "p3", 0, 1) == make_pair_id("s", "m", "t0", "p3", 0, 1, 0) == old_pair
    assert make_episode_id("s", "monitor", "m", "t0", "p3", 0, 1) == f"monitor__t0__s0r1__{old_digest}"
    later = make_episode_id("s", "monitor", "m", "t0", "p3", 0, 1, 2)
    assert later.startswith("monitor__t0__s0r1t2__") and later != make_episode_id(
        "s", "monitor", "m", "t0", "p3", 0, 1, 1
    )
    assert build_schedule("s", SEL, ["baseline", "monitor"], ["m"], 0) == build_schedule(
        "s", SEL, ["baseline", "monitor"], ["m"], 0, trials=1
    )


def test_each_trial_is_a_pair_of_its_own_with_its_own_draw():
    sched = build_schedule("s", SEL, ["baseline", "monitor"], ["m"], seed=7, replicates=2, trials=3)
    assert len(sched) == 3 * 2 * 3 * 2 and len({e.episode_id for e in sched}) == len(sched)
    by_pair = collections.defaultdict(list)
    for ep in sched:
        by_pair[ep.pair_id].append(ep)
    assert len(by_pair) == 3 * 2 * 3
    for eps in by_pair.values():  # baseline and monitor of one trial stay a pair: same trial, same draw
        assert sorted(e.arm for e in eps) == ["baseline", "monitor"]
        assert len({(e.trial, e.replicate, e.draw, e.task_id, e.seed) for e in eps}) == 1
    draws = {(e.replicate, e.trial): e.draw for e in sched}
    assert len(set(draws.values())) == 6  # every (replicate, trial) samples from its own stream
    assert draws[(0, 0)] == 0 and draws[(1, 0)] == 1  # trial 0: the replicate, as before
    assert all(2**29 <= d < 2**30 for (r, t), d in draws.items() if t)  # far from replicate indices
    assert sampling_draw(7, 0, 1) == draws[(0, 1)] != sampling_draw(8, 0, 1)  # from the config seed
    assert [e.trial for e in sched[:12]] != sorted(e.trial for e in sched[:12])  # trials interleaved


def test_the_reply_cache_keys_on_the_trial():
    spec = ModelSpec(name="m", model="scripted/noisy")
    msgs, tools = [{"role": "user", "content": "hi"}], []
    keys = {key_for(spec, msgs, tools, sampling_draw(0, 0, t), "monitor") for t in range(4)}
    assert len(keys) == 4
    assert key_for(spec, msgs, tools, sampling_draw(0, 0, 0), "monitor") == key_for(
        spec, msgs, tools, 0, "monitor"
    )


def _record(trial: int) -> EpisodeRecord:
    """A real-shaped version-3 record: the committed version-2 sample, upgraded."""
    line = (REPO / "tests" / "harness" / "data" / "records_v2.jsonl").read_text().splitlines()[0]
    obj = {**upgrade(json.loads(line)), "record_version": 3}
    return EpisodeRecord.model_validate({**obj, "trial": trial} if trial else obj)


def test_a_trial_zero_line_is_written_as_before_and_old_lines_read_as_trial_zero():
    zero, two = _record(0), _record(2)
    assert zero.trial == 0 and b'"trial"' not in encode(zero)
    assert json.loads(encode(two))["trial"] == 2
    assert json.loads(encode(zero)) == {k: v for k, v in zero.model_dump().items() if k != "trial"}


def test_a_sweep_merges_every_trial_and_names_no_job_by_trials(tmp_path):
    from omegaconf import OmegaConf

    from harness.records import write_records
    from harness.run.sweep import merge_records

    for arm in ("baseline", "monitor"):
        recs = []
        for t in range(3):
            rec = _record(t).model_dump()
            eid = make_episode_id("s", arm, rec["model"], rec["task_id"], "f", 0, 0, t)
            recs.append({**rec, "arm": arm, "trial": t, "episode_id": eid, "pair_id": f"p{t}"})
        (tmp_path / f"arm={arm}").mkdir()
        write_records(tmp_path / f"arm={arm}" / "episodes.jsonl", recs)
    summary = merge_records(tmp_path)
    merged = load_records(tmp_path / "episodes.jsonl")
    assert summary["episodes"] == 6 and sorted((r["arm"], r["trial"]) for r in merged) == sorted(
        (a, t) for a in ("baseline", "monitor") for t in range(3)
    )
    assert sum('"trial"' in ln for ln in (tmp_path / "episodes.jsonl").read_text().splitlines()) == 4
    conf = OmegaConf.load(REPO / "conf" / "config.yaml")
    assert conf.trials == 1 and "trials" in conf.hydra.job.config.override_dirname.exclude_keys


def test_trials_is_checked_and_is_run_control():
    with pytest.raises(ValueError, match="trials must be >= 1"):
        Config(trials=0)
    resolved = {"seed": 0, "trials": 1, "arms": ["baseline"]}
    assert identity_hash(resolved) == identity_hash({**resolved, "trials": 4})  # raising k resumes the run


# --- end to end: kill, resume, raise trials ------------------------------------------------------------

ARGS = [
    "study=smoke",
    "models=['scripted/noisy?p_notice=0.5&p_follow=0.6']",
    "workers=1",
    "concurrency=1",
    "progress=false",
]


def start(out: Path, trials: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "harness.run", *ARGS, f"trials={trials}", f"out={out}"],
        cwd=REPO,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.slow
def test_a_killed_run_of_trials_resumes_with_each_pair_and_trial_once(tmp_path):
    full, killed, one = tmp_path / "full", tmp_path / "killed", tmp_path / "one"
    a = start(full, 3, tmp_path / "full.log")
    single = start(one, 1, tmp_path / "one.log")
    two = start(killed, 2, tmp_path / "two.log")  # first two trials, then a third asked for
    assert two.wait(timeout=900) == 0, (tmp_path / "two.log").read_text()[-3000:]
    records = killed / "episodes.jsonl"
    first = lines(records)
    b = start(killed, 3, tmp_path / "killed.log")
    deadline = time.monotonic() + 600  # a safety net for a hung run, not a speed check
    while lines(records) < first + 2 and b.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert b.poll() is None, "the third trial ended before it could be killed"
    os.kill(b.pid, signal.SIGKILL)
    b.wait()
    partial = lines(records)
    assert a.wait(timeout=900) == 0, (tmp_path / "full.log").read_text()[-3000:]
    reference = load_records(full / "episodes.jsonl")
    assert first < partial < len(reference)
    c = start(killed, 3, tmp_path / "resumed.log")
    assert c.wait(timeout=900) == 0, (tmp_path / "resumed.log").read_text()[-3000:]

    resumed = load_records(records)
    seen = collections.Counter((r["pair_id"], r["arm"], r["trial"]) for r in resumed)
    assert set(seen.values()) == {1} and len(seen) == len(reference)  # each (pair, trial) once, none lost
    assert sorted(collections.Counter(r["trial"] for r in resumed).values()) == [len(reference) // 3] * 3
    pairs = collections.defaultdict(set)
    for r in resumed:
        pairs[r["pair_id"]].add((r["arm"], r["trial"]))
    assert all(
        len({t for _, t in v}) == 1 and len(v) == 2 for v in pairs.values()
    )  # arms paired within a trial
    want = {r["episode_id"]: r["success"] for r in reference}
    assert {r["episode_id"]: r["success"] for r in resumed} == want
    by_task = collections.defaultdict(set)
    for r in reference:
        by_task[(r["task_id"], r["arm"])].add(r["success"])
    assert any(len(v) == 2 for v in by_task.values()), (
        "no outcome differs across trials: the trials are copies"
    )
    raw = records.read_text().splitlines()
    assert sum('"trial"' in ln for ln in raw) == 2 * len(reference) // 3  # trial 0 lines carry no trial key

    # trials=1 is trial 0 of any k: the same lines but for the wall clock (latency, hence the chain)
    assert single.wait(timeout=900) == 0, (tmp_path / "one.log").read_text()[-3000:]

    def lines_of(path: Path, trial: int | None = None) -> dict[str, dict]:
        out = {}
        for ln in path.read_text().splitlines():
            obj = json.loads(ln)
            if trial is None or obj.get("trial", 0) == trial:
                out[obj["episode_id"]] = {
                    k: v for k, v in obj.items() if k not in ("latency_s", "chain", "seq")
                }
        return out

    assert lines_of(one / "episodes.jsonl") == lines_of(full / "episodes.jsonl", 0)


def test_the_chaos_provider_fails_differently_in_each_trial_and_the_same_in_a_rerun():
    import asyncio

    from harness.llm.models import InfraError, RetryPolicy, acomplete
    from harness.llm.providers import chaos

    spec = ModelSpec(name="chaos-flaky", model="chaos/flaky-40", max_attempts=8, timeout_s=5.0)
    msgs = [{"role": "user", "content": "go"}]
    tools = [
        {"type": "function", "function": {"name": "x", "parameters": {"type": "object", "properties": {}}}}
    ]

    def attempts(trial: int) -> tuple:
        chaos.reset()
        fast = RetryPolicy(base_s=0.001, max_wait_s=0.002)
        try:
            c = asyncio.run(acomplete(spec, msgs, tools, replicate=sampling_draw(0, 0, trial), retry=fast))
        except InfraError as exc:  # every attempt failed: that is this trial's draw too
            return ("gave up", exc.kind)
        return tuple(a.get("kind") for a in c.attempts)

    runs = [attempts(t) for t in range(6)]
    assert len(set(runs)) > 1  # the trials draw differently
    assert runs == [attempts(t) for t in range(6)]  # and each trial draws the same again
