"""office-word-mcp-server (PyPI): a firm's Word documents (reports, minutes, offers, policies) read and edited.

Its results are plain text: sentences for writes (``Paragraph added to ...``, ``Replaced 2 occurrence(s) of
'Grace' with 'Hugo'.``, ``Table (3x4) added to ...``), a document's text one paragraph and one table cell a
line, a listing of documents with their sizes in KB; and JSON text without an ``outputSchema`` for its
reads: a document's properties (title, author, dates, revision, counts of words, paragraphs and tables), its
outline (each paragraph's index, text and style, each table's size with a preview), one paragraph, or the
places a text occurs (paragraph index or table cell, character position, context) with their count. The
documents are made once through the server's own tools (no proxy) in two folders, an archive the workload
only reads and drafts it also writes to, and kept as a pristine copy; every server start begins from it.
Copies the workload makes go to a third folder that no read opens.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
from pathlib import Path
from typing import Any

from mcpbench.client import Call, session
from mcpbench.fixture import FIRST, LAST, Fixture

# FastMCP would look for a newer release of itself on PyPI and print a banner: both off
QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false")
# start each session from the pristine documents: the server then reads and writes its own copies
RESET = 'rm -rf "$1" && cp -r "$0" "$1" && shift && exec env "$@"'
REGIONS = ("North", "South", "East", "West", "Central")
ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
CUSTOMERS = ("Acme Tools", "Blue Harbor", "Cedar & Sons", "Delta Foods", "Evergreen Ltd", "Fjord Logistics")
TOPICS = ("pricing", "returns", "the warehouse move", "hiring", "the budget", "the website", "support hours")
KINDS = ("report", "minutes", "offer", "policy")


def _day(rng: random.Random) -> dt.date:
    return dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(330))


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _sentence(rng: random.Random) -> str:
    return rng.choice((
        f"Revenue in the {rng.choice(REGIONS)} region rose {rng.randrange(1, 30)}% to "
        f"{rng.randrange(5, 900)},{rng.randrange(100, 999)} EUR by {_day(rng).isoformat()}.",
        f"{rng.choice(FIRST)} will review {rng.choice(TOPICS)} before {_day(rng).isoformat()}.",
        f"We sold {rng.randrange(10, 5000)} units of the {rng.choice(ITEMS)} at "
        f"{rng.uniform(5, 400):.2f} EUR each.",
        f"Delivery to {rng.choice(CUSTOMERS)} takes {rng.randrange(2, 30)} days; the fee is "
        f"{rng.randrange(0, 90)} EUR.",
        f"Open questions on {rng.choice(TOPICS)}: {rng.randrange(1, 9)}, owned by {_person(rng)}.",
    ))  # fmt: skip


def _cell(rng: random.Random) -> str:
    return rng.choice((rng.choice(ITEMS), str(rng.randrange(1, 999)), _day(rng).isoformat()))


def _document(rng: random.Random, path: str, kind: str) -> tuple[list[Call], list[str]]:
    """The calls that write one document, and its paragraphs' texts in order (tables hold no paragraph)."""
    texts: list[str] = []
    day = _day(rng)
    title = {
        "report": f"Quarterly report Q{rng.randrange(1, 5)} 2025",
        "minutes": f"Minutes of {day.isoformat()}",
        "offer": f"Offer {rng.randrange(1000, 9999)} for {rng.choice(CUSTOMERS)}",
        "policy": f"{rng.choice(TOPICS).capitalize()} policy, version {rng.randrange(1, 6)}",
    }[kind]
    calls: list[Call] = [("create_document", {"filename": path, "title": title, "author": _person(rng)})]

    def heading(text: str, level: int) -> None:
        calls.append(("add_heading", {"filename": path, "text": text, "level": level}))
        texts.append(text)

    def paragraph(text: str, **style: Any) -> None:
        calls.append(("add_paragraph", {"filename": path, "text": text, **style}))
        texts.append(text)

    heading(title, 1)
    if kind == "minutes":
        paragraph(f"Present: {', '.join(_person(rng) for _ in range(rng.randrange(2, 6)))}.")
    for section in rng.sample(TOPICS, rng.randrange(2, 5)):
        heading(section.capitalize(), 2)
        for _ in range(rng.randrange(1, 4)):
            paragraph(_sentence(rng), **({"style": "List Bullet"} if rng.random() < 0.25 else {}))
    if kind in ("report", "offer"):
        if kind == "report":
            months = [f"2025-{m:02d}" for m in rng.sample(range(1, 13), rng.randrange(2, 5))]
            data = [["region", *months]] + [[r, *(f"{rng.uniform(100, 9000):.2f}" for _ in months)]
                                            for r in rng.sample(REGIONS, rng.randrange(2, 5))]  # fmt: skip
        else:
            data = [["item", "qty", "unit price", "total"]]
            for item in rng.sample(ITEMS, rng.randrange(2, 6)):
                qty, price = rng.randrange(1, 50), rng.uniform(5, 400)
                data.append([item, str(qty), f"{price:.2f}", f"{qty * price:.2f}"])
        calls.append(("add_table", {"filename": path, "rows": len(data), "cols": len(data[0]), "data": data}))
    paragraph(f"Signed by {_person(rng)} on {day.isoformat()}.", italic=True)
    return calls, texts


