"""The stateless planner shared by the stock scripted policies, and their judge interface.

Each request, the planner rebuilds the episode from the messages (``_history``), replays every
tool result through the policy's ``judge`` hook (trust it, or treat it as bad and retry / switch /
abandon), and picks the next call. How it picks depends on the world:

- with a world's conventions (``core.players.PlayerConventions``, set on a world-bound variant by
  ``players.bind``): the request's sub-tasks in order, each through the first usable route (a
  direct tool or a two-step chain, in the order the tools are listed), filling parameters from the
  request's values and from the LATEST trusted result carrying the field. When every sub-task is
  done it calls the terminal tool; when a sub-task has no usable route left it aborts naming it.
- without (generic mode, ``_generic``): from the tool schemas alone.

It sees only the messages and the tool schemas: never task fields, fault labels or the judge.
It names no world: a world's text conventions come in through the adapter.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from core.players import FROM_REQUEST, FROM_RESULT, PlayerConventions, ToolInfo
from harness.agents.policies._generic import plan as plan_generic
from harness.agents.policies._history import History, Receipt, Step, note_text, read_history
from harness.agents.policies._judge import MAX_ATTEMPTS, Decisions, JudgeState, Verdict
from harness.agents.policies._schema import coerce

__all__ = ["MAX_ATTEMPTS", "Decisions", "JudgeState", "PlanningPolicy", "State", "Verdict"]


@dataclass
class State:
    """What the conventions planner knows after replaying the history up to some step."""

    inputs: dict[str, str]
    tools: dict[str, ToolInfo]
    fields: dict[str, Any] = field(default_factory=dict)  # latest trusted value of each output field
    done: dict[str, Step] = field(default_factory=dict)  # base capability -> trusted final result
    failures: Counter[str] = field(default_factory=Counter)
    avoid: set[str] = field(default_factory=set)  # tools the policy switched away from or gave up on
    prefer: dict[str, str] = field(default_factory=dict)  # base capability -> recovery tool to try first
    last_failure: dict[str, str] = field(default_factory=dict)  # base capability -> why its route failed
    abandon: str | None = None
    codes: list[str] = field(default_factory=list)

    def dead(self, tool: str) -> bool:
        return tool in self.avoid or self.failures[tool] >= MAX_ATTEMPTS

    def routes(self, capability: str) -> list[tuple[ToolInfo, ...]]:
        """Every provider of ``capability``: direct tools and chains, by the position of their first tool."""
        direct = [(t,) for t in self.tools.values() if t.capability == capability and t.chain_step is None]
        chains: dict[str, list[ToolInfo]] = {}
        for t in self.tools.values():
            if t.capability == capability and t.chain_step:
                chains.setdefault(t.chain_step[0], []).append(t)
        routes = direct + [tuple(sorted(c, key=_chain_position)) for c in chains.values()]
        return sorted(routes, key=lambda r: r[0].index)

    def fill(self, tool: ToolInfo) -> dict[str, Any] | None:
        """Arguments for ``tool`` from the inputs and trusted fields, or None when one is missing."""
        args: dict[str, Any] = {}
        for p in tool.params:
            if p.source == FROM_REQUEST and p.key in self.inputs:
                args[p.name] = coerce(self.inputs[p.key], p.type)
            elif p.source == FROM_RESULT and p.key in self.fields:
                args[p.name] = self.fields[p.key]
            elif p.required:
                return None
        return args

    def usable_recovery(self, step: Step, receipt: Receipt) -> str | None:
        """The first listed recovery tool (not the flagged one) on a live route of the same sub-task."""
        tool = self.tools.get(step.tool)
        if tool is None or not receipt.recovery_tools:
            return None
        for name in receipt.recovery_tools:
            if name == step.tool or name not in self.tools or self.dead(name):
                continue
            for route in self.routes(tool.capability):
                names = {t.name for t in route}
                if name in names and step.tool not in names and not any(self.dead(n) for n in names):
                    if self.fill(route[0]) is not None:
                        return name
        return None


class PlanningPolicy:
    """Base of the stock policies: subclasses override :meth:`judge` only.

    ``conventions`` is None on the stock instance (generic mode); ``players.bind`` makes a copy
    of a policy that plans with a world's adapter.
    """

    name = "planning"
    conventions: PlayerConventions | None = None

    def judge(self, step: Step, tool: ToolInfo | None, state: JudgeState, decisions: Decisions) -> Verdict:
        """Trusting default: only explicit errors are bad."""
        return Verdict(bad=True, why="error") if step.error else Verdict()

    # ---------------------------------------------------------------------------------------
    def respond(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        history = read_history(messages)
        decisions = Decisions(dict(history.notes), rng)
        if self.conventions is None:
            call, text = plan_generic(self.name, self.judge, history, tools, decisions)
        else:
            infos = self.conventions.read_tools(tools)
            state = self.replay(history, infos, decisions)
            call, text = self.next_call(history, infos, state)
        prefix = f"[scripted policy {self.name}]"
        content = text if text.startswith(prefix) else f"{prefix} {text}"
        note = note_text(decisions.fresh)
        if note:
            content += " " + note
        if call is None:  # no terminal tool: answer in text
            return {"role": "assistant", "content": content, "tool_calls": []}
        name, args = call
        return {
            "role": "assistant",
            "content": content,
            "tool_calls": [{"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}],
        }

    # --- planning with a world's conventions -------------------------------------------------
    def replay(self, history: History, infos: list[ToolInfo], decisions: Decisions) -> State:
        assert self.conventions is not None
        state = State(self.conventions.read_inputs(history.query), {t.name: t for t in infos})
        for step in history.steps:
            tool = state.tools.get(step.tool)
            if tool is None or tool.is_terminal:
                continue
            if self._tainted(step, tool, state):  # it consumed a value the policy no longer trusts
                continue
            verdict = self.judge(step, tool, state, decisions)
            if verdict.abandon:
                state.abandon = verdict.abandon
                break
            if verdict.bad:
                state.failures[step.tool] += 1
                state.last_failure[tool.capability] = f"{step.tool}: {verdict.why}"
                if verdict.switch_to:
                    state.avoid.add(step.tool)
                    state.prefer[tool.capability] = verdict.switch_to
                state.done.pop(tool.capability, None)
                continue
            if isinstance(step.raw, dict):
                state.fields.update(step.raw)
                code = step.raw.get(tool.confirms) if tool.confirms else None
                if tool.is_action and isinstance(code, str):
                    state.codes.append(code)
            if tool.chain_step is None or tool.chain_step[1] >= 2:
                state.done[tool.capability] = step
        return state

    @staticmethod
    def _tainted(step: Step, tool: ToolInfo, state: State) -> bool:
        return any(
            p.source == FROM_RESULT
            and p.name in step.args
            and state.fields.get(p.key, object()) != step.args[p.name]
            for p in tool.params
        )

    def next_call(
        self, history: History, infos: list[ToolInfo], state: State
    ) -> tuple[tuple[str, dict[str, Any]] | None, str]:
        conventions = self.conventions
        assert conventions is not None
        if state.abandon:
            return self._finish(infos, "aborted", f"Task aborted: {state.abandon}", state.abandon)
        subtasks = conventions.subtasks(history.query, infos)
        if not subtasks:  # tools of another kind: say so instead of pretending to be done
            reason = f"cannot plan: no tool carries the {conventions.name}"
            return self._finish(infos, "aborted", f"Task aborted: {reason}", reason)
        for capability in subtasks:
            if capability in state.done:
                continue
            routes = [r for r in state.routes(capability) if not any(state.dead(t.name) for t in r)]
            preferred = state.prefer.get(capability)
            routes.sort(key=lambda r: preferred not in {t.name for t in r})  # stable: keeps list order
            for route in routes:
                nxt = route[0]
                if len(route) > 1 and route[0].chain_step and route[0].chain_step[0] in state.fields:
                    nxt = route[1]
                args = state.fill(nxt)
                if args is not None:
                    label = conventions.subtask_label(capability, infos, history.query)
                    return (nxt.name, args), f"calling {nxt.name} for '{label}'"
            why = state.last_failure.get(capability, "no tool can be called with the values at hand")
            label = conventions.subtask_label(capability, infos, history.query)
            reason = f"step '{label}' failed ({why}); no working route left"
            return self._finish(infos, "aborted", f"Task aborted: {reason}", reason)
        answer = "done; confirmation codes: " + (", ".join(state.codes) or "none")
        return self._finish(infos, "done", answer, "all sub-tasks completed")

    def _finish(
        self, infos: list[ToolInfo], status: str, answer: str, reason: str
    ) -> tuple[tuple[str, dict[str, Any]] | None, str]:
        terminal = next((t for t in infos if t.is_terminal), None)
        answer = f"[scripted policy {self.name}] {answer}"
        if terminal is None:
            return None, answer
        values = {"status": status, "answer": answer, "reason": reason}
        return (terminal.name, {p.name: values[p.name] for p in terminal.params if p.name in values}), answer


def _chain_position(tool: ToolInfo) -> int:
    return tool.chain_step[1] if tool.chain_step else 0
