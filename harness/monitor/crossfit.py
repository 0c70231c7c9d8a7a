"""Cross-fitting by workflow: the registry that checks a workflow never saw any of its traces.

``fold_of`` maps a workflow id to its fold deterministically (seeded, balanced for numbered
workflows); ``build_crossfit`` uses exactly that map and records it in ``CrossFit``.
Knows nothing about receipts or environments.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from outcome_monitor.learning.admit import admit
from outcome_monitor.learning.candidates import Collected
from outcome_monitor.learning.collect import collect
from outcome_monitor.learning.executions import gc_paused, index_executions
from outcome_monitor.registry import FORMAT_VERSION, Registry, learn
from outcome_monitor.thresholds import DEFAULT, Thresholds

from core.seeding import rng, stable_int

CROSSFIT_KIND = "outcome-monitor-crossfit"


def workflow_of(row: Mapping[str, Any]) -> str:
    """The cross-fitting group of a trace row: ``group_id``, else ``workflow_id``, else its task id."""
    return str(row.get("group_id") or row.get("workflow_id") or row.get("task_id", ""))


def fold_of(workflow_id: str, n_folds: int = 5, seed: int = 0) -> int:
    """The fold of one workflow, from its id alone (so the runner can record it per episode).

    Ids ending in a number (``C3_task_017``) are dealt in blocks of ``n_folds`` consecutive
    numbers per prefix, each block through its own seeded permutation of the folds: exactly
    balanced for consecutively numbered workflows and
    stratified by prefix. Other ids fall back to a seeded hash bucket.
    """
    head, _, tail = workflow_id.rpartition("_")
    if not tail.isdigit():
        return stable_int(seed, "monitor-fold", workflow_id) % n_folds
    num = int(tail)
    slots = list(range(n_folds))
    rng(seed, "monitor-fold", head, num // n_folds).shuffle(slots)
    return slots[num % n_folds]


def assign_folds(workflow_ids: Iterable[str], n_folds: int = 5, seed: int = 0) -> dict[str, int]:
    return {w: fold_of(w, n_folds, seed) for w in sorted(set(workflow_ids))}


@dataclass
class CrossFit:
    """``n_folds`` registries; fold k's registry was learned without any trace of fold k."""

    registries: list[Registry]
    assignment: dict[str, int]
    n_folds: int = 5
    seed: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    def fold(self, workflow_id: str) -> int:
        if workflow_id in self.assignment:
            return self.assignment[workflow_id]
        return fold_of(workflow_id, self.n_folds, self.seed)

    def registry_for(self, workflow_id: str) -> Registry:
        return self.registries[self.fold(workflow_id)]

    @property
    def n_rules(self) -> int:
        return sum(r.n_rules for r in self.registries)

    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "kind": CROSSFIT_KIND,
            "n_folds": self.n_folds,
            "seed": self.seed,
            "meta": self.meta,
            "assignment": dict(sorted(self.assignment.items())),
            "registries": [r.to_json() for r in self.registries],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> CrossFit:
        if obj.get("format_version") != FORMAT_VERSION or obj.get("kind") != CROSSFIT_KIND:
            raise ValueError("not a cross-fit registry file of this format version")
        regs = [Registry.from_json(r) for r in obj["registries"]]
        return cls(regs, dict(obj["assignment"]), obj["n_folds"], obj["seed"], dict(obj.get("meta", {})))

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False, default=repr) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CrossFit:
        return cls.from_json(json.loads(Path(path).read_text()))


def split_by_fold(
    traces: Sequence[Mapping[str, Any]], assignment: Mapping[str, int]
) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Mapping[str, Any]]] = {}
    for row in traces:
        out.setdefault(assignment[workflow_of(row)], []).append(row)
    return out


def build_crossfit(
    traces: Iterable[Mapping[str, Any]],
    n_folds: int = 5,
    seed: int = 0,
    thresholds: Thresholds = DEFAULT,
    schema_only: bool = False,
    vocabulary: str = "paper",
) -> CrossFit:
    """Learn fold k's registry from the traces of every other fold.

    Traces are indexed and flattened once; an execution trains fold k when it occurred in some
    workflow outside fold k. A tool whose training set is the same for several folds (it never
    occurs in them) is mined once for all of them. ``vocabulary="wide"``: each fold is ``learn``'s
    wider vocabulary over the other folds' rows (errors set aside, views, the new classes).
    """
    if vocabulary != "paper":
        rows = list(traces)
        assignment = assign_folds((workflow_of(r) for r in rows), n_folds, seed)
        registries = []
        for k in range(n_folds):
            reg = learn(
                [r for r in rows if assignment[workflow_of(r)] != k], thresholds, vocabulary=vocabulary
            )
            reg.meta.update({"fold": k, "n_folds": n_folds, "seed": seed})
            registries.append(reg)
        return CrossFit(registries, assignment, n_folds, seed, {"n_workflows": len(assignment)})
    with gc_paused():
        return _build_crossfit(list(traces), n_folds, seed, thresholds, schema_only)


def _build_crossfit(
    rows: list[Mapping[str, Any]], n_folds: int, seed: int, thresholds: Thresholds, schema_only: bool
) -> CrossFit:
    assignment = assign_folds((workflow_of(r) for r in rows), n_folds, seed)
    index = index_executions(rows, lambda r: assignment[workflow_of(r)])
    per_fold: list[list[Collected]] = [[] for _ in range(n_folds)]
    for tool, executions in index.items():
        memo: dict[tuple[int, ...], Collected] = {}
        for k in range(n_folds):
            chosen = tuple(i for i, e in enumerate(executions) if e.groups - {k})
            if not chosen:
                continue
            if chosen not in memo:
                memo[chosen] = collect(tool, [executions[i] for i in chosen], schema_only, th=thresholds)
            per_fold[k].append(memo[chosen])
    registries = []
    for k in range(n_folds):
        meta = {
            "source": "traces",
            "fold": k,
            "n_folds": n_folds,
            "seed": seed,
            "thresholds": thresholds.to_json(),
            "train_workflows": sum(1 for f in assignment.values() if f != k),
        }
        if schema_only:
            meta["variant"] = "schema-only"
        registries.append(Registry(admit(per_fold[k], thresholds), meta))
    return CrossFit(registries, assignment, n_folds, seed, {"n_workflows": len(assignment)})


def build_fold(
    traces: Iterable[Mapping[str, Any]],
    fold: int,
    n_folds: int = 5,
    seed: int = 0,
    thresholds: Thresholds = DEFAULT,
) -> Registry:
    """Just fold ``fold``'s registry (same assignment as ``build_crossfit``)."""
    rows = list(traces)
    assignment = assign_folds((workflow_of(r) for r in rows), n_folds, seed)
    reg = learn([r for r in rows if assignment[workflow_of(r)] != fold], thresholds, vocabulary="paper")
    reg.meta.update({"fold": fold, "n_folds": n_folds, "seed": seed})
    return reg
