"""webcal-mcp (PyPI, SDK 1.x): a clinic's and a team's iCalendar feeds, fetched from a site on 127.0.0.1.

Its results carry no structured content (but for the list of calendars, wrapped as ``{"result": [...]}``):
an event list is one text block per event, that event's JSON indented (``brief``: uid, summary, start, end,
all_day; ``full`` adds description, location, organizer, attendees, status, url, categories and the
occurrence's recurrence id; a ``calendar`` field where several calendars were asked), or, in ``markdown``
detail, one block of ``## Summary`` sections with ``**When:**`` lines, joined by ``---``; an event that is
not there, or a day with none, is no block at all. Starts and ends are ISO datetimes with their offset, or
dates for all-day events; recurring events come expanded, one block per occurrence. The feeds are written
here as .ics files (weekly and monthly rules with counts, ends and exceptions, moved occurrences, time zones,
all-day leave, attendees, categories) and served by an HTTP server in this process (a daemon thread on a
free loopback port); the server reads its calendars from a TOML file that names their URLs. The workload
only reads, always within a window it names (the server's default window starts at the clock's now).
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture
from mcpbench.web import serve

ZONES = ("Europe/London", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC")
ROOMS = ("Room 1", "Room 2", "Room 4", "Lab B", "Studio", "Hall", "Online")
CATEGORIES = ("meeting", "clinic", "training", "review", "social", "leave", "on-call", "travel")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR")
TOPICS = ("Standup", "Sprint review", "Physio session", "Dental check", "Budget review", "Fire drill",
          "1:1", "Vaccination clinic", "Team lunch", "Release planning", "Audit", "Board meeting")  # fmt: skip
CALENDARS = {"team": "Team meetings and reviews", "clinic": "Clinic appointments", "rota": "On-call rota",
             "leave": "Leave and holidays"}  # fmt: skip
DAY0 = dt.date(2025, 1, 6)  # a Monday
SPAN = 300  # days of events


def _person(rng: random.Random) -> str:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return f"CN={first} {last}:mailto:{first.lower()}.{last.lower()}@example.org"


def _event(rng: random.Random, uid: str, name: str) -> tuple[list[str], dict[str, Any]]:
    """One VEVENT's lines, and what the workload may ask about it."""
    day = DAY0 + dt.timedelta(days=rng.randrange(SPAN))
    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20250101T000000Z"]
    summary = rng.choice(TOPICS) if name != "leave" else f"{rng.choice(FIRST)} on leave"
    moved: list[str] = []  # a VEVENT moving the first occurrence of a recurring one
    if name == "leave" or rng.random() < 0.1:  # all day, one to ten days
        end = day + dt.timedelta(days=rng.randrange(1, 11))
        lines += [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{end:%Y%m%d}"]
        timed = False
    else:
        start = dt.datetime.combine(day, dt.time(rng.randrange(7, 18), rng.choice((0, 15, 30, 45))))
        length = dt.timedelta(minutes=rng.choice((15, 30, 45, 60, 90, 120)))
        zone = rng.choice(ZONES)

        def stamp(key: str, t: dt.datetime) -> str:
            return f"{key}:{t:%Y%m%dT%H%M%S}Z" if zone == "UTC" else f"{key};TZID={zone}:{t:%Y%m%dT%H%M%S}"

        lines += [stamp("DTSTART", start), stamp("DTEND", start + length)]
        later = start + dt.timedelta(days=1, hours=rng.randrange(1, 4))
        moved = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20250101T000000Z", stamp("RECURRENCE-ID", start),
                 stamp("DTSTART", later), stamp("DTEND", later + length), f"SUMMARY:{summary} (moved)",
                 "END:VEVENT"]  # fmt: skip
        timed = True
    recurring = name in ("team", "rota") and rng.random() < 0.5
    if recurring:
        if rng.random() < 0.6:
            days = ",".join(sorted(rng.sample(WEEKDAYS, rng.randrange(1, 4)), key=WEEKDAYS.index))
            rule = f"FREQ=WEEKLY;INTERVAL={rng.choice((1, 1, 2))};BYDAY={days}"
        else:
            rule = f"FREQ=MONTHLY;BYMONTHDAY={min(day.day, 28)}"
        until = f"UNTIL={day.year + 1}0301T000000Z"
        rule += f";COUNT={rng.randrange(4, 40)}" if rng.random() < 0.6 else f";{until}"
        lines.append(f"RRULE:{rule}")
        if timed and rng.random() < 0.3:  # the second week's occurrence cancelled (where there is one)
            week = f"{start + dt.timedelta(days=7):%Y%m%d}"
            lines.append(moved[3].replace("RECURRENCE-ID", "EXDATE").replace(f"{start:%Y%m%d}", week))
    lines.append(f"SUMMARY:{summary}")
    if rng.random() < 0.7:
        lines.append(f"LOCATION:{rng.choice(ROOMS)}")
    if rng.random() < 0.6:
        lines.append(f"DESCRIPTION:Ref {rng.randrange(1000, 9999)}\\, {rng.randrange(2, 30)} places\\, "
                     f"budget {rng.randrange(50, 5000)} EUR")  # fmt: skip
    if rng.random() < 0.5:
        lines.append(f"ORGANIZER;{_person(rng)}")
        lines += [f"ATTENDEE;{_person(rng)}" for _ in range(rng.randrange(0, 4))]
    if rng.random() < 0.6:
        lines.append("CATEGORIES:" + ",".join(rng.sample(CATEGORIES, rng.randrange(1, 3))))
    if rng.random() < 0.4:
        lines.append(f"STATUS:{rng.choice(('CONFIRMED', 'TENTATIVE', 'CANCELLED'))}")
    lines.append("END:VEVENT")
    if recurring and timed and rng.random() < 0.3:
        lines += moved
    return lines, {"uid": uid, "summary": summary, "day": day.isoformat(), "recurring": recurring}


