"""What text says past its form (``text`` rules of the wide vocabulary): numbers never negative, a
length not cut short, dates in one order. They reach prose, markdown tables and text printed after
header lines, where no view reads fields.

* ``no_negative``: no clean text held a negative number (``-3``, ``| -508.33 |``; a hyphen inside
  a word, an id or a date is none) while every one held numbers: a negated price or count fires.
  Support: ``min_presence`` distinct texts, each with a number.
* ``min_length``: a text shorter than the clean ones' band allows (``values.band_bound``, ``lo - w``
  with ``w = hi - lo``, and ``values.halves_agree``: each half of the distinct lengths lies inside
  the bound the other half gives): a page or list cut short fires. Guards: ``min_presence``
  distinct lengths whose band lies away from zero, or, for a text that came back identical every
  time, at least twice ``min_presence`` calls (then 90% of it).
* ``dates_order``: the ISO dates a text holds, read in order, rose (or fell) in every clean text
  with two or more: a text whose dates came out of order fires. Support: ``min_presence`` such texts.
* ``label_signs``: a number after a word that labels it (``step 6``, ``Budget: 200``, ``the fee is
  7``) was never negative under that label, where the text as a whole may hold negatives (a diff's
  ``@@ -1,2``): ``labels`` maps each label to ``>= 0``. Support: the label in ``min_presence``
  distinct texts with 3 distinct numbers, none negative. Never ``> 0``: a zero under a label the
  recording never showed at zero (``step 0`` in a file's first line) is still a clean value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from outcome_monitor.checking.values import MISSING, band_bound, halves_agree

FORMS = frozenset({"no_negative", "min_length", "dates_order", "label_signs"})
MIN_LENGTH = 40  # shorter strings are values, with shapes of their own
IDENTICAL_SHARE = 0.9

# a number, and a minus sign only where it cannot be a hyphen (after a space, a bar, a bracket...)
_NUMBER = re.compile(r"(?:^|(?<=[\s|(\[{,;:=]))([-\u2212]?)(\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?)(?![\w-])", re.M)
NOISE = 1e-9  # a float's rounding of zero (a branch length of -6.9e-18): no negative amount
_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d])")


def _signs(text: str) -> tuple[bool, bool]:
    """(held a number, held a negative number)."""
    found = _NUMBER.findall(text[:200_000])
    return bool(found), any(sign and not _noise(digits) for sign, digits in found)


def _noise(digits: str) -> bool:
    try:
        return abs(float(digits.replace(",", "."))) < NOISE
    except ValueError:
        return False


# a word of 3 letters or more, a connective or a colon, then a number: the word labels the number
_LABELLED = re.compile(
    r"(?<![\w-])([A-Za-z]{3,})(?:\s+(?:is|are|was|were|of|at|to|by|on|in|for))?\s*[:=]?\s*"
    r"([-\u2212]?)(\d+(?:[.,]\d+)*)(?![\w.-])"
)
MIN_LABEL_DISTINCT = 3  # distinct numbers under a label before its sign is kept


def _labelled(text: str) -> list[tuple[str, bool, float]]:
    """(label, negative, value) of every labelled number of ``text``."""
    out = []
    for m in _LABELLED.finditer(text[:200_000]):
        try:
            value = float(m.group(3).replace(",", ""))
        except ValueError:
            continue
        out.append((m.group(1).lower(), bool(m.group(2)), value))
    return out


def label_params(distinct: Sequence[str], min_presence: int) -> dict[str, Any] | None:
    """``label_signs`` over the distinct clean texts of one place (above), or None."""
    texts: dict[str, int] = {}
    numbers: dict[str, set[float]] = {}
    negative: set[str] = set()
    for t in distinct:
        found = _labelled(t)
        for label in {label for label, _, _ in found}:
            texts[label] = texts.get(label, 0) + 1
        for label, neg, value in found:
            numbers.setdefault(label, set()).add(-value if neg else value)
            if neg:
                negative.add(label)
    labels = {}
    for label, n in sorted(texts.items()):
        seen = numbers[label]
        if n < min_presence or label in negative or len(seen) < MIN_LABEL_DISTINCT:
            continue
        labels[label] = ">= 0"
    return {"form": "label_signs", "labels": labels} if labels else None


def _label_breach(text: str, labels: Mapping[str, str]) -> str | None:
    for label, neg, value in _labelled(text):
        want = labels.get(label)
        if want is not None and neg and value != 0:
            return f"{label} -{value:g}"
    return None


def _dates(text: str) -> list[str]:
    return [m.group() for m in _DATE.finditer(text[:200_000])]


def _order(dates: list[str]) -> int:
    """1 rising, -1 falling, 0 out of order, 2 no verdict (fewer than two distinct dates)."""
    if len(set(dates)) < 2:
        return 2
    if all(a <= b for a, b in zip(dates, dates[1:], strict=False)):
        return 1
    if all(a >= b for a, b in zip(dates, dates[1:], strict=False)):
        return -1
    return 0


def _length_floor(lengths: list[int], n_calls: int, min_presence: int) -> int | None:
    distinct = sorted(set(lengths))
    if len(distinct) == 1:
        return int(distinct[0] * IDENTICAL_SHARE) if n_calls >= 2 * min_presence else None
    if len(distinct) < min_presence or not halves_agree(distinct):
        return None
    bound = band_bound(distinct)
    return int(bound[0]) if bound is not None and bound[0] >= 1 else None


def prose_params(values: Sequence[Any], min_presence: int) -> list[dict[str, Any]]:
    """The params of each prose rule the clean ``values`` of one place support (all strings of
    ``MIN_LENGTH`` characters or more, else none)."""
    if not values or any(type(v) is not str or len(v) < MIN_LENGTH for v in values):
        return []
    distinct = list(dict.fromkeys(values))
    out: list[dict[str, Any]] = []
    signs = [_signs(t) for t in distinct]
    if len(distinct) >= min_presence and all(has and not neg for has, neg in signs):
        out.append({"form": "no_negative"})
    floor = _length_floor([len(t) for t in values], len(values), min_presence)
    if floor is not None:
        out.append({"form": "min_length", "min": floor})
    # a text with no negative number anywhere says more already
    labelled = label_params(distinct, min_presence) if {"form": "no_negative"} not in out else None
    if labelled is not None:
        out.append(labelled)
    orders = [_order(_dates(t)) for t in distinct]
    dated = [o for o in orders if o in (1, -1)]
    if len(dated) >= min_presence and not any(o == 0 for o in orders) and len(set(dated)) == 1:
        out.append({"form": "dates_order", "order": "rising" if dated[0] == 1 else "falling"})
    return out


def prose_expected(p: Mapping[str, Any]) -> str:
    if p["form"] == "no_negative":
        return "a text with no negative number"
    if p["form"] == "label_signs":
        return "numbers " + ", ".join(f"{label} {sign}" for label, sign in sorted(p["labels"].items())[:8])
    if p["form"] == "min_length":
        return f"a text of at least {p['min']} characters"
    return f"a text whose dates are {p['order']}"


def prose_sentence(a: str, p: Mapping[str, Any]) -> str:
    if p["form"] == "no_negative":
        return f"{a} must hold no negative number (no clean result did)"
    if p["form"] == "label_signs":
        return f"{a} must keep the signs of its labelled numbers ({prose_expected(p)}, as every clean result did)"
    if p["form"] == "min_length":
        return (
            f"{a} must be at least {p['min']} characters long (clean results were; a text cut short is not)"
        )
    return f"{a} must list its dates {p['order']} (every clean result with dates did)"


def compile_prose(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    form = p["form"]
    if form == "no_negative":

        def check_sign(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(f, MISSING)
            return (v,) if type(v) is str and _signs(v)[1] else None

        return check_sign
    if form == "label_signs":
        labels = dict(p["labels"])

        def check_labels(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(f, MISSING)
            breach = _label_breach(v, labels) if type(v) is str else None
            return (breach,) if breach is not None else None

        return check_labels
    if form == "min_length":
        least = int(p["min"])

        def check_length(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(f, MISSING)
            return (len(v),) if type(v) is str and len(v) < least else None

        return check_length
    want = 1 if p["order"] == "rising" else -1

    def check_dates(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
        v = vals.get(f, MISSING)
        if type(v) is not str:
            return None
        got = _order(_dates(v))
        return (v,) if got in (-want, 0) else None

    return check_dates


__all__ = ["FORMS", "compile_prose", "prose_expected", "prose_params", "prose_sentence"]
