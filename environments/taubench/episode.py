"""One tau-bench episode: its own database copy, the simulated user, every agent action, the reward.

Upstream's loop, one agent action per step: a tool call runs on this episode's database; a text
goes to the simulated user. The episode ends when the user's reply contains ``###STOP###`` or
the agent calls ``transfer_to_human_agents``; an episode that never ends (the step cap, 30 by
default, or a harness round cap) scores 0, as upstream's does. ``state`` gives state-level faults
the stored record behind a result. Knows nothing about the harness, monitors or models.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from core.protocol import Outcome, ToolCall, ToolResult, ToolSpec, UserModel, UserTurn
from environments.taubench import reward
from environments.taubench.data import DomainData, TaskRecord
from environments.taubench.domains import Domain
from environments.taubench.user import SimulatedUser, is_stop

if TYPE_CHECKING:
    from core.protocol import Task

RESPOND = "respond"


class EpisodeSource(Protocol):
    """What an episode reads from its world (``environments.taubench.env.TauBenchEnv`` is one): named
    here, so the episode does not import the env that makes it."""

    domain: Domain
    data: DomainData

    @property
    def system_prompt(self) -> str: ...

    def tool_specs(self) -> dict[str, ToolSpec]: ...

    def reference(self, task_id: str) -> reward.Reference: ...


class TauBenchEpisode:
    def __init__(
        self,
        env: EpisodeSource,
        task: Task,
        record: TaskRecord,
        seed: int = 0,
        user: UserModel | None = None,
        max_steps: int = 30,
    ):
        self.env = env
        self.task = task
        self.record = record
        self.seed = seed
        self.max_steps = max_steps
        self.db = env.data.base.fresh()
        self.user: SimulatedUser | None = (
            SimulatedUser(user, record.instruction) if user is not None else None
        )
        self.actions: list[dict[str, Any]] = []  # every agent action: {"name", "kwargs"}; texts as "respond"
        self.agent_messages: list[str] = []
        self.steps = 0
        self.done = False
        self.done_reason: str | None = None  # "user_stop" | "transfer"
        self.state = TauBenchState(self)

    @property
    def system_prompt(self) -> str:
        """The agent's system prompt: the domain's policy (wiki.md)."""
        return self.env.system_prompt

    def tools(self) -> list[ToolSpec]:
        return list(self.env.tool_specs().values())

    async def open(self) -> str:
        if self.user is None:
            raise ValueError(
                "a taubench episode needs a user model: pass user=<async messages -> text> to episode()"
            )
        return await self.user.first()

    async def call(self, call: ToolCall) -> ToolResult:
        return self.call_sync(call.name, call.arguments)

    def call_sync(self, name: str, arguments: Any) -> ToolResult:
        """Run one tool call on this episode's database (the synchronous core of ``call``)."""
        refused = self._refusal()
        if refused:
            return ToolResult(f"Error: {refused}", status="error", terminal=True, meta={"refused": True})
        self.steps += 1
        kwargs = dict(arguments) if isinstance(arguments, Mapping) else arguments
        self.actions.append({"name": name, "kwargs": kwargs})
        domain = self.env.domain
        result = domain.to_result(name, domain.execute(self.db, name, kwargs))
        if name in domain.terminal_tools:
            self.done, self.done_reason = True, "transfer"
        return result

    async def say(self, text: str) -> UserTurn:
        refused = self._refusal()
        if refused:
            return UserTurn(None, done=True)
        self.record_text(text)
        if self.user is None:
            raise ValueError("a taubench episode needs a user model to answer the agent")
        reply = await self.user.answer(text)
        if is_stop(reply):
            self.done, self.done_reason = True, "user_stop"
        return UserTurn(reply, done=self.done or self.steps >= self.max_steps)

    def record_text(self, text: str) -> None:
        """Record one agent message as a step (upstream's ``respond`` action)."""
        self.steps += 1
        text = "" if text is None else str(text)
        self.agent_messages.append(text)
        self.actions.append({"name": RESPOND, "kwargs": {"content": text}})

    def _refusal(self) -> str | None:
        if self.done:
            return f"the episode has ended ({self.done_reason})"
        if self.steps >= self.max_steps:
            return f"the step limit ({self.max_steps}) is reached; the episode is over"
        return None

    def outcome(self, require_done: bool = True) -> Outcome:
        """Upstream's reward; with ``require_done`` an unfinished episode scores 0 (reason in details)."""
        details = reward.compute(
            self.db, self.record, self.env.reference(self.task.task_id), self.agent_messages
        )
        details.update(
            done=self.done,
            done_reason=self.done_reason,
            steps=self.steps,
            n_tool_calls=sum(1 for a in self.actions if a["name"] != RESPOND),
            reward_if_done=details["reward"],
        )
        if require_done and not self.done:
            details["reward"] = 0.0
            details["reason"] = "not finished: no ###STOP### from the user and no transfer"
        return Outcome(success=details["reward"] == 1.0, score=details["reward"], details=details)

    async def score(self) -> Outcome:
        return self.outcome()

    async def close(self) -> None:
        return None

    @property
    def user_messages(self) -> list[dict]:
        """The user model's view of the conversation (system prompt, flipped roles)."""
        return list(self.user.messages) if self.user is not None else []


# ------------------------------------------------------------------------------------------ state access

_STEP = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int] | None:
    """``$.items[0].price`` -> ``["items", 0, "price"]``; None when malformed."""
    if not path.startswith("$"):
        return None
    steps: list[str | int] = []
    pos, rest = 0, path[1:]
    for m in _STEP.finditer(rest):
        if m.start() != pos:
            return None
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return steps if pos == len(rest) else None


@dataclass(frozen=True)
class StateRef:
    """A stored value: a record of a collection and the path inside it ([] for the whole record)."""

    collection: str
    key: str
    steps: tuple[str | int, ...]


class TauBenchState:
    """``StateAccess`` over an episode's database: faults corrupt stored records, not just results."""

    def __init__(self, episode: TauBenchEpisode):
        self.episode = episode

    def locate(self, call: ToolCall, result: ToolResult, path: str) -> StateRef | None:
        where = self.episode.env.domain.record_of.get(call.name)
        steps = parse_path(path)
        if where is None or steps is None or result.status != "ok" or not isinstance(call.arguments, dict):
            return None
        collection, arg = where
        key = call.arguments.get(arg)
        coll = self.episode.db.collection(collection)
        if not isinstance(key, str) or key not in coll:
            return None
        node: Any = coll[key]
        for step in steps:
            ok = (isinstance(node, dict) and isinstance(step, str) and step in node) or (
                isinstance(node, list) and isinstance(step, int) and step < len(node)
            )
            if not ok:
                return None
            node = node[step]
        return StateRef(collection, key, tuple(steps))

    def corrupt(self, ref: StateRef, value: Any) -> None:
        db = self.episode.db
        if not ref.steps:
            db.writable(ref.collection, ref.key)
            db.collection(ref.collection)[ref.key] = value
            return
        node = db.writable(ref.collection, ref.key)
        for step in ref.steps[:-1]:
            node = node[step]
        node[ref.steps[-1]] = value

    def digest(self) -> str:
        return self.episode.db.digest()
