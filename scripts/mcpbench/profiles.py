"""data-profiler-mcp (PyPI, the SDK 2.x's MCPServer): a shop's data files profiled before anyone trusts them.

Its results are one indented JSON text block and no structured content (the tools return dicts and declare
no ``outputSchema``). Every answer opens with the file's path, name, format, size in bytes and in words
(``"7.7 KB"``); then, by tool, the shape and whether it was a head sample, memory in bytes, missing values
and duplicate rows, a summary per column (pandas dtype, inferred type, null and unique shares as percentages,
sample values, min, max, mean); a column's percentiles, skew, kurtosis, zero and negative counts, IQR outlier
bounds and a ten-bin histogram, or its top values with counts and shares and string lengths, or a datetime's
first and last; quality issues with a column (or null), a code, a severity and a sentence; dtype suggestions
with memory saved; two files' row delta, added and removed columns and per-column null rates and means side
by side; correlation pairs ranked by strength with the high ones apart. The fixture is the shop's files made
here with the standard library: orders (last year's too, and a later export of them with rows dropped, a column added and a
count turned to text), a sensor log as TSV, staff records as JSON, click events as JSON lines, a small
returns sheet; the orders and the sensor log also as Parquet, written with the server's own pandas when the
server is installed. Nothing is sampled at random (``preview_data`` takes the head or the tail).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import random
import subprocess
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

CITIES = ("Lyon", "Oslo", "Pune", "Leeds", "Kyoto", "Quito", "Accra")
STATUS = (
    "paid",
    "paid",
    "shipped",
    "open",
    "refunded",
    " paid",
    "Paid ",
)  # stray spaces and case, as exported
DEPTS = ("sales", "support", "ops", "finance", "it")
EVENTS = ("view", "click", "add_to_cart", "checkout", "search")
T0 = dt.datetime(2025, 1, 6, 8, 0)
PARQUET = """import sys, pandas as pd
for src, dst in zip(sys.argv[1::2], sys.argv[2::2]):
    (pd.read_csv(src, sep="\\t") if src.endswith(".tsv") else pd.read_csv(src)).to_parquet(dst, index=False)
