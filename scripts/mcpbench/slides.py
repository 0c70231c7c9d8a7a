"""office-powerpoint-mcp-server (PyPI, ``mcp.server.fastmcp`` of the SDK 1.x, python-pptx): a training team's
slide decks, described, opened and used as templates.

Its results are structured content with an ``outputSchema`` (an object of any keys), the same object as indented
JSON in its one text block: a deck's file facts (its path, size in bytes, slide count, its layouts by index and
name with their placeholder counts, its core properties with ISO datetimes, a revision number and empty strings
where unset), an opened or created presentation's id, message and slide count, a built-in slide template's
layout (elements with positions in inches, colour roles, font sizes), the templates and colour schemes it
knows, and the presentations the session holds. The server keeps presentations in memory per process, so the
workload draws only tools that need none loaded before (every call answers in a fresh session); the fixture is
eighty decks written here with python-pptx (the server venv's, when it is installed): titles, bullet slides,
tables of figures, core properties with seeded dates.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

TOPICS = (
    "Onboarding", "Forklift safety", "Quarterly review", "Cold chain", "Returns handling", "Customer care",
    "Fire drill", "Data protection", "Inventory counts", "Night shift", "Route planning", "First aid",
)  # fmt: skip
SITES = ("Leeds depot", "Rotterdam hub", "Lyon warehouse", "Gdansk port", "Porto store", "Bergen yard")
POINTS = (
    "Sign in at the gate before {h}:00", "Wear high-visibility vests in aisle {n}", "Scan every pallet twice",
    "Report damage within {n} hours", "Keep {n} metres from moving trucks", "Check seals on arrival",
    "Log temperatures every {n} minutes", "Escalate to the shift lead after {n} failed scans",
)  # fmt: skip
TEMPLATES = (
    "title_slide", "text_with_image", "two_column_text", "two_column_text_images", "three_column_layout",
    "agenda_slide", "chapter_intro", "thank_you_slide", "timeline_slide", "data_table_slide", "chart_comparison",
    "full_image_slide", "process_flow", "quote_testimonial", "key_metrics_dashboard", "before_after_comparison",
    "team_introduction", "minimalist_hero", "neon_cyberpunk", "nature_organic", "interactive_poll",
    "split_screen_comparison", "product_showcase",
)  # fmt: skip  # the server's slide_layout_templates.json

WRITE = """import datetime as dt, json, sys
from pptx import Presentation
from pptx.util import Inches
for spec in json.load(open(sys.argv[1])):
    pres = Presentation()
    first = pres.slides.add_slide(pres.slide_layouts[0])
    first.shapes.title.text = spec["title"]
    first.placeholders[1].text = spec["subtitle"]
    for kind, title, body in spec["slides"]:
        if kind == "bullets":
            slide = pres.slides.add_slide(pres.slide_layouts[1])
            slide.shapes.title.text = title
            frame = slide.placeholders[1].text_frame
            frame.text = body[0]
            for line in body[1:]:
                frame.add_paragraph().text = line
        elif kind == "table":
            slide = pres.slides.add_slide(pres.slide_layouts[5])
            slide.shapes.title.text = title
            table = slide.shapes.add_table(len(body), len(body[0]), Inches(0.5), Inches(1.5), Inches(9),
                                           Inches(0.4 * len(body))).table
            for r, row in enumerate(body):
                for c, value in enumerate(row):
                    table.cell(r, c).text = str(value)
        else:
            slide = pres.slides.add_slide(pres.slide_layouts[6])
            box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(4))
            box.text_frame.text = body
    props = pres.core_properties
    props.title, props.author, props.subject = spec["title"], spec["author"], spec["subject"]
    props.keywords, props.category, props.revision = spec["keywords"], spec["category"], spec["revision"]
    props.created = dt.datetime.fromisoformat(spec["created"])
    props.modified = dt.datetime.fromisoformat(spec["modified"])
    props.last_modified_by = spec["editor"]
    pres.save(spec["path"])
