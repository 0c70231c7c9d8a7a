"""A study's fingerprint: hashes of everything that decides what its episodes are, for ``verify``.

Computed from a plan (and, for contracts, from the registries a run builds): the frozen task list
with its faults and seeds, the prompts each arm's agents get, the resolved arm and model specs,
the world's data, the contract registries. ``python -m harness.verify --run DIR`` recomputes them
from the checkout and names every key that changed, so a study prespecified before it ran can be
shown unchanged afterwards. Knows no world; asks the plan and the plugin.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from core.seeding import sha256_hex
from harness.agents import prompts


def prompt_texts() -> dict[str, Any]:
    """Every text the harness puts in front of an agent (arm prompts, receipt and call notices)."""
    return {
        "prompts": dict(prompts.PROMPTS),
        "deferred_prefix": prompts.DEFERRED_PREFIX,
        "ignored_call": prompts.IGNORED_CALL,
        "malformed_arguments": prompts.MALFORMED_ARGUMENTS,
    }


def plan_fingerprint(plan: Any) -> dict[str, Any]:
    """Key -> hash (or small value) of what the plan fixes before any episode."""
    schedule = sorted(
        (
            ep.episode_id,
            ep.pair_id,
            ep.task_id,
            ep.group_id,
            ep.fault_class,
            ep.fault_kind,
            ep.seed,
            ep.replicate,
            *((ep.trial,) if ep.trial else ()),  # trial 0 as before trials existed: old fingerprints hold
        )
        for ep in plan.schedule
    )
    cfg = plan.cfg
    return {
        "task_list": sha256_hex(sorted({(e[2], e[4]) for e in schedule})),
        "schedule": sha256_hex(schedule),
        "seeds": {
            "seed": cfg.seed,
            "replicates": cfg.replicates,
            **({"trials": cfg.trials} if cfg.trials != 1 else {}),
            "monitor_seed": cfg.monitor.seed,
            "n_folds": cfg.monitor.n_folds,
        },
        "prompts": sha256_hex(prompt_texts()),
        "arms": {name: sha256_hex(dataclasses.asdict(arm)) for name, arm in sorted(plan.arms.items())},
        "models": {name: sha256_hex(dataclasses.asdict(spec)) for name, spec in sorted(plan.models.items())},
        "user_model": sha256_hex(dataclasses.asdict(plan.user)) if plan.user is not None else None,
        "faults": {
            name: sha256_hex(dataclasses.asdict(inj.spec)) for name, inj in sorted(plan.faults.items())
        },
        "env_data": plan.plugin.data_digest(plan.env),
        "instructions": sha256_hex(sorted({plan.env.task(t).instructions for t in {e[2] for e in schedule}})),
    }


def registries_digest(folder: Path) -> str | None:
    """One hash over the contract registries a run built (``registries/*.json``)."""
    files = sorted(folder.glob("*.json")) if folder.exists() else []
    return sha256_hex([[f.name, sha256_hex(f.read_bytes())] for f in files]) if files else None
