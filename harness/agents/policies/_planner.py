"""The stateless planner shared by the scripted reference policies.

Each request, the planner rebuilds the episode from the messages (``_history``), replays every
tool result through the policy's ``judge`` hook (trust it, or treat it as bad and retry / switch /
abandon), and picks the next call: the query's sub-tasks in order, each through the first usable
route (a direct tool or a two-step chain, in the order the tools are listed), filling parameters
from the ``Inputs:`` line and from the LATEST trusted result carrying the field. When every
sub-task is done it calls ``finish``; when a sub-task has no usable route left it aborts naming it.

It sees only the messages and the tool schemas: never task fields, fault labels or the judge.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.agents.policies._history import History, Receipt, Step, note_text, read_history
from harness.agents.policies._schema import ToolInfo, coerce, parse_inputs, parse_tools

MAX_ATTEMPTS = 2  # failed attempts at one tool before the planner reroutes (i.e. one retry)

# the world convention these policies rely on: a query ending in an "Inputs: k=v, ..." line
PLAYS = ("inputs-line",)


@dataclass
class Verdict:
    """What a policy makes of one tool result."""

    bad: bool = False  # do not use its values; counts as a failed attempt at the tool
    switch_to: str | None = None  # leave the tool now and prefer the route holding this tool
    abandon: str | None = None  # give up the whole task, with this reason
    why: str = ""


@dataclass
class State:
    """What the planner knows after replaying the history up to some step."""

    inputs: dict[str, str]
    tools: dict[str, ToolInfo]
    fields: dict[str, Any] = field(default_factory=dict)  # latest trusted value of each output field
    done: dict[str, Step] = field(default_factory=dict)  # base capability -> trusted final result
    failures: Counter = field(default_factory=Counter)
    avoid: set[str] = field(default_factory=set)  # tools the policy switched away from or gave up on
    prefer: dict[str, str] = field(default_factory=dict)  # base capability -> recovery tool to try first
    last_failure: dict[str, str] = field(default_factory=dict)  # base capability -> why its route failed
    abandon: str | None = None
    codes: list[str] = field(default_factory=list)

    def dead(self, tool: str) -> bool:
        return tool in self.avoid or self.failures[tool] >= MAX_ATTEMPTS

    def routes(self, capability: str) -> list[tuple[ToolInfo, ...]]:
        """Every provider of ``capability``: direct tools and chains, by the position of their first tool."""
        direct = [(t,) for t in self.tools.values() if t.capability == capability]
        chains: dict[str, list[ToolInfo]] = {}
        for t in self.tools.values():
            if t.base_capability == capability and t.chain_step:
                chains.setdefault(t.chain_step[0], []).append(t)
        routes = direct + [tuple(sorted(c, key=lambda t: t.chain_step[1])) for c in chains.values()]
        return sorted(routes, key=lambda r: r[0].index)

    def fill(self, tool: ToolInfo) -> dict | None:
        """Arguments for ``tool`` from the inputs and trusted fields, or None when one is missing."""
        args: dict[str, Any] = {}
        for p in tool.params:
            if p.source == "query" and p.key in self.inputs:
                args[p.name] = coerce(self.inputs[p.key], p.type)
            elif p.source == "field" and p.key in self.fields:
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
            for route in self.routes(tool.base_capability):
                names = {t.name for t in route}
                if name in names and step.tool not in names and not any(self.dead(n) for n in names):
                    if self.fill(route[0]) is not None:
                        return name
        return None


class Decisions:
    """Stochastic choices, each made once: read back from earlier turns' notes or drawn now."""

    def __init__(self, notes: dict[str, str], rng: random.Random) -> None:
        self.notes, self.rng, self.fresh = notes, rng, {}

    def choose(self, key: str, options: list[tuple[str, float]]) -> str:
        """One of ``options`` (name, probability; the remainder goes to the last) for event ``key``."""
        if key in self.notes:
            return self.notes[key]
        u, acc = self.rng.random(), 0.0
        pick = options[-1][0]
        for name, p in options:
            acc += p
            if u < acc:
                pick = name
                break
        self.notes[key] = self.fresh[key] = pick
        return pick


