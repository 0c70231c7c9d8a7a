"""Synthetic episode records for the analysis tests: every field the runner writes (version 3), with a
known effect, written through the records writer (chained, as the runner writes them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.seeding import rng
from harness.records import write_records

ACTIONS = ("switched_listed", "other_tool", "retried_same", "stopped")


def synth_records(
    models: tuple[str, ...] = ("model-a", "model-b"),
    arms: tuple[str, ...] = ("baseline", "monitor"),
    n_workflows: int = 12,
    per_workflow: int = 2,
    p_base: float = 0.2,
    lift: dict[str, float] | None = None,
    infra: int = 0,
    study: str = "toolmaze-implicit",
    seed: int = 0,
    scripted: bool = True,
) -> list[dict]:
    """Records of a paired study: success ~ Bernoulli(p_base + lift[arm]) per episode, seeded.

    ``infra`` pairs (the first ones) have their treatment-arm episode end in ``infra_error``.
    """
    lift = lift if lift is not None else {"monitor": 0.4}
    out: list[dict] = []
    for model in models:
        for w in range(n_workflows):
            for j in range(per_workflow):
                pair_id = f"{study}:{model}:wf{w}:{j}"
                pair_index = w * per_workflow + j
                for arm in arms:
                    r = rng(seed, "synth", pair_id, arm)
                    p = min(1.0, p_base + lift.get(arm, 0.0))
                    success = r.random() < p
                    status = "completed" if success else "agent_failed"
                    if arm != "baseline" and pair_index < infra:
                        status, success = "infra_error", False
                    n_rec = 0 if arm == "baseline" else 1 + r.randrange(2)
                    receipts = [
                        {"call_index": i, "tool": f"tool{i}", "violated": ["rule"], "rule_class": "positive",
                         "recovery_tools": ["alt1", "alt2"], "n_admissible": 1 + r.randrange(3),
                         "next_action": ACTIONS[r.randrange(4)]}
                        for i in range(n_rec)
                    ]  # fmt: skip
                    infra_error = status == "infra_error"
                    out.append({
                        "record_version": 3, "study": study, "arm": arm, "model": model, "task_id": f"wf{w}_P3",
                        "group_id": f"wf{w}", "strata": {"complexity": ("C3", "C4")[w % 2], "mode": "P3"},
                        "fold": w % 5, "fault_class": ("type_flip", "missing_field")[w % 2],
                        "fault_kind": ("transient", "permanent")[j % 2], "fault_kinds_hit": [], "seed": seed,
                        "pair_id": pair_id, "success": success, "outcome_correct": None if infra_error else success,
                        "status": status, "env": "toolmaze", "replicate": 0, "episode_id": f"{pair_id}:{arm}",
                        "scripted": scripted, "tool_calls": [], "n_tool_calls": 4 + n_rec, "ignored_parallel_calls": 0,
                        "receipts": receipts, "n_receipts": n_rec, "hit": n_rec > 0, "final_answer": None,
                        "finish_status": None, "stop_reason": "infra_error" if infra_error else "terminal",
                        "rounds": 5, "user_turns": 0, "prompt_tokens": 1000, "completion_tokens": 100,
                        "cost_usd": 0.01 * (1 + 0.1 * (arm != "baseline")), "reviewer_calls": 0,
                        "reviewer_prompt_tokens": 0, "reviewer_completion_tokens": 0, "reviewer_cost_usd": 0.0,
                        "user_calls": 0, "user_prompt_tokens": 0, "user_completion_tokens": 0, "user_cost_usd": 0.0,
                        "latency_s": 0.1, "error": "provider timeout" if infra_error else None,
                        "error_kind": "timeout" if infra_error else None, "transcript": None, "trace_check": None,
                        "outcome": None, "labels": {}, "notices": [],
                    })  # fmt: skip
    return out


def write_run(run_dir: Path, records: list[dict]) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    write_records(run_dir / "episodes.jsonl", records)
    return run_dir


def write_plain_run(run_dir: Path, records: list[dict]) -> Path:
    """Lines as a hand or an older writer makes them: JSON, no chain, no validation."""
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return run_dir


def as_version_1(rec: dict) -> dict:
    """A version-3 record in version 1's shape: workflow_id, complexity and mode; none of what came later."""
    later = ("group_id", "strata", "outcome_correct", "outcome", "user_turns", "user_calls", "user_prompt_tokens",
             "user_completion_tokens", "user_cost_usd", "notices")  # fmt: skip
    return {
        **{k: v for k, v in rec.items() if k not in later},
        "record_version": 1,
        "workflow_id": rec["group_id"],
        **rec["strata"],
    }


@pytest.fixture
def synth():
    return synth_records


@pytest.fixture
def make_run(tmp_path):
    def _make(records: list[dict], name: str = "run") -> Path:
        return write_run(tmp_path / name, records)

    return _make


@pytest.fixture
def make_plain_run(tmp_path):
    def _make(records: list[dict], name: str = "plain") -> Path:
        return write_plain_run(tmp_path / name, records)

    return _make


@pytest.fixture
def v1_shape():
    return as_version_1
