"""Calendar units wrap (wide vocabulary): a month that followed another month by one in every clean
call (a range from November to December, a lunar month a step behind the Gregorian one) goes from
December back to January the next time, so a fitted offset between two fields of a unit that wraps
(months, days, weekdays, hours, minutes, quarters, weeks) holds only until the year, month or day
turns over. Such a relation is not kept; an equality (no offset) is, since it wraps with its
field. A plural is a length of time (``days``, ``hours``), which does not wrap.

A time zone's offset from UTC (``utc_offset_seconds``, ``tzOffset``, ``gmt_offset``) is signed by
nature: a recording made of zones east of Greenwich learns a sign that New York's ``-14400``
breaks, so no sign rule is kept on one; nor an order between an instant's UTC and local readings
(``iso_utc`` before ``iso_local`` east of Greenwich, after it west). A clock's hour, minute or
second is 0 on the hour: it keeps ``>= 0`` at most, however many clean readings were above. Knows
nothing of receipts or environments; asked by ``vocabulary.learn_wide``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import last_word

CYCLES = frozenset({"month", "day", "weekday", "dow", "hour", "minute", "quarter", "week"})


def wraps(r: Rule) -> bool:
    """Whether ``r`` is an offset between fields of a unit that wraps (see the module's words)."""
    if r.cls != "relation" or r.params.get("form") != "affine" or not r.params.get("c"):
        return False
    return len(r.fields) == 2 and all(last_word(f) in CYCLES for f in r.fields)


_ZONE_OFFSET = re.compile(r"(?:utc|gmt|tz|zone)[_\-]?offset", re.I)


_UTC = re.compile(r"utc|gmt|zulu", re.I)
_LOCAL = re.compile(r"local|wall", re.I)


def zone_signed(r: Rule) -> bool:
    """Whether ``r`` is a sign rule on a time zone's offset, or an order between UTC and local
    readings of an instant (see the module's words)."""
    leaves = [f.rpartition(".")[2] for f in r.fields]
    if r.cls == "date_order" and len(leaves) == 2:
        a, b = leaves
        return bool((_UTC.search(a) and _LOCAL.search(b)) or (_LOCAL.search(a) and _UTC.search(b)))
    return r.cls == "positive" and bool(leaves) and _ZONE_OFFSET.search(leaves[0]) is not None


# a clock's readings start at 0: midnight's hour, the top of the hour's minute
CLOCK = frozenset({"hour", "minute", "second"})


def from_zero(r: Rule) -> Rule:
    """``r``, a strict sign on a clock reading (``components.minute``: 0 on the hour) made ``>= 0``."""
    f = r.fields[0] if r.fields else ""
    if r.cls == "positive" and r.params.get("strict") and "(" not in f and last_word(f) in CLOCK:
        return replace(r, params={**r.params, "strict": False})
    return r


__all__ = ["CLOCK", "CYCLES", "from_zero", "wraps", "zone_signed"]
