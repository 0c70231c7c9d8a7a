"""The one agent loop: system prompt + query, one tool call per turn, interposed results, a round cap.

Every environment and every arm runs through :func:`run_loop`. The loop talks to a model only
through a ``Completer`` (an async callable the runner builds around ``harness.llm.models.acomplete``)
and to the world only through an ``Episode`` plus the arm's interposer chain, so it knows nothing
about litellm, caching, monitors or fault libraries. It records what the agent did: tool calls,
ignored parallel calls, receipts and the class of the agent's next action after each receipt.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from core.protocol import Episode, Task, ToolCall, ToolResult
from harness.agents import prompts
from harness.stream import Interposer, StreamContext, apply_chain, is_hit, receipt_text

STOP_REASONS = ("final", "terminal", "round_cap", "infra_error", "env_error", "budget")


class CompletionLike(Protocol):
    message: dict[str, Any]
    usage: dict[str, Any]
    cost_usd: float
    latency_s: float
    attempts: list[dict[str, Any]]


Completer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Awaitable[CompletionLike]]


@dataclass
class Review:
    """A reviewer's verdict on one proposed tool call."""

    approved: bool
    feedback: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class ReviewerLike(Protocol):
    async def review(
        self, task: Task, messages: list[dict[str, Any]], tools: list[dict[str, Any]], call: dict[str, Any]
    ) -> Review: ...


@dataclass
class LoopResult:
    messages: list[dict[str, Any]]
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[dict[str, Any]] = field(default_factory=list)
    ignored_parallel_calls: int = 0
    final_answer: str | None = None
    finish_status: str | None = None
    stop_reason: str = "final"
    rounds: int = 0
    hit: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    model_latency_s: float = 0.0
    reviewer_calls: int = 0
    reviewer_prompt_tokens: int = 0
    reviewer_completion_tokens: int = 0
    reviewer_cost_usd: float = 0.0
    error: str | None = None
    error_kind: str | None = None
    user_turns: int = 0  # user replies after the opening message
    turns: list[dict[str, Any]] = field(
        default_factory=list
    )  # per model call: usage, cost, attempts (transcript)
    results_meta: list[dict[str, Any]] = field(default_factory=list)  # per executed call: harness-side meta
    reviews: list[dict[str, Any]] = field(default_factory=list)
    labels: dict[str, Any] = field(default_factory=dict)


def next_action_class(
    tool: str, recovery_tools: Sequence[str], next_tool: str | None, terminal_tool: str | None
) -> str:
    """Class of the agent's next move after a receipt on ``tool`` listing ``recovery_tools``."""
    if next_tool is None or (terminal_tool is not None and next_tool == terminal_tool):
        return "stopped"
    if next_tool == tool:
        return "retried_same"
    if next_tool in recovery_tools:
        return "switched_listed"
    return "other_tool"


