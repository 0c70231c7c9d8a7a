"""Word sets (``text`` form ``words``, wide vocabulary): names built from a closed vocabulary of
words (``Compact Speaker``, ``Red Lamp``, ``Solar Backpack``) keep to it, so a name cut short
(``Compa``, ``Smart B``), a placeholder or a name from elsewhere fires, while every recombination of
known words passes.

Guards, as a domain's: ``MIN_DISTINCT`` distinct clean values of two words or more on average; at
most ``MAX_WORDS`` distinct words; every word met in two distinct values or more (no word met once:
a Good-Turing unseen mass of zero); and Auto-Validate's held-out check, each half of the distinct
values using only the words of the other half, so a vocabulary still growing keeps no rule; no
single letter among them (a column in ``F2:F13``, an initial: codes, not words). A value also keeps
at least the fewest words a clean value had. Words of the call's own arguments pass too: a branch
asked for by name is read back inside a reflog's ``fix/dark-mode@{0}``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from outcome_monitor.checking.values import MISSING, asked

MIN_DISTINCT = 20
MAX_WORDS = 40
MIN_MEAN_WORDS = 1.5
MAX_LENGTH = 120  # longer strings are prose, not names
MIN_WORD = 2

_WORD = re.compile(r"[^\W\d_]+")


def _words(s: str) -> list[str]:
    return _WORD.findall(s)


def _covered(train: list[list[str]], held: list[list[str]]) -> bool:
    known = {w for ws in train for w in ws}
    return all(set(ws) <= known for ws in held)


def word_params(values: Sequence[Any]) -> dict[str, Any] | None:
    """``{"form": "words", "words": [...], "least": n}`` when the clean string ``values`` of a place
    are names of a closed vocabulary, else None."""
    if not values or any(type(v) is not str or len(v) > MAX_LENGTH for v in values):
        return None
    distinct = sorted(set(values))
    if len(distinct) < MIN_DISTINCT:
        return None
    split = [_words(v) for v in distinct]
    if any(not ws or any(len(w) < MIN_WORD for w in ws) for ws in split):
        return None  # a letter alone is a code (a column in F2:F13, an initial), not a word
    if sum(len(ws) for ws in split) / len(split) < MIN_MEAN_WORDS:
        return None
    met = Counter(w for ws in split for w in set(ws))
    if len(met) > MAX_WORDS or min(met.values()) < 2:
        return None
    halves = (split[0::2], split[1::2])
    if not (_covered(halves[0], halves[1]) and _covered(halves[1], halves[0])):
        return None
    return {"form": "words", "words": sorted(met), "least": min(len(ws) for ws in split)}


def words_expected(p: Mapping[str, Any]) -> str:
    return f"a name of {p['least']} or more of the words clean values used"


def words_sentence(a: str, p: Mapping[str, Any]) -> str:
    shown = ", ".join(p["words"][:8]) + (", ..." if len(p["words"]) > 8 else "")
    return f"{a} must be made of the words clean values used ({shown}), {p['least']} or more"


def words_test(p: Mapping[str, Any]) -> Callable[[str], bool]:
    """Whether a string keeps to the word set ``p``: the rule's one test, also the generated checks'."""
    known, least = frozenset(p["words"]), int(p["least"])

    def fits(s: str) -> bool:
        ws = _words(s)
        return len(ws) >= least and known.issuperset(ws)

    return fits


def compile_words(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    fits, known, least = words_test(p), frozenset(p["words"]), int(p["least"])

    def check_words(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
        v = vals.get(f, MISSING)
        if type(v) is not str or fits(v) or asked(v, args):
            return None
        ws = _words(v)
        # the caller's words, read back inside the value (``fix/dark-mode@{0}`` for ref fix/dark-mode)
        return None if len(ws) >= least and set(ws) <= known | _arg_words(args) else (v,)

    return check_words


def _arg_words(args: Any) -> set[str]:
    if type(args) is str:
        return set(_words(args))
    values = args.values() if isinstance(args, Mapping) else args if type(args) is list else ()
    return {w for a in values for w in _arg_words(a)}


__all__ = ["compile_words", "word_params", "words_expected", "words_sentence", "words_test"]
