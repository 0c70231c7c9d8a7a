"""clawlendar (PyPI, mcp.server.fastmcp on the SDK 1.x): an international events office's programme, its dates
converted into the calendars its offices keep and its start times projected into their time zones.

Its results are JSON text wrapped in structure, {"result": "<indented JSON>"} (an ``outputSchema`` of one string),
the same text in its block, with non-ASCII characters as they are: a conversion's source payload echoed, the
canonical Gregorian date and per target calendar its payload (years, months and days as numbers, an era's name, a
lunar month's leap flag, an ISO week) with an approximate flag; an instant's timestamp in seconds and milliseconds,
ISO datetimes in UTC and local time with the offset in seconds, and its projections; a month's first and last days,
day count, neighbouring months and each day's Gregorian and local payloads; a day's profile (weekday, sexagenary
stem and branch, solar term with days to the next, in English or Chinese characters) and an astrological snapshot
(seven bodies' ecliptic longitudes in degrees to six places, zodiac signs and symbols, four remainders, major
aspects); the calendars' capabilities with their payload examples and the optional providers' warnings. The fixture
holds no file: a seeded programme of forty events (a Gregorian date between 2025 and 2027, a local start time, an
office's time zone) that the workload draws from, now and then with a month in another calendar; the weather tools
are never called.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

OFFICES = ("Asia/Taipei", "Asia/Tokyo", "Asia/Shanghai", "Asia/Bangkok", "Asia/Jerusalem", "Asia/Tehran",
           "Asia/Riyadh", "Europe/London", "Europe/Paris", "America/New_York", "Australia/Sydney", "UTC")  # fmt: skip
TARGETS = ("gregorian", "julian", "iso_week", "unix_epoch", "minguo", "buddhist", "japanese_era", "sexagenary",
           "solar_term_24", "chinese_lunar", "islamic", "hebrew", "persian")  # fmt: skip
EVENTS = ("board meeting", "product launch", "trade fair", "staff retreat", "quarterly review", "gala dinner",
          "training day", "press briefing", "open house", "partner summit")  # fmt: skip
BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn")
LOCALES = ("en", "en", "en", "zh", "zh-TW", "zh-CN")
# a month by its own calendar: the year range each calendar's months are drawn from (2025 to 2027 or so)
MONTHS = {"gregorian": ("year", 2025, 2027, 12), "julian": ("year", 2025, 2027, 12), "minguo": ("year", 114, 116, 12),
          "buddhist": ("year", 2568, 2570, 12), "islamic": ("year", 1446, 1448, 12), "hebrew": ("year", 5785, 5787, 12),
          "persian": ("year", 1404, 1405, 12), "chinese_lunar": ("lunar_year", 2025, 2026, 12)}  # fmt: skip


def _payload(source: str, day: dt.date) -> dict[str, object]:
    """The event's date in a calendar the server reads back (every one of these converts exactly)."""
    if source == "julian":  # 13 days behind from 1900 to 2099
        j = day - dt.timedelta(days=13)
        return {"year": j.year, "month": j.month, "day": j.day}
    if source == "iso_week":
        y, w, d = day.isocalendar()
        return {"iso_year": y, "iso_week": w, "iso_weekday": d}
    if source == "unix_epoch":
        return {"epoch_seconds": int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())}
    if source == "minguo":
        return {"year": day.year - 1911, "month": day.month, "day": day.day}
    if source == "buddhist":
        return {"year": day.year + 543, "month": day.month, "day": day.day}
    if source == "japanese_era":
        return {"era": "reiwa", "era_year": day.year - 2018, "month": day.month, "day": day.day}
    return {"year": day.year, "month": day.month, "day": day.day}


def _instant(rng: random.Random, event: dict) -> dict[str, object]:
    day, (hh, mm) = dt.date.fromisoformat(event["date"]), event["time"]
    k = rng.randrange(4)
    if k == 0:
        return {"local_datetime": f"{day}T{hh:02d}:{mm:02d}:00"}
    if k == 1:
        return {
            "iso_datetime": f"{day}T{hh:02d}:{mm:02d}:00{rng.choice(('+00:00', '+08:00', '+09:00', '-05:00', '+01:00'))}"
        }
    stamp = int(dt.datetime(day.year, day.month, day.day, hh, mm, tzinfo=dt.UTC).timestamp())
    return {"timestamp": stamp} if k == 2 else {"timestamp_ms": stamp * 1000 + rng.randrange(1000)}


def eras_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    programme = []
    for _ in range(40):
        day = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(0, 3 * 365))
        programme.append({"event": rng.choice(EVENTS), "date": day.isoformat(), "office": rng.choice(OFFICES),
                          "time": [rng.choice((8, 9, 10, 13, 14, 18, 19)), rng.choice((0, 0, 15, 30, 45))]})  # fmt: skip
    return Fixture([*binary], {"programme": programme})


def eras_call(rng: random.Random, fx: Fixture) -> Call:
    event = dict(rng.choice(fx.facts["programme"]))
    if rng.random() < 0.15:  # moved to another day
        day = dt.date.fromisoformat(event["date"]) + dt.timedelta(days=rng.randrange(-20, 21))
        event["date"] = day.isoformat()
    day = dt.date.fromisoformat(event["date"])
    locale = {"locale": rng.choice(LOCALES)} if rng.random() < 0.35 else {}
    r = rng.random()
    if r < 0.34:
        source = rng.choice(("gregorian", "gregorian", "julian", "iso_week", "unix_epoch", "minguo", "buddhist",
                             "japanese_era"))  # fmt: skip
        targets = rng.sample([t for t in TARGETS if t != source], rng.randrange(1, 6))
        return "convert", {
            "source": source,
            "targets": targets,
            "source_payload": _payload(source, day),
            **locale,
        }
    if r < 0.56:
        args: dict[str, object] = {"input_payload": _instant(rng, event), "timezone": event["office"]}
        if rng.random() < 0.7:
            args["targets"] = rng.sample(TARGETS, rng.randrange(1, 5))
        if rng.random() < 0.3:
            args["date_basis"] = rng.choice(("local", "utc"))
        return "timeline", {**args, **locale}
    if r < 0.72:
        source = rng.choice(sorted(MONTHS)) if rng.random() < 0.5 else "gregorian"
        key, low, high, months = MONTHS[source]
        if source == "gregorian":
            payload: dict[str, object] = {"year": day.year, "month": day.month}
        else:
            payload = {
                key: rng.randint(low, high),
                ("lunar_month" if key == "lunar_year" else "month"): rng.randint(1, months),
            }
        return "calendar_month", {"source": source, "month_payload": payload}
    if r < 0.86:
        args = {"input_payload": _instant(rng, event), "timezone": event["office"]}
        for flag in ("include_astro", "include_metaphysics"):
            if rng.random() < 0.4:
                args[flag] = rng.random() < 0.5
        return "day_profile", {**args, **locale}
    if r < 0.97:
        args = {"input_payload": _instant(rng, event), "timezone": event["office"]}
        if rng.random() < 0.5:
            args["bodies"] = rng.sample(BODIES, rng.randrange(1, 5))
        return "astro_snapshot", args
    return "capabilities", {}
