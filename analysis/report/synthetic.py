"""Synthetic run folders (records + transcripts) for the report's tests and its benchmark.

Everything is drawn from :func:`core.seeding.rng` seeded by the arguments, so the same call
writes byte-identical files. The shapes follow the runner's version-2 records (every key it wrote;
read through the upgrade to version 3, as an older run's would be) and its transcripts
(``episodes.jsonl`` plus ``transcripts/<episode_id>.json``); the content is invented. This module
knows nothing about the report's HTML, statistics or the harness.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.seeding import rng

FAULTS: tuple[tuple[str, str], ...] = (
    ("out_of_domain_enum", "implicit_permanent"),
    ("type_flip", "implicit_transient"),
    ("missing_field", "explicit_permanent"),
)
NEXT_ACTIONS = ("switched_listed", "other_tool", "retried_same", "stopped")
TOOLS = ("lookup_order", "get_quote", "apply_discount", "create_purchase_order", "finish")
SYSTEM = (
    "You carry out multi-step tasks by calling the tools you are given, one tool call per turn.\n"
    "Complete every sub-task the user asks for. Every fact you report and every change you make must come\n"
    "from a tool call made in this conversation; do not invent values.\n"
    "When you are done, give a short final answer with only the essential results (for example\n"
    "confirmation codes or requested values), without markdown.\n\n"
    "Tools can fail, and they can also return data that looks fine but is wrong. When a result carries an\n"
    "outcome_monitor note, the note names the contract the result broke and the tools that can recover it;\n"
    "prefer one of those tools over repeating the same call. Never finish with a value you could not verify.\n"
    "If a sub-task cannot be completed, say which one and why, and finish with the codes you did obtain."
)


def _tool_schemas() -> list[dict]:
    return [
        {"type": "function", "function": {"name": t, "description": f"{t.replace('_', ' ')} (synthetic)",
                                          "parameters": {"type": "object", "properties": {"ref": {"type": "string"}}}}}
        for t in TOOLS
    ]  # fmt: skip


def _episode(
    study: str, model: str, arm: str, w: int, j: int, seed: int, scripted: bool
) -> tuple[dict, dict]:
    """One record and its transcript; the monitor arm gets a receipt on the faulted call."""
    group = f"task_{w:03d}"
    task_id = f"{group}_P{3 + j % 2}"
    pair_id = f"{study}:{model}:{task_id}:s{seed}"
    episode_id = f"{arm}__{task_id}__{model}__s{seed}"
    r = rng(seed, "report-synth", pair_id, arm)
    fault_class, fault_kind = FAULTS[w % len(FAULTS)]
    faulted = r.randrange(3)  # which of the first three calls returns a silently wrong result
    monitor = arm != "baseline"
    success = r.random() < (0.55 if monitor else 0.3)
    status = "completed" if success else "agent_failed"
    if r.random() < 0.02:
        status, success = "infra_error", False
    messages: list[dict] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Please handle {task_id}: look up the order, quote it, apply the discount "
                                    f"and create the purchase order. Inputs: ref=R-{w:04d}."},
    ]  # fmt: skip
    calls, meta, receipts = [], [], []
    for i, tool in enumerate(TOOLS):
        cid = f"call_{i}"
        args = {"ref": f"R-{w:04d}-{i}"}
        messages.append({"role": "assistant", "content": f"calling {tool}", "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}]})  # fmt: skip
        perturbed = i == faulted
        amount = round(100 + 900 * r.random(), 2)
        payload: dict = {"tool_result": {
            "ref": args["ref"], "record_id": f"OFC-{r.getrandbits(32):08X}", "status": "void" if perturbed else "in_stock",
            "amount": amount, "currency": "USD", "quantity": 1 + r.randrange(9),
            "line_items": [{"label": lab, "amount": round(5 + 20 * r.random(), 2)}
                           for lab in ("handling_fee", "delivery_fee", "setup_fee")],
            "valid_from": f"2026-0{1 + r.randrange(9)}-1{r.randrange(10)}", "valid_to": "2026-12-31",
            "notes": "synthetic result: " + " ".join(f"k{r.randrange(1000)}" for _ in range(12)),
        }}  # fmt: skip
        m: dict = {"call_index": i, "tool": tool, "perturbed": perturbed}
        receipt = None
        if perturbed:
            m["fault_kind"] = fault_class
            if monitor:
                receipt = {"violated": 'status must be one of "in_stock", "backorder"', "observed": "void",
                           "recovery_tools": ["lookup_order", "get_quote"]}  # fmt: skip
                payload["outcome_monitor"] = receipt
                m |= {"receipt": receipt, "recovery_tools": receipt["recovery_tools"], "n_admissible": 2,
                      "contract_class": "domain"}  # fmt: skip
                receipts.append({"call_index": i, "tool": tool, "violated": [f"{tool}:domain:$:status"], "rule_class": "domain",
                                 "recovery_tools": receipt["recovery_tools"], "n_admissible": 2,
                                 "next_action": NEXT_ACTIONS[r.randrange(len(NEXT_ACTIONS))]})  # fmt: skip
        messages.append({"role": "tool", "tool_call_id": cid, "name": tool, "content": json.dumps(payload)})
        calls.append(
            {
                "tool": tool,
                "arguments": args,
                "status": "ok",
                "perturbed": perturbed,
                "receipt": bool(receipt),
            }
        )
        meta.append(m)
    answer = f"done; confirmation code CF-{w:04d}{j}" if success else "done"
    messages.append({"role": "assistant", "content": answer})
    outcome = {"outcome_correct": success, "expected": f"CF-{w:04d}{j}", "observed": answer}
    transcript_rel = f"transcripts/{episode_id}.json"
    record = {
        "record_version": 2, "study": study, "arm": arm, "model": model, "task_id": task_id, "group_id": group,
        "workflow_id": group, "strata": {"complexity": ("C3", "C4")[w % 2], "mode": f"P{3 + j % 2}"},
        "fold": w % 5, "fault_class": fault_class, "fault_kind": fault_kind, "seed": seed, "pair_id": pair_id,
        "success": success, "outcome_correct": success if status != "infra_error" else None, "status": status,
        "env": "synthetic", "replicate": 0, "episode_id": episode_id, "scripted": scripted, "tool_calls": calls,
        "n_tool_calls": len(calls), "ignored_parallel_calls": 0, "receipts": receipts, "n_receipts": len(receipts),
        "hit": True, "fault_kinds_hit": [fault_class], "final_answer": answer, "finish_status": "done",
        "stop_reason": "infra_error" if status == "infra_error" else "terminal", "rounds": len(TOOLS),
        "user_turns": 0, "prompt_tokens": 1500 + r.randrange(500), "completion_tokens": 200 + r.randrange(80),
        "cost_usd": 0.0 if scripted else 0.002, "user_calls": 0, "user_prompt_tokens": 0,
        "user_completion_tokens": 0, "user_cost_usd": 0.0, "reviewer_calls": 0, "reviewer_prompt_tokens": 0,
        "reviewer_completion_tokens": 0, "reviewer_cost_usd": 0.0, "latency_s": round(0.5 + r.random(), 3),
        "error": "provider timeout" if status == "infra_error" else None,
        "error_kind": "timeout" if status == "infra_error" else None, "transcript": transcript_rel,
        "trace_check": {"hit": True, "switched": bool(receipts) and success, "finished": True},
        "outcome": outcome, "labels": {},
    }  # fmt: skip
    transcript = {
        "episode": {"episode_id": episode_id, "task_id": task_id, "arm": arm, "model": model, "study": study},
        "arm": {"name": arm, "monitor": "full" if monitor else "off"}, "model": model, "tools": _tool_schemas(),
        "messages": messages, "turns": [], "results_meta": meta, "reviews": [], "status": status,
        "error": record["error"], "outcome": outcome,
    }  # fmt: skip
    return record, transcript


def write_synthetic_run(
    run_dir: str | Path,
    n_episodes: int = 40,
    models: tuple[str, ...] = ("scripted-trusting", "scripted-careful"),
    studies: tuple[str, ...] = ("synthetic-implicit",),
    seed: int = 0,
    scripted: bool = True,
) -> Path:
    """Write ``n_episodes`` episodes, pairs (baseline, monitor) dealt round-robin over (study, model) cells.

    An odd count ends with a lone baseline episode (a one-armed pair, as an interrupted run leaves).
    Returns the folder.
    """
    out = Path(run_dir)
    (out / "transcripts").mkdir(parents=True, exist_ok=True)
    cells = [(study, model) for study in studies for model in models]
    lines: list[str] = []
    k = 0
    while len(lines) < n_episodes:
        study, model = cells[k % len(cells)]
        i = k // len(cells)  # the pair's index within its cell
        for arm in ("baseline", "monitor")[: n_episodes - len(lines)]:
            record, transcript = _episode(study, model, arm, i // 2, i, seed, scripted)
            (out / record["transcript"]).write_text(json.dumps(transcript), encoding="utf-8")
            lines.append(json.dumps(record) + "\n")
        k += 1
    (out / "episodes.jsonl").write_text("".join(lines), encoding="utf-8")
    return out


__all__ = ["write_synthetic_run"]
