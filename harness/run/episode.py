"""One episode, the one way: the arm's tool-result stream, the agent loop, the world's score, the record.

``run_episode`` sets an episode up (system prompt with the task's standing instructions, the arm's
interposers behind the run's fault injector, the reviewer, the simulated user), runs the agent loop,
asks the world to score it, writes its transcript and returns its record. An exception from the
world, its bridge or its user becomes an ``env_error`` record (infrastructure: never scored).
Knows no particular world.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from core.protocol import Environment, Outcome, Task
from harness.agents import prompts
from harness.agents.loop import Completer, LoopResult, LoopSettings, run_loop
from harness.agents.reviewer import ModelReviewer
from harness.config import ArmCfg
from harness.llm.models import InfraError, ModelSpec
from harness.records import RECORD_VERSION, EpisodeRecord
from harness.records.schema import Status, StopReason
from harness.run.manifest import write_atomic
from harness.run.plan import Plan
from harness.run.registries import MonitorSource
from harness.run.schedule import EpisodeSpec
from harness.stream import Interposer, MonitorInterposer

log = logging.getLogger(__name__)

# spec, sampling draw -> completer (the draw: EpisodeSpec.draw, the replicate for trial 0); the default
# calls harness.llm.models.acomplete with the run's cache, whose key holds the draw
CompleterFactory = Callable[[ModelSpec, int], Completer]
RETRIED_STATUSES = ("infra_error", "env_error")  # what --retry-infra-errors reruns


def fault_kinds_hit(results_meta: list[dict[str, Any]]) -> list[str]:
    """The environment's fault kinds the episode actually received, in call order (ToolResult.meta)."""
    return [str(m["fault_kind"]) for m in results_meta if m.get("perturbed") and m.get("fault_kind")]


def arm_interposers(
    arm: ArmCfg, faults: list[Interposer], monitors: MonitorSource | None
) -> list[Interposer]:
    chain = list(faults)
    if arm.monitor != "none":
        if monitors is None:
            raise ValueError(f"arm {arm.name!r} needs a monitor but none was built")
        chain.append(
            MonitorInterposer(
                lambda ctx: monitors(ctx.task.group_id, arm.monitor, arm.detector), arm.delivery
            )
        )
    return chain


def episode_chains(
    plan: Plan, monitors: MonitorSource | None
) -> dict[tuple[str, str | None], list[Interposer]]:
    """(arm, fault label) -> the arm's interposers behind that fault's injector."""
    return {
        (name, label): arm_interposers(arm, [injector] if injector is not None else [], monitors)
        for name, arm in plan.arms.items()
        for label, injector in (
            cast("dict[str | None, Interposer | None]", {**plan.faults}) or {None: None}
        ).items()
    }


def chain_for(
    plan: Plan, chains: dict[tuple[str, str | None], list[Interposer]], ep: EpisodeSpec
) -> list[Interposer]:
    return chains[(ep.arm, ep.fault_class if plan.faults else None)]


def _jsonable(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False, default=str))


