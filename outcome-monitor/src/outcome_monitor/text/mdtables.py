"""Markdown tables inside text (a view's ``parse`` kind ``md``): a page converted to markdown, a
spreadsheet printed as a table, a progress table in a message.

``read_md`` reads every pipe table of a text (a header row, a rule line of dashes, then rows of as
many cells) into ``{"text": <the text>, "rows": [...], "fields": {...}}``: rows of ordinary tables
keyed by their header (pooled over the text's tables), and the pairs of two-column tables with an
empty header (``|  |  |`` above ``| price | 508.33 |``) as fields. The text stays beside what was
read, so the text rules (kinds, length, signs) still speak to it, and the cells get the rules of
fields (types and signs of numbers read out of them, domains, shapes, placeholders). FAIL (the
views' marker) where the text holds no table.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT = 200_000
TEXT, ROWS, PAIRS = "text", "rows", "fields"

_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s)]


def read_md(text: str, fail: Any) -> Any:
    """The tables of ``text`` as ``{"text", "rows", "fields"}``, or ``fail`` where it holds none."""
    if type(text) is not str or len(text) > MAX_TEXT or "|" not in text:
        return fail
    lines = text.splitlines()
    rows: list[dict[str, str]] = []
    pairs: dict[str, str] = {}
    found, i = False, 0
    while i < len(lines) - 1:
        if not (lines[i].lstrip().startswith("|") and _RULE.match(lines[i + 1])):
            i += 1
            continue
        header, j = _cells(lines[i]), i + 2
        found = True
        names = [h or f"col{n}" for n, h in enumerate(header)]
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            cells = _cells(lines[j])
            j += 1
            if len(cells) != len(header):
                continue
            if len(header) == 2 and not any(header):
                if cells[0] and cells[0] not in pairs:
                    pairs[cells[0]] = cells[1]
            else:
                rows.append(dict(zip(names, cells, strict=True)))
        i = j
    if not found:
        return fail
    out: dict[str, Any] = {TEXT: text}
    if rows:
        out[ROWS] = rows
    if pairs:
        out[PAIRS] = pairs
    return out


__all__ = ["read_md"]