"""


def _deck(rng: random.Random, path: Path, k: int) -> dict[str, object]:
    topic, site = rng.choice(TOPICS), rng.choice(SITES)
    slides: list[tuple[str, str, object]] = []
    for i in range(rng.randrange(1, 9)):
        kind = rng.choice(("bullets", "bullets", "table", "note"))
        if kind == "bullets":
            body = [
                p.format(h=rng.randrange(5, 10), n=rng.randrange(2, 30))
                for p in rng.sample(POINTS, rng.randrange(2, 6))
            ]
            slides.append((kind, f"{topic}: part {i + 1}", body))
        elif kind == "table":
            rows = [["week", "incidents", "hours trained", "pass rate"]]
            rows += [[f"W{w:02d}", rng.randrange(0, 12), rng.randrange(4, 120), f"{rng.uniform(60, 100):.1f}%"]
                     for w in sorted(rng.sample(range(1, 53), rng.randrange(2, 7)))]  # fmt: skip
            slides.append((kind, f"{site} figures", rows))
        else:
            slides.append(
                (kind, "", f"Questions to {rng.choice(FIRST)} {rng.choice(LAST)} before {site} opens.")
            )
    month, day = rng.randrange(1, 13), rng.randrange(1, 29)
    created = f"2025-{month:02d}-{day:02d}T{rng.randrange(7, 18):02d}:{rng.choice((0, 15, 30, 45)):02d}:00"
    modified = f"2026-{rng.randrange(1, 11):02d}-{rng.randrange(1, 29):02d}T{rng.randrange(7, 18):02d}:00:00"
    return {"path": str(path), "title": f"{topic} at {site}", "subtitle": f"Session {k + 1}, {rng.choice(FIRST)}",
            "author": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "subject": topic.lower(),
            "keywords": ", ".join(rng.sample(("safety", "training", "logistics", "audit", "warehouse", "hr"), 2)),
            "category": rng.choice(("training", "briefing", "review")), "revision": rng.randrange(1, 40),
            "created": created, "modified": modified, "editor": rng.choice(FIRST), "slides": slides}  # fmt: skip


def slides_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    decks = work / "decks"
    decks.mkdir(parents=True)
    specs = [
        _deck(rng, decks / f"deck-{k:02d}-{rng.choice(TOPICS).lower().replace(' ', '-')}.pptx", k)
        for k in range(80)
    ]
    python = Path(binary[0]).parent / "python"
    if python.is_file():  # python-pptx comes with the server; without the install no deck is written
        spec_file = work / "decks.json"
        spec_file.write_text(json.dumps(specs))
        subprocess.run([str(python), "-c", WRITE, str(spec_file)], check=True, capture_output=True)
    return Fixture([*binary], {"decks": [str(s["path"]) for s in specs]})


def slides_call(rng: random.Random, fx: Fixture) -> Call:
    decks: list[str] = fx.facts["decks"]
    r = rng.random()
    if r < 0.3:
        return "get_template_file_info", {"template_path": rng.choice(decks)}
    if r < 0.64:
        deck = rng.choice(decks)
        named = {"id": f"{Path(deck).stem[:7]}-{rng.randrange(1000)}"} if rng.random() < 0.9 else {}
        return "open_presentation", {"file_path": deck, **named}
    if r < 0.74:
        return "get_template_info", {"template_id": rng.choice(TEMPLATES)}
    if r < 0.88:
        deck = rng.choice(decks)
        return "create_presentation_from_template", {
            "template_path": deck,
            "id": f"copy-{rng.randrange(1000)}",
        }
    if r < 0.93:
        named = {"id": f"draft-{rng.randrange(1000)}"} if rng.random() < 0.7 else {}
        return "create_presentation", named
    if r < 0.97:
        return "list_presentations", {}
    return rng.choice((("list_slide_templates", {}), ("get_server_info", {})))
