"""The schema of an episode record (version 3), of the entries inside it, and of a transcript.

Pydantic models, strict (``true`` is no number, ``"3"`` no integer), refusing unknown keys and
non-finite numbers. :class:`EpisodeRecord` is what the runner builds for one episode;
:class:`RecordLine` is one line of ``episodes.jsonl``: the record plus the writer's ``seq`` and
``chain`` (``harness.records.chain``). Entries inside a record or a transcript (a receipt, a tool call,
a model turn) are TypedDicts: pydantic validates them, and they stay the plain dicts every reader
already handles (and load faster than nested models). :func:`upgrade` reads version-1 and version-2
records into the version-3 shape in memory (files are never rewritten).

Knows nothing of files, of how episodes are run, of litellm or pandas.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, NotRequired, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict  # pydantic needs this one, not typing's, before Python 3.12

RECORD_VERSION: Final = 3  # Final: the checker reads it as Literal[3], a valid record_version
Status = Literal["completed", "agent_failed", "infra_error", "env_error", "budget_exhausted"]
STATUSES: tuple[str, ...] = get_args(Status)
INFRA_STATUSES = ("infra_error", "env_error")  # infrastructure: never scored
NextAction = Literal["switched_listed", "other_tool", "retried_same", "stopped"]
NEXT_ACTIONS: tuple[str, ...] = get_args(NextAction)
StopReason = Literal["final", "terminal", "round_cap", "budget", "infra_error", "env_error"]
CallStatus = Literal["ok", "error", "malformed", "rejected_by_reviewer"]
# What a record's ``notices`` codes (kind:subject) say: where something plugged into a run did nothing
NOTICE_KINDS = {
    "player_generic": "a stock scripted player read this world's tool schemas alone (no player or conventions of its own)",
    "arm_noop": "an arm that changes nothing here",
    "monitor_no_rules": "a monitor with no rule: its arm is the baseline under another name",
    "tool_without_rules": "tools the world's clean traces call that carry no rule: their results go unchecked",
    "fault_no_target": "a fault that found no target in the episode: the pair measures no fault",
}
# Record fields measured on the wall clock: the only ones a cache replay may change.
WALL_CLOCK_FIELDS = frozenset({"latency_s"})

# strict: JSON's types as written (a bool is no number); unknown keys refused; NaN and inf refused
STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


def _d(description: str) -> Any:
    return Field(description=description)


@with_config(STRICT)
class Receipt(TypedDict):
    """A receipt event: the monitor fired on one executed call; what the agent did next."""

    call_index: Annotated[int, _d("the call's 0-based index among the episode's executed calls")]
    tool: Annotated[str, _d("the tool whose result violated a contract")]
    violated: Annotated[list[str], _d("violated rule ids, the first one shown in the receipt")]
    rule_class: Annotated[str | None, _d("class of the first violated rule")]
    recovery_tools: Annotated[list[str], _d("the tools the receipt listed")]
    n_admissible: Annotated[int | None, _d("admissible recovery actions the receipt offered")]
    next_action: Annotated[NextAction | None, _d("the agent's next move; null if the episode ended first")]


@with_config(STRICT)
class ToolCall(TypedDict):
    """One tool call the agent made, executed or not."""

    tool: Annotated[str, _d("tool name")]
    arguments: Annotated[Any, _d("the parsed arguments; for a malformed call, what the model sent")]
    status: Annotated[CallStatus, _d("ok, error: executed; malformed, rejected_by_reviewer: not executed")]
    perturbed: Annotated[bool, _d("the agent saw a perturbed or injected result")]
    receipt: Annotated[bool, _d("the monitor fired on this call")]


@with_config(STRICT)
class Attempt(TypedDict):
    """One try of a model call; a failed try says why and how long the retry waited."""

    attempt: int
    ok: bool
    latency_s: float
    kind: NotRequired[str]
    error: NotRequired[str]
    status_code: NotRequired[int | None]
    retry_after_s: NotRequired[float | None]
    wait_s: NotRequired[float]


@with_config(STRICT)
class Turn(TypedDict):
    """A transcript turn: one model call that answered."""

    round: int
    usage: dict[str, int]
    cost_usd: float | None
    latency_s: float | None
    attempts: list[Attempt]
    cached: bool  # the reply came from the run's reply cache
    request_key: str
    request_params: dict[str, Any]
    cost_source: str | None  # table, litellm or none


@with_config(STRICT)
class FailedTurn(TypedDict):
    """A transcript turn: the model call that ended the episode with an infrastructure error."""

    round: int
    error: str
    attempts: list[Attempt]


class EpisodeRecord(BaseModel):
    """One episode's record: who ran what, how it ended, what it cost. The runner builds it."""

    model_config = ConfigDict(**STRICT, frozen=True)  # built once, by the runner: never changed after
    record_version: Literal[1, 2, 3] = _d(
        "3 when written now; 1 or 2 for an older line read through the upgrade"
    )
    study: str = _d("study name")
    arm: str = _d("arm name (baseline, monitor, ...)")
    model: str = _d("agent model name (a conf/model config or a litellm string)")
    task_id: str = _d("the world's task id")
    group_id: str = _d("cluster of the task (cross-fitting folds, paired clusters)")
    strata: dict[str, str] = _d("the task's public labels a study may stratify on")
    fold: int | None = _d("cross-fitting fold of the group")
    fault_class: str | None = _d("injected or planted fault class")
    fault_kind: str | None = _d("the fault's kind label")
    fault_kinds_hit: list[str] = _d("fault kinds the episode actually received")
    seed: int = _d("episode seed")
    pair_id: str = _d("shared by the arms of one pair")
    success: bool = _d("the world's process judge; false for infrastructure statuses")
    outcome_correct: bool | None = _d("the world's outcome grader; null when not scored")
    status: Status = _d("how the episode ended")
    env: str | None = _d("world name; null only in upgraded older records that lack it")
    replicate: int = _d("replicate index")
    # a default: lines written before trials existed, and every trial-0 line (written without it), read as 0
    trial: int = Field(0, description="trial index (trials: k plays each pair k times); 0 when absent")
    episode_id: str = _d("deterministic id, also the transcript's file stem")
    scripted: bool = _d("the agent model is a scripted policy")
    tool_calls: list[ToolCall] = _d("every tool call, in order")
    n_tool_calls: int = _d("executed calls (status ok or error)")
    ignored_parallel_calls: int = _d("extra parallel calls answered with a notice, not executed")
    receipts: list[Receipt] = _d("receipt events, in call order")
    n_receipts: int = _d("receipt events")
    hit: bool = _d("the agent saw a perturbed or injected result")
    final_answer: str | None = _d("the agent's final answer")
    finish_status: str | None = _d("the status argument of the terminal call")
    stop_reason: StopReason | None = _d("why the loop stopped; null only in upgraded older records")
    rounds: int = _d("model calls made by the agent loop")
    user_turns: int = _d("simulated-user replies after the opening message")
    prompt_tokens: int = _d("agent prompt tokens")
    completion_tokens: int = _d("agent completion tokens")
    cost_usd: float = _d("agent cost in USD")
    reviewer_calls: int = _d("reviewer model calls")
    reviewer_prompt_tokens: int = _d("reviewer prompt tokens")
    reviewer_completion_tokens: int = _d("reviewer completion tokens")
    reviewer_cost_usd: float = _d("reviewer cost in USD")
    user_calls: int = _d("simulated-user model calls")
    user_prompt_tokens: int = _d("simulated-user prompt tokens")
    user_completion_tokens: int = _d("simulated-user completion tokens")
    user_cost_usd: float = _d("simulated-user cost in USD")
    latency_s: float = _d("wall-clock seconds of the episode (the one field a replay may change)")
    error: str | None = _d("what went wrong, for infrastructure statuses")
    error_kind: str | None = _d("class of that error (rate_limit, timeout, the exception's type...)")
    transcript: str | None = _d("transcript path relative to the run folder")
    trace_check: dict[str, Any] | None = _d("the world's trace check (free-form, world-specific)")
    outcome: dict[str, Any] | None = _d("the world's grader details (free-form, world-specific)")
    labels: dict[str, Any] = _d("harness-side notes from the tool-result stream (free-form)")
    notices: list[str] = _d(
        "what was plugged in and did nothing for this episode, as kind:subject codes (NOTICE_KINDS)"
    )

    @model_validator(mode="after")
    def _consistent(self) -> EpisodeRecord:
        if self.status in INFRA_STATUSES and self.success:
            raise ValueError(f"an {self.status} episode cannot be a success")
        return self


