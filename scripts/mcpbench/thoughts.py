"""@modelcontextprotocol/server-sequential-thinking (npm): chains of numbered thoughts on everyday problems.

Its one tool's result is structured JSON with an ``outputSchema``, the text block the same object indented:
the thought's number, the total now expected (raised when a thought's number passes it), whether another
thought is needed, the ids of the branches opened so far in the session and the length of the session's
thought history. The server keeps that history in memory only, so every session starts empty and the same
calls give the same results. The workload walks chains of thoughts one call at a time (its place in the
current chain kept in the fixture's facts): each chain plans a few thoughts, sometimes revises an earlier
one, branches from one, or finds it needs more, and its last thought says no more are needed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

PROBLEMS = (
    "why invoice {n} is {d} EUR off",
    "which of {n} warehouses should ship order {m}",
    "how to split {n} tasks among {who} and {who2}",
    "whether the {d}-minute build can finish before {h}:00",
    "why {n} of {m} sign-ups failed on {date}",
    "how many {unit} of paint {n} rooms need",
    "the cheapest route through {n} cities for {who}",
    "whether a loan of {m} EUR at {p}% pays off in {n} years",
    "what broke the nightly report on {date}",
    "how to seat {m} guests at {n} tables",
)
STEPS = (
    "List what is known: {n} items, {m} in total, last checked {date}.",
    "Assume {who} is right about the {d}-day delay and see what follows.",
    "Compute {n} x {d} = {nd} and compare it with the {m} expected.",
    "Check the edge case of {n} or fewer; it may need its own rule.",
    "Ask {who} for the figure from {date} before going on.",
    "Rule out the simple cause first: a typo in row {n}.",
    "Estimate: about {p}% of {m}, so roughly {pm}.",
    "Write down the plan: {n} steps, the first by {date}.",
    "Compare the two options: {n} against {m}; the first is {d} cheaper.",
    "Sum up: the answer is {nd}, with {p}% margin.",
)
REVISIONS = (
    "Thought {r} was wrong: the total is {m}, not {n}.",
    "Revisit thought {r}: {who} corrected the date to {date}.",
    "Thought {r} missed {d} items; redo the count.",
)
BRANCHES = ("cheap", "fast", "safe", "manual", "batch", "retry", "split", "defer")
UNITS = ("litres", "cans", "buckets")


def _fill(rng: random.Random, template: str, r: int = 1) -> str:
    n, m, d, p = rng.randrange(2, 40), rng.randrange(40, 5000), rng.randrange(1, 90), rng.randrange(1, 60)
    who, who2 = rng.sample(FIRST, 2)
    date = f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    return template.format(n=n, m=m, d=d, p=p, nd=n * d, pm=m * p // 100, who=who, who2=who2, date=date,
                           h=rng.randrange(6, 23), unit=rng.choice(UNITS), r=r)  # fmt: skip


def thoughts_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    # the server logs each thought to its stderr as a box; the switch it offers turns that off
    facts: dict[str, Any] = {"chain": None, "chains": 0}
    return Fixture(["env", "DISABLE_THOUGHT_LOGGING=true", *binary], facts)


def thoughts_call(rng: random.Random, fx: Fixture) -> Call:
    chain: dict[str, Any] | None = fx.facts["chain"]
    if chain is None:  # a new problem: a plan of a few thoughts
        fx.facts["chains"] += 1
        chain = {
            "k": 0,
            "total": rng.randrange(2, 9),
            "problem": _fill(rng, rng.choice(PROBLEMS)),
            "branch": None,
        }
        fx.facts["chain"] = chain
    chain["k"] += 1
    k, total = chain["k"], chain["total"]
    args: dict[str, Any] = {}
    r = rng.random()
    if k == 1:
        thought = f"Problem: {chain['problem']}. " + _fill(rng, rng.choice(STEPS))
    elif r < 0.15:
        revised = rng.randrange(1, k)
        thought = _fill(rng, rng.choice(REVISIONS), revised)
        args = {"isRevision": True, "revisesThought": revised}
    elif r < 0.27:
        chain["branch"] = f"{rng.choice(BRANCHES)}-{fx.facts['chains']}"
        args = {"branchFromThought": rng.randrange(1, k), "branchId": chain["branch"]}
        thought = f"Try the {chain['branch'].split('-')[0]} way instead. " + _fill(rng, rng.choice(STEPS))
    elif r < 0.37 and k >= total - 1:  # the plan was too short
        chain["total"] = total = total + rng.randrange(1, 4)
        args = {"needsMoreThoughts": True}
        thought = "More is needed than planned. " + _fill(rng, rng.choice(STEPS))
    else:
        thought = _fill(rng, rng.choice(STEPS))
    # now and then a thought numbered past the plan (the server raises its total to match)
    shown_total = total if rng.random() < 0.9 or k < 3 else max(1, k - 1)
    done = k >= total
    if done:
        fx.facts["chain"] = None
    # the input schema also takes "true" and "false" as strings, as a model may send them
    flag: Any = (not done) if rng.random() < 0.9 else str(not done).lower()
    return "sequentialthinking", {"thought": thought, "nextThoughtNeeded": flag, "thoughtNumber": k,
                                  "totalThoughts": shown_total, **args}  # fmt: skip