def documents_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "docs.pristine", work / "docs"
    for folder in ("archive", "drafts", "copies"):
        (live / folder).mkdir(parents=True)
    calls: list[Call] = []
    archive: dict[str, list[str]] = {}
    drafts: dict[str, list[str]] = {}
    for i in range(24):
        kind = KINDS[i % len(KINDS)]
        path = str(live / "archive" / f"{kind}-{i + 1:02d}.docx")
        made, archive[path] = _document(rng, path, kind)
        calls += made
    for i in range(6):
        kind = rng.choice(KINDS)
        path = str(live / "drafts" / f"{kind}-draft-{i + 1}.docx")
        made, drafts[path] = _document(rng, path, kind)
        calls += made
        for _ in range(8):  # padded, so the deletions of a session leave paragraphs to spare
            calls.append(("add_paragraph", {"filename": path, "text": _sentence(rng)}))
            drafts[path].append(calls[-1][1]["text"])
    with (work / "setup.log").open("w") as log:
        session(["env", *QUIET, *binary], calls, errlog=log)  # no proxy: nothing recorded
    shutil.copytree(live, pristine)
    words = sorted(
        {w.strip(".,;:%()") for texts in archive.values() for t in texts for w in t.split()} - {""}
    )
    facts: dict[str, Any] = {
        "archive": {p: len(t) for p, t in archive.items()},
        "drafts": sorted(drafts),
        "folders": [str(live / "archive"), str(live / "drafts")],
        "words": [w for w in words if len(w) > 3],
        "copies": str(live / "copies"),
        "copied": 0,
    }
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *QUIET, *binary], facts)


def documents_call(rng: random.Random, fx: Fixture) -> Call:
    archive: dict[str, int] = fx.facts["archive"]
    drafts: list[str] = fx.facts["drafts"]
    any_doc = rng.choice(sorted(archive)) if rng.random() < 0.7 else rng.choice(drafts)
    r = rng.random()
    if r < 0.12:
        return "get_document_text", {"filename": any_doc}
    if r < 0.24:
        return "get_document_outline", {"filename": any_doc}
    if r < 0.34:
        return "get_document_info", {"filename": any_doc}
    if r < 0.39:
        return "list_available_documents", {"directory": rng.choice(fx.facts["folders"])}
    if r < 0.53:
        doc = rng.choice(sorted(archive))
        return "get_paragraph_text_from_document", {
            "filename": doc,
            "paragraph_index": rng.randrange(archive[doc]),
        }
    if r < 0.7:
        word = rng.choice(fx.facts["words"])
        options = rng.choice(
            ({}, {"match_case": False}, {"whole_word": True}, {"match_case": False, "whole_word": True})
        )
        return "find_text_in_document", {"filename": any_doc, "text_to_find": word, **options}
    # writes: to the drafts (a copy to its own folder)
    draft = rng.choice(drafts)
    if r < 0.8:
        style = rng.choice(
            ({}, {}, {"bold": True}, {"style": "List Bullet"}, {"font_size": rng.choice((10, 12, 14))})
        )
        return "add_paragraph", {"filename": draft, "text": _sentence(rng), **style}
    if r < 0.85:
        text = f"{rng.choice(TOPICS).capitalize()} ({_day(rng).isoformat()})"
        return "add_heading", {"filename": draft, "text": text, "level": rng.randrange(1, 4)}
    if r < 0.89:
        cols = rng.randrange(2, 5)
        data = [[_cell(rng) for _ in range(cols)] for _ in range(rng.randrange(1, 5))]
        return "add_table", {"filename": draft, "rows": len(data), "cols": cols, "data": data}
    if r < 0.94:
        old, new = rng.sample((*FIRST, *REGIONS), 2)
        return "search_and_replace", {"filename": draft, "find_text": old, "replace_text": new}
    if r < 0.97:
        return "delete_paragraph", {"filename": draft, "paragraph_index": rng.randrange(1, 6)}
    fx.facts["copied"] += 1
    source = rng.choice(sorted(archive))
    target = f"{fx.facts['copies']}/{Path(source).stem}-copy-{fx.facts['copied']}.docx"
    return "copy_document", {"source_filename": source, "destination_filename": target}
