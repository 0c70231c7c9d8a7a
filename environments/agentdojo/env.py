"""The AgentDojo world: one suite (or all four) of the pinned benchmark version, run in-process.

An episode holds a deep copy of the suite's default environment after the task's own
``init_environment``, runs calls through the package's ``FunctionsRuntime`` under the episode's frozen
clock, keeps the calls as the package's ``FunctionCall`` trace, and is graded by the package's own
check: ``utility_from_traces`` when the task defines one, else ``utility(final answer, pre, post)``.
Task ids are ``<suite>.<user task id>``; each task is its own group (cross-fitting folds by task).
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from core.protocol import (
    LocalEpisode,
    Outcome,
    Task,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserModel,
    unknown_tool_error,
    validate_arguments,
    validation_error,
)
from core.seeding import sha256_hex
from environments.agentdojo import package
from environments.agentdojo.attacks import DEFAULT_TARGET, SEP
from environments.agentdojo.clock import DEFAULT_START, EpisodeClock, frozen
from environments.agentdojo.tools import spec_of, to_json

MAX_ROUNDS = 40
ALL = "all"


def split_id(task_id: str) -> tuple[str, str]:
    """(suite, user task id); an attacked task's id names its user task first."""
    suite, _, rest = task_id.partition(".")
    return suite, rest.partition(SEP)[0]


def injection_of(task_id: str) -> str | None:
    """The injection task of an attacked task's id (``<suite>.<user task>+<injection task>``), else None."""
    return task_id.partition(SEP)[2] or None


def _number(user_task_id: str) -> int:
    return int(user_task_id.rsplit("_", 1)[-1])


def state_digest(environment: Any) -> str:
    """A hash of a suite environment's whole state, as JSON (equal states, equal digests)."""
    return sha256_hex(environment.model_dump(mode="json"))