class PlanningPolicy:
    """Base of the reference policies: subclasses override :meth:`judge` only."""

    name = "planning"

    def judge(self, step: Step, tool: ToolInfo | None, state: State, decisions: Decisions) -> Verdict:
        """Trusting default: only explicit errors are bad."""
        return Verdict(bad=True, why="error") if step.error else Verdict()

    # ---------------------------------------------------------------------------------------
    def respond(self, messages: list[dict], tools: list[dict], rng: random.Random) -> dict:
        history = read_history(messages)
        infos = parse_tools(tools)
        decisions = Decisions(dict(history.notes), rng)
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

    def replay(self, history: History, infos: list[ToolInfo], decisions: Decisions) -> State:
        state = State(parse_inputs(history.query), {t.name: t for t in infos})
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
                state.last_failure[tool.base_capability] = f"{step.tool}: {verdict.why}"
                if verdict.switch_to:
                    state.avoid.add(step.tool)
                    state.prefer[tool.base_capability] = verdict.switch_to
                state.done.pop(tool.base_capability, None)
                continue
            if isinstance(step.raw, dict):
                state.fields.update(step.raw)
                code = step.raw.get("confirmation_code")
                if tool.is_action and isinstance(code, str):
                    state.codes.append(code)
            if tool.chain_step is None or tool.chain_step[1] >= 2:
                state.done[tool.base_capability] = step
        return state

    @staticmethod
    def _tainted(step: Step, tool: ToolInfo, state: State) -> bool:
        return any(
            p.source == "field"
            and p.name in step.args
            and state.fields.get(p.key, object()) != step.args[p.name]
            for p in tool.params
        )

    def next_call(
        self, history: History, infos: list[ToolInfo], state: State
    ) -> tuple[tuple[str, dict] | None, str]:
        if state.abandon:
            return self._finish(infos, "aborted", f"Task aborted: {state.abandon}", state.abandon)
        subtasks = _subtasks(history.query, infos)
        if not subtasks:  # e.g. tau-bench or AppWorld tools: say so instead of pretending to be done
            reason = (
                "cannot plan: no tool carries the ToolMaze planning conventions (Capability, source tags)"
            )
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
                    return (
                        nxt.name,
                        args,
                    ), f"calling {nxt.name} for '{_label(capability, infos, history.query)}'"
            why = state.last_failure.get(capability, "no tool can be called with the values at hand")
            reason = (
                f"step '{_label(capability, infos, history.query)}' failed ({why}); no working route left"
            )
            return self._finish(infos, "aborted", f"Task aborted: {reason}", reason)
        answer = "done; confirmation codes: " + (", ".join(state.codes) or "none")
        return self._finish(infos, "done", answer, "all sub-tasks completed")

    def _finish(
        self, infos: list[ToolInfo], status: str, answer: str, reason: str
    ) -> tuple[tuple[str, dict] | None, str]:
        terminal = next((t for t in infos if t.is_terminal), None)
        answer = f"[scripted policy {self.name}] {answer}"
        if terminal is None:
            return None, answer
        values = {"status": status, "answer": answer, "reason": reason}
        return (terminal.name, {p.name: values[p.name] for p in terminal.params if p.name in values}), answer


def _subtasks(query: str, infos: list[ToolInfo]) -> list[str]:
    """Base capabilities in the order their labels appear in the query (tool order breaks ties)."""
    low = query.lower()
    pos: dict[str, tuple[int, int]] = {}
    for t in infos:
        if t.is_terminal or not t.capability:
            continue
        at = _find_label(low, t.label.lower())
        key = (at if at >= 0 else len(low) + t.index, t.index)
        cap = t.base_capability
        pos[cap] = min(pos.get(cap, key), key)
    return sorted(pos, key=pos.__getitem__)


def _find_label(query: str, label: str) -> int:
    """Where the longest word prefix (>= 2 words) of ``label`` occurs in ``query``, else -1."""
    phrase = _query_phrase(query, label)
    return query.find(phrase) if phrase else -1


def _query_phrase(query: str, label: str) -> str:
    """The longest word prefix (>= 2 words) of ``label`` found in ``query`` ("" when none)."""
    words = label.replace(",", " ").replace(":", " ").split()
    for n in range(len(words), 1, -1):
        if " ".join(words[:n]) in query:
            return " ".join(words[:n])
    return ""


def _label(capability: str, infos: list[ToolInfo], query: str) -> str:
    """The sub-task's phrase as the query words it (falls back to a tool's first sentence, then the id)."""
    labels = [t.label for t in infos if t.base_capability == capability and t.label]
    for label in labels:
        phrase = _query_phrase(query.lower(), label.lower())
        if phrase:
            return phrase
    return labels[0] if labels else capability
