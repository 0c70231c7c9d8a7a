"""mcp-sql-analyst (PyPI, the SDK 2.x's MCPServer): a software company's billing exports, questioned by its finance
analyst through a read-only DuckDB copy: tables listed and described, columns profiled and searched, one SELECT at a
time run (CTEs, joins, windows, aggregates) and its plan explained.

Its results are one indented JSON text block and no structured content (the tools return plain dicts): tables with
row and column counts and source file names; a table's columns with DuckDB types and nullable, personal-data and
denied flags beside sample rows; a column's profile (rows, nulls, null percent to two places, distinct count, min,
max, mean, median, top values with counts); a query's column names beside its rows as arrays in the same order,
DECIMAL sums and dates as strings, emails and phone numbers masked (``o***@acme.example``, ``****17``), a row count,
a truncated flag, the milliseconds it took and the columns masked; a plan as one string of box-drawn operators.
The fixture writes the exports into its folder (customers with contacts, plans, subscriptions, invoices as JSON
lines and monthly usage as TSV) and starts the server on that folder with its temporary database under the
fixture's own folder; every query reads only those tables, with DuckDB's own dialect.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

COMPANIES = ("Acme", "Bolt", "Cirrus", "Dynamo", "Ember", "Fjord", "Granite", "Harbor", "Ion", "Juniper", "Kestrel",
             "Lumen", "Meridian", "Nimbus", "Orchid", "Pylon", "Quarry", "Rivet", "Summit", "Tidal")  # fmt: skip
SUFFIXES = ("Ltd", "GmbH", "Inc", "SAS", "BV", "AB")
COUNTRIES = ("GB", "DE", "US", "FR", "NL", "SE", "IE", "ES")
SEGMENTS = ("smb", "mid-market", "enterprise")
PLANS = (("starter", "19.00", 3), ("team", "49.00", 10), ("business", "129.00", 25), ("scale", "399.00", 100))
STATUSES = ("paid", "open", "void", "overdue")
# what the analyst asks: each columns' table, for profiles and searches
COLUMNS = {
    "customers": ("customer_id", "company", "contact_email", "phone", "country", "segment", "signed_up"),
    "plans": ("plan_id", "plan", "monthly_price", "seats"),
    "subscriptions": ("subscription_id", "customer_id", "plan_id", "started", "ended", "seats", "mrr"),
    "invoices": ("invoice_id", "customer_id", "issued", "due", "amount", "currency", "status"),
    "usage": ("customer_id", "month", "api_calls", "storage_gb", "active_users"),
}
KEYWORDS = (
    "id",
    "date",
    "amount",
    "customer",
    "plan",
    "seats",
    "status",
    "email",
    "month",
    "mrr",
    "price",
    "ed",
)


def _customers(rng: random.Random) -> list[dict[str, object]]:
    out = []
    for i, name in enumerate(rng.sample(COMPANIES, 16)):
        person = rng.choice(FIRST).lower()
        out.append({
            "customer_id": 100 + i, "company": f"{name} {rng.choice(SUFFIXES)}",
            "contact_email": f"{person}@{name.lower()}.example", "phone": "" if rng.random() < 0.15 else
            f"+44 20 7946 {rng.randrange(10000):04d}", "country": rng.choice(COUNTRIES),
            "segment": rng.choice(SEGMENTS), "signed_up": dt.date(2023, 1, 2) + dt.timedelta(days=rng.randrange(700)),
        })  # fmt: skip
    return out


def _write(work: Path, rng: random.Random) -> dict[str, object]:
    """The exports: CSV, JSON lines and TSV files the server copies into its database."""
    folder = work / "exports"
    folder.mkdir(parents=True)
    customers = _customers(rng)
    with (folder / "customers.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS["customers"])
        w.writeheader()
        w.writerows(customers)
    with (folder / "plans.csv").open("w", newline="") as f:
        f.write("plan_id,plan,monthly_price,seats\n")
        f.writelines(f"{i + 1},{p},{price},{seats}\n" for i, (p, price, seats) in enumerate(PLANS))
    subs, invoices, usage = [], [], []
    for c in customers:
        start = c["signed_up"] + dt.timedelta(days=rng.randrange(1, 30))
        for k in range(rng.choice((1, 1, 2))):
            plan = rng.randrange(len(PLANS))
            seats = rng.randrange(1, PLANS[plan][2] + 1)
            ended = (
                start + dt.timedelta(days=rng.randrange(90, 400)) if k == 0 and rng.random() < 0.4 else None
            )
            subs.append({"subscription_id": f"sub_{len(subs) + 1:04d}", "customer_id": c["customer_id"],
                         "plan_id": plan + 1, "started": start, "ended": ended or "", "seats": seats,
                         "mrr": f"{float(PLANS[plan][1]) * seats:.2f}"})  # fmt: skip
            day = start
            while day < (ended or dt.date(2025, 6, 30)):
                amount = round(float(PLANS[plan][1]) * seats * rng.choice((1, 1, 1, 0.9)), 2)
                invoices.append({"invoice_id": f"INV-{10000 + len(invoices)}", "customer_id": c["customer_id"],
                                 "issued": day.isoformat(), "due": (day + dt.timedelta(days=30)).isoformat(),
                                 "amount": amount, "currency": "EUR" if c["country"] in ("DE", "FR", "NL", "ES", "IE")
                                 else "GBP" if c["country"] == "GB" else "USD",
                                 "status": rng.choices(STATUSES, (12, 3, 1, 1))[0]})  # fmt: skip
                day += dt.timedelta(days=rng.choice((30, 31, 91)))
            start = (ended or start) + dt.timedelta(days=1)
        for m in range(rng.randrange(3, 13)):
            usage.append(f"{c['customer_id']}\t2025-{m % 12 + 1:02d}\t{rng.randrange(200, 90000)}\t"
                         f"{rng.randrange(1, 5000) / 10:.1f}\t{rng.randrange(1, 60)}")  # fmt: skip
    with (folder / "subscriptions.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS["subscriptions"])
        w.writeheader()
        w.writerows(subs)
    (folder / "invoices.jsonl").write_text("".join(json.dumps(i) + "\n" for i in invoices))
    (folder / "usage.tsv").write_text("\t".join(COLUMNS["usage"]) + "\n" + "\n".join(usage) + "\n")
    return {"folder": str(folder), "customers": [c["customer_id"] for c in customers],
            "days": sorted({i["issued"] for i in invoices})}  # fmt: skip


def subscriptions_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    facts = _write(work, rng)
    (work / "tmp").mkdir()  # its private DuckDB copy, and nothing else, goes here
    return Fixture(
        ["env", f"TMPDIR={work / 'tmp'}", *binary, "--max-rows", "200", str(facts["folder"])], facts
    )


def _query(rng: random.Random, fx: Fixture) -> str:
    """One of the analyst's questions, in DuckDB's dialect, on the exported tables only."""
    who = rng.sample(fx.facts["customers"], rng.randrange(1, 4))
    ids = ", ".join(str(i) for i in who)
    since = rng.choice(fx.facts["days"])
    status = rng.choice(STATUSES)
    segment = rng.choice(SEGMENTS)
    country = ", ".join(f"'{c}'" for c in rng.sample(COUNTRIES, rng.randrange(1, 5)))
    n = rng.randrange(3, 12)
    order = rng.choice(("ASC", "DESC"))
    return rng.choice((
        f"SELECT country, count(*) AS customers FROM customers WHERE signed_up >= DATE '{since}' GROUP BY country "
        f"ORDER BY customers {order}, country",
        f"SELECT segment, count(*) AS n, min(signed_up) AS first_signup FROM customers WHERE country IN ({country}) "
        f"GROUP BY segment ORDER BY segment {order}",
        f"SELECT p.plan, sum(s.mrr)::DECIMAL(12, 2) AS mrr, count(*) AS active FROM subscriptions s JOIN plans p "
        f"USING (plan_id) WHERE s.ended IS NULL AND s.started < DATE '{since}' GROUP BY p.plan ORDER BY mrr {order}",
        f"SELECT date_trunc('month', issued) AS month, sum(amount)::DECIMAL(12, 2) AS billed, count(*) AS invoices "
        f"FROM invoices WHERE status = '{status}' AND issued >= DATE '{since}' GROUP BY 1 ORDER BY 1 LIMIT {n}",
        f"SELECT c.company, c.contact_email, c.phone, round(sum(i.amount), 2) AS total FROM invoices i JOIN customers "
        f"c USING (customer_id) WHERE i.status = '{status}' GROUP BY ALL ORDER BY total {order}, c.company LIMIT {n}",
        f"SELECT customer_id, month, api_calls, storage_gb FROM usage WHERE customer_id IN ({ids}) ORDER BY "
        f"customer_id, month",
        f"SELECT invoice_id, issued, due, amount, currency, status FROM invoices WHERE customer_id IN ({ids}) AND "
        f"issued >= DATE '{since}' ORDER BY issued, invoice_id",
        f"SELECT customer_id, issued, amount, sum(amount) OVER (PARTITION BY customer_id ORDER BY issued, "
        f"invoice_id) AS running FROM invoices WHERE customer_id IN ({ids}) ORDER BY customer_id, issued, invoice_id",
        f"WITH churned AS (SELECT customer_id FROM subscriptions WHERE ended IS NOT NULL AND ended < DATE '{since}') "
        f"SELECT c.segment, count(DISTINCT c.customer_id) AS churned FROM customers c JOIN churned USING "
        f"(customer_id) GROUP BY c.segment ORDER BY c.segment {order}",
        f"SELECT plan_id, median(mrr) AS median_mrr, max(mrr) AS max_mrr, sum(seats) AS seats FROM subscriptions "
        f"WHERE seats >= {rng.randrange(1, 20)} GROUP BY plan_id ORDER BY plan_id",
        f"SELECT currency, status, count(*) AS n, avg(amount) AS mean FROM invoices WHERE issued < DATE '{since}' "
        f"GROUP BY currency, status ORDER BY currency, status",
        f"SELECT u.month, sum(u.api_calls) AS calls, max(u.active_users) AS peak FROM usage u JOIN customers c USING "
        f"(customer_id) WHERE c.segment = '{segment}' GROUP BY u.month ORDER BY u.month {order}",
    ))  # fmt: skip


def subscriptions_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    table = rng.choice(tuple(COLUMNS))
    if r < 0.03:
        return "list_tables", {}
    if r < 0.18:
        return "describe_table", {"table": table, **({"sample_rows": rng.randrange(0, 9)} if rng.random() < 0.7
                                                     else {})}  # fmt: skip
    if r < 0.34:
        return "profile_column", {"table": table, "column": rng.choice(COLUMNS[table])}
    if r < 0.42:
        return "search_columns", {"keyword": rng.choice(KEYWORDS)}
    if r < 0.9:
        args: dict[str, object] = {"sql": _query(rng, fx)}
        if rng.random() < 0.3:
            args["max_rows"] = rng.randrange(5, 60)
        return "run_query", args
    return "explain_query", {"sql": _query(rng, fx)}