class RecordLine(EpisodeRecord):
    """One line of ``episodes.jsonl`` in version 3: the record, then what the writer adds."""

    seq: int = _d("the line's record number in its file, from 1 (RecordWriter)")
    chain: str = _d("sha256 hex of the previous line's chain and this line without its chain (RecordWriter)")


LINE_FIELDS = ("seq", "chain")  # a line's, not the episode's: records read back come without them
RECORD_FIELDS: tuple[str, ...] = tuple(EpisodeRecord.model_fields)


class Transcript(BaseModel):
    """``transcripts/<episode_id>.json``: the whole conversation and the harness's notes on it."""

    model_config = STRICT
    episode: dict[str, Any] = _d("the episode spec (ids, arm, model, seed, strata...)")
    arm: dict[str, Any] = _d("the arm's resolved config")
    model: str = _d("agent model name")
    litellm_model: str = _d("the litellm model string called")
    tools: list[dict[str, Any]] = _d("the tool schemas the agent saw")
    messages: list[dict[str, Any]] = _d("the chat, as sent to the model")
    turns: list[Turn | FailedTurn] = _d("one per model call: usage, cost, attempts")
    results_meta: list[dict[str, Any]] = _d("per executed call: the harness-side meta (faults, receipts)")
    reviews: list[dict[str, Any]] = _d("the reviewer's verdicts")
    status: Status = _d("how the episode ended")
    error: str | None = _d("what went wrong")
    outcome: dict[str, Any] | None = _d("the world's grader details")


