"""Notices: where something plugged into a run does nothing, or less than it seems, said out loud.

A project about silent failures must not fail silently where it is extended. Each notice is a
WARNING in ``run.log`` (once), a count in ``manifest.json`` (``notices``), a code on the records of
the episodes it concerns (``notices``), and a line in the tables' notes and the report. With
``strict=true`` a notice known before the first episode stops the run there instead.

Kinds (``KINDS``): a stock scripted player reading the world's schemas alone (no player or
conventions of the world's own), an arm that changes nothing for a model or world, a monitor
without any rule, tools the clean traces call that carry no rule, a fault that found no target
in an episode. Knows no particular world.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from harness.records.schema import NOTICE_KINDS

log = logging.getLogger(__name__)

KINDS = NOTICE_KINDS


class StrictError(ValueError):
    """``strict=true`` and a notice known before the first episode."""


@dataclass(frozen=True)
class Notice:
    kind: str  # one of KINDS
    subject: str  # what it concerns: a model, an arm, a fold, a tool, a fault
    detail: str  # one line for a person
    arms: tuple[str, ...] = ()  # the episodes it concerns: these arms (empty: every arm)
    models: tuple[str, ...] = ()  # ... and these models (empty: every model)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown notice kind {self.kind!r}; known: {sorted(KINDS)}")

    @property
    def code(self) -> str:
        """What a record carries: ``kind:subject``."""
        return f"{self.kind}:{self.subject}"

    def applies_to(self, arm: str, model: str) -> bool:
        return (not self.arms or arm in self.arms) and (not self.models or model in self.models)


@dataclass
class Board:
    """The run's notices, each logged once when added."""

    notices: list[Notice] = field(default_factory=list)

    def add(self, notice: Notice) -> None:
        if notice in self.notices:
            return
        self.notices.append(notice)
        log.warning("%s: %s", notice.kind, notice.detail)

    def extend(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.add(notice)

    def codes_for(self, arm: str, model: str) -> list[str]:
        return [n.code for n in self.notices if n.applies_to(arm, model)]

    def enforce(self, strict: bool) -> None:
        """With ``strict``, every notice so far stops the run, before its first episode."""
        if strict and self.notices:
            lines = "; ".join(f"{n.kind}: {n.detail}" for n in self.notices)
            raise StrictError(
                f"strict=true and {len(self.notices)} notice(s) before the first episode: {lines}"
            )

    def manifest(self, episode_codes: Counter[str] | None = None) -> dict[str, Any]:
        """The manifest's ``notices``: each notice, and per kind how many notices and episodes it covers."""
        episode_codes = episode_codes or Counter()
        kinds = Counter(n.kind for n in self.notices)
        for code in episode_codes:
            kinds.setdefault(code.partition(":")[0], 0)
        return {
            "counts": {k: kinds[k] for k in sorted(kinds)},
            "episodes": {code: n for code, n in sorted(episode_codes.items())},
            "items": [asdict(n) for n in self.notices],
        }
