"""Task selection and pairing: which (task, fault) each study runs, and the interleaved schedule.

Knows no particular world: tasks carry ``group_id`` and public ``strata``; a world's own fault
plan and its own selection rules come from its plugin. Selection rules (``study.selection.rule``):

- ``all``: every task of the split; ``params.where`` ({stratum: [values]}) keeps matching tasks.
- ``ids``: ``params.task_ids`` as listed.
- ``stratified_hash``: for each level in ``params.levels`` of the stratum ``params.by``, rank
  that level's groups by ``stable_int(seed, params.salt, group_id)``; the first ``per_cell`` get
  ``values[0]`` of the stratum ``params.assign``, the next ``per_cell`` ``values[1]`` and so on;
  the task run is the group's task with that value. The frozen list is ordered by that same rank
  (ties broken by level order), so ``limit=N`` keeps a mix.
- any other rule is asked of the world's plugin (``Plugin.select``).

Pairing: every (task, model, replicate, trial) gets one episode per arm with identical task, fault and
seed; all episodes share a ``pair_id`` except for the arm. The whole list is shuffled with
``rng(seed, "schedule")``. Knows nothing about models or monitors.

Trials (``trials: k``): each pair is played k times. A trial repeats the same task under the same fault
and episode seed; what differs is every model's sampling stream (agent, simulated user, reviewer:
:func:`sampling_draw`, derived from the config seed). Trial 0 is the pair as it was before trials
existed: its ids, draw and record are unchanged, so ``trials: 1`` reproduces earlier runs exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from core.plugin import Plugin
from core.protocol import Environment, Task
from core.seeding import rng, stable_int
from harness.records import make_episode_id, make_pair_id

GENERIC_RULES = ("all", "ids", "stratified_hash")


@dataclass(frozen=True)
class Selected:
    """One task of the frozen list, with the fault it runs under.

    ``fault_label`` enters the episode and pair ids; ``fault_class`` is what records call the fault.
    """

    task_id: str
    group_id: str
    fault_label: str
    fault_class: str
    fault_kind: str
    strata: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EpisodeSpec:
    """Everything that identifies one episode; arms of a pair differ only in ``arm``."""

    study: str
    arm: str
    model: str
    task_id: str
    group_id: str
    fault_class: str
    fault_kind: str
    seed: int
    replicate: int
    strata: Mapping[str, str]
    episode_id: str
    pair_id: str
    trial: int = 0  # 0..trials-1; both arms of a pair share it

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if not self.trial:  # trial 0 is written as before trials existed (transcripts unchanged)
            del out["trial"]
        return out

    @property
    def draw(self) -> int:
        """The sampling stream of every model call of this episode (the reply cache keys on it)."""
        return sampling_draw(self.seed, self.replicate, self.trial)


TRIAL_DRAW_BITS = 30  # a provider's seed is often a signed 32-bit integer: model seed + draw stays below it


def sampling_draw(seed: int, replicate: int, trial: int) -> int:
    """What is added to each model's sampling seed (and enters the reply cache key): the replicate for
    trial 0, as before trials existed; for a later trial, a number derived from the config seed, the
    replicate and the trial (never the clock), far from any replicate index."""
    if trial == 0:
        return int(replicate)
    return (
        (1 << TRIAL_DRAW_BITS)
        - 1
        - stable_int(seed, "trial", int(replicate), int(trial), bits=64) % (1 << (TRIAL_DRAW_BITS - 1))
    )


class SelectionError(ValueError):
    """A study's selection cannot be made from this world."""


def _fault_of(
    env: Environment, plugin: Plugin, task: Task, injected: tuple[str, str] | None, fault_name: str
) -> tuple[str, str, str]:
    """(label, fault_class, fault_kind): the injector's fault, else the world's own plan, else none."""
    if injected is not None:
        return injected[0], injected[0], injected[1]
    planned = plugin.planned_fault(env, task)
    if planned is not None:
        return planned.label, planned.fault_class, planned.fault_kind
    return fault_name, fault_name, "none"


