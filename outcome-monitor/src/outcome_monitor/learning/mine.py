"""Contract mining in two phases: per tool, every candidate rule that holds on all of the tool's
clean examples (with its evidence); then across tools, pooling of evidence by comparability.

Phase 1 (``collect``) flattens one tool's executions into rows per context and proposes, for each
rule class, the candidates no example contradicts, plus the templates some example falsifies.
Phase 2 (``admit``) pools evidence for the same template, i.e. the same class over the same field
names (``valid_from <= valid_to``, ``subtotal == quantity * unit_price``), across the tools that
carry those fields (Daikon's comparability by name): a template is admitted only if no tool
falsifies it and the pooled evidence meets the class threshold; then implied rules are removed per
tool. Knows nothing about receipts, folds or the CLI.

This module is the entry (``mine_tool``, ``mine_executions``) and names what callers import; the
work lives in the modules it reads from, in the order a build runs them:

- ``executions.py``: ``Execution`` (a distinct clean execution, flattened once), ``index_executions``,
  ``gc_paused``
- ``mapdetect.py``: ``detect_maps``, maps keyed by ids, from shape
- ``collect.py``: phase 1 per context: required, type, sign and domain candidates
- ``relations.py``: equalities, echoes, affine, product and sum relations, date orders, selections
- ``ledgers.py``: guarded ledgers (``net(list[*].x by k: p - m)``)
- ``candidates.py``: ``Candidate``, its pooling key (``TemplateKey``, ``DomainKey``), ``Collected``
- ``admit.py``: phase 2: pooling, thresholds, domains (``unseen_half``), suppression
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.admit import admit, unseen_half
from outcome_monitor.learning.candidates import Candidate, Collected, DomainKey, TemplateKey
from outcome_monitor.learning.collect import collect
from outcome_monitor.learning.executions import Execution, gc_paused, group_executions, index_executions
from outcome_monitor.learning.mapdetect import detect_maps
from outcome_monitor.thresholds import DEFAULT, Thresholds


def mine_tool(
    tool: str,
    executions: list[tuple[dict[str, Any], Any]],
    th: Thresholds = DEFAULT,
    schema_only: bool = False,
) -> list[Rule]:
    """Rules of one tool from its own executions only (no pooling with other tools)."""
    return admit(
        [collect(tool, [Execution(dict(a), r) for a, r in executions], schema_only, _floor(th), th)], th
    )


def _floor(th: Thresholds) -> int:
    """Fewer present values than this admit no rule of a field (every class needs at least this
    many examples, distinct values or pairs). Only a lone ``admit`` may skip such fields: pooled
    with other tools, their falsified templates still count."""
    return min(th.min_presence, th.min_pair_samples, th.min_distinct_sign, th.min_distinct_dates)


def mine_executions(
    tool: str, executions: Iterable[Execution], th: Thresholds = DEFAULT, schema_only: bool = False
) -> list[Rule]:
    return admit([collect(tool, executions, schema_only, th=th)], th)


__all__ = [
    "Candidate",
    "Collected",
    "DomainKey",
    "Execution",
    "TemplateKey",
    "admit",
    "gc_paused",
    "collect",
    "detect_maps",
    "group_executions",
    "index_executions",
    "mine_executions",
    "mine_tool",
    "unseen_half",
]
