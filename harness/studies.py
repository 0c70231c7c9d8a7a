"""Task selection and pairing: which (task, fault) each study runs, and the interleaved schedule.

Selection rules (``study.selection.rule``):

- ``all``: every task of the split (``params.modes`` optionally keeps tasks whose meta mode matches).
- ``ids``: ``params.task_ids`` as listed.
- ``stratified_hash``: for each complexity in ``params.complexities``, rank that complexity's
  workflows by ``stable_int(seed, params.salt, workflow_id)``; the first ``per_cell`` get
  ``modes[0]``, the next ``per_cell`` get ``modes[1]`` and so on. The task run is
  ``<workflow_id>_<mode>`` (ToolMaze's naming). The frozen list is ordered by that same rank
  (ties across complexities broken by complexity order), so ``limit=N`` keeps a mix.

Pairing: every (task, model, replicate) gets one episode per arm with identical task, fault and
seed; all episodes share a ``pair_id`` except for the arm. The whole list is shuffled with
``rng(seed, "schedule")``. Knows nothing about models or monitors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from environments.base import Environment, Task
from environments.seeding import rng, stable_int
from harness.records import make_episode_id, make_pair_id

# ToolMaze modes -> the record's fault_kind (the runner then sets fault_class to the payload kind)
TOOLMAZE_FAULT_KINDS = {
    "P0": "none",
    "P1": "explicit_transient",
    "P2": "explicit_permanent",
    "P3": "implicit_transient",
    "P4": "implicit_permanent",
}


@dataclass(frozen=True)
class Selected:
    """One task of the frozen list, with the fault it runs under."""

    task_id: str
    workflow_id: str
    fault_class: str
    fault_kind: str
    complexity: str | None = None
    mode: str | None = None


@dataclass(frozen=True)
class EpisodeSpec:
    """Everything that identifies one episode; arms of a pair differ only in ``arm``."""

    study: str
    arm: str
    model: str
    task_id: str
    workflow_id: str
    fault_class: str
    fault_kind: str
    seed: int
    replicate: int
    complexity: str | None
    mode: str | None
    episode_id: str
    pair_id: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _meta(task: Task, key: str) -> Any:
    return (task.meta or {}).get(key)


def _fault_of(task: Task, injected: tuple[str, str] | None, fault_name: str) -> tuple[str, str]:
    """(fault_class, fault_kind): the injector's fault when there is one, else the environment's own mode."""
    if injected is not None:
        return injected
    mode = _meta(task, "mode")
    if mode in TOOLMAZE_FAULT_KINDS:
        return str(mode), TOOLMAZE_FAULT_KINDS[mode]
    return fault_name, "none"


def select_tasks(
    env: Environment, split: str, rule: str, params: Mapping[str, Any], seed: int,
    injected: tuple[str, str] | None = None, fault_name: str = "none", limit: int | None = None,
) -> list[Selected]:
    """The frozen list of a study (first ``limit`` entries when given).

    ``injected`` is (fault_class, kind) of the run's fault injector, if any; otherwise each task's
    fault is the environment's own (ToolMaze mode) or ``fault_name``.
    """
    tasks = env.tasks(split)
    if rule == "all":
        modes = params.get("modes")
        chosen = [t for t in tasks if not modes or _meta(t, "mode") in modes]
    elif rule == "ids":
        chosen = [env.task(tid) for tid in params["task_ids"]]
    elif rule == "stratified_hash":
        chosen = _stratified(env, tasks, params, seed)
    else:
        raise ValueError(f"unknown selection rule '{rule}' (all | ids | stratified_hash)")
    out = []
    for t in chosen:
        fault_class, fault_kind = _fault_of(t, injected, fault_name)
        out.append(Selected(t.task_id, t.workflow_id, fault_class, fault_kind, _meta(t, "complexity"), _meta(t, "mode")))
    return out[:limit] if limit else out


def _stratified(env: Environment, tasks: Sequence[Task], params: Mapping[str, Any], seed: int) -> list[Task]:
    salt = params["salt"]
    modes = list(params["modes"])
    per_cell = int(params["per_cell"])
    complexities = list(params["complexities"])
    workflows: dict[str, set[str]] = {c: set() for c in complexities}
    for t in tasks:
        c = _meta(t, "complexity")
        if c in workflows:
            workflows[c].add(t.workflow_id)
    picked: list[tuple[int, int, str, str]] = []  # (rank key, complexity order, workflow, mode)
    for ci, c in enumerate(complexities):
        ranked = sorted(workflows[c], key=lambda w: (stable_int(seed, salt, w), w))
        need = per_cell * len(modes)
        if len(ranked) < need:
            raise ValueError(f"selection needs {need} {c} workflows, the split has {len(ranked)}")
        for i, wid in enumerate(ranked[:need]):
            picked.append((stable_int(seed, salt, wid), ci, wid, modes[i // per_cell]))
    picked.sort()
    return [env.task(f"{wid}_{mode}") for _, _, wid, mode in picked]


def build_schedule(
    study: str, selected: Sequence[Selected], arms: Sequence[str], models: Sequence[str], seed: int,
    replicates: int = 1,
) -> list[EpisodeSpec]:
    """Every (task, model, replicate) x arm, shuffled with the frozen seed (arms interleaved)."""
    episodes = []
    for s in selected:
        for model in models:
            for rep in range(replicates):
                pid = make_pair_id(study, model, s.task_id, s.fault_class, seed, rep)
                for arm in arms:
                    episodes.append(
                        EpisodeSpec(
                            study=study, arm=arm, model=model, task_id=s.task_id, workflow_id=s.workflow_id,
                            fault_class=s.fault_class, fault_kind=s.fault_kind, seed=seed, replicate=rep,
                            complexity=s.complexity, mode=s.mode,
                            episode_id=make_episode_id(study, arm, model, s.task_id, s.fault_class, seed, rep),
                            pair_id=pid,
                        )
                    )
    rng(seed, "schedule").shuffle(episodes)
    return episodes
