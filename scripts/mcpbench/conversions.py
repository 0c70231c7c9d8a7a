"""mcp-pandoc (PyPI, with Debian's pandoc): a team's documents converted between markups.

Its one tool answers in bare text: three header lines (``Following are the converted contents in html
format.``, a line asking whether to save, ``Converted Contents:``), then the document converted to HTML,
markdown or plain text (headings, tables of figures, lists with amounts and dates); or, when the conversion
is saved to a file, one sentence naming it. The documents are made once: markdown reports, HTML pages,
reStructuredText manuals and LaTeX notes, each with tables and lists of figures and dates, and two YAML
defaults files (a table of contents, numbered sections). The workload converts files and short snippets to the inline formats
(a notebook's cell ids are random, so never to ipynb) and saves some conversions to reStructuredText, LaTeX,
Word, OpenDocument or EPUB under a folder that no call reads; the files it reads never change.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

REGIONS = ("North", "South", "East", "West", "Central")
ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
TOPICS = ("pricing", "returns", "the warehouse move", "hiring", "the budget", "support hours", "the website")
SAVED = ("rst", "latex", "docx", "odt", "epub")
SUFFIX = {"rst": "rst", "latex": "tex", "docx": "docx", "odt": "odt", "epub": "epub"}
DEFAULTS = {"toc.yaml": "table-of-contents: true\ntoc-depth: 2\n", "numbered.yaml": "number-sections: true\n"}


def _day(rng: random.Random) -> str:
    return (dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(330))).isoformat()


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _sentence(rng: random.Random) -> str:
    return rng.choice((
        f"Revenue in the {rng.choice(REGIONS)} region rose {rng.randrange(1, 30)}% to {rng.randrange(5, 900)},"
        f"{rng.randrange(100, 999)} EUR by {_day(rng)}.",
        f"{rng.choice(FIRST)} will review {rng.choice(TOPICS)} before {_day(rng)}.",
        f"We sold {rng.randrange(10, 5000)} units of the {rng.choice(ITEMS)} at {rng.uniform(5, 400):.2f} EUR each.",
        f"Open questions on {rng.choice(TOPICS)}: {rng.randrange(1, 9)}, owned by {_person(rng)}.",
        f"Ticket {rng.randrange(1000, 9999)} was closed on {_day(rng)} after {rng.randrange(1, 72)} hours.",
    ))  # fmt: skip


def _rows(rng: random.Random) -> list[list[str]]:
    rows = [["item", "qty", "unit price", "total"]]
    for item in rng.sample(ITEMS, rng.randrange(2, 6)):
        qty, price = rng.randrange(1, 50), rng.uniform(5, 400)
        rows.append([item, str(qty), f"{price:.2f}", f"{qty * price:.2f}"])
    return rows


def _markdown(rng: random.Random, title: str) -> str:
    lines = [f"# {title}", "", f"Prepared by {_person(rng)} on {_day(rng)}.", ""]
    for topic in rng.sample(TOPICS, rng.randrange(2, 4)):
        lines += [f"## {topic.capitalize()}", "", _sentence(rng), ""]
        lines += [f"- {_sentence(rng)}" for _ in range(rng.randrange(1, 4))] + [""]
    rows = _rows(rng)
    lines += ["| " + " | ".join(r) + " |" for r in rows[:1]] + ["|" + "---|" * len(rows[0])]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]] + ["", f"*Signed by {_person(rng)}.*", ""]
    return "\n".join(lines)


def _html(rng: random.Random, title: str) -> str:
    rows = _rows(rng)
    cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>\n" for r in rows[1:])
    items = "".join(f"<li>{_sentence(rng)}</li>\n" for _ in range(rng.randrange(2, 5)))
    return (f"<html><head><title>{title}</title></head><body>\n<h1>{title}</h1>\n<p>{_sentence(rng)}</p>\n"
            f"<h2>Figures</h2>\n<table>\n<tr>" + "".join(f"<th>{c}</th>" for c in rows[0]) + "</tr>\n"
            f"{cells}</table>\n<h2>Notes</h2>\n<ul>\n{items}</ul>\n<p>Updated {_day(rng)}.</p>\n</body></html>\n")  # fmt: skip


def _rst(rng: random.Random, title: str) -> str:
    lines = [title, "=" * len(title), "", _sentence(rng), ""]
    for step in range(1, rng.randrange(3, 6)):
        heading = f"Step {step}: {rng.choice(('install', 'configure', 'check', 'back up', 'restore'))}"
        lines += [heading, "-" * len(heading), "", _sentence(rng), "", f"#. {_sentence(rng)}",
                  f"#. Wait {rng.randrange(1, 30)} minutes, then check port {rng.randrange(8000, 9000)}.", ""]  # fmt: skip
    return "\n".join(lines)


def _tex(text: str) -> str:
    return text.replace("%", "\\%")


def _latex(rng: random.Random, title: str) -> str:
    rows = _rows(rng)
    body = " \\\\\n".join(" & ".join(r) for r in rows[1:])
    return (f"\\section{{{title}}}\n\n{_sentence(rng)}\n\n\\begin{{itemize}}\n"
            + "".join(f"\\item {_tex(_sentence(rng))}\n" for _ in range(rng.randrange(2, 4)))
            + f"\\end{{itemize}}\n\n\\begin{{tabular}}{{lrrr}}\n{' & '.join(rows[0])} \\\\\n{body} \\\\\n"
            "\\end{tabular}\n")  # fmt: skip


def conversions_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root = work / "docs"
    for folder in ("reports", "pages", "manuals", "notes", "out"):
        (root / folder).mkdir(parents=True)
    files: dict[str, str] = {}  # path -> pandoc's name of its format
    for i in range(28):
        path = root / "reports" / f"report-{i + 1:02d}.md"
        path.write_text(_markdown(rng, f"{rng.choice(('Weekly', 'Monthly', 'Quarterly'))} report {i + 1}"))
        files[str(path)] = "markdown"
    for i in range(16):
        path = root / "pages" / f"page-{i + 1}.html"
        path.write_text(_html(rng, f"{rng.choice(REGIONS)} office: {rng.choice(TOPICS)}"))
        files[str(path)] = "html"
    for i in range(12):
        path = root / "manuals" / f"manual-{i + 1}.rst"
        path.write_text(_rst(rng, f"Runbook {i + 1}: {rng.choice(ITEMS)} service"))
        files[str(path)] = "rst"
    for i in range(12):
        path = root / "notes" / f"note-{i + 1}.tex"
        path.write_text(_latex(rng, f"Note on {rng.choice(TOPICS)}"))
        files[str(path)] = "latex"
    for name, text in DEFAULTS.items():
        (root / name).write_text(text)
    facts: dict[str, Any] = {"files": files, "root": str(root), "saved": 0}
    return Fixture([*binary], facts)


def conversions_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, str] = fx.facts["files"]
    r = rng.random()
    if r < 0.2:  # a snippet written on the spot
        snippet = "\n\n".join(_sentence(rng) for _ in range(rng.randrange(1, 4)))
        if rng.random() < 0.4:
            snippet = f"## {rng.choice(TOPICS).capitalize()}\n\n" + "\n".join(
                f"1. {_sentence(rng)}" for _ in range(3)
            )
        return "convert-contents", {
            "contents": snippet,
            "output_format": rng.choice(("html", "txt", "markdown")),
        }
    source = rng.choice(sorted(files))
    args: dict[str, Any] = {"input_file": source}
    if files[source] != "markdown" or rng.random() < 0.5:  # markdown is the server's default
        args["input_format"] = files[source]
    if r < 0.85:
        formats = [f for f in ("html", "txt", "markdown") if f != files[source]]
        args["output_format"] = rng.choice(formats)
        if r > 0.72:
            args["defaults_file"] = f"{fx.facts['root']}/{rng.choice(sorted(DEFAULTS))}"
        return "convert-contents", args
    fx.facts["saved"] += 1
    kind = rng.choice(SAVED)
    args["output_format"] = kind
    args["output_file"] = f"{fx.facts['root']}/out/{Path(source).stem}-{fx.facts['saved']}.{SUFFIX[kind]}"
    return "convert-contents", args