def calendars_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    site = work / "site"
    site.mkdir()
    events: dict[str, list[dict[str, Any]]] = {}
    for name in CALENDARS:
        body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//mcpbench//calendars//EN", f"X-WR-CALNAME:{name}"]
        events[name] = []
        for k in range(rng.randrange(25, 45)):
            lines, about = _event(rng, f"{name}-{1000 + k}@example.org", name)
            body += lines
            events[name].append(about)
        body.append("END:VCALENDAR")
        (site / f"{name}.ics").write_text("\r\n".join(body) + "\r\n")
    base = serve(site)
    config = work / "webcal.toml"
    config.write_text("default_ttl_seconds = 86400\n\n" + "".join(
        f'[calendars.{name}]\nurl = "{base}/{name}.ics"\ndescription = "{about}"\n\n'
        for name, about in CALENDARS.items()))  # fmt: skip
    return Fixture(["env", f"WEBCAL_MCP_CONFIG={config}", *binary], {"events": events})


def _window(rng: random.Random) -> tuple[str, str]:
    start = DAY0 + dt.timedelta(days=rng.randrange(-20, SPAN))
    end = start + dt.timedelta(days=rng.choice((1, 3, 7, 7, 14, 30, 60, 90)))
    return start.isoformat(), end.isoformat()


def _calendar(rng: random.Random) -> str | list[str] | None:
    r = rng.random()
    if r < 0.7:
        return rng.choice(sorted(CALENDARS))
    if r < 0.85:
        return sorted(rng.sample(sorted(CALENDARS), 2))
    return None  # every calendar


def calendars_call(rng: random.Random, fx: Fixture) -> Call:
    events: dict[str, list[dict[str, Any]]] = fx.facts["events"]
    detail = rng.choice(("brief", "brief", "full", "markdown"))
    r = rng.random()
    if r < 0.02:
        return "list_calendars", {}
    if r < 0.55:
        start, end = _window(rng)
        args: dict[str, Any] = {"start": start, "end": end, "detail": detail}
        calendar = _calendar(rng)
        if calendar is not None:
            args["calendar"] = calendar
        f = rng.random()
        if f < 0.15:
            args["query"] = rng.choice((*TOPICS, "budget", "Ref", "leave", "places"))
        elif f < 0.27:
            args["categories"] = rng.sample(CATEGORIES, rng.randrange(1, 3))
        elif f < 0.35:
            args["location"] = rng.choice(ROOMS)
        if rng.random() < 0.3:
            args["limit"] = rng.randrange(1, 20)
        return "list_events", args
    if r < 0.8:
        name = rng.choice(sorted(events))
        if rng.random() < 0.7:  # a day some event starts on (a recurring one may fall on others too)
            day = rng.choice(events[name])["day"]
        else:
            day = (DAY0 + dt.timedelta(days=rng.randrange(SPAN))).isoformat()
        calendar = name if rng.random() < 0.8 else _calendar(rng)
        return "events_on", {"date": day, "detail": detail, **({"calendar": calendar} if calendar else {})}
    name = rng.choice(sorted(events))
    uid = rng.choice(events[name])["uid"]
    if rng.random() < 0.08:  # not in the feed
        uid = f"{name}-{rng.randrange(2000, 2100)}@example.org"
    detail = rng.choice(("full", "full", "brief", "markdown"))
    return "get_event", {"uid": uid, "calendar": name, "detail": detail}
