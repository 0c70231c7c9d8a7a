"""The incident-derived fault suite: load ``incidents.yaml``, flatten it to faults, summarise it.

The suite data sits beside this module and is written from incident reports and data shapes only;
this module must not read the monitor (the suite measures the monitor, it is not tuned to it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness.faults.classes import get_class

SUITE_PATH = Path(__file__).with_name("incidents.yaml")


@dataclass(frozen=True)
class IncidentFault:
    id: str
    type: str
    kind: str  # "structured" | "string"
    fault_class: str
    incident_id: str
    incident: str
    url: str
    taxonomy_class: str
    what_went_wrong: str
    worlds: dict[str, str] = field(default_factory=dict)  # world name -> how the fault shows there
    params: dict[str, Any] = field(default_factory=dict)
    target: dict[str, Any] = field(default_factory=dict)
    mode: str = "permanent"

    def config(self, mode: str | None = None) -> dict[str, Any]:
        """A FaultInjector config realising this fault."""
        return {
            "name": self.id,
            "fault_class": self.fault_class,
            "kind": self.kind,
            "mode": mode or self.mode,
            "target": dict(self.target),
            "params": dict(self.params),
        }


@dataclass(frozen=True)
class Suite:
    faults: list[IncidentFault]
    types: dict[str, str]
    taxonomy: dict[str, str]

    def by_id(self, fault_id: str) -> IncidentFault:
        for f in self.faults:
            if f.id == fault_id:
                return f
        raise KeyError(f"unknown incident fault '{fault_id}'")

    def summary(self) -> dict[str, Any]:
        per_type = Counter(f.type for f in self.faults)
        return {
            "n_faults": len(self.faults),
            "n_types": len(per_type),
            "n_incidents": len({f.incident_id for f in self.faults}),
            "kinds": dict(sorted(Counter(f.kind for f in self.faults).items())),
            "types": {t: {"description": self.types[t], "n_faults": per_type[t]} for t in sorted(per_type)},
            "taxonomy_classes": dict(sorted(Counter(f.taxonomy_class for f in self.faults).items())),
            "faults": [
                {
                    "id": f.id,
                    "type": f.type,
                    "kind": f.kind,
                    "fault_class": f.fault_class,
                    "incident": f.incident,
                    "url": f.url,
                    "taxonomy_class": f.taxonomy_class,
                }
                for f in self.faults
            ],
        }


FAULT_KEYS = frozenset({"id", "type", "kind", "fault_class", "params", "target", "mode"})
INCIDENT_KEYS = frozenset({"id", "name", "url", "taxonomy_class", "what_went_wrong", "faults"})


def world_notes(incident: dict[str, Any], fault: dict[str, Any]) -> dict[str, str]:
    """Every other key of an incident or of its fault is a world's name with how the fault shows there."""
    notes = {k: str(v) for k, v in incident.items() if k not in INCIDENT_KEYS}
    notes.update({k: str(v) for k, v in fault.items() if k not in FAULT_KEYS})
    return dict(sorted(notes.items()))


def load_suite(path: str | Path = SUITE_PATH) -> Suite:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    types = dict(data["types"])
    taxonomy = {str(k): v for k, v in data["taxonomy"].items()}
    faults: list[IncidentFault] = []
    for inc in data["incidents"]:
        for f in inc["faults"]:
            fault = IncidentFault(
                id=f["id"],
                type=f["type"],
                kind=f["kind"],
                fault_class=f["fault_class"],
                incident_id=inc["id"],
                incident=inc["name"],
                url=inc["url"],
                taxonomy_class=str(inc["taxonomy_class"]),
                what_went_wrong=" ".join(str(inc["what_went_wrong"]).split()),
                worlds=world_notes(inc, f),
                params=dict(f.get("params") or {}),
                target=dict(f.get("target") or {}),
                mode=f.get("mode", "permanent"),
            )
            _check(fault, types, taxonomy)
            faults.append(fault)
    ids = [f.id for f in faults]
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dupes:
        raise ValueError(f"duplicate incident fault ids: {dupes}")
    return Suite(faults, types, taxonomy)


def _check(f: IncidentFault, types: dict[str, str], taxonomy: dict[str, str]) -> None:
    get_class(f.fault_class)  # raises on an unknown class
    if f.type not in types:
        raise ValueError(f"{f.id}: unknown type {f.type!r}")
    if f.kind not in ("structured", "string"):
        raise ValueError(f"{f.id}: kind must be structured or string, got {f.kind!r}")
    if f.taxonomy_class not in taxonomy:
        raise ValueError(f"{f.id}: unknown taxonomy class {f.taxonomy_class!r}")
