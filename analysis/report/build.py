"""The run's HTML report: tables, figures and every episode's transcript in one self-contained file.

Reads a run (or sweep) folder's ``episodes.jsonl`` and ``transcripts/*.json`` only. Tables and figures
come from :mod:`analysis.tables` and :mod:`analysis.figures` (PNG embedded as data URIs); episode rows
go into one compact JSON index; each episode's detail (annotated transcript, receipts, faults, the
world's verdict) is gzipped in chunks of :data:`CHUNK` episodes and decoded by the page only when a
row is opened. The HTML comes from the Jinja template ``templates/report.html.j2``. This module knows
nothing about the harness, litellm or how episodes were run.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from analysis import tables as T
from analysis.load import LoadReport, episodes_path, load_records, load_world, notice_counts, notice_lines
from analysis.trials import flip_marks
from analysis.view import resolve

CHUNK = 40  # episodes per gzip blob: big enough to compress well, small enough to decode instantly
NOT_EXECUTED = ("malformed", "rejected_by_reviewer")
# Record keys shown in an episode's detail panel (the row already shows study, arm, model, fault, status).
DETAIL_KEYS: tuple[str, ...] = (
    "episode_id", "task_id", "group_id", "pair_id", "strata", "fold", "seed", "replicate", "env", "fault_class",
    "fault_kind", "fault_kinds_hit", "status", "success", "outcome_correct", "hit", "final_answer", "finish_status",
    "stop_reason", "n_tool_calls", "n_receipts", "prompt_tokens", "completion_tokens", "cost_usd", "user_cost_usd",
    "reviewer_cost_usd", "latency_s", "error", "error_kind", "transcript",
)  # fmt: skip
TEMPLATES = Path(__file__).resolve().parent / "templates"


class ReportInputError(ValueError):
    """The run folder cannot be reported on (no records, a corrupt line): one line says why."""


@dataclass
class EpisodeIndex:
    """Episode rows as arrays (categorical columns as indices into ``values``) plus the detail chunks."""

    columns: list[str]
    values: dict[str, list[str]]
    rows: list[list[Any]]
    chunks: list[str]  # base64 of gzipped JSON lists, CHUNK episodes each
    missing_transcripts: int = 0
    tool_sets: list[list[dict]] = field(default_factory=list)


def _clean(v: Any) -> Any:
    """JSON-safe copy: NaN and infinities become None, numpy scalars plain numbers."""
    if isinstance(v, float):
        return None if math.isnan(v) or math.isinf(v) else v
    if isinstance(v, Mapping):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_clean(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, str | bytes):  # numpy scalar
        return _clean(v.item())
    return v


def transcript_finder(run_dir: Path):
    """Resolve a record's relative transcript path: the run folder first, then a sweep's job folders."""
    by_name: dict[str, Path] | None = None

    def find(rel: object) -> Path | None:
        nonlocal by_name
        if not isinstance(rel, str) or not rel:
            return None
        p = run_dir / rel
        if p.is_file():
            return p
        if by_name is None:
            by_name = {q.name: q for q in run_dir.glob("*/transcripts/*.json")}
        return by_name.get(Path(rel).name)

    return find


def annotate_messages(messages: list[dict], calls: list[dict], meta: list[dict]) -> list[dict]:
    """Messages in a compact form, each tool result marked with its call: status, fault and receipt.

    The loop answers an assistant turn's first tool call (later calls in the same turn are ignored);
    ``calls`` (the record's ``tool_calls``) has one entry per answered call, ``meta`` (the transcript's
    ``results_meta``) one per executed call, both in order.
    """
    call_by_id: dict[str, dict] = {}
    calls_it, meta_it = iter(calls or []), iter(meta or [])
    out = []
    for m in messages:
        role = str(m.get("role", ""))
        item: dict[str, Any] = {"role": role, "content": _text(m.get("content"))}
        tcs = m.get("tool_calls") or []
        if tcs:
            item["tool_calls"] = [{"name": (tc.get("function") or {}).get("name"),
                                   "arguments": (tc.get("function") or {}).get("arguments")} for tc in tcs]  # fmt: skip
            c = next(calls_it, None)
            executed = c is None or c.get("status") not in NOT_EXECUTED
            mt = next(meta_it, None) if executed else None
            call_by_id[str(tcs[0].get("id"))] = {"call": c or {}, "meta": mt or {}}
        if role == "tool":
            item["name"] = m.get("name")
            hit = call_by_id.pop(str(m.get("tool_call_id")), None)
            if hit is not None:
                c, mt = hit["call"], hit["meta"]
                receipt = mt.get("receipt") if isinstance(mt.get("receipt"), dict) else None
                item["call"] = _clean({
                    "index": mt.get("call_index"), "status": c.get("status"),
                    "fault": mt.get("fault_kind") if (mt.get("perturbed") or c.get("perturbed")) else None,
                    "perturbed": bool(mt.get("perturbed") or c.get("perturbed")),
                    "receipt": receipt or (True if c.get("receipt") else None),
                })  # fmt: skip
            else:
                item["call"] = {"ignored": True}
        out.append(item)
    return out


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", p)) if isinstance(p, dict) else str(p) for p in content)
    return json.dumps(content)


def episode_detail(rec: Mapping[str, Any], transcript: Mapping[str, Any] | None, tool_set: int | None,
                   note: str | None) -> dict:  # fmt: skip
    """What the page shows when a row is opened."""
    detail: dict[str, Any] = {
        "record": _clean({k: rec.get(k) for k in DETAIL_KEYS if k in rec}),
        "receipts": _clean(rec.get("receipts") or []),
        "verdict": _clean(
            {
                "success": rec.get("success"),
                "status": rec.get("status"),
                "outcome": rec.get("outcome"),
                "trace_check": rec.get("trace_check"),
            }
        ),  # fmt: skip
        "note": note,
    }
    if transcript is not None:
        detail["messages"] = annotate_messages(
            list(transcript.get("messages") or []), list(rec.get("tool_calls") or []),
            list(transcript.get("results_meta") or []),
        )  # fmt: skip
        detail["reviews"] = _clean(transcript.get("reviews") or [])
        detail["tools"] = tool_set
        if transcript.get("outcome") is not None and detail["verdict"].get("outcome") is None:
            detail["verdict"]["outcome"] = _clean(transcript.get("outcome"))
    return detail


# record fields of a row (trial: "" in a run without repeated trials)
ROW_COLUMNS = ("study", "arm", "model", "fault_class", "status", "success", "n_receipts", "n_tool_calls",
               "task_id", "episode_id", "fault_kind", "trial")  # fmt: skip
# computed for a row: whether the episode's task (in its arm) changes outcome across trials
# (analysis.trials.flip_marks: "flips 2/4", "stable 0/4"; "" without repeated trials)
DERIVED_COLUMNS = ("flip",)
CATEGORICAL = ("study", "arm", "model", "fault_class", "status", "fault_kind")


def _gz64(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def episode_index(records: list[dict], run_dir: Path, marks: Mapping[str, str] | None = None) -> EpisodeIndex:
    """The rows and detail chunks; ``marks`` (episode id -> flip mark) fills the ``flip`` column."""
    marks = marks or {}
    values: dict[str, list[str]] = {c: sorted({_label(r.get(c)) for r in records}) for c in CATEGORICAL}
    pos = {c: {v: i for i, v in enumerate(vs)} for c, vs in values.items()}
    find = transcript_finder(run_dir)
    tool_sets: list[list[dict]] = []
    tool_key: dict[str, int] = {}
    rows, details, missing = [], [], 0
    for r in records:
        row = []
        for c in (*ROW_COLUMNS, *DERIVED_COLUMNS):
            v = r.get(c)
            if c in CATEGORICAL:
                row.append(pos[c][_label(v)])
            elif c == "success":
                row.append(1 if v else 0)
            elif c in ("n_receipts", "n_tool_calls"):
                row.append(int(v or 0) if not (isinstance(v, float) and math.isnan(v)) else 0)
            elif c == "flip":
                row.append(marks.get(str(r.get("episode_id")), ""))
            elif c == "trial":
                row.append(str(int(v)) if marks and v is not None else "")
            else:
                row.append("" if v is None else str(v))
        rows.append(row)
        path, transcript, note = find(r.get("transcript")), None, None
        if path is None:
            note = f"no transcript file for this episode ({r.get('transcript') or 'the record names none'})"
        else:
            try:
                transcript = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                note = f"transcript {path.name} unreadable: {exc}"
        ts = None
        if isinstance(transcript, dict):
            tools = transcript.get("tools") or []
            key = json.dumps(tools, sort_keys=True)
            if key not in tool_key:  # a world's tool schemas repeat across episodes: store each set once
                tool_key[key] = len(tool_sets)
                tool_sets.append(tools)
            ts = tool_key[key]
        else:
            transcript = None
            missing += 1
        details.append(episode_detail(r, transcript, ts, note))
    chunks = [_gz64(details[i : i + CHUNK]) for i in range(0, len(details), CHUNK)]
    return EpisodeIndex([*ROW_COLUMNS, *DERIVED_COLUMNS], values, rows, chunks, missing, tool_sets)


def _label(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "none"
    return str(v)


def table_view(t: T.Table) -> dict:
    """A table as header and formatted cells (the same formatting as the Markdown files)."""

    def cells(df: pd.DataFrame) -> dict:
        cols = [str(c) for c in df.columns]
        body = [
            [T.format_cell(v, c) for v, c in zip(row, cols, strict=True)]
            for row in df.itertuples(index=False)
        ]
        return {"columns": cols, "rows": body}

    view = {"name": t.name, "title": t.title, "notes": list(t.notes), "paper": None, **cells(t.frame)}
    if t.paper is not None and len(t.paper):
        view["paper"] = cells(t.paper) | {"title": t.paper_title or "as published"}
    return view


def figure_views(ts: list[T.Table]) -> list[dict]:
    from analysis.figures import all_figures  # matplotlib only when drawing

    with tempfile.TemporaryDirectory(prefix="report-figures-") as tmp:
        paths = [p for p in all_figures(ts, tmp) if p.suffix == ".png"]
        return [{"name": p.stem, "src": "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode("ascii")}
                for p in paths]  # fmt: skip


def load_run(run_dir: str | Path, rep: LoadReport | None = None) -> tuple[pd.DataFrame, LoadReport]:
    """Records of a run, or :class:`ReportInputError` with one line saying what is wrong."""
    rep = rep if rep is not None else LoadReport()
    path = episodes_path(run_dir)
    if not path.is_file():
        raise ReportInputError(f"{path}: no episode records here; point --run at a run or sweep folder that holds "
                               "episodes.jsonl")  # fmt: skip
    try:
        records = load_records(run_dir, rep)
    except (OSError, ValueError) as exc:
        raise ReportInputError(str(exc)) from None
    if records.empty:
        raise ReportInputError(f"{path}: the file holds no episode records yet; run the study first")
    return records, rep


def render(context: dict) -> str:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True,
    )  # fmt: skip
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "separators": (",", ":")}  # compact data blobs
    return env.get_template("report.html.j2").render(**context)


def build_report(
    run_dir: str | Path,
    out: str | Path | None = None,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    report: LoadReport | None = None,
) -> Path:
    """Write the report (default ``<run>/report.html``) and return its path; ``report`` gets what loading
    skipped or found changed."""
    run = Path(run_dir)
    run = run.parent if run.suffix == ".jsonl" else run
    records, rep = load_run(run, report)
    try:
        view = resolve(load_world(run), records)
    except (OSError, ValueError) as exc:  # an unreadable world.json
        raise ReportInputError(str(exc)) from None
    ts = T.all_tables(records, replication, study, seed=seed, n_resamples=n_resamples, n_flips=n_flips,
                      world=view)  # fmt: skip
    raw = [_clean(r) for r in records.to_dict("records")]
    index = episode_index(raw, run, flip_marks(records))
    scripted = bool(records["scripted"].any())
    notes = list(view.header)  # the world: endpoint, unit, caveats (every table repeats them)
    if rep.torn_lines:
        notes.append(f"skipped a torn final line of episodes.jsonl ({rep.torn_lines})")
    if rep.missing_keys:
        notes.append(f"records lack optional key(s) {rep.missing_keys}")
    if rep.chain_breaks:
        more = (
            f" ({len(rep.chain_breaks) - 1} more break(s): python -m harness.verify --run DIR)"
            if len(rep.chain_breaks) > 1
            else ""
        )
        notes.append(
            f"episodes.jsonl was changed after it was written: {rep.chain_breaks[0]}{more}; shown as it is"
        )
    notes += notice_lines(notice_counts(records))
    if index.missing_transcripts:
        notes.append(
            f"{index.missing_transcripts} episode(s) have no readable transcript (their rows still show)"
        )
    html = render({
        "run_name": run.resolve().name, "run_path": str(run), "scripted": scripted,
        "scripted_label": T.SCRIPTED_LABEL, "paper_label": T.PAPER_LABEL, "run_label": T.RUN_LABEL,
        "n_episodes": len(raw), "counts": _counts(records), "notes": notes, "has_paper": view.paper is not None,
        "tables": [table_view(t) for t in ts], "figures": figure_views(ts),
        "index": {"columns": index.columns, "values": index.values, "rows": index.rows, "chunk": CHUNK},
        "chunks": index.chunks, "tool_sets": index.tool_sets, "has_trials": any(r[index.columns.index("flip")] for r in index.rows),
    })  # fmt: skip
    dest = Path(out) if out else run / "report.html"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(html, encoding="utf-8")
    return dest


COUNTED = {"study": ("study", "studies"), "arm": ("arm", "arms"), "model": ("model", "models"),
           "group_id": ("task group", "task groups")}  # fmt: skip


def _counts(records: pd.DataFrame) -> list[tuple[int, str]]:
    """``(n, noun)`` for the header line, e.g. ``(2, "studies")``."""
    out = []
    for col, (one, many) in COUNTED.items():
        if col in records.columns:
            n = int(records[col].astype(str).nunique())
            out.append((n, one if n == 1 else many))
    return out


__all__ = ["build_report", "ReportInputError", "annotate_messages", "episode_index", "CHUNK"]
