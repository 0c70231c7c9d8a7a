"""What running episodes needs in any process: completers, spend and budget, pending work, progress.

Used by both ways of running a study's episodes, ``harness.run.process`` (one process) and
``harness.run.workers`` (forked processes), so neither imports the other: the arms' metered completer
factories around the one litellm door and the reply cache, the spend that budgets stop on (one
process's ``Spend``, or ``SharedSpend`` in shared memory for forked workers), the episodes still to run
(resume), the progress bar, the world's release and the run's summary. Knows no particular world.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agents.loop import Completer
from harness.config import Config
from harness.llm.models import ModelSpec, acomplete
from harness.records import latest_by_episode, load_records
from harness.run.episode import RETRIED_STATUSES, CompleterFactory
from harness.run.plan import Plan
from harness.run.schedule import EpisodeSpec

log = logging.getLogger(__name__)


@dataclass
class Spend:
    """Money and tokens spent by the run so far (earlier invocations included), updated per call."""

    usd: float = 0.0
    tokens: int = 0
    calls: int = 0  # model calls answered in this invocation (the effective rate's numerator)

    def charge(self, completion: Any) -> None:
        usd, tokens = cost_of(completion)
        self.usd += usd
        self.tokens += tokens
        self.calls += 1

    def add(self, rec: dict[str, Any]) -> None:
        self.usd += sum(float(rec.get(k) or 0.0) for k in ("cost_usd", "reviewer_cost_usd", "user_cost_usd"))
        self.tokens += int(rec.get("prompt_tokens") or 0) + int(rec.get("completion_tokens") or 0)
        for who in ("reviewer", "user"):
            self.tokens += int(rec.get(f"{who}_prompt_tokens") or 0) + int(
                rec.get(f"{who}_completion_tokens") or 0
            )


def cost_of(completion: Any) -> tuple[float, int]:
    """(USD, prompt + completion tokens) of one completion."""
    usage = completion.usage or {}
    return (
        float(completion.cost_usd or 0.0),
        int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0),
    )


class SharedSpend:
    """``Spend`` across forked processes (made before the fork): every worker charges the same two counters."""

    def __init__(self, ctx: Any, usd: float, tokens: int):
        self._usd = ctx.Value("d", usd)
        self._tokens = ctx.Value("q", tokens)
        self._calls = ctx.Value("q", 0)

    @property
    def usd(self) -> float:
        return float(self._usd.value)

    @property
    def tokens(self) -> int:
        return int(self._tokens.value)

    @property
    def calls(self) -> int:
        return int(self._calls.value)

    def charge(self, completion: Any) -> None:
        usd, tokens = cost_of(completion)
        with self._usd.get_lock():
            self._usd.value += usd
        with self._tokens.get_lock():
            self._tokens.value += tokens
        with self._calls.get_lock():
            self._calls.value += 1


def within_budget(cfg: Config, spend: Spend | SharedSpend) -> bool:
    if cfg.budget.usd is not None and spend.usd >= cfg.budget.usd:
        return False
    return not (cfg.budget.tokens is not None and spend.tokens >= cfg.budget.tokens)


def _default_factory(cache: Any, arm: str) -> CompleterFactory:
    """Completers of one arm: the arm is part of every cache key (arms never share a recorded reply)."""

    def factory(spec: ModelSpec, replicate: int) -> Completer:
        async def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
            return await acomplete(spec, messages, tools, replicate=replicate, cache=cache, arm=arm)

        return complete

    return factory


def _metered(factory: CompleterFactory, spend: Spend) -> CompleterFactory:
    """Charge every completion (agent and reviewer) to the run's spend as it returns."""

    def metered_factory(spec: ModelSpec, replicate: int) -> Completer:
        inner = factory(spec, replicate)

        async def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
            completion = await inner(messages, tools)
            spend.charge(completion)
            return completion

        return complete

    return metered_factory


def _open_cache(cfg: Config, run_dir: Path) -> Any:
    if cfg.cache.mode == "off":
        return None
    from harness.llm.cache import Cache

    path = Path(cfg.cache.path) if cfg.cache.path else run_dir / "llm_cache.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    return Cache(path, mode=cfg.cache.mode)


def pending_episodes(
    schedule: list[EpisodeSpec], records: list[dict[str, Any]], retry_infra: bool
) -> list[EpisodeSpec]:
    """Episodes still to run: never recorded, stopped by the budget, or (when asked) infra/env errors."""
    latest = latest_by_episode(records)
    todo = []
    for ep in schedule:
        rec = latest.get(ep.episode_id)
        if rec is None or rec.get("status") == "budget_exhausted":
            todo.append(ep)
        elif retry_infra and rec.get("status") in RETRIED_STATUSES:
            todo.append(ep)
    return todo


def progress_text(
    counts: Counter[str], arms: Counter[str], models: Counter[str], spend: Spend, rate: str = ""
) -> str:
    """The progress bar's postfix: outcomes, errors, cost, the effective model-call rate, and the
    arm/model mix so far."""

    def mix(c: Counter[str]) -> str:
        return " ".join(f"{k}:{v}" for k, v in sorted(c.items()))

    return (
        f"ok {counts['completed']} fail {counts['agent_failed']} infra {counts['infra_error']} "
        f"env {counts['env_error']} "
        f"budget {counts['budget_exhausted']} ${spend.usd:.4f}{f' {rate}' if rate else ''} | {mix(arms)} | "
        f"{mix(models)}"
    )


