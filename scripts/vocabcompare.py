"""Shared by the contract scripts: the paper's vocabulary beside the wide one, per fault class.

Each script checks the same faulted results with the registries of each vocabulary asked for
(``--vocabulary paper|wide|both``, both by default) and prints one line per class with the figure
of each side by side. Where a class stays below ``TARGET`` flagged with the wide vocabulary, the
misses are sorted by why (``harness.evaluations.validity.diagnose_miss``, shared with the validity
study) and the class is named with its counts; ``--examples N`` prints N missed results of each such
class (the path, the clean and the faulted value, the reason).

The diagnosis knows no monitor internals: a faulted result that holds at the faulted place only what
some clean result of the tool holds there (the same value, a list as long, the field absent) is not
observable from the result; otherwise the registry is asked again about the clean result with the
faulted place replaced by a probe of another type: flagged, a rule reads that place and the faulted
value passes it; not, no rule reads the place at all.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.evaluations.validity import REASONS, CleanIndex, diagnose_miss, short
from harness.faults import paths as fpaths

VOCABULARIES = ("paper", "wide")
TARGET = 0.90  # issue 44: every structured class flagged at >= 90% where the fault is observable


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--vocabulary",
        default="both",
        choices=("paper", "wide", "both"),
        help="the rule vocabulary of the registries: the paper's seven classes, the wide one, or both side by side",
    )
    ap.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="N",
        # argparse formats help with %: the percent sign doubled
        help=f"print N missed results of each class below {100 * TARGET:.0f}%% flagged with the wide vocabulary",
    )


def chosen(arg: str) -> tuple[str, ...]:
    return VOCABULARIES if arg == "both" else (arg,)


def pct(k: int, n: int) -> str:
    return f"{100 * k / max(1, n):.1f}%"


@dataclass
class Tally:
    touched: int = 0
    flagged: int = 0
    reasons: Counter = field(default_factory=Counter)
    places: Counter = field(default_factory=Counter)  # (tool, place, reason) of each miss
    examples: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"touched": self.touched, "flagged": self.flagged}
        if self.reasons:
            out["missed_by_reason"] = dict(self.reasons.most_common())
            out["missed_places"] = [
                {"tool": t, "place": p, "reason": r, "n": n} for (t, p, r), n in self.places.most_common(5)
            ]
        return out


class Comparison:
    """Per vocabulary and fault class: touched, flagged, and (wide only) why each miss was missed."""

    def __init__(
        self,
        vocabularies: tuple[str, ...],
        examples: int = 0,
        diagnose_in: tuple[str, ...] = ("wide",),
        clean_rows: list[dict] | None = None,
        notes: dict[str, str] | None = None,
    ):
        self.notes = notes or {}
        self.index = CleanIndex(clean_rows) if clean_rows is not None else None
        self.vocabularies = vocabularies
        self.n_examples = examples
        self.diagnose_in = diagnose_in
        self.tallies: dict[str, dict[str, Tally]] = {v: {} for v in vocabularies}

    def know(self, rows: list[dict]) -> None:
        """The clean results a miss is compared with (to tell a fault no result could show)."""
        if self.index is None:
            self.index = CleanIndex(rows)

    def tally(self, vocab: str, cls: str) -> Tally:
        return self.tallies[vocab].setdefault(cls, Tally())

    def record(
        self,
        vocab: str,
        cls: str,
        reg: Any,
        row: dict,
        applied: Any,
        clean_ids: set[str],
        faulted_vs: list[Any],
    ) -> bool:
        """Count one faulted result; return whether it was flagged."""
        t = self.tally(vocab, cls)
        t.touched += 1
        flagged = any(v.rule_id not in clean_ids for v in faulted_vs)
        t.flagged += flagged
        if not flagged and vocab in self.diagnose_in:
            why = diagnose_miss(
                reg,
                row["tool"],
                row["arguments"],
                row["result"],
                applied.content,
                applied.path,
                clean_ids,
                self.index,
            )
            t.reasons[why] += 1
            t.places[row["tool"], fpaths.generic(applied.path), why] += 1
            if len(t.examples) < max(self.n_examples, 0):
                t.examples.append(
                    {
                        "tool": row["tool"],
                        "path": applied.path,
                        "clean": short(applied.original),
                        "faulted": short(applied.corrupted),
                        "reason": why,
                    }
                )
        return flagged

    def faults_json(self, vocab: str) -> dict[str, dict[str, Any]]:
        return {cls: t.to_json() for cls, t in self.tallies[vocab].items()}

    def classes(self) -> list[str]:
        seen: dict[str, None] = {}
        for v in self.vocabularies:
            seen.update(dict.fromkeys(self.tallies[v]))
        return list(seen)

    def below_target(self, vocab: str = "wide") -> dict[str, dict[str, Any]]:
        """Classes under ``TARGET`` flagged with ``vocab``: their counts, misses by reason, examples."""
        out = {}
        for cls, t in self.tallies.get(vocab, {}).items():
            if t.touched and t.flagged / t.touched < TARGET:
                out[cls] = {**t.to_json(), "examples": t.examples}
                if cls in self.notes:
                    out[cls]["why"] = self.notes[cls]
        return out

    def lines(self, indent: str = "  ", label: Any = None) -> list[str]:
        """One line per class, the vocabularies side by side; then the classes below target and why."""
        label = label or (lambda cls: cls)
        width = max([40, *(len(label(c)) for c in self.classes())])
        head = "".join(f"  {v + ' vocabulary':>24}" for v in self.vocabularies)
        out = [f"{indent}{'fault class':<{width}}{head}"]
        for cls in self.classes():
            cells = ""
            for v in self.vocabularies:
                t = self.tallies[v].get(cls, Tally())
                cells += f"  {f'{t.flagged}/{t.touched} = {pct(t.flagged, t.touched)}':>24}"
            out.append(f"{indent}{label(cls):<{width}}{cells}")
        if "wide" in self.vocabularies:
            out += self.reason_lines(indent)
        return out

    def reason_lines(self, indent: str = "  ") -> list[str]:
        below = self.below_target("wide")
        if not below:
            return [f"{indent}every class is flagged at >= {TARGET:.0%} with the wide vocabulary"]
        out = [
            f"{indent}below {TARGET:.0%} flagged with the wide vocabulary, and why the misses were missed:"
        ]
        for cls, b in below.items():
            missed = b["touched"] - b["flagged"]
            out.append(f"{indent}  {cls}: {b['flagged']}/{b['touched']} flagged; {missed} missed:")
            for why, n in b.get("missed_by_reason", {}).items():
                out.append(f"{indent}    {n:>5}  {REASONS[why]}")
            places = ", ".join(
                f"{m['tool']} {m['place']} {m['n']} ({m['reason']})" for m in b.get("missed_places", [])[:3]
            )
            if places:
                out.append(f"{indent}    most missed at: {places}")
            if cls in self.notes:
                out.append(f"{indent}    why, read from these misses: {self.notes[cls]}")
            for e in b["examples"]:
                out.append(
                    f"{indent}    e.g. {e['tool']} {e['path']}: {e['clean']} -> {e['faulted']} ({e['reason']})"
                )
        return out
