"""mcp-alchemy (PyPI, SQLAlchemy): a lending library's SQLite database of books, members, loans and holds.

Its results are text wrapped in structure, ``{"result": "..."}`` with an ``outputSchema``: a query's rows one
field a line under ``N. row`` headers (``NULL`` for a null, dates in ISO form) closed by ``Result: N rows``
(cut short past 4,000 characters, saying so), ``No rows returned``, a write's ``Success: N rows affected``,
table names joined by commas, or a schema indented under each table's name with its relationships. A query
that fails answers ``Error: ...`` as a plain result. The database is made once with Python's sqlite3 (no
server) and kept as a pristine copy; every server start begins from it. The workload reads books, members and
loans with bound parameters, counts and sums them, looks up ids that may not exist, and writes only to the
holds (new holds, and status changes of the fixture's own), which no read looks at: every answer then stays
the same however often the calls are replayed in a session.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

# start each session from the pristine database: the server then reads and writes its own copy
RESET = 'cp "$0" "$1" && DB_URL="sqlite:///$1" exec "$2"'
GENRES = ("fiction", "history", "science", "travel", "cooking", "poetry", "children", "biography")
WORDS = (
    "River", "Winter", "Garden", "Silent", "Iron", "Paper", "Northern", "Hidden", "Salt", "Glass", "Long",
    "Summer", "Stone", "Lantern", "Orchard", "Harbour", "Copper", "Wild", "Quiet", "Amber",
)  # fmt: skip
THINGS = (
    "Road",
    "House",
    "Sea",
    "Kingdom",
    "Clock",
    "Atlas",
    "Kitchen",
    "Letters",
    "Bridge",
    "Map",
    "Voyage",
)
TIERS = ("basic", "student", "family", "senior", "patron")
CITIES = ("Leeds", "York", "Hull", "Bath", "Derby", "Exeter", "Lincoln")
LOAN_STATUS = ("returned", "returned", "returned", "out", "overdue", "lost")
HOLD_STATUS = ("waiting", "ready", "collected", "cancelled", "expired")
DDL = (
    "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT, genre TEXT, year INTEGER, "
    "copies INTEGER, shelf TEXT)",
    "CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL, joined DATE, tier TEXT, city TEXT, "
    "email TEXT)",
    "CREATE TABLE loans (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES books(id), member_id INTEGER "
    "REFERENCES members(id), out_on DATE, due_on DATE, returned_on DATE, status TEXT, fine REAL)",
    "CREATE TABLE holds (id INTEGER PRIMARY KEY AUTOINCREMENT, book_id INTEGER REFERENCES books(id), member_id "
    "INTEGER REFERENCES members(id), placed_on DATE, status TEXT)",
)
DAY0 = dt.date(2023, 1, 2)


def _day(rng: random.Random, span: int = 900) -> dt.date:
    return DAY0 + dt.timedelta(days=rng.randrange(span))


def loans_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "library.pristine.db", work / "library.db"
    titles = rng.sample([f"The {w} {t}" for w in WORDS for t in THINGS], 150)
    books = [(i + 1, title, f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice(GENRES),
              rng.randrange(1890, 2025), rng.randrange(1, 6), f"{rng.choice('ABCDEFGH')}{rng.randrange(1, 40)}")
             for i, title in enumerate(titles)]  # fmt: skip
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 80)
    members = []
    for i, name in enumerate(names):
        email = None if rng.random() < 0.1 else name.lower().replace(" ", ".") + "@example.org"
        members.append((501 + i, name, _day(rng).isoformat(), rng.choice(TIERS), rng.choice(CITIES), email))
    loans = []
    for k in range(600):
        out_on = _day(rng)
        due_on = out_on + dt.timedelta(days=rng.choice((14, 21, 28)))
        status = rng.choice(LOAN_STATUS)
        returned = None
        if status == "returned":
            returned = (out_on + dt.timedelta(days=rng.randrange(1, 40))).isoformat()
        late = max(0, (dt.date.fromisoformat(returned) - due_on).days) if returned else 0
        fine = round(late * 0.25, 2) if status != "lost" else round(rng.uniform(8, 30), 2)
        loans.append((70001 + k, rng.choice(books)[0], rng.choice(members)[0], out_on.isoformat(),
                      due_on.isoformat(), returned, status, fine))  # fmt: skip
    holds = [(h + 1, rng.choice(books)[0], rng.choice(members)[0], _day(rng).isoformat(), rng.choice(HOLD_STATUS))
             for h in range(40)]  # fmt: skip
    with sqlite3.connect(pristine) as con:
        for statement in DDL:
            con.execute(statement)
        con.executemany("INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?)", books)
        con.executemany("INSERT INTO members VALUES (?, ?, ?, ?, ?, ?)", members)
        con.executemany("INSERT INTO loans VALUES (?, ?, ?, ?, ?, ?, ?, ?)", loans)
        con.executemany("INSERT INTO holds VALUES (?, ?, ?, ?, ?)", holds)
    con.close()
    shutil.copyfile(pristine, live)  # for a first look before any server start; each start replaces it
    facts: dict[str, Any] = {
        "books": [b[0] for b in books],
        "members": [m[0] for m in members],
        "loans": [loan[0] for loan in loans],
        "holds": [h[0] for h in holds],
        "authors": sorted({b[2] for b in books}),
    }
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *binary], facts)


def _read(rng: random.Random, facts: dict[str, Any]) -> Call:
    r = rng.random()
    member = rng.choice(facts["members"]) if rng.random() < 0.95 else rng.randrange(400, 500)  # some unknown
    on = _day(rng, 1000).isoformat()
    if r < 0.14:
        book = rng.choice(facts["books"]) if rng.random() < 0.93 else rng.randrange(900, 999)
        query, params = "SELECT * FROM books WHERE id = :id", {"id": book}
    elif r < 0.26:
        query = ("SELECT l.id, b.title, l.out_on, l.due_on, l.returned_on, l.status, l.fine FROM loans l JOIN books b "
                 "ON b.id = l.book_id WHERE l.member_id = :member ORDER BY l.out_on, l.id")  # fmt: skip
        params = {"member": member}
    elif r < 0.36:
        query, params = "SELECT * FROM loans WHERE id = :id", {"id": rng.choice(facts["loans"])}
    elif r < 0.46:
        query = ("SELECT l.id, l.member_id, l.due_on, julianday(:on) - julianday(l.due_on) AS days_late FROM loans l "
                 "WHERE l.status IN ('out', 'overdue') AND l.due_on < :on ORDER BY l.due_on, l.id LIMIT :n")  # fmt: skip
        params = {"on": on, "n": rng.randrange(1, 12)}
    elif r < 0.55:
        query = ("SELECT id, title, author, year, copies FROM books WHERE genre = :genre AND year BETWEEN :a AND :b "
                 "ORDER BY year, id")  # fmt: skip
        a = rng.randrange(1890, 2020)
        params = {"genre": rng.choice(GENRES), "a": a, "b": a + rng.randrange(5, 60)}
    elif r < 0.63:
        query = "SELECT id, name, joined, tier, city, email FROM members WHERE city = :city AND tier = :tier ORDER BY id"
        params = {"city": rng.choice(CITIES), "tier": rng.choice(TIERS)}
    elif r < 0.7:
        query = ("SELECT status, COUNT(*) AS n, ROUND(SUM(fine), 2) AS fines FROM loans WHERE out_on >= :since "
                 "GROUP BY status ORDER BY status")  # fmt: skip
        params = {"since": on}
    elif r < 0.77:
        query = ("SELECT b.id, b.title, COUNT(l.id) AS times_lent, MAX(l.out_on) AS last_out FROM books b JOIN loans l "
                 "ON l.book_id = b.id WHERE b.genre = :genre GROUP BY b.id ORDER BY times_lent DESC, b.id LIMIT :n")  # fmt: skip
        params = {"genre": rng.choice(GENRES), "n": rng.randrange(1, 8)}
    elif r < 0.83:
        query = ("SELECT m.name, m.tier, COUNT(l.id) AS loans, ROUND(COALESCE(SUM(l.fine), 0), 2) AS fines FROM "
                 "members m LEFT JOIN loans l ON l.member_id = m.id WHERE m.id = :member GROUP BY m.id")  # fmt: skip
        params = {"member": member}
    elif r < 0.89:
        query = "SELECT id, title, genre, year, shelf FROM books WHERE author = :author ORDER BY year, id"
        params = {"author": rng.choice(facts["authors"])}
    elif r < 0.94:  # a long answer: cut short by the server past 4,000 characters
        query = "SELECT id, book_id, member_id, out_on, status FROM loans WHERE out_on BETWEEN :a AND :b ORDER BY out_on, id"
        first = _day(rng)
        params = {"a": first.isoformat(), "b": (first + dt.timedelta(days=rng.randrange(5, 120))).isoformat()}
    else:
        query = ("SELECT strftime('%Y-%m', out_on) AS month, COUNT(*) AS n FROM loans WHERE strftime('%Y', out_on) = "
                 ":year GROUP BY month ORDER BY month")  # fmt: skip
        params = {"year": str(rng.choice((2023, 2024, 2025)))}
    return "execute_query", {"query": query, "params": params}


def loans_call(rng: random.Random, fx: Fixture) -> Call:
    facts = fx.facts
    r = rng.random()
    if r < 0.03:
        return "all_table_names", {}
    if r < 0.06:
        return "filter_table_names", {"q": rng.choice(("o", "loan", "mem", "s", "hold", "x"))}
    if r < 0.13:
        tables = rng.sample(("books", "members", "loans", "holds"), rng.randrange(1, 4))
        return "schema_definitions", {"table_names": tables}
    if r < 0.87:
        return _read(rng, facts)
    if r < 0.94:  # a new hold: one row each time (its id the table's own, never read)
        query = "INSERT INTO holds (book_id, member_id, placed_on, status) VALUES (:book, :member, :on, 'waiting')"
        params: dict[str, Any] = {"book": rng.choice(facts["books"]), "member": rng.choice(facts["members"]),
                                  "on": _day(rng, 1000).isoformat()}  # fmt: skip
        return "execute_query", {"query": query, "params": params}
    query = "UPDATE holds SET status = :status WHERE id = :id"
    params = {"status": rng.choice(HOLD_STATUS), "id": rng.choice(facts["holds"])}
    return "execute_query", {"query": query, "params": params}
