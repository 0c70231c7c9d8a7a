"""What a record's names and order say (wide vocabulary): a field's sign shared with the fields
whose names end in the same word or with the column's minimum beside it, a list sorted by the first
of the keys that kept its order, no fitted offset between months (they wrap) and no sign on a time
zone's offset nor an order between an instant's UTC and local readings.
Each pairs the clean case that fired before with a fault the rules still catch."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _alignments() -> list[dict[str, Any]]:
    rng = random.Random(7)
    rows = []
    for call in range(24):  # like sequences: every clean score happened to be positive
        match, mismatch = rng.choice((1.0, 2.0, 5.0)), rng.choice((-1.0, -3.0, -4.0))
        length = rng.randrange(40, 80)
        result = {
            "score": float(rng.randrange(5, 90)),
            "length": length,
            "parameters": {"match_score": match, "mismatch_score": mismatch},
        }
        rows.append({"tool": "align", "arguments": {"pair": call}, "result": result})
    return rows


def test_a_namesake_below_zero_lifts_a_scores_sign() -> None:
    reg = learn(_alignments())
    unlike = {"score": -4.0, "length": 50, "parameters": {"match_score": 1.0, "mismatch_score": -3.0}}
    assert not _ids(reg, "align", {"pair": 99}, unlike)
    # a field with no namesake below 0 keeps its sign
    short = {**unlike, "score": 12.0, "length": -50}
    assert any("positive" in i and "length" in i for i in _ids(reg, "align", {"pair": 99}, short))
    # the score gone text still breaks its type
    assert _ids(reg, "align", {"pair": 99}, {**unlike, "score": "n/a"})


def _lints() -> list[dict[str, Any]]:
    rng = random.Random(8)
    rows = []
    for call in range(30):  # violations by where they start; a line or two long, so their ends sort too
        starts = sorted(rng.sample(range(1, 60), rng.randrange(3, 7)))
        found = [
            {
                "code": rng.choice(("LT01", "LT02", "CP01")),
                "start_line": s,
                "end_line": s + rng.choice((0, 0, 1)),
            }
            for s in starts
        ]
        rows.append({"tool": "lint", "arguments": {"file": f"m{call}.sql"}, "result": {"violations": found}})
    return rows


def test_a_list_is_sorted_by_the_first_key_that_kept_its_order() -> None:
    reg = learn(_lints())
    sorts = [r.params["key"] for r in reg.rules_for("lint") if r.params.get("form") == "sorted"]
    assert sorts == ["start_line"]
    # a violation spanning three lines ends after the next one starts
    spans = {
        "violations": [
            {"code": "LT01", "start_line": 2, "end_line": 5},
            {"code": "LT02", "start_line": 3, "end_line": 3},
            {"code": "CP01", "start_line": 9, "end_line": 9},
        ]
    }
    assert not _ids(reg, "lint", {"file": "new.sql"}, spans)
    # violations out of order by where they start still fire
    shuffled = {"violations": [spans["violations"][2], *spans["violations"][:2]]}
    assert any("sorted" in i for i in _ids(reg, "lint", {"file": "new.sql"}, shuffled))


def test_an_offset_between_months_wraps_at_the_year() -> None:
    rng = random.Random(9)
    rows = []
    for _ in range(30):  # a month's grid runs into the next month's first days; none asked for December
        month = rng.randrange(1, 12)
        cells = rng.randrange(28, 43)
        grid = {"start": {"month": month, "day": 1}, "end": {"month": month + 1, "day": cells - 27}}
        rows.append({"tool": "calendar_month", "arguments": {"month": month}, "result": {"range": grid}})
    reg = learn(rows)
    assert not any(r.params.get("form") == "affine" for r in reg.rules_for("calendar_month"))
    december = {"range": {"start": {"month": 12, "day": 1}, "end": {"month": 1, "day": 7}}}
    assert not _ids(reg, "calendar_month", {"month": 12}, december)
    # a month gone text still breaks its type
    assert _ids(
        reg,
        "calendar_month",
        {"month": 12},
        {"range": {**december["range"], "end": {"month": "1", "day": 7}}},
    )


def test_a_columns_minimum_of_zero_lets_its_median_be_zero() -> None:
    rng = random.Random(10)
    rows = []
    for call in range(30):  # some columns start at 0; no clean median happened to
        low = rng.choice((0, 0, 1, 3))
        values = sorted(rng.randrange(low, 90) for _ in range(9))
        values[0] = low
        stats = {"min": low, "p5": max(values[1], 1), "median": max(values[4], 1), "max": values[-1] + 1}
        rows.append({"tool": "profile", "arguments": {"column": f"c{call}"}, "result": {"stats": stats}})
    reg = learn(rows)
    flags = {"stats": {"min": 0, "p5": 0, "median": 0, "max": 1}}  # a column of mostly zeros
    assert not _ids(reg, "profile", {"column": "flag"}, flags)
    # a median below 0 still fires
    assert any(
        "median" in i
        for i in _ids(reg, "profile", {"column": "flag"}, {"stats": {**flags["stats"], "median": -4}})
    )


def test_a_time_zones_offset_keeps_no_sign() -> None:
    rng = random.Random(12)
    zones = {"Europe/Paris": 3600, "Asia/Tokyo": 32400, "Asia/Kolkata": 19800, "Europe/London": 0}
    zones |= {"Asia/Dubai": 14400, "Australia/Sydney": 36000, "Africa/Nairobi": 10800}
    rows = []
    for _ in range(30):  # recorded in zones at or east of Greenwich only
        zone = rng.choice(sorted(zones))
        day, hour = rng.randrange(1, 28), rng.randrange(12)
        local = f"2026-06-{day:02d}T{hour + 12:02d}:00:00"  # noon or later: east of Greenwich, a later hour
        utc = f"2026-06-{day:02d}T{hour + 12 - zones[zone] // 3600:02d}:00:00+00:00"
        instant = {"zone": zone, "utc_offset_seconds": zones[zone], "iso_utc": utc, "iso_local": local}
        rows.append({"tool": "timeline", "arguments": {"zone": zone}, "result": {"instant": instant}})
    reg = learn(rows)
    york = {"instant": {"zone": "America/New_York", "utc_offset_seconds": -14400}}
    york["instant"] |= {"iso_utc": "2026-06-07T13:00:00+00:00", "iso_local": "2026-06-07T09:00:00"}
    assert not _ids(reg, "timeline", {"zone": "America/New_York"}, york)
    # an offset gone text still breaks its type
    assert _ids(
        reg,
        "timeline",
        {"zone": "America/New_York"},
        {"instant": {**york["instant"], "utc_offset_seconds": "N/A"}},
    )
