"""@modelcontextprotocol/server-filesystem (npm): a project folder of notes, data files, logs and code.

Its results are text wrapped in structure, ``{"content": "<text>"}`` with an ``outputSchema``, the text block
the same text: directory listings (``[FILE] name``, sizes and totals), ``key: value`` file information, file
text, a directory tree as JSON text. The folder's files get seeded modification times; the workload's writes
go to a second allowed folder (``scratch``) that no read of the workload lists or reads.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

PEOPLE = ("Ada", "Bo", "Chidi", "Dana", "Emil", "Farah", "Gus")
DECISIONS = (
    "ship the importer",
    "freeze the API",
    "hire a tester",
    "drop the legacy export",
    "move to weekly releases",
)
ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
LEVELS = ("INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG")
STATUS = ("pending", "shipped", "delivered", "cancelled")
PATTERNS = ("**/*.md", "**/*.csv", "**/*.json", "**/*.log", "**/*.py", "**/meeting-*", "**/*2025*")


def _notes(rng: random.Random, day: dt.date) -> str:
    lines = [f"# Meeting {day.isoformat()}", "", f"Attendees: {', '.join(rng.sample(PEOPLE, 3))}", ""]
    lines += [f"- Decision: {rng.choice(DECISIONS)}" for _ in range(rng.randrange(1, 4))]
    lines += [
        f"- Budget: {rng.randrange(2, 90) * 100} EUR",
        "",
        f"Next meeting: {(day + dt.timedelta(days=7)).isoformat()}",
        "",
    ]
    return "\n".join(lines)


def _log(rng: random.Random, day: dt.date) -> str:
    at = dt.datetime(day.year, day.month, day.day, 8, 0, tzinfo=dt.UTC)
    lines = []
    for _ in range(rng.randrange(8, 25)):
        at += dt.timedelta(seconds=rng.randrange(5, 900))
        lines.append(f"{at.strftime('%Y-%m-%dT%H:%M:%SZ')} {rng.choice(LEVELS)} request served in "
                     f"{rng.randrange(3, 900)} ms (status {rng.choice((200, 200, 200, 201, 404, 500))})")  # fmt: skip
    return "\n".join(lines) + "\n"


def files_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root, scratch = work / "project", work / "scratch"
    texts: dict[str, str] = {}
    day0 = dt.date(2025, 1, 6)
    for k in range(24):
        day = day0 + dt.timedelta(days=7 * k + rng.randrange(3))
        texts[f"notes/meeting-{day.isoformat()}.md"] = _notes(rng, day)
    rows = ["sku,item,qty,unit_price,updated"]
    for _ in range(30):
        updated = day0 + dt.timedelta(days=rng.randrange(300))
        rows.append(f"SKU-{rng.randrange(10_000, 99_999)},{rng.choice(ITEMS)},{rng.randrange(0, 400)},"
                    f"{rng.uniform(2, 300):.2f},{updated.isoformat()}")  # fmt: skip
    texts["data/inventory.csv"] = "\n".join(rows) + "\n"
    orders = [{"id": 5001 + i, "item": rng.choice(ITEMS), "qty": rng.randrange(1, 9), "status": rng.choice(STATUS),
               "placed": (day0 + dt.timedelta(days=rng.randrange(300))).isoformat()} for i in range(12)]  # fmt: skip
    texts["data/orders.json"] = json.dumps(orders, indent=2) + "\n"
    texts["data/config.json"] = json.dumps({"service": "inventory", "port": rng.randrange(8000, 9000),
                                            "workers": rng.randrange(2, 17), "debug": False,
                                            "owners": rng.sample(PEOPLE, 2)}, indent=2) + "\n"  # fmt: skip
    for month in range(3, 11):
        texts[f"logs/app-2025-{month:02d}.log"] = _log(rng, dt.date(2025, month, rng.randrange(1, 28)))
    texts["src/app.py"] = "from util import total\n\n\ndef main():\n    print(total([1, 2, 3]))\n"
    texts["src/util.py"] = "def total(xs):\n    return sum(xs)\n"
    texts["README.md"] = "# Inventory service\n\nNotes, data and logs of the inventory service.\n"
    base = dt.datetime(2025, 6, 1, tzinfo=dt.UTC).timestamp()
    for rel, text in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        stamp = base + rng.randrange(0, 90 * 86400)
        os.utime(path, (stamp, stamp))
    scratch.mkdir()
    files = sorted(str(root / rel) for rel in texts)
    dirs = [str(root), *sorted({str((root / rel).parent) for rel in texts} - {str(root)})]
    return Fixture(
        [*binary, str(root), str(scratch)], {"files": files, "dirs": dirs, "scratch": str(scratch)}
    )


def files_call(rng: random.Random, fx: Fixture) -> Call:
    files: list[str] = fx.facts["files"]
    dirs: list[str] = fx.facts["dirs"]
    r = rng.random()
    if r < 0.25:
        window = rng.choice(({}, {}, {"head": rng.randrange(1, 8)}, {"tail": rng.randrange(1, 8)}))
        return "read_text_file", {"path": rng.choice(files), **window}
    if r < 0.33:
        return "read_multiple_files", {"paths": rng.sample(files, rng.randrange(2, 4))}
    if r < 0.45:
        return "list_directory", {"path": rng.choice(dirs)}
    if r < 0.55:
        order = rng.choice(({}, {"sortBy": "name"}, {"sortBy": "size"}))
        return "list_directory_with_sizes", {"path": rng.choice(dirs), **order}
    if r < 0.61:
        return "directory_tree", {"path": rng.choice(dirs)}
    if r < 0.78:
        return "get_file_info", {"path": rng.choice(files + dirs)}
    if r < 0.88:
        return "search_files", {"path": rng.choice(dirs), "pattern": rng.choice(PATTERNS)}
    if r < 0.9:
        return "list_allowed_directories", {}
    name = f"{rng.choice(ITEMS)}-{rng.randrange(100)}"
    if r < 0.97:
        text = f"{rng.choice(PEOPLE)} counted {rng.randrange(1, 500)} {rng.choice(ITEMS)}s\n"
        return "write_file", {"path": f"{fx.facts['scratch']}/{name}.txt", "content": text}
    return "create_directory", {"path": f"{fx.facts['scratch']}/{name}"}