def parse_arguments(raw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """(arguments, None) or (None, why): models send arguments as a JSON string."""
    if isinstance(raw, dict):
        return raw, None
    if raw is None or raw == "":
        return {}, None
    try:
        value = json.loads(raw)
    except (TypeError, ValueError) as exc:
        return None, str(exc)[:200]
    if not isinstance(value, dict):
        return None, f"expected an object, got {type(value).__name__}"
    return value, None


def _violation_summary(violations: Sequence[Mapping[str, Any]]) -> tuple[list[str], str | None]:
    """(violated rule ids, class of the first rule) from the monitor's ``meta["violations"]``."""
    return [str(v["rule_id"]) for v in violations], (violations[0].get("rule_class") if violations else None)


@dataclass(frozen=True)
class LoopSettings:
    """How an arm runs the loop: its prompt, the interposer chain, caps, delivery and reviewer.

    ``infra_errors``: exception types of the model door (and the user model) that stop the episode
    as ``infra_error``; anything else the world raises stops it as ``env_error``.
    """

    system_prompt: str
    interposers: Sequence[Interposer] = ()
    seed: int = 0
    max_rounds: int = 25
    delivery: str = "immediate"
    reviewer: ReviewerLike | None = None
    max_reviewer_calls: int = 5
    budget_ok: Callable[[], bool] = lambda: True
    infra_errors: tuple[type[BaseException], ...] = ()


async def run_loop(episode: Episode, task: Task, complete: Completer, settings: LoopSettings) -> LoopResult:
    """Run one episode to its end (the caller opened it); never raises for agent mistakes.

    Infrastructure failures come back as a stop: ``infra_error`` (the model door's, or the user
    model's, ``infra_errors``) or ``env_error`` (anything else the world raised).
    """
    return await _Loop(episode, task, complete, settings).run()


class _Loop:
    """One episode's loop state: the messages, what the agent did, and the receipt awaiting its next move."""

    def __init__(self, episode: Episode, task: Task, complete: Completer, settings: LoopSettings) -> None:
        self.episode, self.task, self.complete, self.s = episode, task, complete, settings
        self.tools: list[dict[str, Any]] = []
        self.exposed: list[str] = []
        self.read_tools()
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": settings.system_prompt}]
        self.out = LoopResult(messages=self.messages)
        self.calls_per_tool: dict[str, int] = {}
        self.pending: dict[str, Any] | None = None  # the receipt whose next action is not classified yet
        self.deferred_text: str | None = None  # a deferred receipt waiting for the next turn

    def read_tools(self) -> None:
        """The episode's tools, read at the start and again after each user turn: a world may change its
        tool list between turns (and announce it in the user's words); the model sees the new list from
        its next request on."""
        specs = self.episode.tools()
        self.tools = [spec.openai_schema() for spec in specs]
        self.exposed = [spec.name for spec in specs]

    async def run(self) -> LoopResult:
        try:
            self.messages.append({"role": "user", "content": await self.episode.open()})
        except Exception as exc:  # noqa: BLE001  (the world's failure, recorded, never the agent's)
            self.world_failed(exc)
            return self.out
        while await self.turn():
            pass
        if self.pending is not None:  # a receipt on the last executed call: the agent made no further move
            self.classify_pending(None)
        return self.out

    def world_failed(self, exc: BaseException) -> None:
        infra = isinstance(exc, self.s.infra_errors)
        self.out.stop_reason = "infra_error" if infra else "env_error"
        self.out.error = f"{type(exc).__name__}: {exc}"[:500]
        self.out.error_kind = getattr(exc, "kind", None) if infra else type(exc).__name__

    def classify_pending(self, next_tool: str | None) -> None:
        if self.pending is not None:
            self.pending["next_action"] = next_action_class(
                self.pending["tool"], self.pending["recovery_tools"], next_tool, self.task.terminal_tool
            )
            self.pending = None

    async def turn(self) -> bool:
        """One model call and what follows from it; False once the episode has ended."""
        out = self.out
        if out.rounds >= self.s.max_rounds:
            out.stop_reason = "round_cap"
            return False
        if not self.s.budget_ok():
            out.stop_reason = "budget"
            return False
        out.rounds += 1
        message = await self.ask_model()
        if message is None:
            return False
        # every call needs an id its tool message can answer (some providers and policies omit it)
        calls = [
            {**tc, "id": tc.get("id") or f"call_{out.rounds}_{i}"}
            for i, tc in enumerate(message.get("tool_calls") or [])
        ]
        assistant: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        if calls:
            assistant["tool_calls"] = calls
        self.messages.append(assistant)
        if not calls:
            return await self.on_text(message)
        return await self.on_calls(calls)

    async def ask_model(self) -> dict[str, Any] | None:
        """The model's next message (usage and cost tallied), or None when the door failed."""
        out = self.out
        try:
            completion = await self.complete(self.messages, self.tools)
        except self.s.infra_errors as exc:
            out.stop_reason = "infra_error"
            out.error = str(exc)[:500]
            out.error_kind = getattr(exc, "kind", type(exc).__name__)
            out.turns.append(
                {"round": out.rounds, "error": out.error, "attempts": getattr(exc, "attempts", [])}
            )
            return None
        usage = completion.usage or {}
        out.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        out.completion_tokens += int(usage.get("completion_tokens") or 0)
        out.cost_usd += float(completion.cost_usd or 0.0)
        out.model_latency_s += float(completion.latency_s or 0.0)
        out.turns.append(
            {
                "round": out.rounds,
                "usage": usage,
                "cost_usd": completion.cost_usd,
                "latency_s": completion.latency_s,
                "attempts": completion.attempts,
                "cached": getattr(completion, "cached", False),
                "request_key": getattr(completion, "request_key", ""),
                "request_params": getattr(completion, "request_params", {}),
                "cost_source": getattr(completion, "cost_source", None),
            }
        )
        message = completion.message or {}
        if message.get("reasoning_content"):  # kept in the transcript, not sent back to the provider
            out.turns[-1]["reasoning_content"] = message["reasoning_content"]
        return message

    async def on_text(self, message: dict[str, Any]) -> bool:
        """Text goes to the world's user, who answers or ends the episode."""
        out = self.out
        out.final_answer = message.get("content")
        try:
            reply = await self.episode.say(message.get("content") or "")
        except Exception as exc:  # noqa: BLE001
            self.world_failed(exc)
            return False
        if self.deferred_text is not None:  # the receipt arrives after the agent's words
            self.messages.append({"role": "user", "content": prompts.DEFERRED_PREFIX + self.deferred_text})
            self.deferred_text = None
        if reply.done:
            out.stop_reason = "final"
            self.classify_pending(None)
            if reply.text:
                self.messages.append({"role": "user", "content": reply.text})
            return False
        out.user_turns += 1
        self.messages.append({"role": "user", "content": reply.text or ""})
        self.read_tools()
        return True

    async def on_calls(self, calls: list[dict[str, Any]]) -> bool:
        """The first call runs (reviewed, interposed); parallel extras are answered as ignored."""
        first, extra = calls[0], calls[1:]
        self.out.ignored_parallel_calls += len(extra)
        fn = first.get("function") or {}
        name = str(fn.get("name") or "")
        call_id = str(first["id"])
        args, why = parse_arguments(fn.get("arguments"))
        self.classify_pending(name)
        fresh_deferred: str | None = None
        ended = False
        content: str | None
        if args is None:
            self.out.tool_calls.append(
                {
                    "tool": name,
                    "arguments": fn.get("arguments"),
                    "status": "malformed",
                    "perturbed": False,
                    "receipt": False,
                }
            )
            content = prompts.MALFORMED_ARGUMENTS.format(detail=why)
        else:
            content = await self.rejected(name, args)
            if content is None:
                done = await self.execute(ToolCall(name=name, arguments=args, call_id=call_id))
                if done is None:
                    return False
                content, fresh_deferred, ended = done
        if self.deferred_text is not None:  # the previous call's receipt arrives with this turn
            content = prompts.DEFERRED_PREFIX + self.deferred_text + "\n\n" + content
        self.deferred_text = fresh_deferred
        self.messages.append({"role": "tool", "tool_call_id": call_id, "name": name, "content": content})
        for other in extra:
            other_name = str((other.get("function") or {}).get("name") or "")
            self.messages.append(
                {
                    "role": "tool",
                    "tool_call_id": str(other["id"]),
                    "name": other_name,
                    "content": prompts.IGNORED_CALL,
                }
            )
        return not ended

    async def rejected(self, name: str, args: dict[str, Any]) -> str | None:
        """The reviewer's feedback when it rejects the call (the call is not executed), else None."""
        out, reviewer = self.out, self.s.reviewer
        if reviewer is None or out.reviewer_calls >= self.s.max_reviewer_calls:
            return None
        review = await reviewer.review(
            self.task, self.messages[:-1], self.tools, {"name": name, "arguments": args}
        )
        out.reviewer_calls += 1
        out.reviewer_prompt_tokens += review.prompt_tokens
        out.reviewer_completion_tokens += review.completion_tokens
        out.reviewer_cost_usd += review.cost_usd
        out.reviews.append(
            {"round": out.rounds, "tool": name, "approved": review.approved, "feedback": review.feedback}
        )
        if review.approved:
            return None
        out.tool_calls.append(
            {
                "tool": name,
                "arguments": args,
                "status": "rejected_by_reviewer",
                "perturbed": False,
                "receipt": False,
            }
        )
        return f"reviewer feedback (the call was not executed): {review.feedback}"

    async def execute(self, call: ToolCall) -> tuple[str, str | None, bool] | None:
        """(content, a receipt to defer, whether the episode ended), or None when the world failed."""
        try:
            raw = await self.episode.call(call)
        except Exception as exc:  # noqa: BLE001
            self.world_failed(exc)
            return None
        s, out = self.s, self.out
        result, receipt = _execute(
            self.episode, self.task, call, raw, s.interposers, s.seed, out, self.calls_per_tool, self.exposed
        )
        deferred = None
        if receipt is not None:
            self.pending = receipt
            if s.delivery == "deferred":  # the interposer left the content raw
                deferred = receipt_text(result.meta["receipt"])  # a Receipt (harness.stream)
        terminal_tool = self.task.terminal_tool
        ended = bool(result.terminal) or (
            terminal_tool is not None and call.name == terminal_tool and result.status == "ok"
        )
        if ended:
            args = dict(call.arguments)
            out.final_answer = _answer_from(args)
            out.finish_status = args.get("status") if isinstance(args.get("status"), str) else None
            out.stop_reason = "terminal"
            self.classify_pending(None)
        return result.text(), deferred, ended


def _execute(
    episode: Episode,
    task: Task,
    call: ToolCall,
    raw: ToolResult,
    interposers: Sequence[Interposer],
    seed: int,
    out: LoopResult,
    calls_per_tool: dict[str, int],
    exposed: list[str],
) -> tuple[ToolResult, dict[str, Any] | None]:
    """Pass the world's result through the interposers; returns the result and the receipt entry if one fired."""
    name, args = call.name, dict(call.arguments)
    ctx = StreamContext(
        episode=episode,
        task=task,
        seed=seed,
        call_index=len(out.results_meta),
        calls_per_tool=dict(calls_per_tool),
        exposed_tools=list(exposed),
        labels=out.labels,
    )
    result = apply_chain(interposers, call, raw, ctx)
    calls_per_tool[name] = calls_per_tool.get(name, 0) + 1
    hit = is_hit(result)
    out.hit = out.hit or hit
    receipt = result.meta.get("receipt")
    out.results_meta.append({**result.meta, "call_index": ctx.call_index, "tool": name})
    out.tool_calls.append(
        {"tool": name, "arguments": args, "status": result.status, "perturbed": hit, "receipt": bool(receipt)}
    )
    if not receipt:
        return result, None
    violated, rule_class = _violation_summary(result.meta.get("violations") or [])
    entry = {
        "call_index": ctx.call_index,
        "tool": name,
        "violated": violated,
        "rule_class": rule_class,
        "recovery_tools": list(result.meta.get("recovery_tools") or []),
        "n_admissible": result.meta.get("n_admissible"),
        "next_action": None,
    }
    out.receipts.append(entry)
    return result, entry


def _answer_from(args: dict[str, Any]) -> str | None:
    for key in ("answer", "final_answer", "result", "message"):
        if isinstance(args.get(key), str):
            return cast(str, args[key])
    return json.dumps(args, ensure_ascii=False, sort_keys=True) if args else None