# ---------------------------------------------------------------------------------------------
# versions 1 and 2: read, upgraded in memory

# every key version 2 ever wrote (harness/runner.py's episode_record, 2026)
V2_KEYS = frozenset({
    "record_version", "study", "arm", "model", "task_id", "group_id", "workflow_id", "strata", "fold",
    "fault_class", "fault_kind", "fault_kinds_hit", "seed", "pair_id", "success", "outcome_correct", "status",
    "env", "replicate", "episode_id", "scripted", "tool_calls", "n_tool_calls", "ignored_parallel_calls",
    "receipts", "n_receipts", "hit", "final_answer", "finish_status", "stop_reason", "rounds", "user_turns",
    "prompt_tokens", "completion_tokens", "cost_usd", "reviewer_calls", "reviewer_prompt_tokens",
    "reviewer_completion_tokens", "reviewer_cost_usd", "user_calls", "user_prompt_tokens",
    "user_completion_tokens", "user_cost_usd", "latency_s", "error", "error_kind", "transcript", "trace_check",
    "outcome", "labels",
})  # fmt: skip
# version 1 (before worlds had strata): complexity and mode, workflow_id only, no outcome grader, no user
V1_KEYS = (
    V2_KEYS
    - {"group_id", "strata", "outcome_correct", "outcome", "user_turns", "user_calls", "user_prompt_tokens",
       "user_completion_tokens", "user_cost_usd"}
) | {"complexity", "mode"}  # fmt: skip
LEGACY_KEYS: dict[int, frozenset[str]] = {1: V1_KEYS, 2: V2_KEYS}
# what versions 1 and 2 always wrote: a line without one of these is refused, not filled in
LEGACY_REQUIRED = frozenset({
    "record_version", "study", "arm", "model", "task_id", "fold", "fault_class", "fault_kind", "seed",
    "pair_id", "success", "status", "episode_id", "replicate",
})  # fmt: skip
# what older records may lack, and the value that says "not recorded" (or: nothing happened)
LEGACY_DEFAULTS: dict[str, Any] = {
    "strata": {}, "fault_kinds_hit": [], "outcome_correct": None, "env": None, "scripted": False,
    "tool_calls": [], "n_tool_calls": 0, "ignored_parallel_calls": 0, "receipts": [], "n_receipts": 0,
    "hit": False, "final_answer": None, "finish_status": None, "stop_reason": None, "rounds": 0,
    "user_turns": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0, "reviewer_calls": 0,
    "reviewer_prompt_tokens": 0, "reviewer_completion_tokens": 0, "reviewer_cost_usd": 0.0, "user_calls": 0,
    "user_prompt_tokens": 0, "user_completion_tokens": 0, "user_cost_usd": 0.0, "latency_s": 0.0,
    "error": None, "error_kind": None, "transcript": None, "trace_check": None, "outcome": None, "labels": {},
    "notices": [],
}  # fmt: skip