"""


def _write(path: Path, header: list[str], rows: list[list[Any]], delimiter: str = ",") -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f, delimiter=delimiter)
        w.writerow(header)
        w.writerows(rows)


def _orders(rng: random.Random, n: int) -> list[list[Any]]:
    rows = []
    for i in range(n):
        amount = "" if rng.random() < 0.04 else round(rng.lognormvariate(4, 0.8), 2)
        qty = rng.randrange(1, 12)
        day = T0 + dt.timedelta(days=rng.randrange(0, 300), minutes=rng.randrange(0, 1440))
        rows.append([50000 + i, f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice(CITIES), amount, qty,
                     round(rng.choice((0, 0, 0, 0.05, 0.1, 0.15)), 2), day.strftime("%Y-%m-%d %H:%M"),
                     rng.choice(STATUS), "web", "" if rng.random() < 0.85 else rng.choice(("gift", "call first"))])  # fmt: skip
    return rows


ORDER_COLUMNS = [
    "order_id",
    "customer",
    "city",
    "amount",
    "qty",
    "discount",
    "ordered",
    "status",
    "channel",
    "note",
]


def profiles_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    data = work / "data"
    data.mkdir()
    numeric: dict[str, list[str]] = {}
    columns: dict[str, list[str]] = {}

    orders = _orders(rng, rng.randrange(300, 800))
    _write(data / "orders.csv", ORDER_COLUMNS, orders)
    later = [r[:4] + [str(r[4]) if rng.random() < 0.9 else f"{r[4]} pcs"] + r[5:] + [rng.random() < 0.08]
             for r in orders if rng.random() < 0.93]  # fmt: skip
    later += [[60000 + i] + r[1:] for i, r in enumerate(rng.sample(later, 25))]  # new orders, old baskets
    _write(data / "orders_2025-11.csv", ORDER_COLUMNS + ["refunded"], later)
    numeric["orders"] = ["order_id", "amount", "qty", "discount"]
    _write(
        data / "orders_2024.csv", ORDER_COLUMNS, _orders(rng, rng.randrange(120, 400))
    )  # last year's, smaller
    numeric["orders-2024"] = numeric["orders"]

    sensors = []
    for k in range(rng.randrange(400, 1200)):
        t = T0 + dt.timedelta(minutes=10 * k)
        temp = round(19 + 4 * rng.random() + (6 if 11 <= t.hour <= 16 else 0), 2)
        sensors.append([t.strftime("%Y-%m-%dT%H:%M:%S"), f"S-{rng.randrange(1, 6)}", temp,
                        round(rng.uniform(30, 70) - temp / 3, 1), round(rng.gauss(1013, 6), 1),
                        str(rng.randrange(5, 101)), rng.choice(("ok", "ok", "ok", "low battery"))])  # fmt: skip
    sensors += rng.sample(sensors, 12)  # the logger's retries: duplicate rows
    _write(data / "sensors.tsv", ["ts", "sensor", "temp_c", "humidity", "pressure_hpa", "battery_pct", "state"],
           sensors, "\t")  # fmt: skip
    numeric["sensors"] = ["temp_c", "humidity", "pressure_hpa", "battery_pct"]

    staff = [{"id": 100 + i, "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "dept": rng.choice(DEPTS),
              "salary": rng.randrange(32, 140) * 1000, "hired": f"{rng.randrange(2008, 2026)}-{rng.randrange(1, 13):02d}-01",
              "remote": rng.random() < 0.4, "rating": rng.choice((None, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0)),
              "manager_id": None if i < 3 else 100 + rng.randrange(0, 3)}
             for i in range(rng.randrange(40, 160))]  # fmt: skip
    (data / "staff.json").write_text(json.dumps(staff, indent=1))
    numeric["staff"] = ["id", "salary", "rating", "manager_id"]

    events = [{"event": rng.choice(EVENTS), "user": f"u{rng.randrange(1, 90)}", "duration_ms": int(rng.expovariate(1 / 900)),
               "bytes": rng.randrange(200, 90000), "ok": rng.random() < 0.95, "page": rng.choice(("/", "/cart", "/item", "/help"))}
              for _ in range(rng.randrange(300, 1500))]  # fmt: skip
    (data / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    numeric["events"] = ["duration_ms", "bytes"]

    returns = [[f"R-{k}", rng.choice(("damaged", "wrong size", "late", "unwanted")), rng.randrange(1, 4),
                round(rng.uniform(5, 300), 2), rng.choice(("", "", "store credit"))] for k in range(rng.randrange(8, 30))]  # fmt: skip
    _write(data / "returns.csv", ["return_id", "reason", "items", "refund", "remark"], returns)
    numeric["returns"] = ["items", "refund"]

    files = {"orders": "orders.csv", "orders-later": "orders_2025-11.csv", "orders-2024": "orders_2024.csv", "sensors": "sensors.tsv",
             "staff": "staff.json", "events": "events.jsonl", "returns": "returns.csv"}  # fmt: skip
    python = Path(binary[0]).parent / "python"
    if python.is_file():  # pandas and pyarrow come with the server; without the install no Parquet is made
        pairs = [
            str(data / "orders.csv"),
            str(data / "orders.parquet"),
            str(data / "sensors.tsv"),
            str(data / "sensors.parquet"),
        ]
        subprocess.run([str(python), "-c", PARQUET, *pairs], check=True, capture_output=True)
        files |= {"orders-parquet": "orders.parquet", "sensors-parquet": "sensors.parquet"}
    numeric["orders-later"] = ["order_id", "amount", "discount"]
    numeric["orders-parquet"], numeric["sensors-parquet"] = numeric["orders"], numeric["sensors"]
    header = {"orders": ORDER_COLUMNS, "orders-2024": ORDER_COLUMNS, "orders-later": ORDER_COLUMNS + ["refunded"],
              "sensors": ["ts", "sensor", "temp_c", "humidity", "pressure_hpa", "battery_pct", "state"],
              "staff": list(staff[0]), "events": list(events[0]), "returns": ["return_id", "reason", "items", "refund", "remark"]}  # fmt: skip
    for name in files:
        columns[name] = header[name.split("-parquet")[0]]
    paths = {name: str(data / f) for name, f in files.items()}
    return Fixture([*binary], {"files": paths, "numeric": numeric, "columns": columns})


def profiles_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, str] = fx.facts["files"]
    name = rng.choice(sorted(files))
    path = files[name]
    capped = {"max_rows": rng.choice((25, 50, 75, 100, 150, 250, 400))} if rng.random() < 0.35 else {}
    r = rng.random()
    if r < 0.14:
        return "profile_dataset", {"path": path, **capped}
    if r < 0.5:
        return "column_stats", {"path": path, "column": rng.choice(fx.facts["columns"][name]), **capped}
    if r < 0.68:
        return "preview_data", {"path": path, "n": rng.randrange(1, 41), "mode": rng.choice(("head", "tail"))}
    if r < 0.77:
        return "detect_quality_issues", {"path": path, **capped}
    if r < 0.84:
        return "suggest_dtypes", {"path": path, **capped}
    if r < 0.9:
        pairs = [("orders", "orders-later"), ("orders", "orders-parquet"), ("sensors", "sensors-parquet"),
                 ("orders", "returns"), ("staff", "events"), ("orders-2024", "orders")]  # fmt: skip
        a, b = rng.choice([p for p in pairs if p[0] in files and p[1] in files])
        if rng.random() < 0.3:
            a, b = b, a
        return "compare_datasets", {"path_a": files[a], "path_b": files[b], **capped}
    args: dict[str, Any] = {"path": path, "method": rng.choice(("pearson", "pearson", "spearman", "kendall"))}
    if rng.random() < 0.4:
        args["column"] = rng.choice(fx.facts["numeric"][name])
    return "correlation_matrix", {**args, **capped}
