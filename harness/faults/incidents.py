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

from core import worlds
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
INCIDENT_KEYS = frozenset({"id", "name", "date", "url", "taxonomy_class", "what_went_wrong", "faults"})


WORLD_NOTES = "incidents.yaml"  # in a world's folder: {notes: {incident or fault id: how it shows there}}


def world_notes() -> dict[str, dict[str, str]]:
    """World name -> its notes (incident or fault id -> text), from each discovered world's folder."""
    out = {}
    for name, world in sorted(worlds.discover().items()):
        path = world.folder / WORLD_NOTES if world.folder else None
        if path is not None and path.is_file():
            out[name] = {
                str(k): str(v) for k, v in (yaml.safe_load(path.read_text()) or {}).get("notes", {}).items()
            }
    return out


def notes_for(notes: dict[str, dict[str, str]], incident_id: str, fault_id: str) -> dict[str, str]:
    """How fault ``fault_id`` of ``incident_id`` shows in each world that says (the fault's own note first)."""
    return {
        w: n.get(fault_id) or n[incident_id] for w, n in notes.items() if fault_id in n or incident_id in n
    }


def load_suite(path: str | Path = SUITE_PATH) -> Suite:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    types = dict(data["types"])
    taxonomy = {str(k): v for k, v in data["taxonomy"].items()}
    faults: list[IncidentFault] = []
    notes = world_notes()
    for inc in data["incidents"]:
        for keys, allowed, what in (
            (inc, INCIDENT_KEYS, f"incident {inc.get('id')}"),
            *((f, FAULT_KEYS, f"fault {f.get('id')}") for f in inc["faults"]),
        ):
            if set(keys) - allowed:
                raise ValueError(
                    f"{what}: unknown keys {sorted(set(keys) - allowed)} (a world's note goes in "
                    f"its own folder's {WORLD_NOTES})"
                )
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
                worlds=notes_for(notes, inc["id"], f["id"]),
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
