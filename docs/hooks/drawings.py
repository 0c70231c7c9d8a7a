"""Text drawings that scale: a fenced block right after a ``<!-- drawing -->`` line is shown as an SVG
whose lines keep their columns and which shrinks to the page's width, so a drawing wider than the
text column never makes the page (or its block) scroll sideways. The Markdown keeps the plain text
(the tests read the drawing there; a reader of the file on GitHub sees the same drawing).

Each line is one ``<text>`` whose ``textLength`` is its character count times one column's width, so
the columns line up in whichever monospace font the browser has."""

from __future__ import annotations

import html
import re
from typing import Any

MARKER = "<!-- drawing -->"
BLOCK = re.compile(r"^<!-- drawing -->[ \t]*\n```[^\n]*\n(.*?)\n```[ \t]*$", re.S | re.M)
FONT = 14.0  # the drawing's own units: one line's font size
COLUMN = 0.6 * FONT  # a monospace column is about 0.6 em wide; textLength makes it exactly that
LINE = 1.35 * FONT
PAD = 0.5 * FONT

_drawings: dict[str, list[str]] = {}  # page -> its drawings' text, from markdown to HTML


def placeholder(n: int) -> str:
    """A paragraph of its own that Markdown leaves alone, swapped for the SVG once the page is HTML."""
    return f"DRAWINGPLACEHOLDER{n}X"


def svg(text: str) -> str:
    """The drawing as one scalable SVG: a line per ``<text>``, columns fixed by ``textLength``."""
    lines = text.split("\n")
    width = max((len(ln) for ln in lines), default=1) * COLUMN + 2 * PAD
    height = len(lines) * LINE + 2 * PAD
    rows = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        y = PAD + (i + 0.8) * LINE
        rows.append(
            f'<text x="{PAD:.1f}" y="{y:.1f}" font-size="{FONT:.0f}" xml:space="preserve" '
            f'textLength="{len(line) * COLUMN:.1f}" lengthAdjust="spacingAndGlyphs">{html.escape(line)}</text>'
        )
    return (
        f'<figure class="drawing"><svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" style="max-width: {width:.0f}px">'
        f"<title>{html.escape(lines[0].strip() if lines else 'drawing')}</title>"
        f'<rect class="drawing-ground" width="100%" height="100%" rx="4"/>'
        + "".join(rows)
        + "</svg></figure>"
    )


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    found: list[str] = []

    def swap(m: re.Match[str]) -> str:
        found.append(m[1])
        return placeholder(len(found) - 1)

    out = BLOCK.sub(swap, markdown)
    _drawings[page.file.src_uri] = found
    return out


def on_page_content(content: str, page: Any, **kwargs: Any) -> str:
    for n, text in enumerate(_drawings.pop(page.file.src_uri, [])):
        content = content.replace(f"<p>{placeholder(n)}</p>", svg(text))
    return content
