"""Keys that never repeat within a clean list (``collection`` form ``unique``, wide vocabulary): an
identifier, or a name where lists drawn at random from the names would have repeated one by now.
Called by ``collection_mining`` for the lists of records of a tool's clean results.

Guards: a sentence is no key (messages worded alike repeat); an amount written out is no name (a
share of a target rounded to ``1.2%`` twice in a row); a date is no identifier (events of one
day end on that day); and a record met again whole in another list is the same record listed
again (the same in every field all records hold), so its name counts once towards the pool of names (a project's log listed window by window
shows its 43 commit subjects many times each, which says nothing about how often a subject
repeats: 43 records with 43 subjects are all the evidence there is).
"""

from __future__ import annotations

import math
import re
from typing import Any

from outcome_monitor.checking.values import cached_date_key, id_like
from outcome_monitor.thresholds import Thresholds

Found = tuple[dict[str, Any], dict[str, int]]


def unique_keys(multi: list[list[Any]], th: Thresholds, names: bool = True) -> list[Found]:
    """Identifiers that never repeat within a clean list, per key over the lists whose every row
    holds it (the rows of one SQL tool differ in columns from query to query): identifiers
    (``_identifier``), or integers under an id's name (prices and counts differ within a short list by
    chance as often as not), or other strings (names) where lists drawn at random from the column's
    values would have repeated one by now (``_expected_repeats``: a repeat-free sample below a 1%
    chance). The lists holding the key must show it on their own: 3 lists, log2(n!) to the floor."""
    out: list[Found] = []
    keys = sorted({k for v in multi for k in set.intersection(*(set(e) for e in v))})
    ids: list[str] = []
    named: list[str] = []
    for k in keys:
        columns = [[e[k] for e in v] for v in multi if all(k in e for e in v)]
        bits = sum(math.lgamma(len(c) + 1) / math.log(2) for c in columns)
        if len(columns) < th.min_distinct_eq or bits < th.min_presence:
            continue
        flat = [x for c in columns for x in c]  # a sentence is no key: messages worded alike repeat
        id_name = k == "id" or k.endswith(("_id", "Id", "ID"))
        plain = all(type(x) in (str, int) and not _prose(x) for x in flat)
        if not plain or any(len(set(c)) < len(c) for c in columns):
            continue
        if all(
            (type(x) is int and id_name) or (id_like(x) and cached_date_key(x) is None) for x in flat
        ) and not any(type(x) is str and _AMOUNT.match(x) for x in flat):
            ids.append(k)
        elif names and all(type(x) is str and not _AMOUNT.match(x) for x in flat):
            named.append(k)
    for k in named:
        # names that would have met twice in some list by now, were they drawn from their pool
        if math.exp(-_expected_repeats(multi, k)) < 1 - th.confidence:
            out.append(({"form": "unique", "key": k}, {"n": _lists(multi, k)}))
    out.extend(({"form": "unique", "key": k}, {"n": _lists(multi, k)}) for k in ids)
    return sorted(out, key=lambda found: str(found[0]["key"]))


def _lists(multi: list[list[Any]], k: str) -> int:
    return sum(1 for v in multi if all(k in e for e in v))


# an amount written out (``1.2%``, ``$40``, ``2,450``): rounding repeats it, it names nothing
# (a share, a price, thousands grouped; a bare decimal may be a section's label, ``3.10``)
_AMOUNT = re.compile(
    r"^\s*[-+]?(?:[$\u20ac\u00a3]\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s*%|\d{1,3}(?:,\d{3})+(?:\.\d+)?)\s*$"
)


def _prose(x: Any) -> bool:  # a sentence or a passage, not a name
    return type(x) is str and ("\n" in x or x.rstrip().endswith((".", "!", "?")) or len(x.split()) >= 8)


def _expected_repeats(multi: list[list[Any]], k: str) -> float:
    """How many pairs within one list would have been equal, had the lists drawn their values of
    ``k`` at random from the values it takes: each distinct pair of values met within a list is one
    trial (lists that repeat the same records try nothing new), equal with chance 1 / pool, the
    pool estimated with Chao1 (the distinct values seen, plus those seen once squared over twice
    those seen twice: a pool larger than what was seen makes a repeat rarer), each value counted
    once per distinct record that held it (a record met again, the same in every field all records
    hold, is the same record listed again, not another draw; a field only some listings add, a
    commit's diff stat, does not tell records apart). No repeat at all has chance exp(-expected) (Poisson)."""
    counts: dict[Any, int] = {}
    pairs: set[tuple[Any, Any]] = set()
    met: set[str] = set()
    lists = [v for v in multi if all(k in e for e in v)]
    common = sorted(set.intersection(*(set(e) for v in lists for e in v)), key=str)
    for v in lists:
        for e in v:
            record = repr([e[j] for j in common])
            if record not in met:
                met.add(record)
                counts[e[k]] = counts.get(e[k], 0) + 1
        ordered = sorted((e[k] for e in v), key=repr)
        pairs.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    f1 = sum(1 for n in counts.values() if n == 1)
    f2 = sum(1 for n in counts.values() if n == 2)
    pool = len(counts) + (f1 * f1 / (2 * f2) if f2 else f1 * (f1 - 1) / 2)
    return len(pairs) / max(pool, 1.0)