def select_tasks(
    env: Environment,
    plugin: Plugin,
    split: str,
    rule: str,
    params: Mapping[str, Any],
    seed: int,
    injected: tuple[str, str] | None = None,
    fault_name: str = "none",
    limit: int | None = None,
) -> list[Selected]:
    """The frozen list of a study (first ``limit`` entries when given).

    ``injected`` is (fault name, kind) of the run's fault injector, if any; otherwise each task's
    fault is the world's own (``Plugin.planned_fault``) or ``fault_name``.
    """
    if rule == "all":
        where = {k: {str(v) for v in vs} for k, vs in (params.get("where") or {}).items()}
        chosen = [t for t in env.tasks(split) if all(str(t.strata.get(k)) in vs for k, vs in where.items())]
    elif rule == "ids":
        chosen = [env.task(tid) for tid in params["task_ids"]]
    elif rule == "stratified_hash":
        chosen = _stratified(env.tasks(split), params, seed)
    else:
        picked = plugin.select(env, rule, params, seed)
        if picked is None:
            raise SelectionError(
                f"unknown selection rule {rule!r}: not one of {GENERIC_RULES} and not a rule "
                f"of environment {plugin.name!r}"
            )
        chosen = picked
    out = []
    for t in chosen:
        label, fault_class, fault_kind = _fault_of(env, plugin, t, injected, fault_name)
        out.append(Selected(t.task_id, t.group_id, label, fault_class, fault_kind, dict(t.strata)))
    return out[:limit] if limit else out


def _stratified(tasks: Sequence[Task], params: Mapping[str, Any], seed: int) -> list[Task]:
    missing = [k for k in ("salt", "by", "levels", "assign", "values", "per_cell") if k not in params]
    if missing:
        raise SelectionError(f"stratified_hash needs params {missing}")
    salt, by, assign = params["salt"], str(params["by"]), str(params["assign"])
    values = [str(v) for v in params["values"]]
    per_cell = int(params["per_cell"])
    levels = [str(v) for v in params["levels"]]
    groups: dict[str, set[str]] = {lv: set() for lv in levels}
    by_group: dict[tuple[str, str], Task] = {}
    for t in tasks:
        lv = t.strata.get(by)
        if lv is None:
            raise SelectionError(f"task {t.task_id!r} has no stratum {by!r} (its strata: {sorted(t.strata)})")
        if str(lv) in groups:
            groups[str(lv)].add(t.group_id)
        by_group[(t.group_id, str(t.strata.get(assign)))] = t
    picked: list[tuple[int, int, str, str]] = []  # (rank key, level order, group, assigned value)
    for li, lv in enumerate(levels):
        ranked = sorted(groups[lv], key=lambda g: (stable_int(seed, salt, g), g))
        need = per_cell * len(values)
        if len(ranked) < need:
            raise SelectionError(f"selection needs {need} groups with {by}={lv}, the split has {len(ranked)}")
        for i, gid in enumerate(ranked[:need]):
            picked.append((stable_int(seed, salt, gid), li, gid, values[i // per_cell]))
    picked.sort()
    out = []
    for _, _, gid, value in picked:
        if (gid, value) not in by_group:
            raise SelectionError(f"group {gid!r} has no task with {assign}={value}")
        out.append(by_group[(gid, value)])
    return out


def build_schedule(
    study: str,
    selected: Sequence[Selected],
    arms: Sequence[str],
    models: Sequence[str],
    seed: int,
    replicates: int = 1,
    trials: int = 1,
) -> list[EpisodeSpec]:
    """Every (task, model, replicate, trial) x arm, shuffled with the frozen seed (arms interleaved)."""
    episodes = []
    for s in selected:
        for model in models:
            for rep in range(replicates):
                for trial in range(trials):
                    pid = make_pair_id(study, model, s.task_id, s.fault_label, seed, rep, trial)
                    for arm in arms:
                        episodes.append(
                            EpisodeSpec(
                                study=study,
                                arm=arm,
                                model=model,
                                task_id=s.task_id,
                                group_id=s.group_id,
                                fault_class=s.fault_class,
                                fault_kind=s.fault_kind,
                                seed=seed,
                                replicate=rep,
                                strata=dict(s.strata),
                                episode_id=make_episode_id(
                                    study, arm, model, s.task_id, s.fault_label, seed, rep, trial
                                ),
                                pair_id=pid,
                                trial=trial,
                            )
                        )
    rng(seed, "schedule").shuffle(episodes)
    return episodes
