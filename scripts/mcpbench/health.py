"""apple-health-export-mcp (PyPI, FastMCP): half a year of a person's Apple Health export, read as aggregates.

Its results are a list in one compact JSON text block (``[{"period":"2025-W03","value":58.6,"n":5}]``) whose
structured content wraps it as ``{"result": [...]}`` (``outputSchema``; FastMCP's ``wrap_result`` in the
result's ``_meta``): per-bucket values of a metric as floats with their sample counts under periods that are
days, ISO-like weeks (``2025-W03``), months or ``all``; sleep per night in minutes by stage; workouts per
activity with counts, total and average minutes (``null`` where a duration is missing); metrics and sources
with their row counts and first and last days (``null`` for workouts' span); an empty list for a window or a
type with nothing in it. The export is made here as ``export.zip`` (a ``HealthData`` XML written with the
standard library): step counts and walking distance from a watch and a phone (the server's sums keep one
source a day), active energy, heart-rate samples, resting heart rate, weekly body mass, flights climbed,
nights of sleep stages, workouts of five kinds. The package's own ingest command loads it into a SQLite file
once, in setup; the server only reads that file (AH_DB_PATH), so the answers never change.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from mcpbench.client import Call
from mcpbench.fixture import Fixture

HK = "HKQuantityTypeIdentifier"
SLEEP = "HKCategoryTypeIdentifierSleepAnalysis"
STAGE = "HKCategoryValueSleepAnalysis"
WATCH, PHONE, SCALE = "Ines's Apple Watch", "Ines's iPhone", "Withings Body+"
ACTIVITIES = ("Running", "Cycling", "Walking", "Yoga", "Swimming")
# the metrics: unit, the sources writing it, samples a day (0: weekly), a sample's value
METRICS: dict[str, tuple[str, tuple[str, ...], int]] = {
    "StepCount": ("count", (WATCH, PHONE), 8),
    "DistanceWalkingRunning": ("km", (WATCH, PHONE), 6),
    "ActiveEnergyBurned": ("kcal", (WATCH,), 10),
    "HeartRate": ("count/min", (WATCH,), 12),
    "RestingHeartRate": ("count/min", (WATCH,), 1),
    "FlightsClimbed": ("count", (PHONE,), 3),
    "BodyMass": ("kg", (SCALE,), 0),
}
CUMULATIVE = ("StepCount", "DistanceWalkingRunning", "ActiveEnergyBurned", "FlightsClimbed")
DAY0 = dt.date(2024, 9, 1)
DAYS = 182


def _value(rng: random.Random, metric: str, day: int) -> str:
    trend = day / DAYS
    if metric == "StepCount":
        return str(rng.randrange(80, 2400))
    if metric == "DistanceWalkingRunning":
        return f"{rng.uniform(0.05, 1.9):.3f}"
    if metric == "ActiveEnergyBurned":
        return f"{rng.uniform(2, 90):.2f}"
    if metric == "HeartRate":
        return str(rng.randrange(52, 165))
    if metric == "RestingHeartRate":
        return str(round(61 - 4 * trend + rng.uniform(-3, 3)))
    if metric == "FlightsClimbed":
        return str(rng.randrange(1, 9))
    return f"{78.4 - 2.5 * trend + rng.uniform(-0.6, 0.6):.1f}"  # body mass


def _stamp(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S +0100")


def _record(
    kind: str, source: str, start: dt.datetime, end: dt.datetime, value: str, unit: str | None
) -> str:
    attrs = {"type": kind, "sourceName": source, **({"unit": unit} if unit else {}), "creationDate": _stamp(end),
             "startDate": _stamp(start), "endDate": _stamp(end), "value": value}  # fmt: skip
    return "<Record " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items()) + "/>"


def _export(rng: random.Random) -> str:
    rows: list[str] = []
    for d in range(DAYS):
        day = dt.datetime.combine(DAY0 + dt.timedelta(days=d), dt.time(0, 0))
        for metric, (unit, sources, per_day) in METRICS.items():
            if per_day == 0:
                if d % 7 == 0 and rng.random() < 0.85:
                    t = day + dt.timedelta(hours=7, minutes=rng.randrange(40))
                    rows.append(_record(HK + metric, SCALE, t, t, _value(rng, metric, d), unit))
                continue
            for source in sources:
                if source == PHONE and rng.random() < 0.1:  # the phone left at home
                    continue
                for _ in range(rng.randrange(max(1, per_day // 2), per_day + 1)):
                    t = day + dt.timedelta(minutes=rng.randrange(6 * 60, 23 * 60))
                    end = t + dt.timedelta(minutes=rng.randrange(1, 30))
                    rows.append(_record(HK + metric, source, t, end, _value(rng, metric, d), unit))
        if rng.random() < 0.9:  # the night before this day: in bed, then stages until waking
            t = day - dt.timedelta(minutes=rng.randrange(20, 120))
            wake = day + dt.timedelta(hours=6, minutes=rng.randrange(0, 150))
            rows.append(_record(SLEEP, WATCH, t, wake, STAGE + "InBed", None))
            t += dt.timedelta(minutes=rng.randrange(5, 30))
            while t < wake:
                stage = rng.choice(("AsleepCore", "AsleepCore", "AsleepDeep", "AsleepREM", "Awake"))
                end = min(wake, t + dt.timedelta(minutes=rng.randrange(10, 70)))
                rows.append(_record(SLEEP, WATCH, t, end, STAGE + stage, None))
                t = end
        if rng.random() < 0.45:
            activity = rng.choice(ACTIVITIES)
            t = day + dt.timedelta(hours=rng.randrange(6, 20), minutes=rng.randrange(60))
            minutes = round(rng.uniform(12, 95), 2)
            duration = f'duration="{minutes}" durationUnit="min" ' if rng.random() < 0.93 else ""
            rows.append(f'<Workout workoutActivityType="HKWorkoutActivityType{activity}" {duration}'
                        f'sourceName={quoteattr(WATCH)} creationDate="{_stamp(t)}" startDate="{_stamp(t)}" '
                        f'endDate="{_stamp(t + dt.timedelta(minutes=minutes))}"/>')  # fmt: skip
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData>\n<HealthData locale="en_GB">\n'
            '<ExportDate value="2025-03-02 09:00:00 +0100"/>\n<Me HKCharacteristicTypeIdentifierDateOfBirth="1990-04-12"/>\n'
            + "\n".join(rows) + "\n</HealthData>\n")  # fmt: skip


def health_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    archive, db = work / "export.zip", work / "health.db"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export.xml", _export(rng))
    ingest = Path(binary[0]).parent / "apple-health-export-mcp-ingest"
    if ingest.is_file():  # without the install there is nothing to ingest with (the server's test skips then)
        env = dict(os.environ, AH_DB_PATH=str(db))
        subprocess.run([str(ingest), str(archive)], env=env, check=True, capture_output=True, text=True)
    return Fixture(["env", f"AH_DB_PATH={db}", *binary], {"days": DAYS})


def _window(rng: random.Random, longest: int) -> tuple[str, str]:
    start = DAY0 + dt.timedelta(days=rng.randrange(-10, DAYS))
    end = start + dt.timedelta(days=rng.randrange(0, longest))
    return start.isoformat(), end.isoformat()


def health_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.015:
        return "list_types", {}
    if r < 0.06:
        metric = rng.choice(sorted(METRICS))
        return "list_sources", {"type": HK + metric if rng.random() < 0.9 else SLEEP}
    if r < 0.72:
        metric = rng.choice(sorted(METRICS))
        bucket = rng.choice(("day", "day", "week", "month", "all"))
        start, end = _window(rng, {"day": 21, "week": 70, "month": 150, "all": 150}[bucket])
        cumulative = metric in CUMULATIVE
        agg = "sum" if cumulative and rng.random() < 0.6 else rng.choice(("avg", "min", "max", "count"))
        args: dict[str, Any] = {"type": HK + metric, "start": start, "end": end, "agg": agg, "bucket": bucket}
        if rng.random() < 0.15:
            args["source"] = rng.choice(METRICS[metric][1])
        return "get_quantity", args
    if r < 0.87:
        start, end = _window(rng, 14)
        return "get_sleep", {"start": start, "end": end}
    start, end = _window(rng, 90)
    return "get_workouts", {"start": start, "end": end}
