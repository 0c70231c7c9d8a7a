"""bibtex-file-mcp (PyPI, mcp.server.fastmcp of the SDK 1.x): a research group's BibTeX files, read by key.

Its results are text wrapped in structure: the structured content is ``{"result": "<text>"}`` (an
``outputSchema`` of one string) and the text block is that string. The text has labels in Chinese: a file's
header line with its entry count (``文件: <path> (总计 N 个条目)``), then every key a line, or the first five
entries as numbered blocks of indented ``field: value`` lines (title, author lists joined by ``and``, venue,
year, volume, pages as ``112--130``, DOIs, months as bare macros, keywords); one entry as ``Key:``, ``Type:``
and its fields under ``Fields:``; a key that is not there as a sentence naming the first ten keys; a write
as a sentence counting the entries written, then the keys found and those not found as Python lists. The
fixture is ten .bib files made here (per author group and venue, 8 to 50 entries each, braces, quotes and
bare numbers mixed the way real files mix them); writes go to a fresh file under ``out/`` each, overwritten
or appended, so a call sent again answers as it did.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

TOPICS = ("graph partitioning", "cache-aware joins", "sparse attention", "query optimisation", "federated learning",
          "stream processing", "index compression", "consensus protocols", "vector search", "load balancing",
          "program synthesis", "type inference", "energy-aware scheduling", "log-structured storage")  # fmt: skip
ADJECTIVES = (
    "Scalable",
    "Adaptive",
    "Robust",
    "Incremental",
    "Learned",
    "Provable",
    "Practical",
    "Lightweight",
)
JOURNALS = ("Journal of Parallel Computing", "ACM Transactions on Database Systems", "IEEE Transactions on Software "
            "Engineering", "Information Systems", "Machine Learning")  # fmt: skip
VENUES = ("Proc. VLDB Endowment", "SIGMOD Conference", "ICSE", "NeurIPS", "OSDI", "EuroSys", "PLDI")
PUBLISHERS = ("Springer", "MIT Press", "O'Reilly", "Cambridge University Press")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
GROUPS = (
    "systems",
    "databases",
    "ml",
    "languages",
    "theses",
    "books",
    "reading-list",
    "storage",
    "networks",
    "teaching",
)


def _authors(rng: random.Random) -> str:
    return " and ".join(f"{rng.choice(LAST)}, {rng.choice(FIRST)}" for _ in range(rng.randrange(1, 5)))


def _value(rng: random.Random, value: str, numeric: bool = False) -> str:
    if numeric and rng.random() < 0.5:
        return value
    return f'"{value}"' if rng.random() < 0.25 else "{" + value + "}"


def _entry(rng: random.Random, group: str, used: set[str]) -> tuple[str, str]:
    kind = {"theses": "phdthesis", "books": "book"}.get(group) or rng.choice(
        ("article", "article", "inproceedings", "inproceedings", "misc", "techreport")
    )
    year = rng.randrange(1998, 2026)
    authors = _authors(rng)
    topic = rng.choice(TOPICS)
    key = f"{authors.split(',')[0].lower()}{year}{topic.split()[0].replace('-', '')}"
    while key in used:
        key += rng.choice("abcdefgh")
    used.add(key)
    title = f"{rng.choice(ADJECTIVES)} {{{topic.title().split()[0]}}} {' '.join(topic.split()[1:])} at Scale"
    fields: list[tuple[str, str]] = [("title", _value(rng, title)), ("author", _value(rng, authors))]
    if kind == "article":
        fields += [("journal", _value(rng, rng.choice(JOURNALS))), ("volume", _value(rng, str(rng.randrange(1, 80)), True)),
                   ("number", _value(rng, str(rng.randrange(1, 13)), True))]  # fmt: skip
    elif kind == "inproceedings":
        fields.append(("booktitle", _value(rng, rng.choice(VENUES))))
    elif kind == "book":
        fields += [
            ("publisher", _value(rng, rng.choice(PUBLISHERS))),
            ("edition", _value(rng, rng.choice(("2nd", "3rd")))),
        ]
    elif kind == "phdthesis":
        fields.append(
            ("school", _value(rng, f"University of {rng.choice(('Oslo', 'Lyon', 'Pune', 'Leeds', 'Kyoto'))}"))
        )
    elif kind == "techreport":
        fields += [
            ("institution", _value(rng, "Example Labs")),
            ("number", _value(rng, f"TR-{rng.randrange(100, 999)}")),
        ]
    else:
        fields.append(("howpublished", _value(rng, f"\\url{{https://example.org/{key}}}")))
    fields.append(("year", _value(rng, str(year), True)))
    if kind in ("article", "inproceedings") and rng.random() < 0.8:
        first = rng.randrange(1, 900)
        fields.append(("pages", _value(rng, f"{first}--{first + rng.randrange(4, 30)}")))
    if rng.random() < 0.5:
        fields.append(("month", rng.choice(MONTHS)))
    if rng.random() < 0.6:
        fields.append(("doi", _value(rng, f"10.{rng.randrange(1000, 9999)}/{key}.{rng.randrange(100)}")))
    if rng.random() < 0.3:
        fields.append(("keywords", _value(rng, ", ".join(rng.sample(TOPICS, rng.randrange(1, 4))))))
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return key, f"@{kind}{{{key},\n{body}\n}}\n"


def bibliography_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    (work / "out").mkdir()
    files: dict[str, list[str]] = {}
    used: set[str] = set()
    for group in GROUPS:
        entries = [_entry(rng, group, used) for _ in range(rng.randrange(8, 51))]
        path = work / f"{group}.bib"
        path.write_text(f"% {group} bibliography, kept by hand\n\n" + "\n".join(text for _, text in entries))
        files[str(path)] = [key for key, _ in entries]
    return Fixture([*binary], {"files": files, "out": str(work / "out")})


def bibliography_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, list[str]] = fx.facts["files"]
    path = rng.choice(sorted(files))
    keys = files[path]
    r = rng.random()
    if r < 0.62:
        key = rng.choice(keys)
        if rng.random() < 0.05:  # a key cited from memory: one letter off
            key = key[:-1] + ("x" if key[-1] != "x" else "y")
        return "get_bibtex_entry", {"filepath": path, "key": key}
    if r < 0.8:
        args: dict[str, Any] = {"filepath": path}
        if rng.random() < 0.6:
            args["show_details"] = rng.random() < 0.7
        return "read_bibtex_file", args
    chosen = rng.sample(keys, min(len(keys), rng.randrange(1, 7)))
    if rng.random() < 0.15:
        chosen.append(rng.choice(files[rng.choice(sorted(files))]) + "z")  # asked, not there
    target = str(Path(fx.facts["out"]) / f"{rng.getrandbits(40):010x}.bib")
    return "write_bibtex_entries", {"source_filepath": path, "target_filepath": target, "keys": chosen,
                                    "mode": rng.choice(("overwrite", "append"))}  # fmt: skip
