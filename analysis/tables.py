"""Every table of a run, from records: :func:`all_tables`, read as the run's ``world.json`` says.

The tables live in modules named for what they are about; this module assembles them (the ablations
in a forked child when asked) and keeps the names callers have always imported from here:

- :mod:`analysis.table`: the :class:`Table`, its Markdown, the labels and units every table repeats;
- :mod:`analysis.table1`: Table 1, its strata and its per-fault rows;
- :mod:`analysis.contrasts`: the ablation contrasts and the boundaries;
- :mod:`analysis.receipts`: post-receipt actions, admissible recovery actions, fire rates;
- :mod:`analysis.costs`: cost per episode and by role;
- :mod:`analysis.trials`: repeated trials (pass^k, flips, nested-bootstrap CIs).

Every number is computed from records; the paper's published numbers stand beside them, labelled
"paper". Runs of scripted policies say so in every title. Nothing here plots, runs or imports litellm.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from analysis.contrasts import ablations, boundaries
from analysis.costs import cost, cost_roles
from analysis.load import World, build_pairs, has_endpoint
from analysis.receipts import admissible, fire_rates, post_receipt_actions
from analysis.table import (
    ENDPOINT_LABELS,
    POLICY_CAPTIONS,
    RUN_LABEL,
    SCRIPTED_LABEL,
    TABLE1_COLUMNS,
    TABLE1_EXTRA,
    TABLE1_NAMES,
    UNIT_CLUSTERS,
    UNIT_PAIRS,
    Table,
    fault_names,
    format_cell,
    injected_faults,
    markdown_table,
    select_study,
)
from analysis.table1 import every_stratum_nonnegative, table1, table1_faults, table1_strata
from analysis.trials import n_trials, trials_tables
from analysis.view import PAPER_LABEL, View, resolve

# the names callers have always imported from here, whichever module now holds them
__all__ = [
    "ENDPOINT_LABELS",
    "PAPER_LABEL",
    "POLICY_CAPTIONS",
    "RUN_LABEL",
    "SCRIPTED_LABEL",
    "TABLE1_COLUMNS",
    "TABLE1_EXTRA",
    "TABLE1_NAMES",
    "Table",
    "UNIT_CLUSTERS",
    "UNIT_PAIRS",
    "ablations",
    "admissible",
    "all_tables",
    "boundaries",
    "cost",
    "cost_roles",
    "every_stratum_nonnegative",
    "fault_names",
    "fire_rates",
    "fork_context",
    "format_cell",
    "markdown_table",
    "post_receipt_actions",
    "table1",
    "table1_faults",
    "table1_strata",
]


def all_tables(
    records: pd.DataFrame,
    replication: Iterable[str] = (),
    study: str | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    n_flips: int = 100_000,
    workers: int = 1,
    world: World | View | None = None,
) -> list[Table]:
    """Every table, read as the run's ``world.json`` (``world``; None: a run without one) says. A study
    that played several injected faults also gets ``table1_faults``. With ``workers`` > 1 the ablation
    contrasts (the heaviest table: a bootstrap per contrast and model) are computed in a forked child while
    this process computes the rest; the tables are the same either way (every draw comes from its own
    seeded generator)."""
    kw = {"seed": seed, "n_resamples": n_resamples, "n_flips": n_flips}
    view = resolve(world, records)
    pool = _forked_pool() if workers > 1 else None
    abl = pool.submit(ablations, records, study=study, world=view, **kw) if pool is not None else None
    try:
        t1 = [table1(records, replication, study, world=view, **kw)]
        if has_endpoint(select_study(records, study), "outcome_correct"):
            t1.append(table1(records, replication, study, endpoint="outcome_correct", world=view, **kw))
        else:
            t1[0].notes.append(
                "no record carries outcome_correct (an older run or another world): no table1_outcome"
            )
        if injected_faults(build_pairs(select_study(records, study)).pairs):
            t1.append(table1_faults(records, study, world=view, **kw))
        strata = table1_strata(
            records, study, seed=seed, n_resamples=min(n_resamples, 2_000), n_flips=n_flips, world=view
        )
        rest = [
            boundaries(records, world=view, **kw),
            post_receipt_actions(records, world=view),
            admissible(records, world=view),
            cost(records, world=view),
            cost_roles(records, world=view),
            fire_rates(records, world=view),
        ]
        # repeated trials (trials: k): pass^k, flips, nested-bootstrap CIs; none for a one-trial run
        repeated = trials_tables(records, study, seed=seed, n_resamples=n_resamples, world=view)
        if repeated:  # said where the pairs are counted: a task's trials are pairs of one cluster here
            for t in t1:
                t.notes.append(
                    f"{n_trials(select_study(records, study))} trials per pair: n counts every trial's pair, clustered "
                    f"with its {view.unit} (ci_low/ci_high resample {view.units} with all their trials, the sign-flip "
                    "flips them whole); pass^k, flips and the one-trial CI beside this one: trials_pass, trials_flips, trials_effect"
                )
        abl_table = abl.result() if abl is not None else ablations(records, study=study, world=view, **kw)
    finally:
        if pool is not None:
            pool.shutdown()
    return [*t1, strata, abl_table, *rest, *repeated]


def fork_context():
    """A fork context (a child inherits the records and every import), or None where there is none."""
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


def _forked_pool():
    """One forked worker, or None where fork does not exist."""
    from concurrent.futures import ProcessPoolExecutor

    ctx = fork_context()
    return ProcessPoolExecutor(max_workers=1, mp_context=ctx) if ctx is not None else None
