"""@sylphx/pdf-reader-mcp (npm, pdf.js on its author's own MCP SDK): a small firm's PDFs read page by page.

Its one tool answers in several text blocks without structured content: first the JSON of every source asked
for, indented (``{"results": [{"source", "success", "data": {"num_pages", "info", "page_texts",
"full_text"}}]}``, with a source that failed as ``success: false`` and its error beside the others), where a
page's text runs its lines together; then one block per page read, ``[Page N]`` over that page's lines. The
``info`` object holds the PDF's own fields: its version, flags as booleans, ``null`` for what the file leaves
out, and title, author, subject, keywords and dates as the file spells them (``D:20250301090000Z``). A call
whose every source fails answers one sentence as an error. The PDFs are written here, byte by byte (no PDF
library): invoices, monthly reports, timetables and price lists, one to eight pages each, with lines of
amounts, dates, counts and ids, some with the whole document information dictionary and some with part of
it. The workload only reads (the server writes nothing): one to three files a call, some pages or all, with
the metadata, the page count and the full text asked for or not, and now and then a file that is not there.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

ITEMS = ("kettle", "desk lamp", "drill", "tent", "fan", "office chair", "camera", "speaker", "blender", "monitor",
         "backpack", "heater")  # fmt: skip
CITIES = ("Leeds", "York", "Hull", "Bath", "Derby", "Exeter", "Lincoln", "Bristol")
STATUS = ("paid", "due", "overdue", "disputed")
KINDS = ("invoice", "report", "timetable", "pricelist")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
DAY0 = dt.date(2024, 1, 1)


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[list[str]], info: dict[str, str]) -> None:
    """A PDF 1.4 file of text pages (Helvetica, one line after another; a line starting '# ' in bold)."""
    n = len(pages)
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{6 + 2 * i} 0 R' for i in range(n))}] /Count {n} >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        "<< " + " ".join(f"/{key} ({_esc(value)})" for key, value in info.items()) + " >>",
    ]
    for i, lines in enumerate(pages):
        ops = ["BT", "14 TL", "56 780 Td"]
        for line in lines:
            bold = line.startswith("# ")
            ops += [
                f"/F{2 if bold else 1} {13 if bold else 10} Tf",
                f"({_esc(line[2:] if bold else line)}) Tj T*",
            ]
        stream = "\n".join([*ops, "ET"])
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R "
                       f"/F2 4 0 R >> >> /Contents {7 + 2 * i} 0 R >>")  # fmt: skip
        objects.append(f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{k} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


def _day(rng: random.Random, span: int = 600) -> dt.date:
    return DAY0 + dt.timedelta(days=rng.randrange(span))


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _invoice(rng: random.Random, k: int) -> tuple[list[list[str]], str]:
    issued = _day(rng)
    lines = [f"# Invoice INV-{2024}-{k:04d}", f"Issued: {issued.isoformat()}",
             f"Due: {(issued + dt.timedelta(days=rng.choice((14, 30, 45)))).isoformat()}",
             f"Customer: {_person(rng)}, {rng.choice(CITIES)}", f"Status: {rng.choice(STATUS)}", ""]  # fmt: skip
    total = 0.0
    for item in rng.sample(ITEMS, rng.randrange(2, 9)):
        qty, price = rng.randrange(1, 20), round(rng.uniform(4, 480), 2)
        total += qty * price
        lines.append(f"{item}: {qty} x {price:.2f} EUR = {qty * price:.2f} EUR")
    vat = round(total * 0.2, 2)
    lines += ["", f"Subtotal: {total:.2f} EUR", f"VAT 20%: {vat:.2f} EUR", f"Total: {total + vat:.2f} EUR"]
    pages = [lines] if len(lines) < 16 or rng.random() < 0.5 else [lines[:10], lines[10:]]
    return pages, f"Invoice INV-2024-{k:04d}"


def _report(rng: random.Random, k: int) -> tuple[list[list[str]], str]:
    month = _day(rng, 540).replace(day=1)
    pages = [[f"# Monthly report {month.strftime('%B %Y')}", f"Prepared by {_person(rng)}",
              f"Orders: {rng.randrange(200, 9000)}", f"Revenue: {rng.randrange(10_000, 900_000)} EUR",
              f"Returns: {rng.uniform(0.5, 9):.1f}%"]]  # fmt: skip
    for city in rng.sample(CITIES, rng.randrange(2, 8)):
        page = [f"# {city} branch", f"Staff: {rng.randrange(3, 60)}", f"Orders: {rng.randrange(20, 2000)}",
                f"Average basket: {rng.uniform(12, 240):.2f} EUR", f"Complaints: {rng.randrange(0, 40)}",
                f"Stock-outs: {rng.randrange(0, 15)} days"]  # fmt: skip
        if rng.random() < 0.5:
            page.append(f"Next audit: {_day(rng, 700).isoformat()}")
        pages.append(page)
    return pages, f"Monthly report {month.isoformat()[:7]} ({k})"


def _timetable(rng: random.Random, k: int) -> tuple[list[list[str]], str]:
    a, b = rng.sample(CITIES, 2)
    pages = []
    for day in rng.sample(WEEKDAYS, rng.randrange(1, 4)):
        lines = [f"# {a} to {b}, {day}"]
        t = rng.randrange(5 * 60, 8 * 60)
        for _ in range(rng.randrange(4, 14)):
            ride = rng.randrange(35, 190)
            lines.append(f"{t // 60:02d}:{t % 60:02d} dep, {(t + ride) // 60 % 24:02d}:{(t + ride) % 60:02d} arr, "
                         f"platform {rng.randrange(1, 12)}, service {rng.randrange(100, 999)}")  # fmt: skip
            t += rng.randrange(20, 95)
        pages.append(lines)
    return pages, f"Timetable {a}-{b} ({k})"


def _pricelist(rng: random.Random, k: int) -> tuple[list[list[str]], str]:
    lines = [f"# Price list {_day(rng).isoformat()}", ""]
    for item in rng.sample(ITEMS, rng.randrange(4, 12)):
        lines.append(f"{item}: {rng.uniform(5, 600):.2f} EUR, stock {rng.randrange(0, 300)}, "
                     f"SKU {rng.randrange(10_000, 99_999)}")  # fmt: skip
    return [lines], f"Price list {k}"


def _stamp(day: dt.date, rng: random.Random) -> str:
    return f"D:{day.strftime('%Y%m%d')}{rng.randrange(7, 19):02d}{rng.randrange(60):02d}00Z"


def pdfs_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    folder = work / "papers"
    folder.mkdir()
    files: dict[str, int] = {}
    for k in range(36):
        kind = KINDS[k % len(KINDS)]
        pages, title = {"invoice": _invoice, "report": _report, "timetable": _timetable,
                        "pricelist": _pricelist}[kind](rng, k)  # fmt: skip
        made = _day(rng)
        info: dict[str, Any] = {"Title": title, "Producer": "mcpbench"}
        if rng.random() < 0.7:
            info |= {"Author": _person(rng), "Subject": kind, "CreationDate": _stamp(made, rng)}
        if rng.random() < 0.5:
            info |= {"Keywords": f"{kind}, {rng.choice(CITIES).lower()}", "Creator": "mcpbench fixtures",
                     "ModDate": _stamp(made + dt.timedelta(days=rng.randrange(1, 90)), rng)}  # fmt: skip
        path = folder / f"{kind}-{k:02d}.pdf"
        write_pdf(path, pages, info)
        files[str(path)] = len(pages)
    return Fixture([*binary], {"files": files, "missing": [str(folder / f"scan-{k}.pdf") for k in range(5)]})


def _pages(rng: random.Random, n: int) -> list[int] | str:
    if rng.random() < 0.5:
        return sorted(rng.sample(range(1, n + 1), rng.randrange(1, n + 1)))
    a = rng.randrange(1, n + 1)
    b = rng.randrange(a, n + 1)
    spec = str(a) if a == b else f"{a}-{b}"
    if n > b + 1 and rng.random() < 0.4:
        spec += f", {rng.randrange(b + 1, n + 1)}"
    return spec


def pdfs_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, int] = fx.facts["files"]
    sources: list[dict[str, Any]] = []
    for path in rng.sample(sorted(files), rng.choice((1, 1, 1, 2, 2, 3))):
        source: dict[str, Any] = {"path": path}
        if rng.random() < 0.45:
            source["pages"] = _pages(rng, files[path])
        sources.append(source)
    # one source of several not there: its own failure, beside the others
    if len(sources) > 1 and rng.random() < 0.15:
        sources[rng.randrange(len(sources))] = {"path": rng.choice(fx.facts["missing"])}
    args: dict[str, Any] = {"sources": sources}
    for flag, p in (("include_full_text", 0.45), ("include_metadata", 0.6), ("include_page_count", 0.7)):
        if rng.random() < 0.5:
            args[flag] = rng.random() < p
    return "read_pdf", args
