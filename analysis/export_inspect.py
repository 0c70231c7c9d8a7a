"""A run as ``inspect_ai`` eval logs, so ``inspect view`` can browse it: one log per (study, model, arm).

Each episode becomes one sample: its chat messages (tool results carry their fault and receipt in the
message metadata), the world's verdict as the ``success`` score, and the record's identity, fault and
receipts as sample metadata. inspect_ai is the optional extra ``inspect`` and is imported only when an
export runs. Reads records and transcripts files only; knows nothing about the harness or litellm.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from analysis.report.build import _clean, annotate_messages, load_run, transcript_finder

SAMPLE_METADATA: tuple[str, ...] = (
    "study", "arm", "model", "task_id", "group_id", "pair_id", "strata", "seed", "replicate", "trial", "env", "scripted",
    "fault_class", "fault_kind", "fault_kinds_hit", "status", "success", "outcome_correct", "receipts", "n_receipts",
    "n_tool_calls", "final_answer", "cost_usd", "prompt_tokens", "completion_tokens", "latency_s", "error",
    "trace_check", "outcome",
)  # fmt: skip
SCORER = "world_outcome"  # the world's grader decided success; the export only carries its verdict


class InspectMissingError(RuntimeError):
    """inspect_ai is not installed."""


def _inspect():
    try:
        import inspect_ai.log as log
        import inspect_ai.model as model
        import inspect_ai.scorer as scorer
        import inspect_ai.tool as tool
    except ImportError:
        raise InspectMissingError(
            "the inspect export needs inspect-ai: install the extra with pip install -c constraints.txt -e '.[inspect]'"
        ) from None
    return log, model, scorer, tool


def _slug(*parts: object) -> str:
    return "__".join(re.sub(r"[^A-Za-z0-9._-]+", "-", str(p)).strip("-") or "none" for p in parts)


def _arguments(raw: object) -> tuple[dict, str | None]:
    if isinstance(raw, dict):
        return raw, None
    try:
        args = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError as exc:
        return {}, f"unparsable arguments: {exc}"
    return (args, None) if isinstance(args, dict) else ({"value": args}, None)


def chat_messages(episode_id: str, model_name: str, messages: list[dict], record: dict) -> list:
    """Transcript messages as inspect ChatMessages (ids derived from the episode, so exports repeat)."""
    _, M, _, tool = _inspect()
    raw_ids = [[tc.get("id") for tc in (m.get("tool_calls") or [])] for m in messages]
    annotated = annotate_messages(messages, list(record.get("tool_calls") or []),
                                  list(record.get("_results_meta") or []))  # fmt: skip
    out = []
    for k, (m, ids, raw) in enumerate(zip(annotated, raw_ids, messages, strict=True)):
        mid = f"{episode_id}:{k}"
        role = m["role"]
        if role == "system":
            out.append(M.ChatMessageSystem(id=mid, content=m["content"]))
        elif role == "user":
            out.append(M.ChatMessageUser(id=mid, content=m["content"]))
        elif role == "assistant":
            calls = []
            for j, tc in enumerate(m.get("tool_calls") or []):
                args, err = _arguments(tc.get("arguments"))
                calls.append(tool.ToolCall(id=str(ids[j] or f"{mid}:{j}"), function=str(tc.get("name") or ""),
                                           arguments=args, parse_error=err))  # fmt: skip
            out.append(
                M.ChatMessageAssistant(
                    id=mid, content=m["content"], tool_calls=calls or None, model=model_name
                )
            )
        elif role == "tool":
            out.append(M.ChatMessageTool(id=mid, content=m["content"], tool_call_id=str(raw.get("tool_call_id") or ""),
                                         function=m.get("name"), metadata=m.get("call")))  # fmt: skip
    return out


def _sample(rec: dict, transcript: dict | None) -> Any:
    log, M, scorer, _ = _inspect()
    eid = str(rec.get("episode_id") or rec.get("pair_id"))
    messages = list((transcript or {}).get("messages") or [])
    record = dict(rec) | {"_results_meta": (transcript or {}).get("results_meta") or []}
    chat = chat_messages(eid, str(rec.get("model")), messages, record)
    first_user = next((m.content for m in chat if m.role == "user"), None)
    outcome = rec.get("outcome") or (transcript or {}).get("outcome") or {}
    target = outcome.get("expected") if isinstance(outcome, dict) else None
    answer = rec.get("final_answer") or ""
    score = scorer.Score(
        value=1.0 if rec.get("success") else 0.0, answer=str(answer),
        explanation=f"status {rec.get('status')}" + (f"; error: {rec['error']}" if rec.get("error") else ""),
        metadata=_clean({"status": rec.get("status"), "outcome": outcome, "trace_check": rec.get("trace_check")}),
    )  # fmt: skip
    error = None
    if rec.get("status") in ("infra_error", "env_error"):
        error = log.EvalError(
            message=f"{rec.get('status')}: {rec.get('error')}", traceback="", traceback_ansi=""
        )
    return log.EvalSample(
        id=eid, epoch=int(rec.get("trial") or 0) + 1, input=first_user or str(rec.get("task_id") or eid),
        target="" if target is None else str(target), messages=chat,
        output=M.ModelOutput.from_content(str(rec.get("model")), str(answer)),
        scores={"success": score}, metadata=_clean({k: rec.get(k) for k in SAMPLE_METADATA if k in rec}),
        error=error,
    )  # fmt: skip


def export_run(run_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write one ``.eval`` log per (study, model, arm) under ``out_dir``; returns their paths."""
    run = Path(run_dir)
    run = run.parent if run.suffix == ".jsonl" else run
    records, _ = load_run(run)  # bad records are reported before a missing extra
    log, _, _, _ = _inspect()
    find = transcript_finder(run)
    created = dt.datetime.fromtimestamp((run / "episodes.jsonl").stat().st_mtime, dt.UTC).isoformat()
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for rec in (_clean(r) for r in records.to_dict("records")):
        groups[(str(rec.get("study")), str(rec.get("model")), str(rec.get("arm")))].append(rec)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for (study, model, arm), recs in sorted(groups.items()):
        samples = []
        for rec in recs:
            path = find(rec.get("transcript"))
            transcript = json.loads(path.read_text(encoding="utf-8")) if path is not None else None
            samples.append(_sample(rec, transcript if isinstance(transcript, dict) else None))
        n_ok = sum(1 for r in recs if r.get("success"))
        scripted = any(bool(r.get("scripted")) for r in recs)
        spec = log.EvalSpec(
            created=created, task=f"{study}/{arm}", task_id=_slug(study, arm), run_id=_slug(run.name),
            eval_id=_slug(run.name, study, model, arm), dataset=log.EvalDataset(
                name=study, samples=len(samples), sample_ids=[s.id for s in samples]),
            model=model, config=log.EvalConfig(),
            metadata={"arm": arm, "study": study, "source": str(run), "scripted": scripted,
                      "note": "scripted policies (not the paper's models)" if scripted else ""},
        )  # fmt: skip
        results = log.EvalResults(
            total_samples=len(samples), completed_samples=len(samples),
            scores=[log.EvalScore(name="success", scorer=SCORER, scored_samples=len(samples),
                                  metrics={"accuracy": log.EvalMetric(name="accuracy",
                                                                      value=n_ok / len(samples) if samples else 0.0)})],
        )  # fmt: skip
        eval_log = log.EvalLog(status="success", eval=spec, results=results,
                               stats=log.EvalStats(started_at=created, completed_at=created), samples=samples)  # fmt: skip
        dest = out / f"{_slug(study, model, arm)}.eval"
        log.write_eval_log(eval_log, dest)
        paths.append(dest)
    return paths


__all__ = ["export_run", "chat_messages", "InspectMissingError"]
