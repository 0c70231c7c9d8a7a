"""The judge interface of the stock policies: verdicts, once-drawn decisions, what a judge may ask.

A policy's ``judge(step, tool, state, decisions) -> Verdict`` says what it makes of one tool result;
both planners (with a world's conventions, and generic) replay every result through it. Random
choices go through ``Decisions`` so each is drawn once and written into the policy's message.
Knows no planner and no world.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from core.players import ToolInfo
from harness.agents.policies._history import Receipt, Step

MAX_ATTEMPTS = 2  # failed attempts at one tool (or one call) before the planner moves on (i.e. one retry)


@dataclass
class Verdict:
    """What a policy makes of one tool result."""

    bad: bool = False  # do not use its values; counts as a failed attempt at the tool
    switch_to: str | None = None  # leave the tool now and prefer the route holding this tool
    abandon: str | None = None  # give up the whole task, with this reason
    why: str = ""


class JudgeState(Protocol):
    """What a judge may ask of the planner's state, in either mode."""

    def usable_recovery(self, step: Step, receipt: Receipt) -> str | None:
        """The first listed recovery tool the policy could switch to now, or None."""
        ...


class Decisions:
    """Stochastic choices, each made once: read back from earlier turns' notes or drawn now."""

    def __init__(self, notes: dict[str, str], rng: random.Random) -> None:
        self.fresh: dict[str, str]
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


# (step, its tool or None, the planner's state, decisions) -> verdict: a policy's judge hook
Judge = Callable[[Step, ToolInfo | None, JudgeState, Decisions], Verdict]
