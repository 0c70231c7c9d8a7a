"""Numbers the call computes, whose sign the call decides (wide vocabulary): a sign learned from a
recording whose calls happened to ask for positive answers says nothing about the next call.

Three kinds lose their ``positive`` rule:

* a product of an argument (``value == arg.value * factor``, a unit conversion): its sign is the
  argument's, and the product rule already pins the value;
* the difference of two like quantities (``b.rows == a.rows + row_count_delta``: the sum and one
  term share a name's last part, the other term does not, so it is a change, up or down); the sum
  rule pins it (parts of one kind adding up to their total keep their signs);
* any number of a tool whose calls write an expression (``"403 - 108"``, ``"38 mod 21"``: a
  calculator): what the expression gives is the caller's arithmetic, of any sign.

Knows nothing of receipts or environments; called by ``vocabulary.learn_wide`` after admission.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.executions import Execution

# an operator between two operands, spaced as people write sums (a date's or a code's hyphen is not):
# "403 + 108", "(1 + 2) * 3", "2 ** 10", "38 mod 21", "211 * pi"
_ARITHMETIC = re.compile(r"[0-9.)]\s+(?:\*\*|//|[-+*/^%×÷]|mod)\s+[0-9.(a-z]", re.I)
EXPRESSION_SHARE = 0.5  # of a tool's calls whose one string argument reads as arithmetic
MIN_EXPRESSIONS = 3


def computed_signs(rules: list[Rule], index: Mapping[str, list[Execution]]) -> list[Rule]:
    """``rules`` without the sign rules of numbers their calls compute (see the module's words)."""
    drop: set[tuple[str, str, str]] = set()
    for r in rules:
        if r.cls != "relation" or len(r.fields) != 3:
            continue
        form = r.params.get("form")
        out, a, b = r.fields
        if form == "product" and (a.startswith(ARG) or b.startswith(ARG)):
            drop.add((r.tool, r.context, out))
        elif form == "add":
            for term, other in ((a, b), (b, a)):
                if not term.startswith(ARG) and _last(term) == _last(out) != _last(other):
                    drop.add((r.tool, r.context, other))
    expressions = {tool for tool, ex in index.items() if _writes_expressions(ex)}
    return [
        r
        for r in rules
        if r.cls != "positive" or not ((r.tool, r.context, r.fields[0]) in drop or r.tool in expressions)
    ]


def _last(field: str) -> str:
    """A field name's last part: ``rows`` of ``b.rows``, ``total`` of ``sub.total``."""
    return re.split(r"[.\]]", field)[-1]


def _writes_expressions(executions: list[Execution]) -> bool:
    """Whether one string argument of the tool reads as arithmetic in at least half of its calls."""
    counts: dict[str, int] = {}
    for ex in executions:
        for k, v in ex.args.items():
            if type(v) is str and _ARITHMETIC.search(v):
                counts[k] = counts.get(k, 0) + 1
    return any(n >= MIN_EXPRESSIONS and n >= EXPRESSION_SHARE * len(executions) for n in counts.values())
