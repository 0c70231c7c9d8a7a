"""Brackets that close (``text`` form ``balanced``, wide vocabulary): a field whose clean values are
expressions, code or structured text (``(x - 3)*(x + 2)``, ``Matrix([[1, 2], [3, 4]])``, a LaTeX
``\\frac{3}{4}``) always closed every bracket it opened, so a value cut short part-way
(``(x - 3)*(x``) fires, whatever its other rules say of its length.

Guards: ``MIN_DISTINCT`` distinct clean values, ``MIN_BRACKETED`` of them holding a bracket (a
field that rarely holds one shows nothing); every clean value balanced, as written (quotes are not
read: a field whose quoted text held a lone bracket keeps no rule); and no clean value cut short
for display (a value ending in ``...``: such a field shows its text cut anywhere, a bracket left
open among it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from outcome_monitor.checking.values import MISSING

MIN_DISTINCT = 20
MIN_BRACKETED = 10
_CLOSE = {")": "(", "]": "[", "}": "{"}
_ANY = frozenset("()[]{}")


def balanced(s: str) -> bool:
    """Whether every bracket of ``s`` closes, in order: the rule's one test, also the generated checks'."""
    if _ANY.isdisjoint(s):
        return True
    stack: list[str] = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in _CLOSE:
            if not stack or stack.pop() != _CLOSE[c]:
                return False
    return not stack


def balance_params(values: Sequence[Any]) -> dict[str, Any] | None:
    """``{"form": "balanced"}`` when the clean string ``values`` of a place all closed their
    brackets, with the support the module's words name, else None."""
    if not values or any(type(v) is not str for v in values):
        return None
    distinct = set(values)
    if len(distinct) < MIN_DISTINCT:
        return None
    if sum(1 for v in distinct if not _ANY.isdisjoint(v)) < MIN_BRACKETED:
        return None
    if any(v.rstrip().endswith(("...", "\u2026")) or not balanced(v) for v in distinct):
        return None
    return {"form": "balanced"}


def balance_expected(p: Mapping[str, Any]) -> str:
    return "a text whose brackets all close"


def balance_sentence(a: str, p: Mapping[str, Any]) -> str:
    return f"{a} must close every bracket it opens (as every clean value did: a text cut short does not)"


def compile_balance(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    def check_balanced(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
        v = vals.get(f, MISSING)
        return (v[-80:],) if type(v) is str and not balanced(v) else None

    return check_balanced
