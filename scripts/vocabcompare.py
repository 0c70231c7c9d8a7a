"""Shared by the contract scripts: the paper's vocabulary beside the wide one, per fault class.

Each script checks the same faulted results with the registries of each vocabulary asked for
(``--vocabulary paper|wide|both``, both by default) and prints one line per class with the figure
of each side by side. Where a class stays below ``TARGET`` flagged with the wide vocabulary, the
misses are sorted by why (``diagnose``) and the class is named with its counts; ``--examples N``
prints N missed results of each such class (the path, the clean and the faulted value, the reason).

``diagnose`` knows no monitor internals: it asks the registry again about the same result with the
faulted place replaced by a probe no clean value could be (a value of another type). A probe that is
flagged means a rule reads that place and the faulted value passes it; a probe that is not means no
rule reads the place at all.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.faults import paths as fpaths

VOCABULARIES = ("paper", "wide")
TARGET = 0.90  # issue 44: every structured class flagged at >= 90% where the fault is observable

REASONS = {
    "unchanged": "the fault left the result as it was: nothing in the result to observe",
    "no_contract": "the tool has no rule in its held-out fold (its results were never learned)",
    "no_rule": "no rule reads the faulted place (a probe of another type there passes too)",
    "passes": "a rule reads the faulted place, but the faulted value satisfies it",
}
_PROBE = "\u2400probe\u2400"


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
        help=f"print N missed results of each class below {TARGET:.0%} flagged with the wide vocabulary",
    )


def chosen(arg: str) -> tuple[str, ...]:
    return VOCABULARIES if arg == "both" else (arg,)


def pct(k: int, n: int) -> str:
    return f"{100 * k / max(1, n):.1f}%"


def _probe_for(value: Any) -> Any:
    return _PROBE if isinstance(value, (dict, list)) else {_PROBE: [_PROBE]}


def diagnose(
    reg: Any, tool: str, arguments: Any, clean: Any, faulted: Any, path: str, clean_ids: set[str]
) -> str:
    """Why the faulted result drew no new violation (a key of ``REASONS``)."""
    if json.dumps(clean, sort_keys=True, default=str) == json.dumps(faulted, sort_keys=True, default=str):
        return "unchanged"
    if not reg.rules_for(tool):
        return "no_contract"
    try:
        original = fpaths.get(clean, path)
        probed = fpaths.set_(copy.deepcopy(clean), path, _probe_for(original))
    except (KeyError, IndexError, TypeError, ValueError):
        return "no_rule"
    vs = reg.check(tool, arguments, probed)
    return "passes" if any(v.rule_id not in clean_ids for v in vs) else "no_rule"


@dataclass
class Tally:
    touched: int = 0
    flagged: int = 0
    reasons: Counter = field(default_factory=Counter)
    examples: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"touched": self.touched, "flagged": self.flagged}
        if self.reasons:
            out["missed_by_reason"] = dict(self.reasons.most_common())
        return out


class Comparison:
    """Per vocabulary and fault class: touched, flagged, and (wide only) why each miss was missed."""

    def __init__(
        self, vocabularies: tuple[str, ...], examples: int = 0, diagnose_in: tuple[str, ...] = ("wide",)
    ):
        self.vocabularies = vocabularies
        self.n_examples = examples
        self.diagnose_in = diagnose_in
        self.tallies: dict[str, dict[str, Tally]] = {v: {} for v in vocabularies}

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
            why = diagnose(
                reg, row["tool"], row["arguments"], row["result"], applied.content, applied.path, clean_ids
            )
            t.reasons[why] += 1
            if len(t.examples) < max(self.n_examples, 0):
                t.examples.append(
                    {
                        "tool": row["tool"],
                        "path": applied.path,
                        "clean": _short(applied.original),
                        "faulted": _short(applied.corrupted),
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
        return out

    def lines(self, indent: str = "  ", label: Any = None) -> list[str]:
        """One line per class, the vocabularies side by side; then the classes below target and why."""
        label = label or (lambda cls: cls)
        head = "".join(f"  {v + ' vocabulary':>24}" for v in self.vocabularies)
        out = [f"{indent}{'fault class':<40}{head}"]
        for cls in self.classes():
            cells = ""
            for v in self.vocabularies:
                t = self.tallies[v].get(cls, Tally())
                cells += f"  {f'{t.flagged}/{t.touched} = {pct(t.flagged, t.touched)}':>24}"
            out.append(f"{indent}{label(cls):<40}{cells}")
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
            for e in b["examples"]:
                out.append(
                    f"{indent}    e.g. {e['tool']} {e['path']}: {e['clean']} -> {e['faulted']} ({e['reason']})"
                )
        return out


def _short(value: Any, n: int = 80) -> str:
    s = json.dumps(value, default=str, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."
