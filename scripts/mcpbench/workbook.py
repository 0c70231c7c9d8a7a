"""excel-mcp-server (PyPI): openpyxl workbooks of a shop's items, monthly sales with formulas, and staff.

Its results are compact JSON text with structured content (an ``outputSchema`` on its reads): rows of cell
values with ``null`` for an empty cell, maps keyed by sheet name and cell address (``{"Items": {"B7":
"Lamp"}}``), formula steps, a sheet's used range; its writes answer with the range written and a count of
cells. The workbooks are made once (an empty workbook by openpyxl in the server's own venv, then filled
through the server's tools: a CSV imported, rows and formulas written) and kept as pristine copies; every
server start begins from them. The workload's writes go to a scratch workbook that no read of it opens.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from mcpbench.client import Call, session
from mcpbench.fixture import FIRST, LAST, Fixture

ITEMS = ("Kettle", "Lamp", "Backpack", "Drill", "Speaker", "Blender", "Tent", "Monitor", "Chair", "Camera")
ADJ = ("Red", "Compact", "Deluxe", "Silent", "Smart", "Solar", "Travel", "Classic")
REGIONS = ("North", "South", "East", "West")
TEAMS = ("ops", "sales", "dev", "support")
BOOKS = ("shop.xlsx", "staff.xlsx", "scratch.xlsx")
# start each session from the pristine workbooks: the server then reads and writes its own copies
RESET = 'cp "$0"/*.xlsx "$1"/ && exec "$2" stdio'
EMPTY = (
    "import sys, openpyxl\nfor path, sheet in zip(sys.argv[1::2], sys.argv[2::2]):\n"
    "    wb = openpyxl.Workbook(); wb.active.title = sheet; wb.save(path)"
)


def workbook_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "books.pristine", work / "books"
    live.mkdir()
    python = str(Path(binary[0]).with_name("python"))  # the server's own venv has openpyxl
    firsts = {"shop.xlsx": "Items", "staff.xlsx": "People", "scratch.xlsx": "Notes"}
    subprocess.run(
        [python, "-c", EMPTY, *(a for b, s in firsts.items() for a in (str(live / b), s))], check=True
    )
    day0 = dt.date(2025, 1, 1)
    names = rng.sample([f"{a} {i}" for a in ADJ for i in ITEMS], 40)
    rows = ["id,sku,name,qty,unit_price,updated"]
    for i, name in enumerate(names):
        updated = (day0 + dt.timedelta(days=rng.randrange(300))).isoformat()
        rows.append(f"{i + 1},SKU-{rng.randrange(10_000, 99_999)},{name},{rng.randrange(0, 400)},"
                    f"{rng.uniform(2, 300):.2f},{updated}")  # fmt: skip
    csv = work / "items.csv"
    csv.write_text("\n".join(rows) + "\n")
    shop, staff = str(live / "shop.xlsx"), str(live / "staff.xlsx")
    sales: list[list[Any]] = [["month", *REGIONS, "total"]]
    for m in range(12):
        r = m + 2
        sales.append(
            [f"2025-{m + 1:02d}", *(round(rng.uniform(500, 9000), 2) for _ in REGIONS), f"=SUM(B{r}:E{r})"]
        )
    sales.append(["year", *(f"=SUM({c}2:{c}13)" for c in "BCDEF")])
    people = [["id", "name", "team", "since", "salary"]]
    for i in range(16):
        people.append([i + 1, f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice(TEAMS), rng.randrange(2010, 2026),
                       rng.randrange(30, 140) * 1000])  # fmt: skip
    teams = [["team", "people", "payroll"]] + [
        [t, f'=COUNTIF(People!C2:C17,"{t}")', f'=SUMIF(People!C2:C17,"{t}",People!E2:E17)'] for t in TEAMS
    ]
    calls: list[Call] = [
        ("import_csv", {"path": shop, "csv_path": str(csv), "sheet": "Items"}),
        ("write_range", {"path": shop, "sheet": "Items", "at": "G1",
                         "rows": [["value"]] + [[f"=D{k}*E{k}"] for k in range(2, len(rows) + 1)]}),
        ("create_sheet", {"path": shop, "new_name": "Sales"}),
        ("write_range", {"path": shop, "sheet": "Sales", "at": "A1", "rows": sales}),
        ("write_range", {"path": staff, "sheet": "People", "at": "A1", "rows": people}),
        ("create_sheet", {"path": staff, "new_name": "Teams"}),
        ("write_range", {"path": staff, "sheet": "Teams", "at": "A1", "rows": teams}),
    ]  # fmt: skip
    with (work / "setup.log").open("w") as log:
        session([*binary, "stdio"], calls, errlog=log)  # no proxy: nothing recorded
    shutil.copytree(live, pristine)
    facts = {
        "shop": shop,
        "staff": staff,
        "scratch": str(live / "scratch.xlsx"),
        "items": len(rows),
        "names": names,
    }
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *binary], facts)


def workbook_call(rng: random.Random, fx: Fixture) -> Call:
    shop, staff, n = fx.facts["shop"], fx.facts["staff"], fx.facts["items"]
    r = rng.random()
    if r < 0.3:
        book, sheet, span = rng.choice((
            (shop, "Items", f"A{rng.randrange(1, n - 5)}:{rng.choice('CDEFG')}{rng.randrange(n - 5, n + 1)}"),
            (shop, "Items", f"{rng.choice('BCDE')}:{rng.choice('BCDE')}"),
            (shop, "Sales", f"A1:F{rng.randrange(2, 15)}"),
            (staff, "People", f"A{rng.randrange(1, 10)}:E{rng.randrange(10, 18)}"),
            (staff, "Teams", "A1:C5"),
        ))  # fmt: skip
        mode = {"mode": "formulas"} if rng.random() < 0.2 else {}
        whole = rng.random() < 0.15
        return "read_range", {"path": book, "sheet": sheet, **({} if whole else {"range": span}), **mode}
    if r < 0.42:
        book, sheet = rng.choice(((shop, "Items"), (shop, "Sales"), (staff, "People"), (staff, "Teams")))
        return "describe_sheet", {"path": book, "sheet": sheet}
    if r < 0.62:
        query = rng.choice((rng.choice(fx.facts["names"]).split()[1], rng.choice(ADJ), rng.choice(FIRST),
                            rng.choice(TEAMS), "SKU-", "2025-0"))  # fmt: skip
        options = rng.choice(
            ({}, {"max_results": rng.randrange(1, 8)}, {"exact": False, "case_sensitive": True})
        )
        return "find_cells", {"path": rng.choice((shop, staff)), "query": query, **options}
    if r < 0.82:
        book, sheet, cell = rng.choice((
            (shop, "Sales", f"F{rng.randrange(2, 14)}"),
            (shop, "Sales", f"{rng.choice('BCDEF')}14"),
            (shop, "Items", f"G{rng.randrange(2, n + 1)}"),
            (staff, "Teams", f"{rng.choice('BC')}{rng.randrange(2, 6)}"),
        ))  # fmt: skip
        return "trace_formula", {"path": book, "sheet": sheet, "range": cell,
                                 "direction": rng.choice(("precedents", "evaluate"))}  # fmt: skip
    if r < 0.87:
        book, sheet, cell = rng.choice(((shop, "Sales", f"B{rng.randrange(2, 14)}"),
                                        (staff, "People", f"E{rng.randrange(2, 18)}")))  # fmt: skip
        return "trace_formula", {"path": book, "sheet": sheet, "range": cell, "direction": "dependents"}
    # a write to the scratch workbook, never read by the workload
    at = f"{rng.choice('ABCDEF')}{rng.randrange(1, 40)}"
    if rng.random() < 0.75:
        rows = [[rng.choice((rng.randrange(1, 1000), f"{rng.choice(ADJ)} {rng.choice(ITEMS)}"))
                 for _ in range(rng.randrange(1, 4))] for _ in range(rng.randrange(1, 4))]  # fmt: skip
        return "write_range", {"path": fx.facts["scratch"], "sheet": "Notes", "at": at, "rows": rows}
    return "clear_range", {"path": fx.facts["scratch"], "sheet": "Notes", "range": f"A1:{at}"}