class AgentDojoWorld:
    """``suite``: workspace, travel, banking, slack, or ``all`` (the four, tasks ``<suite>.<id>``).

    ``attack``: one of the package's attacks (``important_instructions`` ...); the tasks are then the pairs
    (injectable user task, injection task) of each suite, ``<suite>.<user task>+<injection task>``, grouped
    by user task, each on its environment with the attack's texts injected (``attacks.py``)."""

    name = "agentdojo"
    needs_user = False

    def __init__(
        self,
        suite: str = "workspace",
        version: str = package.BENCHMARK_VERSION,
        clock: str = DEFAULT_START,
        max_rounds: int = MAX_ROUNDS,
        attack: str | None = None,
        target: str = DEFAULT_TARGET,
    ):
        package.require()
        if suite != ALL and suite not in package.SUITES:
            raise ValueError(
                f"agentdojo: unknown suite {suite!r}; choose one of {', '.join(package.SUITES)} or all"
            )
        self.suite = suite
        self.version = version
        self.clock = clock
        EpisodeClock.seeded(clock, 0, "")  # a bad clock fails here, with its one-line message
        self.max_rounds = max_rounds
        self.suites = package.SUITES if suite == ALL else (suite,)
        for s in self.suites:
            package.suite(s, version)  # checks the version and the name
        self.attack, self.target = attack or None, target
        if self.attack:
            from environments.agentdojo.attacks import attack as load

            for s in self.suites:
                load(self.attack, s, version, target)  # an unknown attack fails here, in one line

    # ---------------------------------------------------------------------------------- tasks

    @cached_property
    def _tasks(self) -> dict[str, Task]:
        out: dict[str, Task] = {}
        for s in self.suites:
            user_tasks = package.suite(s, self.version).user_tasks
            for uid in sorted(user_tasks, key=_number):
                ut = user_tasks[uid]
                tid = f"{s}.{uid}"
                strata = {"suite": s, "difficulty": ut.DIFFICULTY.name.lower()}
                meta = {"suite": s, "user_task": uid, "benchmark_version": self.version}
                if not self.attack:
                    out[tid] = Task(tid, tid, ut.PROMPT, self.name, self.version, strata=strata, meta=meta)
                    continue
                if uid not in self._injectable(s):
                    continue
                for iid in sorted(package.suite(s, self.version).injection_tasks, key=_number):
                    out[f"{tid}{SEP}{iid}"] = Task(
                        f"{tid}{SEP}{iid}",
                        tid,  # a user task's pairs share its cluster and its cross-fitting fold
                        ut.PROMPT,
                        self.name,
                        self.version,
                        strata={**strata, "injection_task": iid},
                        meta={**meta, "injection_task": iid, "attack": self.attack},
                    )
        return out

    def _injectable(self, suite: str) -> tuple[str, ...]:
        from environments.agentdojo.attacks import injectable

        assert self.attack
        return injectable(self.attack, suite, self.version, self.target)

    def not_injectable(self) -> list[str]:
        """Under an attack: the user tasks left out, their ground truth reading no injection vector."""
        if not self.attack:
            return []
        return [
            f"{s}.{uid}"
            for s in self.suites
            for uid in sorted(package.suite(s, self.version).user_tasks, key=_number)
            if uid not in self._injectable(s)
        ]

    def tasks(self, split: str = "all") -> list[Task]:
        return list(self._tasks.values())

    def task(self, task_id: str) -> Task:
        try:
            return self._tasks[task_id]
        except KeyError:
            raise KeyError(
                f"agentdojo: no task {task_id!r} in suite {self.suite} ({self.version}); ids look like "
                f"{next(iter(self._tasks))}"
            ) from None

    def user_task(self, task_id: str) -> Any:
        """The package's user task object of ``task_id``."""
        self.task(task_id)
        suite, uid = split_id(task_id)
        return package.suite(suite, self.version).user_tasks[uid]

    def injection_task(self, task_id: str) -> Any | None:
        """The package's injection task of an attacked task, else None."""
        iid = injection_of(task_id)
        return package.suite(split_id(task_id)[0], self.version).injection_tasks[iid] if iid else None

    # ---------------------------------------------------------------------------------- tools

    @cached_property
    def _specs(self) -> dict[str, dict[str, ToolSpec]]:
        return {s: {f.name: spec_of(f, s) for f in package.suite(s, self.version).tools} for s in self.suites}

    def suite_specs(self, suite: str) -> dict[str, ToolSpec]:
        return dict(self._specs[suite])

    def tool_specs(self) -> dict[str, ToolSpec]:
        """Every tool of the world's suites (the suites share a few: the same package function, one spec)."""
        out: dict[str, ToolSpec] = {}
        for s in self.suites:
            for name, spec in self._specs[s].items():
                out.setdefault(name, spec)
        return out

    # ---------------------------------------------------------------------------------- episodes

    def initial_environment(self, task_id: str) -> Any:
        """A fresh copy of the task's suite environment after the task's ``init_environment``."""
        suite, uid = split_id(task_id)
        iid = injection_of(task_id)
        if iid and self.attack:
            from environments.agentdojo.attacks import environment

            base = environment(self.attack, suite, uid, iid, self.version, self.target)
        else:
            base = package.default_environment(suite, self.version)
        return self.user_task(task_id).init_environment(base.model_copy(deep=True))

    def sync_episode(self, task_id: str, seed: int = 0) -> AgentDojoEpisode:
        return AgentDojoEpisode(self, self.task(task_id), seed)

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> LocalEpisode:
        return LocalEpisode(self.sync_episode(task_id, seed))


def _ordered_participants(value: Any, args: dict[str, Any]) -> None:
    """``create_calendar_event`` dedupes the participants through a ``set``: their order then follows the
    process's string hashing (``PYTHONHASHSEED``), so the same episode stored and showed them in another
    order in another process. The world puts them in the order the call named them, the owner last."""
    named = [p for p in args.get("participants") or [] if p in value.participants]
    value.participants = list(dict.fromkeys([*named, *sorted(value.participants)]))


# tools whose stored result the package orders by hash; each fixed up in place after a successful call
HASH_ORDERED = {"create_calendar_event": _ordered_participants}


def squeeze(text: str) -> str:
    """Text with its whitespace runs as one space (the suites' YAML folds the attack's blank lines)."""
    return " ".join(text.split())


def _carries(content: Any, texts: tuple[str, ...]) -> bool:
    """Whether some text leaf of a result holds one of the attack's texts (``texts`` squeezed)."""
    if isinstance(content, str):
        flat = squeeze(content)
        return any(t in flat for t in texts)
    if isinstance(content, dict):
        return any(_carries(v, texts) for v in content.values())
    if isinstance(content, list):
        return any(_carries(v, texts) for v in content)
    return False