def rate_text(rates: dict[str, float]) -> str:
    """``requests/min`` and ``tokens/min`` the run achieved (what a provider's limits are compared to)."""
    return f"{rates['calls_per_minute']:.0f} req/min {rates['tokens_per_minute']:.0f} tok/min"


class Progress:
    """Outcomes so far, and the bar that shows them with the spend."""

    def __init__(self, total: int, cfg: Config, spend: Any, since: tuple[float, int, int] | None = None):
        """``since``: (monotonic start, calls, tokens) when the work began, if before this bar (forked
        workers start calling before the parent makes its bar: counting from here would drop those)."""
        from tqdm import tqdm

        self.counts: Counter[str] = Counter()
        self.arms: Counter[str] = Counter()
        self.models: Counter[str] = Counter()
        self.spend = spend
        if since is None:
            since = (time.monotonic(), int(getattr(spend, "calls", 0)), int(spend.tokens))
        self._t0, self._calls0, self._tokens0 = since
        self.bar = tqdm(
            total=total,
            disable=not cfg.progress,
            desc=cfg.study.name,
            unit="ep",
            dynamic_ncols=True,
            mininterval=1.0,
        )

    def add(self, rec: dict[str, Any]) -> None:
        self.counts[rec["status"]] += 1
        self.arms[rec["arm"]] += 1
        self.models[rec["model"]] += 1
        self.bar.update(1)
        self.bar.set_postfix_str(
            progress_text(self.counts, self.arms, self.models, self.spend, rate_text(self.rates())),
            refresh=False,
        )

    def rates(self) -> dict[str, float]:
        """Model calls and tokens per minute since this invocation started (the effective rate)."""
        minutes = max(time.monotonic() - self._t0, 1e-9) / 60.0
        calls = int(getattr(self.spend, "calls", 0)) - self._calls0
        tokens = int(self.spend.tokens) - self._tokens0
        return {
            "model_calls": calls,
            "calls_per_minute": round(calls / minutes, 1),
            "tokens_per_minute": round(tokens / minutes, 1),
        }

    def close(self) -> None:
        self.bar.close()


def pending_work(plan: Plan, run_dir: Path) -> tuple[Path, Spend, list[EpisodeSpec]]:
    """The records file, what earlier invocations spent (superseded attempts cost money too) and the
    episodes still to run."""
    (run_dir / "transcripts").mkdir(parents=True, exist_ok=True)
    records_path = run_dir / "episodes.jsonl"
    existing = load_records(records_path, repair=True)
    spend = Spend()
    for rec in existing:
        spend.add(rec)
    return records_path, spend, pending_episodes(plan.schedule, existing, plan.cfg.retry_infra_errors)


def arm_factories(
    plan: Plan, run_dir: Path, factory: CompleterFactory | None, spend: Any
) -> tuple[dict[str, CompleterFactory], Any]:
    """Each arm's metered completer factory, and the reply cache they share (None when off)."""
    if factory is not None:  # a test's completers: one for every arm
        return dict.fromkeys(plan.arms, _metered(factory, spend)), None
    cache = _open_cache(plan.cfg, run_dir)
    return {arm: _metered(_default_factory(cache, arm), spend) for arm in plan.arms}, cache


async def close_world(plan: Plan) -> None:
    """Release what the world holds (bridges, pools) once its episodes are done, if it says how."""
    closer = getattr(plan.env, "aclose", None)
    if callable(closer):
        try:
            await closer()
        except Exception:  # noqa: BLE001  (records are written; a failed release must not hide them)
            log.warning("closing environment %s failed", plan.plugin.name, exc_info=True)


def run_summary(
    plan: Plan,
    records_path: Path,
    todo: list[EpisodeSpec],
    ran: Counter[str],
    stopped: bool,
    spend: Any,
    rates: dict[str, float] | None = None,
) -> dict[str, Any]:
    final = latest_by_episode(load_records(records_path, repair=False))
    in_schedule = {ep.episode_id for ep in plan.schedule}
    by_status = Counter(r.get("status") for eid, r in final.items() if eid in in_schedule)
    codes = Counter(c for eid, r in final.items() if eid in in_schedule for c in r.get("notices") or [])
    for code, n in sorted(codes.items()):
        if code.startswith("fault_no_target:"):  # known only once episodes ran: said here, with its count
            log.warning("fault_no_target: fault %s found no target in %d of the run's episodes", code[16:], n)
    return {
        "notice_codes": codes,
        "planned": len(plan.schedule),
        "ran_now": sum(ran.values()),
        "skipped_finished": len(plan.schedule) - len(todo),
        "by_status": dict(by_status),
        "stopped_by_budget": stopped or ran["budget_exhausted"] > 0,
        "cost_usd": round(spend.usd, 6),
        "tokens": spend.tokens,
        **(rates or {}),  # this invocation's model calls, requests and tokens per minute
    }
