"""mcp-text-editor (PyPI): a team's folder of text files read by line range and edited with hashes.

Its results are JSON text without an ``outputSchema``, keyed by each file's absolute path: a read gives
per range the lines' text, their first and last line numbers, the file's line count, the range's size in
characters and a sha256 of the range, and the sha256 of the whole file; an edit gives ``"result": "ok"``
with the file's new hash (or ``"error"`` with a reason). The folder is made once (meeting notes, a CSV
ledger, a log with timestamps, a changelog, Python and config files, a list of contacts) with drafts kept
for the edits, and kept as a pristine copy; every server start begins from it. The workload reads only
files it never edits, so every read's lines are known; it edits each draft at most once (an edit needs the
file's hash, and the draft is then as made), appends to some, replaces a range in others, and creates new
files under a folder of its own. (Its tool's description says to append with ``line_end`` one less than
``line_start``; the server answers that with an error, so the workload's appends give ``line_start`` alone.)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import shutil
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

# start each session from the pristine folder: the server then reads and edits its own copy
RESET = 'rm -rf "$1" && cp -r "$0" "$1" && exec "$2"'
ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
TOPICS = (
    "pricing",
    "returns",
    "the warehouse move",
    "hiring",
    "the Q3 budget",
    "the website",
    "support hours",
)
LEVELS = ("INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG")
EVENTS = ("order {n} placed", "payment {n} settled", "user {n} signed in", "export {n} finished",
          "retry {n} after timeout", "cache miss for item {n}", "invoice {n} sent")  # fmt: skip


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _notes(rng: random.Random, day: dt.date) -> str:
    lines = [
        f"# Meeting on {day.isoformat()}",
        "",
        f"Present: {', '.join(_person(rng) for _ in range(rng.randrange(2, 6)))}",
        "",
    ]
    for topic in rng.sample(TOPICS, rng.randrange(2, 5)):
        lines.append(f"## {topic.capitalize()}")
        for _ in range(rng.randrange(1, 4)):
            due = day + dt.timedelta(days=rng.randrange(3, 40))
            lines.append(
                f"- {rng.choice(FIRST)} to follow up by {due.isoformat()} ({rng.randrange(1, 20)} h)"
            )
        lines.append("")
    return "\n".join(lines)


def _ledger(rng: random.Random, n: int) -> str:
    day0 = dt.date(2025, 1, 1)
    rows = ["date,account,item,qty,amount"]
    for _ in range(n):
        day = day0 + dt.timedelta(days=rng.randrange(330))
        rows.append(f"{day.isoformat()},{rng.randrange(4000, 4100)},{rng.choice(ITEMS)},"
                    f"{rng.randrange(1, 12)},{rng.uniform(-300, 900):.2f}")  # fmt: skip
    return "\n".join(rows) + "\n"


def _log(rng: random.Random, n: int) -> str:
    at = dt.datetime(2025, 6, rng.randrange(1, 28), rng.randrange(24), tzinfo=dt.UTC)
    lines = []
    for _ in range(n):
        at += dt.timedelta(seconds=rng.randrange(1, 900))
        event = rng.choice(EVENTS).format(n=rng.randrange(100, 99_999))
        lines.append(f"{at.strftime('%Y-%m-%dT%H:%M:%SZ')} {rng.choice(LEVELS):5} {event}")
    return "\n".join(lines) + "\n"


def _changelog(rng: random.Random) -> str:
    lines = ["# Changelog", ""]
    day = dt.date(2025, 11, 1)
    for v in range(rng.randrange(5, 12), 0, -1):
        day -= dt.timedelta(days=rng.randrange(5, 40))
        lines += [f"## 1.{v}.{rng.randrange(4)} ({day.isoformat()})", ""]
        verbs, parts = ("Fix", "Add", "Speed up", "Remove"), ("export", "search", "totals", "labels")
        lines += [f"- {rng.choice(verbs)} {rng.choice(ITEMS)} {rng.choice(parts)}"
                  for _ in range(rng.randrange(1, 5))]  # fmt: skip
        lines.append("")
    return "\n".join(lines)


def _python(rng: random.Random) -> str:
    lines = ['"""Prices for the shop."""', "", f"VAT = {rng.choice((0.07, 0.19, 0.2, 0.21))}", ""]
    for item in rng.sample(ITEMS, rng.randrange(3, 7)):
        lines += [
            f"def {item}_price(qty: int) -> float:",
            f"    return round(qty * {rng.uniform(3, 300):.2f} * (1 + VAT), 2)",
            "",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def _config(rng: random.Random) -> str:
    since = dt.date(rng.randrange(2010, 2026), rng.randrange(1, 13), rng.randrange(1, 29))
    lines = ["[server]", "host = 127.0.0.1", f"port = {rng.randrange(8000, 9000)}",
             f"workers = {rng.randrange(1, 9)}", "", "[limits]", f"max_items = {rng.randrange(10, 500)}",
             f"timeout_s = {rng.randrange(5, 120)}", "", "[owner]", f"name = {_person(rng)}",
             f"since = {since.isoformat()}"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _contacts(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randrange(8, 30)):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        lines.append(
            f"{first} {last} <{first.lower()}.{last.lower()}@example.org> "
            f"+44 20 {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}"
        )
    return "\n".join(lines) + "\n"


def _draft(rng: random.Random) -> str:
    lines = [f"{rng.choice(TOPICS).capitalize()}: {rng.choice(FIRST)} owes {rng.randrange(1, 40)} items"
             for _ in range(rng.randrange(3, 12))]  # fmt: skip
    return "\n".join(lines) + "\n"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def textfiles_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "team.pristine", work / "team"
    for folder in ("notes", "data", "logs", "code", "drafts"):
        (pristine / folder).mkdir(parents=True)
    files: dict[str, str] = {}
    day = dt.date(2025, 1, 6)
    for _ in range(8):
        day += dt.timedelta(days=rng.randrange(5, 30))
        files[f"notes/{day.isoformat()}.md"] = _notes(rng, day)
    for name in ("ledger-2025.csv", "refunds.csv", "stock.csv"):
        files[f"data/{name}"] = _ledger(rng, rng.randrange(10, 80))
    for name in ("app.log", "worker.log", "export.log"):
        files[f"logs/{name}"] = _log(rng, rng.randrange(20, 120))
    files["CHANGELOG.md"] = _changelog(rng)
    files["code/prices.py"] = _python(rng)
    files["code/settings.ini"] = _config(rng)
    files["contacts.txt"] = _contacts(rng)
    for rel, text in files.items():
        (pristine / rel).write_text(text)
    drafts: list[dict[str, Any]] = []
    for i in range(90):
        text = _draft(rng)
        rel = f"drafts/draft-{i + 1:03d}.txt"
        (pristine / rel).write_text(text)
        drafts.append({"path": str(live / rel), "hash": _sha(text), "lines": text.splitlines(keepends=True)})
    facts: dict[str, Any] = {
        "files": {str(live / rel): len(text.splitlines()) for rel, text in files.items()},
        "drafts": drafts,
        "new": str(live / "new"),
        "made": 0,
    }
    shutil.copytree(pristine, live)  # for a first look before any server start; each start replaces it
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *binary], facts)


def _range(rng: random.Random, n: int) -> dict[str, Any]:
    start = rng.randrange(1, n + 1)
    end: int | None = rng.randrange(start, n + 1) if rng.random() < 0.7 else None
    return {"start": start, "end": end} if end is not None or rng.random() < 0.5 else {"start": start}


def textfiles_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, int] = fx.facts["files"]
    r = rng.random()
    if r < 0.72 or not fx.facts["drafts"]:
        picked = rng.sample(sorted(files), 1 if rng.random() < 0.65 else rng.randrange(2, 4))
        spec = []
        for path in picked:
            n = files[path]
            ranges = [_range(rng, n) for _ in range(1 if rng.random() < 0.75 else 2)]
            spec.append({"file_path": path, "ranges": ranges})
        encoding = {"encoding": "utf-8"} if rng.random() < 0.1 else {}
        return "get_text_file_contents", {"files": spec, **encoding}
    if r < 0.8:  # a new file in a folder of the workload's own
        fx.facts["made"] += 1
        name = f"{fx.facts['new']}/{rng.choice(('todo', 'memo', 'idea', 'minutes'))}-{fx.facts['made']}.md"
        body = f"# {rng.choice(TOPICS).capitalize()}\n\n" + _draft(rng)
        edit = {"path": name, "file_hash": "", "patches": [{"line_start": 1, "contents": body}]}
        return "edit_text_file_contents", {"files": [edit]}
    draft = fx.facts["drafts"].pop(rng.randrange(len(fx.facts["drafts"])))  # each draft edited once
    lines: list[str] = draft["lines"]
    r = rng.random()
    if r < 0.35:  # append after the last line: no range hash needed
        patch: dict[str, Any] = {"line_start": len(lines) + 1, "contents": _draft(rng)}
    elif r < 0.5:  # insert before a line: the empty range's hash
        patch = {
            "line_start": rng.randrange(1, len(lines) + 1),
            "contents": _draft(rng),
            "range_hash": _sha(""),
        }
    else:  # replace a range, named by its hash
        start = rng.randrange(1, len(lines) + 1)
        end = rng.randrange(start, min(len(lines), start + 3) + 1)
        patch = {"line_start": start, "line_end": end, "contents": _draft(rng),
                 "range_hash": _sha("".join(lines[start - 1 : end]))}  # fmt: skip
    edit = {"path": draft["path"], "file_hash": draft["hash"], "patches": [patch]}
    return "edit_text_file_contents", {"files": [edit]}