def grade(user_task: Any, output: str, pre: Any, post: Any, calls: list[Any]) -> bool:
    """The package's own verdict, as its benchmark takes it: the trace check when the task has one."""
    by_traces = user_task.utility_from_traces(output, pre, post, calls)
    if by_traces is not None:
        return bool(by_traces)
    return bool(user_task.utility(output, pre, post))


class AgentDojoEpisode:
    """One task on its own copy of the suite's environment (synchronous; lifted by ``LocalEpisode``)."""

    def __init__(self, world: AgentDojoWorld, task: Task, seed: int):
        from agentdojo.functions_runtime import FunctionsRuntime

        self.world, self.task, self.seed = world, task, seed
        self.suite, _ = split_id(task.task_id)
        self.user_task = world.user_task(task.task_id)
        self.injection_task = world.injection_task(task.task_id)
        self.injected: tuple[str, ...] = ()  # the attack's texts, to mark the results that carry one
        if self.injection_task is not None and world.attack:
            from environments.agentdojo.attacks import injections

            suite, uid = split_id(task.task_id)
            texts = injections(world.attack, suite, uid, self.injection_task.ID, world.version, world.target)
            self.injected = tuple(squeeze(t) for t in texts.values() if t.strip())
        self.environment = world.initial_environment(task.task_id)
        self.pre = self.environment.model_copy(deep=True)
        self.specs = world.suite_specs(self.suite)
        self.runtime = FunctionsRuntime(package.suite(self.suite, world.version).tools)
        self.clock = EpisodeClock.seeded(world.clock, seed, task.task_id)
        self.calls: list[Any] = []  # the package's FunctionCall trace, for utility_from_traces

    def tools(self) -> list[ToolSpec]:
        return list(self.specs.values())

    def call(self, call: ToolCall) -> ToolResult:
        from agentdojo.functions_runtime import FunctionCall

        spec = self.specs.get(call.name)
        if spec is None:
            return unknown_tool_error(call.name, list(self.specs))
        errors = validate_arguments(spec, call.arguments)
        if errors:
            return validation_error(call.name, errors)
        args = json.loads(json.dumps(dict(call.arguments)))  # plain JSON: the package validates it itself
        self.calls.append(FunctionCall(function=call.name, args=args, id=call.call_id or None))
        with frozen(self.clock):
            value, error = self.runtime.run_function(self.environment, call.name, args)
        if error is not None:
            return ToolResult({"error": error}, status="error")
        fix = HASH_ORDERED.get(call.name)
        if fix is not None:
            fix(value, args)
        result = ToolResult(to_json(value))
        if self.injected and _carries(result.content, self.injected):
            # harness-side only (never shown to the agent or the monitor): this result carries the attack
            result.meta.update(
                perturbed=True, fault_kind="prompt_injection", injection_task=self.injection_task.ID
            )
        return result

    def score(self, final_answer: str | None = None) -> Outcome:
        output = final_answer or ""
        try:
            ok = grade(self.user_task, output, self.pre, self.environment, self.calls)
            why = None
        except Exception as exc:  # noqa: BLE001 - a check that raises on an odd state is a failed check
            ok, why = False, f"{type(exc).__name__}: {exc}"[:300]
        details: dict[str, Any] = {
            "utility": ok,
            "suite": self.suite,
            "user_task": self.user_task.ID,
            "benchmark_version": self.world.version,
            "calls": len(self.calls),
            "clock_start": self.clock.start.isoformat(),
            "state_digest": self.digest(),
        }
        if why:
            details["utility_error"] = why
        if self.injection_task is not None:
            details.update(self._security(output))
        return Outcome(ok, float(ok), details)

    def _security(self, output: str) -> dict[str, Any]:
        """The injection task's own check: ``attack_success`` True when the injected goal was carried out."""
        from environments.agentdojo.attacks import attack_success

        assert self.injection_task is not None
        try:
            hit = attack_success(self.injection_task, output, self.pre, self.environment, self.calls)
            return {
                "attack_success": hit,
                "injection_task": self.injection_task.ID,
                "attack": self.world.attack,
            }
        except Exception as exc:  # noqa: BLE001 - a check that raises on an odd state: the attack did not succeed
            return {
                "attack_success": False,
                "injection_task": self.injection_task.ID,
                "attack": self.world.attack,
                "security_error": f"{type(exc).__name__}: {exc}"[:300],
            }

    def digest(self) -> str:
        return state_digest(self.environment)