def episode_record(
    plan: Plan,
    ep: EpisodeSpec,
    loop: LoopResult,
    user: UserChannel | None,
    success: bool,
    status: str,
    outcome: dict[str, Any] | None,
    latency_s: float,
    transcript: str,
) -> dict[str, Any]:
    spec = plan.models[ep.model]
    outcome = dict(outcome or {})
    trace_check = outcome.pop("trace_check", None)
    scored = status in ("completed", "agent_failed")
    hit = fault_kinds_hit(loop.results_meta)
    # Built through the schema: a key outside it, or a value of the wrong type, fails here, not in the file.
    # Returned as the dict the progress tally and the worker pipe carry; RecordWriter validates it again.
    return EpisodeRecord(
        record_version=RECORD_VERSION,
        study=ep.study,
        arm=ep.arm,
        model=ep.model,
        task_id=ep.task_id,
        group_id=ep.group_id,
        strata=dict(ep.strata),
        fold=plan.folds.get(ep.group_id),
        fault_class=ep.fault_class,
        fault_kind=ep.fault_kind,
        fault_kinds_hit=hit,
        seed=ep.seed,
        pair_id=ep.pair_id,
        success=bool(success),
        outcome_correct=outcome.get("outcome_correct") if scored else None,
        status=cast(Status, status),  # EpisodeRecord validates it (strict)
        env=plan.plugin.name,
        replicate=ep.replicate,
        trial=ep.trial,
        episode_id=ep.episode_id,
        scripted=bool(spec.scripted),
        tool_calls=_jsonable(loop.tool_calls),
        n_tool_calls=sum(1 for c in loop.tool_calls if c["status"] in ("ok", "error")),
        ignored_parallel_calls=loop.ignored_parallel_calls,
        receipts=_jsonable(loop.receipts),
        n_receipts=len(loop.receipts),
        hit=loop.hit,
        final_answer=loop.final_answer,
        finish_status=loop.finish_status,
        stop_reason=cast("StopReason | None", loop.stop_reason),  # EpisodeRecord validates it (strict)
        rounds=loop.rounds,
        user_turns=loop.user_turns,
        prompt_tokens=loop.prompt_tokens,
        completion_tokens=loop.completion_tokens,
        cost_usd=loop.cost_usd,
        reviewer_calls=loop.reviewer_calls,
        reviewer_prompt_tokens=loop.reviewer_prompt_tokens,
        reviewer_completion_tokens=loop.reviewer_completion_tokens,
        reviewer_cost_usd=loop.reviewer_cost_usd,
        user_calls=user.calls if user else 0,
        user_prompt_tokens=user.prompt_tokens if user else 0,
        user_completion_tokens=user.completion_tokens if user else 0,
        user_cost_usd=user.cost_usd if user else 0.0,
        latency_s=latency_s,
        error=loop.error,
        error_kind=loop.error_kind,
        transcript=transcript,
        trace_check=_jsonable(trace_check) if trace_check is not None else None,
        outcome=_jsonable(outcome) if outcome else None,
        labels=_jsonable(loop.labels),
        notices=episode_notices(plan, ep, loop, hit, scored),
    ).model_dump()


def episode_notices(plan: Plan, ep: EpisodeSpec, loop: LoopResult, hit: list[str], scored: bool) -> list[str]:
    """The run's notices that concern this episode, and a fault that found no target in it."""
    codes = plan.notices.codes_for(ep.arm, ep.model)
    faulted = ep.fault_class not in (None, "none") and ep.fault_kind not in (None, "none")
    if faulted and scored and not hit and not loop.labels.get("injected_faults"):
        codes.append(f"fault_no_target:{ep.fault_class}")
    return codes


@dataclass
class UserChannel:
    """The world's simulated user as a ``UserModel``: its model's replies, costed apart from the agent's."""

    complete: Completer
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    async def __call__(self, messages: list[dict[str, Any]]) -> str:
        completion = await self.complete(messages, [])
        usage = completion.usage or {}
        self.calls += 1
        self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        self.completion_tokens += int(usage.get("completion_tokens") or 0)
        self.cost_usd += float(completion.cost_usd or 0.0)
        return str((completion.message or {}).get("content") or "")


STOP_STATUS = {"infra_error": "infra_error", "env_error": "env_error", "budget": "budget_exhausted"}


@dataclass
class Played:
    """An episode played to its end: what the agent did, its status, the world's verdict and tools."""

    loop: LoopResult
    status: str  # completed | agent_failed | infra_error | env_error | budget_exhausted
    success: bool
    verdict: Outcome | None
    tools: list[dict[str, Any]]  # the tools the episode exposed, as the model saw them

    @property
    def outcome(self) -> dict[str, Any] | None:
        return dict(self.verdict.details or {}) if self.verdict is not None else None


def loop_settings(
    arm: ArmCfg,
    task: Task,
    interposers: Sequence[Interposer],
    *,
    seed: int,
    max_rounds: int,
    reviewer: ModelReviewer | None = None,
    budget_ok: Callable[[], bool] = lambda: True,
) -> LoopSettings:
    """The loop an arm runs on a task: its prompt (with the task's standing instructions), its
    interposers, delivery and reviewer; the model door's errors are infrastructure."""
    return LoopSettings(
        system_prompt=system_prompt(arm.prompt, task),
        interposers=interposers,
        seed=seed,
        max_rounds=max_rounds,
        delivery=arm.delivery,
        reviewer=reviewer,
        max_reviewer_calls=arm.max_reviewer_calls,
        budget_ok=budget_ok,
        infra_errors=(InfraError,),
    )


