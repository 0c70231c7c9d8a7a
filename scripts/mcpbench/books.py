"""countbean-mcp (PyPI, mcp.server.fastmcp on the SDK 1.x): a neighbourhood bakery's double-entry books, kept as a
git-backed Beancount ledger, read back and added to.

Its results are text wrapped in structure, {"result": "<text>"} (an ``outputSchema``), the same text in its block:
balances as aligned lines ("Assets:Bank:Checking 12345.67 USD"), account names a line each, the ledger's own
Beancount text under "; ==== file ====" headers (dated directives, postings with amounts and currencies, prices), a
book summary (its title and path, account count, net worth and net income with thousands separators, recent commits
with short hashes and dates), a query's rows as indented JSON of strings (dates, accounts, amounts with currencies,
counts), a review's computed facts as indented JSON (months marked complete, run rates, shares, flags), a commit
history a line per commit (short hash, date, message), a write's "Committed <hash>: <message>" or a "REJECTED"
sentence with bean-check's complaint. The fixture is the book itself, made with git (the server's layout:
main.beancount including its accounts, transactions and prices files; one commit dated 2026-01-01): a seeded chart
of accounts and six months of sales, supplies, wages and rent that the workload reads and now and then adds a day's
takings to (every added transaction balances). The server finds bean-check and git on the fixture's PATH; its hosted
book is never configured.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

ASSETS = ("Assets:Bank:Checking", "Assets:Bank:Savings", "Assets:Cash:Till")
LIABILITIES = ("Liabilities:CreditCard", "Liabilities:Payroll")
INCOME = ("Income:Sales:Bread", "Income:Sales:Pastry", "Income:Sales:Coffee", "Income:Catering")
EXPENSES = ("Expenses:Supplies:Flour", "Expenses:Supplies:Butter", "Expenses:Supplies:Coffee", "Expenses:Wages",
            "Expenses:Rent", "Expenses:Utilities:Power", "Expenses:Utilities:Water", "Expenses:Repairs",
            "Expenses:Packaging")  # fmt: skip
PAYEES = {"Expenses:Supplies:Flour": "Mill Valley Flour", "Expenses:Supplies:Butter": "Dairy Co-op",
          "Expenses:Supplies:Coffee": "Roast House", "Expenses:Wages": "Payroll", "Expenses:Rent": "Oak Street Lets",
          "Expenses:Utilities:Power": "City Power", "Expenses:Utilities:Water": "City Water",
          "Expenses:Repairs": "Oven Doctor", "Expenses:Packaging": "BoxCo"}  # fmt: skip
QUERIES = (
    "SELECT account, sum(position) AS total WHERE account ~ '{root}' GROUP BY account ORDER BY account",
    "SELECT date, payee, narration, position WHERE account ~ '{account}' ORDER BY date DESC LIMIT {n}",
    "SELECT year, month, sum(number) AS amount WHERE account ~ '^{root}' AND month >= {month} GROUP BY year, month "
    "ORDER BY year, month",
    "SELECT payee, count(*) AS n, sum(number) AS amount WHERE account ~ '^{root}' AND month >= {month} GROUP BY payee "
    "ORDER BY payee",
    "SELECT date, narration, number WHERE account ~ '{account}' AND number > {floor} ORDER BY date",
    "SELECT count(*) AS postings, sum(number) AS total WHERE account ~ '{account}' AND month <= {month}",
    "SELECT account, sum(position) AS total WHERE month = {month} AND account ~ '{root}' GROUP BY account",
    "SELECT date, account, number WHERE payee = '{payee}' ORDER BY date LIMIT {n}",
    "SELECT sum(number) AS total WHERE account ~ '{account}' AND date >= 2026-{month:02d}-01",
)


def _money(rng: random.Random, low: float, high: float) -> str:
    return f"{rng.uniform(low, high):.2f}"


def _txn(day: dt.date, payee: str, narration: str, legs: list[tuple[str, str]], balance_to: str) -> str:
    lines = [f'{day} * "{payee}" "{narration}"']
    lines += [f"  {account:<34} {amount} USD" for account, amount in legs]
    return "\n".join([*lines, f"  {balance_to}"])


def _git(book: Path, *args: str) -> None:
    stamp = "2026-01-01T09:00:00+00:00"
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_SYSTEM=os.devnull, GIT_AUTHOR_DATE=stamp,
               GIT_COMMITTER_DATE=stamp)  # fmt: skip
    subprocess.run(["git", "-C", str(book), *args], env=env, capture_output=True, text=True, check=True)


def books_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    book = work / "book"
    book.mkdir(parents=True)
    opens = ["; Account openings live here.", "1970-01-01 open Equity:Opening-Balances"]
    opens += [f"2026-01-01 open {a} USD" for a in (*ASSETS, *LIABILITIES, *INCOME, *EXPENSES)]
    txns, day = ["; Transactions live here."], dt.date(2026, 1, 2)
    txns.append(_txn(day, "Opening", "Opening balances", [("Assets:Bank:Checking", _money(rng, 8000, 15000)),
                                                         ("Assets:Cash:Till", _money(rng, 200, 400))],
                     "Equity:Opening-Balances"))  # fmt: skip
    while day < dt.date(2026, 6, 28):
        day += dt.timedelta(days=rng.choice((1, 2, 3)))
        sales = [(a, f"-{_money(rng, 80, 900)}") for a in rng.sample(INCOME[:3], rng.randrange(1, 4))]
        txns.append(
            _txn(
                day, "Till", "Day's takings", sales, rng.choice(("Assets:Cash:Till", "Assets:Bank:Checking"))
            )
        )
        if rng.random() < 0.5:
            expense = rng.choice(EXPENSES[:3] + EXPENSES[7:])
            card = rng.choice(("Liabilities:CreditCard", "Assets:Bank:Checking"))
            txns.append(_txn(day, PAYEES[expense], "Invoice", [(expense, _money(rng, 25, 600))], card))
        if day.day in (1, 2, 3) and not any(f"{day:%Y-%m}" in t and "Rent" in t for t in txns):
            txns.append(_txn(day, PAYEES["Expenses:Rent"], "Monthly rent", [("Expenses:Rent", "2150.00")],
                             "Assets:Bank:Checking"))  # fmt: skip
        if day.day >= 14 and not any(f"{day:%Y-%m}" in t and "Wages" in t for t in txns):
            txns.append(_txn(day, "Payroll", "Wages", [("Expenses:Wages", _money(rng, 3800, 5200))],
                             "Assets:Bank:Checking"))  # fmt: skip
    (book / "main.beancount").write_text(
        'option "title" "Crumb & Co Bakery"\noption "operating_currency" "USD"\n\n'
        'include "accounts.beancount"\ninclude "transactions.beancount"\ninclude "prices.beancount"\n'
    )
    (book / "accounts.beancount").write_text("\n".join(opens) + "\n")
    (book / "transactions.beancount").write_text("\n\n".join(txns) + "\n")
    (book / "prices.beancount").write_text("; Price directives live here.\n")
    (book / ".gitignore").write_text("*.xlsx\n*.html\n__pycache__/\n*.picklecache\n")
    _git(book, "init", "-q", "-b", "main")
    _git(book, "config", "user.name", "Countbean")
    _git(book, "config", "user.email", "bot@countbean.app")
    _git(book, "add", "-A")
    _git(book, "commit", "-q", "-m", "Initialise book: Crumb & Co Bakery")
    (work / "countbean.env").write_text("")
    env = [f"PATH={Path(binary[0]).parent}:/usr/local/bin:/usr/bin:/bin", f"COUNTBEAN_BOOK={book}",
           f"COUNTBEAN_ENV_FILE={work / 'countbean.env'}", f"COUNTBEAN_CREDENTIALS={work / 'credentials.json'}",
           f"HOME={work}", "GIT_CONFIG_GLOBAL=/dev/null"]  # fmt: skip
    return Fixture(["env", *env, *binary], {"last": day.isoformat(), "added": 0})


def books_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.2:
        filters = ("Assets", "Liabilities", "Income", "Expenses", "Expenses:Supplies", "Income:Sales", "Bank",
                   "Expenses:Utilities", *ASSETS, *INCOME, *EXPENSES)  # fmt: skip
        return "balances", {"account_filter": rng.choice(filters)} if rng.random() < 0.85 else {}
    if r < 0.6:
        account = rng.choice((*ASSETS, *INCOME, *EXPENSES))
        query = rng.choice(QUERIES).format(
            root=rng.choice(("Assets", "Income", "Expenses", "Liabilities", "Income:Sales", "Expenses:Supplies")),
            account=account, n=rng.randrange(1, 12), floor=rng.choice((0, 50, 100, 250, 500)),
            month=rng.randrange(1, 7), payee=rng.choice(sorted(set(PAYEES.values())) + ["Till"]),
        )  # fmt: skip
        return "run_query", {"bql": query}
    if r < 0.7:
        return "history", {"limit": rng.randrange(1, 21)} if rng.random() < 0.8 else {}
    if r < 0.77:
        return rng.choice(
            ("list_accounts", "book_status", "book_status", "assess_book", "assess_book", "get_ledger")
        ), {}
    # a day's takings or a supplier's invoice, after the last day written: every one balances
    fx.facts["added"] += 1
    day = dt.date.fromisoformat(fx.facts["last"]) + dt.timedelta(days=fx.facts["added"])
    if rng.random() < 0.6:
        legs = [(a, f"-{_money(rng, 60, 700)}") for a in rng.sample(INCOME, rng.randrange(1, 3))]
        text = _txn(day, "Till", "Day's takings", legs, rng.choice(ASSETS[::2]))
    else:
        expense = rng.choice(EXPENSES)
        text = _txn(
            day,
            PAYEES[expense],
            "Invoice",
            [(expense, _money(rng, 20, 400))],
            rng.choice(("Liabilities:CreditCard", "Assets:Bank:Checking")),
        )
    return "add_transactions", {"beancount_text": text}