class LegacyKeyError(ValueError):
    """A version-1 or version-2 record with a key its version never wrote, or without one it always wrote."""


def upgrade(obj: Mapping[str, Any], filled: set[str] | None = None) -> dict[str, Any]:
    """A version-1 or version-2 record as a version-3-shaped dict (its ``record_version`` kept).

    Keys its version never wrote are refused; keys it wrote only sometimes are filled with the value
    that means "not recorded" and added to ``filled``. Version 1's ``complexity``/``mode`` become
    ``strata`` and its ``workflow_id`` becomes ``group_id``; version 2's ``workflow_id`` (a copy of
    ``group_id`` kept for version-1 readers) is dropped. A receipt's ``violated`` given as one string
    (hand-made records) becomes a list of one.
    """
    version = obj.get("record_version")
    if version not in LEGACY_KEYS:
        raise LegacyKeyError(f"record_version {version!r} is not 1, 2 or {RECORD_VERSION}")
    unknown = sorted(set(obj) - LEGACY_KEYS[version])
    if unknown:
        raise LegacyKeyError(f"key(s) {unknown} never written in record version {version}")
    missing = sorted(LEGACY_REQUIRED - set(obj))
    if "group_id" not in obj and "workflow_id" not in obj:
        missing.append("group_id")
    if missing:
        raise LegacyKeyError(f"record version {version} lacks required key(s) {missing}")
    out = dict(obj)
    group = out.pop("workflow_id", None)
    out.setdefault("group_id", group)
    if version == 1:
        levels = {k: out.pop(k) for k in ("complexity", "mode") if k in out}
        out["strata"] = {k: str(v) for k, v in levels.items() if v is not None}
    for key, value in LEGACY_DEFAULTS.items():
        if key not in out:
            out[key] = value.copy() if isinstance(value, dict | list) else value
            if filled is not None:
                filled.add(key)
    receipts = out["receipts"]
    if isinstance(receipts, list):
        out["receipts"] = [
            {**r, "violated": [r["violated"]]}
            if isinstance(r, dict) and isinstance(r.get("violated"), str)
            else r
            for r in receipts
        ]
    return out


# ---------------------------------------------------------------------------------------------
# the field tables of the README


def type_name(annotation: Any) -> str:
    """A field's type in JSON's words: ``integer or null``, ``array of Receipt``, ``"ok", "error"``."""
    simple = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
    if annotation in simple:
        return simple[annotation]
    if annotation is Any:
        return "any"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated or origin is NotRequired:
        return type_name(args[0])
    if origin is Literal:
        return ", ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(a) for a in args)
    if origin is list:
        return f"array of {type_name(args[0])}"
    if origin is dict:
        return "object" if args[1] is Any else f"object of {type_name(args[1])}"
    return getattr(annotation, "__name__", str(annotation))


def field_rows(cls: type) -> list[tuple[str, str, str]]:
    """(name, type, description) of every field of a model or TypedDict, in order."""
    if issubclass(cls, BaseModel):
        return [(n, type_name(f.annotation), f.description or "") for n, f in cls.model_fields.items()]
    rows = []
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        inner = get_args(hint)[0] if get_origin(hint) is NotRequired else hint
        meta = getattr(inner, "__metadata__", ())
        rows.append(
            (name, type_name(hint), next((m.description for m in meta if hasattr(m, "description")), ""))
        )
    return rows


TABLES: tuple[tuple[str, type], ...] = (
    ("A line of episodes.jsonl (RecordLine: EpisodeRecord, then seq and chain)", RecordLine),
    ("Receipt (an entry of receipts)", Receipt),
    ("ToolCall (an entry of tool_calls)", ToolCall),
)


def fields_markdown() -> str:
    """The README's record tables, as ``python -m harness.records fields`` prints them."""
    out: list[str] = []
    for title, cls in TABLES:
        out += [f"**{title}**", "", "| field | type | what |", "| --- | --- | --- |"]
        out += [f"| `{name}` | {kind} | {what} |" for name, kind, what in field_rows(cls)]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