async def play(
    env: Environment, task_id: str, seed: int, complete: Completer, settings: LoopSettings, user: Any = None
) -> Played:
    """Open the episode, run the loop, ask the world to score it, close it: the one way an episode
    is played (the runner, the driver and the evaluations all come through here)."""
    episode = env.episode(task_id, seed=seed, user=user)
    verdict: Outcome | None = None
    success = False
    try:
        loop = await run_loop(episode, env.task(task_id), complete, settings)
        status = STOP_STATUS.get(loop.stop_reason, "")
        if not status:
            try:
                verdict = await episode.score()
            except Exception as exc:  # noqa: BLE001  (the world's grader failed: infrastructure)
                loop.stop_reason, loop.error = "env_error", f"score: {type(exc).__name__}: {exc}"[:500]
                loop.error_kind, status = type(exc).__name__, "env_error"
            else:
                success = bool(verdict.success) and loop.stop_reason != "round_cap"
                status = "completed" if success else "agent_failed"
    finally:
        try:
            await episode.close()
        except Exception:  # noqa: BLE001  (a failed close must not lose the record)
            log.warning("episode %s (seed %s): close failed", task_id, seed, exc_info=True)
    return Played(loop, status, success, verdict, [s.openai_schema() for s in episode.tools()])


async def run_episode(
    plan: Plan,
    ep: EpisodeSpec,
    factory: CompleterFactory,
    interposers: list[Interposer],
    budget_ok: Callable[[], bool],
    run_dir: Path,
) -> dict[str, Any]:
    """One scheduled episode of a run: played, its transcript written, its record returned."""
    arm = plan.arms[ep.arm]
    spec = plan.models[ep.model]
    if arm.reasoning_budget is not None:  # scripted providers accept it too (recorded, ignored): same path
        spec = dataclasses.replace(spec, reasoning_budget=arm.reasoning_budget)
    # every model of the episode (agent, reviewer, user) samples from the trial's stream (ep.draw: the
    # replicate for trial 0, as before trials existed); the reply cache keys on it
    reviewer = ModelReviewer(factory(plan.reviewers[ep.model], ep.draw)) if arm.reviewer else None
    user = UserChannel(factory(plan.user, ep.draw)) if plan.user is not None else None
    settings = loop_settings(
        arm,
        plan.env.task(ep.task_id),
        interposers,
        seed=ep.seed,
        max_rounds=plan.cfg.study.env.max_rounds,
        reviewer=reviewer,
        budget_ok=budget_ok,
    )
    t0 = time.monotonic()  # latency is a measurement, never an input to a draw
    played = await play(plan.env, ep.task_id, ep.seed, factory(spec, ep.draw), settings, user)
    loop, outcome = played.loop, played.outcome
    if played.status in RETRIED_STATUSES:
        log.warning("episode %s: %s (%s)", ep.episode_id, played.status, loop.error)
    latency = time.monotonic() - t0
    transcript = f"transcripts/{ep.episode_id}.json"
    write_atomic(
        run_dir / transcript,
        {
            "episode": ep.to_json(),
            "arm": dataclasses.asdict(arm),
            "model": spec.name,
            "litellm_model": spec.model,
            "tools": played.tools,
            "messages": loop.messages,
            "turns": loop.turns,
            "results_meta": _jsonable(loop.results_meta),
            "reviews": loop.reviews,
            "status": played.status,
            "error": loop.error,
            "outcome": _jsonable(outcome) if outcome is not None else None,
        },
        indent=None,
    )
    return episode_record(plan, ep, loop, user, played.success, played.status, outcome, latency, transcript)


def system_prompt(arm_prompt: str, task: Any) -> str:
    """The arm's prompt; a world with standing instructions (its policy) has them appended and says
    itself how an episode ends, else the prompt names the terminal tool."""
    if task.instructions:
        return f"{prompts.system_prompt(arm_prompt, None)}\n\n{task.instructions}"
    return prompts.system_prompt(arm_prompt, task.terminal_tool)
