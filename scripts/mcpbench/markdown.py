"""markitdown-mcp (PyPI): local files and ``data:`` URIs turned into markdown by Microsoft's markitdown.

Its one tool's result is markdown text wrapped in structure, ``{"result": "<markdown>"}`` with an
``outputSchema``, the text block the same text: tables (``| id | name |`` rows from CSV files and workbook
sheets, one ``## Sheet`` heading each), headings, lists and links of HTML pages, a notebook's cells with
code fences, an RSS feed's items, each member of a zip archive under its own heading, JSON and plain text
as they are. The server only reads; the files are made once (the workbook by openpyxl in the server's own
venv) and never change.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import random
import subprocess
import zipfile
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
CITIES = ("Lisbon", "Osaka", "Nairobi", "Toronto", "Krakow", "Valparaiso", "Hanoi", "Tbilisi")
STATUS = ("pending", "shipped", "delivered", "cancelled", "returned")
TOPICS = ("pricing", "returns", "shipping", "warranty", "accounts", "privacy")
WORKBOOK = (
    "import json, sys, openpyxl\nwb = openpyxl.Workbook(); wb.remove(wb.active)\n"
    "for name, rows in json.loads(sys.argv[2]).items():\n    ws = wb.create_sheet(name)\n"
    "    for row in rows: ws.append(row)\nwb.save(sys.argv[1])"
)


def _csv(rng: random.Random, n: int) -> str:
    day0 = dt.date(2025, 1, 1)
    rows = ["id,item,city,qty,price,status,placed"]
    for i in range(n):
        placed = (day0 + dt.timedelta(days=rng.randrange(330))).isoformat()
        rows.append(f"{1001 + i},{rng.choice(ITEMS)},{rng.choice(CITIES)},{rng.randrange(1, 12)},"
                    f"{rng.uniform(3, 400):.2f},{rng.choice(STATUS)},{placed}")  # fmt: skip
    return "\n".join(rows) + "\n"


def _html(rng: random.Random, topic: str) -> str:
    items = "".join(
        f"<li>{rng.choice(ITEMS).title()} for {rng.randrange(5, 300)} EUR</li>"
        for _ in range(rng.randrange(2, 6))
    )
    rows = "".join(f"<tr><td>{rng.choice(CITIES)}</td><td>{rng.randrange(1, 15)} days</td><td>{rng.randrange(0, 40)} EUR</td></tr>"
                   for _ in range(rng.randrange(2, 6)))  # fmt: skip
    return (f"<html><head><title>{topic.title()} | Shop help</title></head><body>"
            f"<h1>{topic.title()}</h1><p>Questions about <b>{topic}</b>, answered by {rng.choice(FIRST)}.</p>"
            f"<h2>Popular</h2><ul>{items}</ul><h2>By city</h2><table><tr><th>City</th><th>Delay</th><th>Fee</th></tr>"
            f"{rows}</table><p>See <a href=\"/help/{rng.choice(TOPICS)}.html\">related help</a>.</p></body></html>")  # fmt: skip


def _notebook(rng: random.Random) -> str:
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": [f"# Sales of {rng.choice(ITEMS)}s\n", "Monthly totals."],
        }
    ]
    for _ in range(rng.randrange(2, 5)):
        n = rng.randrange(10, 999)
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": [f"total = sum(range({n}))\n", "print(total)"]})  # fmt: skip
        cells.append(
            {"cell_type": "markdown", "metadata": {}, "source": [f"The total is {n * (n - 1) // 2}."]}
        )
    meta = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    return json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def _rss(rng: random.Random) -> str:
    items = ""
    for k in range(rng.randrange(3, 7)):
        day = dt.date(2025, rng.randrange(1, 13), rng.randrange(1, 29))
        items += (f"<item><title>{rng.choice(ITEMS).title()} sale in {rng.choice(CITIES)}</title>"
                  f"<link>http://127.0.0.1/news/{k}</link><description>Up to {rng.randrange(5, 60)}% off.</description>"
                  f"<pubDate>{day.strftime('%a, %d %b %Y')} 09:00:00 +0000</pubDate></item>")  # fmt: skip
    return ('<?xml version="1.0"?><rss version="2.0"><channel><title>Shop news</title>'
            f"<link>http://127.0.0.1/news</link><description>News of the shop</description>{items}</channel></rss>")  # fmt: skip


def markdown_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root = work / "files"
    texts: dict[str, str] = {}
    for k in range(8):
        texts[f"data/orders-{k + 1}.csv"] = _csv(rng, rng.randrange(4, 20))
    for topic in TOPICS:
        texts[f"help/{topic}.html"] = _html(rng, topic)
    for k in range(4):
        texts[f"notebooks/sales-{k + 1}.ipynb"] = _notebook(rng)
    texts["feeds/news.rss"] = _rss(rng)
    people = [{"name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "city": rng.choice(CITIES),
               "orders": rng.randrange(0, 40)} for _ in range(6)]  # fmt: skip
    texts["data/customers.json"] = json.dumps(people, indent=2) + "\n"
    for k in range(5):
        lines = [f"Note {k + 1}: call {rng.choice(FIRST)} about the {rng.choice(ITEMS)} order.",
                 f"Budget left: {rng.randrange(100, 9000)} EUR."]  # fmt: skip
        texts[f"notes/note-{k + 1}.txt"] = "\n".join(lines) + "\n"
    for rel, text in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    with zipfile.ZipFile(root / "archive.zip", "w") as z:
        for rel in rng.sample(sorted(texts), 3):
            z.writestr(rel, texts[rel])
    sheets = {
        "Stock": [["item", "qty", "price"]] + [[i, rng.randrange(0, 300), round(rng.uniform(2, 200), 2)] for i in ITEMS],
        "Cities": [["city", "orders"]] + [[c, rng.randrange(1, 500)] for c in CITIES],
    }  # fmt: skip
    python = str(Path(binary[0]).with_name("python"))  # the server's own venv has openpyxl
    subprocess.run(
        [python, "-c", WORKBOOK, str(root / "data" / "stock.xlsx"), json.dumps(sheets)], check=True
    )
    files = sorted([*texts, "archive.zip", "data/stock.xlsx"])
    return Fixture([*binary], {"uris": [(root / rel).as_uri() for rel in files]})


def markdown_call(rng: random.Random, fx: Fixture) -> Call:
    if rng.random() < 0.12:  # a small table or note inline, as a data: URI
        if rng.random() < 0.5:
            text, kind = _csv(rng, rng.randrange(1, 5)), "text/csv"
        else:
            text, kind = (
                f"Reminder: {rng.choice(FIRST)} ships {rng.randrange(1, 90)} {rng.choice(ITEMS)}s.",
                "text/plain",
            )
        return "convert_to_markdown", {
            "uri": f"data:{kind};base64,{base64.b64encode(text.encode()).decode()}"
        }
    return "convert_to_markdown", {"uri": rng.choice(fx.facts["uris"])}
