"""A record listed again is one record (wide vocabulary): a domain is values that many things share,
so where every value of a field belonged to one record alone, listed call after call, the values
are those records' own (a task board's requests, listed in full by every ``list_requests``), not a
category, however many executions held each. The next record brings a value of its own.

A record is told apart by its id (a field named as one, every row at the place holding it: a
request's ``Request ID``, whatever else of it changed between listings), or else by the values of
every other field all rows at the place hold; a place whose rows hold no other field tells nothing
and keeps its domain. Knows nothing of receipts or environments; asked by ``vocabulary._mend_domains`` after
admission, which holds such a domain back (the registry's meta shows it) and lets the field's type
rule speak again.
"""

from __future__ import annotations

from collections.abc import Mapping

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import id_named
from outcome_monitor.learning.executions import Execution

MIN_RECORDS = 3  # records told apart before their values count as their own


def own_values(r: Rule, index: Mapping[str, list[Execution]]) -> str | None:
    """Why domain ``r``'s values are no category, or None (see the module's words)."""
    if r.params.get("reference") or len(r.fields) != 1:
        return None
    records = _records_per_value(index.get(r.tool, []), r.context, r.fields[0])
    if records is None or sum(records.values()) < MIN_RECORDS or max(records.values()) > 1:
        return None
    return "each value one record's own, listed again: no category"


def _records_per_value(executions: list[Execution], context: str, field: str) -> dict[str, int] | None:
    """How many distinct records held each value of ``field`` at ``context``, or None where the rows
    there hold no other field to tell records apart."""
    rows = [row for ex in executions for row in ex.rows.get(context, ()) if field in row]
    if not rows:
        return None
    common = set.intersection(*(set(row) for row in rows)) - {field}
    common = {f for f in common if f and not f.startswith((ARG, "#")) and "(" not in f}
    if not common:
        return None
    # an id names the record whatever else of it changed between listings (tasks completed)
    keys = sorted(f for f in common if id_named(f)) or sorted(common)
    seen: dict[str, set[str]] = {}
    for row in rows:
        seen.setdefault(repr(row[field]), set()).add(repr([row[k] for k in keys]))
    return {value: len(records) for value, records in seen.items()}
