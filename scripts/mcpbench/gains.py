"""acb-tax-mcp (PyPI, the SDK 2.x's MCPServer): a brokerage client's trade files, worked into adjusted cost base and
capital gains by the CRA's average-cost rules: holdings, dispositions, superficial losses, a tax year's report,
Schedule 3's lines and unrealized gains against prices.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as indented
JSON: holdings per security (shares, total ACB and ACB per share as numbers), dispositions with ISO dates, proceeds,
ACB, outlays and gains before and after the superficial-loss rule, per-year summaries with net and taxable gains and
the 50% inclusion rate, Schedule 3 rows with acquisition years and column totals, unrealized gains in dollars and
percent, a normalized export's transactions and skipped rows with reasons, warnings as lists of strings. The
fixture writes a seeded set of accounts into its folder, each as a CSV or JSON file of trades (buys and sells of
eight tickers over 2021-2025, some in USD with an exchange rate, never selling more than is held, a few sales at a
loss bought back within 30 days), and two raw broker exports with other column names, dividend rows and "$1,200"
figures; calls read those files, or send an account's trades inline up to some day.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

TICKERS = ("XEQT", "VFV", "ZAG", "SHOP", "RY", "ENB", "VTI", "AAPL")
USD = ("VTI", "AAPL")
COLUMNS = ("date", "action", "security", "shares", "price", "commission", "currency", "fx_rate", "note")


def _trades(rng: random.Random) -> list[dict[str, object]]:
    """One account's trades in date order: buys, sells of at most what is held, a loss bought back."""
    held: dict[str, int] = {}
    prices = {t: rng.uniform(20, 250) for t in TICKERS}
    day = dt.date(2021, 1, 4) + dt.timedelta(days=rng.randrange(60))
    out: list[dict[str, object]] = []
    for _ in range(rng.randrange(14, 30)):
        day += dt.timedelta(days=rng.randrange(9, 70))
        if day.year > 2025:
            break
        tick = rng.choice(TICKERS[: rng.randrange(3, len(TICKERS) + 1)])
        prices[tick] = max(5.0, prices[tick] * rng.uniform(0.8, 1.22))
        price = round(prices[tick], 2)
        row: dict[str, object] = {"date": day.isoformat(), "security": tick, "price": price,
                                  "commission": rng.choice((0, 0, 4.95, 9.99))}  # fmt: skip
        if tick in USD:
            row |= {"currency": "USD", "fx_rate": round(rng.uniform(1.25, 1.42), 4)}
        if held.get(tick, 0) >= 10 and rng.random() < 0.4:
            n = rng.randrange(1, held[tick] + 1)
            held[tick] -= n
            out.append({**row, "action": "sell", "shares": n})
            if rng.random() < 0.3:  # bought back within 30 days: a superficial loss when the sale lost
                back = day + dt.timedelta(days=rng.randrange(3, 29))
                if back.year <= 2025:
                    m = rng.randrange(1, n + 1)
                    held[tick] += m
                    out.append({**row, "date": back.isoformat(), "action": "buy", "shares": m})
                    day = back
        else:
            n = rng.randrange(5, 120)
            held[tick] = held.get(tick, 0) + n
            out.append({**row, "action": "buy", "shares": n})
    return sorted(out, key=lambda r: str(r["date"]))


def gains_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    folder = work / "accounts"
    folder.mkdir(parents=True)
    accounts = []
    for i in range(16):
        trades = _trades(rng)
        if rng.random() < 0.5:
            path = folder / f"account-{i + 1}.csv"
            with path.open("w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=COLUMNS)
                w.writeheader()
                w.writerows({k: r.get(k, "") for k in COLUMNS} for r in trades)
        else:
            path = folder / f"account-{i + 1}.json"
            path.write_text(json.dumps({"transactions": trades}, indent=1) + "\n")
        years = sorted({int(str(r["date"])[:4]) for r in trades if r["action"] == "sell"})
        held = sorted({str(r["security"]) for r in trades})
        accounts.append({"path": str(path), "trades": trades, "years": years, "securities": held})
    exports = []
    for j in range(2):
        path = folder / f"broker-export-{j + 1}.csv"
        rows = [{"Trade Date": r["date"], "Activity Type": str(r["action"]).upper(), "Symbol": r["security"],
                 "Quantity": f"{r['shares']:,}" if r["action"] == "buy" else f"-{r['shares']}",
                 "Price": f"${r['price']:,.2f}", "Commission": f"({r['commission']})" if r["commission"] else "",
                 "Description": "Market order"} for r in accounts[j]["trades"]]  # fmt: skip
        for k in range(rng.randrange(1, 4)):  # dividends and a deposit the export mixes in
            rows.insert(rng.randrange(len(rows) + 1), {"Trade Date": f"202{2 + k}-06-30", "Activity Type": "DIVIDEND",
                        "Symbol": rng.choice(TICKERS), "Quantity": "", "Price": "", "Commission": "",
                        "Description": "Cash dividend"})  # fmt: skip
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        exports.append(str(path))
    return Fixture([*binary], {"accounts": accounts, "exports": exports})


def gains_call(rng: random.Random, fx: Fixture) -> Call:
    acct = rng.choice(fx.facts["accounts"])
    # a file, or the account's trades inline up to some day (in date order, so no sale outruns what is held)
    trades = acct["trades"][: rng.randrange(3, len(acct["trades"]) + 1)]
    src: dict[str, object] = {"csv_path": acct["path"]} if rng.random() < 0.5 else {"transactions": trades}
    r = rng.random()
    if r < 0.2:
        return "calculate_acb", src
    if r < 0.34:
        return "acb_summary", src
    if r < 0.52:
        year = rng.choice(acct["years"] or [2024]) if rng.random() < 0.85 else rng.randrange(2021, 2026)
        return "capital_gains_report", {"tax_year": year, **src}
    if r < 0.66:
        year = {"tax_year": rng.choice(acct["years"])} if acct["years"] and rng.random() < 0.7 else {}
        return "schedule3_summary", {**year, **src}
    if r < 0.78:
        return "check_superficial_losses", src
    if r < 0.92:
        prices: dict[str, object] = {}
        for tick in acct["securities"]:
            if rng.random() < 0.9:
                price = round(rng.uniform(15, 300), 2)
                prices[tick] = (
                    {"price": price, "fx_rate": round(rng.uniform(1.3, 1.4), 4)} if tick in USD else price
                )
        return "unrealized_gains", {"market_prices": prices, **src}
    if rng.random() < 0.7:
        return "normalize_broker_csv", {"csv_path": rng.choice(fx.facts["exports"])}
    rows = [{"Trade Date": t["date"], "Side": t["action"], "Ticker": t["security"], "Qty": str(t["shares"]),
             "Unit Price": str(t["price"])} for t in acct["trades"][: rng.randrange(3, 12)]]  # fmt: skip
    return "normalize_broker_csv", {"rows": rows}
