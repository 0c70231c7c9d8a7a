"""Which BFCL task a conversation is, for the scripted players: by the user's words, the tools offered and
the results seen so far.

The four categories share questions (``base_N``, ``long_context_N``, ``miss_func_N`` and ``miss_param_N``
are one task told four ways): a candidate is a task whose turns so far are the user's words as the world
says them, which offers the tools offered now (miss_func withholds some until a later turn, where its
ground truth plans no call) and whose current turn calls only those. Where several remain, the one whose clean results match the results seen so far
at the most steps wins (long context's results carry the package's padding); where their plans part
before any result seen differs, the player makes one read with no required parameter whose result differs
between them (a probe, not a step of its plan) and follows the one it matches.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from environments.bfcl.calls import parse
from environments.bfcl.data import WORLD_CATEGORIES, Entry, entries
from environments.bfcl.provenance import clean_results, entry_of, simulated


@cache
def _index() -> dict[str, tuple[Entry, ...]]:
    out: dict[str, list[Entry]] = {}
    for cat in WORLD_CATEGORIES:
        for e in entries(cat):
            out.setdefault(e.said(0), []).append(e)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _names(text: str) -> str:
    return parse(text).name


@cache
def _offered(entry_id: str, turn: int) -> frozenset[str]:
    """The tools the world offers in this task's turn (miss_func withholds some until a later turn)."""
    from environments.bfcl.tools import class_tools

    e = entry_of(entry_id)
    later = {f for k, names in e.missed.items() if k > turn for f in names}
    return frozenset(t.name for t in class_tools(e.involved_classes, e.excluded) if t.name not in later)


def candidates(users: list[str], offered: set[str]) -> list[Entry]:
    """Tasks whose turns so far are ``users``, that offer ``offered`` now, and whose current turn calls
    only those tools."""
    turn = len(users) - 1
    out = []
    for e in _index().get(users[0], ()):
        if turn >= len(e.ground_truth) or [e.said(k) for k in range(turn + 1)] != users:
            continue
        if _offered(e.id, turn) == offered and all(_names(c) in offered for c in e.ground_truth[turn]):
            out.append(e)
    return out


def _shown(c: dict) -> str:
    return c["result"] if isinstance(c["result"], str) else json.dumps(c["result"])


def score(e: Entry, calls: list[dict]) -> int:
    """Steps whose result is this candidate's clean result, and probes whose result it predicts."""
    clean = clean_results(e.id)
    steps = sum(
        1
        for c in calls
        if not c["side"] and (c["turn"], c["pos"]) in clean and clean[(c["turn"], c["pos"])] == _shown(c)
    )
    probes = sum(
        1
        for c in calls
        if c["side"] == "probe" and simulated(e.id, c["before"], f"{c['name']}()") == _shown(c)
    )
    return steps + probes


def choose(cands: list[Entry], calls: list[dict]) -> Entry:
    if len(cands) == 1:
        return cands[0]
    return max(cands, key=lambda e: score(e, calls))  # max keeps the first (index order) on a tie


def probe(cands: list[Entry], chosen: Entry, turn: int, calls: list[dict], tools: list[dict]) -> str | None:
    """The first read with no required parameter whose result differs between tied candidates whose plans
    part here, unless one was made here already."""
    if len(cands) < 2:
        return None
    best = score(chosen, calls)
    tied = [e for e in cands if score(e, calls) == best]
    steps = tuple((c["turn"], c["pos"]) for c in calls if not c["side"])
    pos = sum(1 for c in calls if not c["side"] and c["turn"] == turn)

    def nxt(e: Entry) -> str | None:
        gt = e.ground_truth[turn] if turn < len(e.ground_truth) else ()
        return gt[pos] if pos < len(gt) else None

    if len(tied) < 2 or len({nxt(e) for e in tied}) < 2:
        return None
    if any(c["side"] == "probe" and c["before"] == steps for c in calls):
        return None  # probed here already and still tied: nothing tells them apart
    from environments.bfcl.tools import catalog

    cat = catalog()
    for schema in tools:
        fn: dict[str, Any] = schema.get("function", schema)
        name = str(fn.get("name", ""))
        spec = cat.get(name)
        if spec is None or spec.category != "read" or (fn.get("parameters") or {}).get("required"):
            continue
        if len({simulated(e.id, steps, f"{name}()") for e in tied}) > 1:
            return name
    return None
