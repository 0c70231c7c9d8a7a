"""The held-out group from late on the night of 2026-12-07 (sql-analyst, ancestry, gmpy2, icons): their fixtures and seeded
workloads, drawn here without starting a server (a held-out server's faulted figures are not a test's to run or
read; test_mcp_servers_contracts.py records their workloads through the proxy, and checks they are seeded and
varied). Their calls stay offline and within what each server accepts."""

from __future__ import annotations

import math
import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts"))

from mcpbench.catalogue import BY_NAME  # noqa: E402

MORNING = ("sql-analyst", "ancestry", "gmpy2", "icons")
QUIET = ["env", "FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false"]


def _fixtures(tmp_path: Path) -> dict:
    return {n: BY_NAME[n].setup(tmp_path / n, random.Random(5), [f"/venv/bin/{n}"]) for n in MORNING}


def test_the_morning_groups_commands_and_files_stay_in_the_fixtures_folder(tmp_path):
    """sql-analyst reads only the fixture's exports and keeps its DuckDB copy in the fixture's folder; ancestry runs
    (and writes its log) in a folder of the fixture's, reading GEDCOM files whose every line has a level (a blank
    line stops its parser) and no rename; gmpy2's and icons' FastMCP servers never check for updates and speak
    stdio, their sheets and screens held in facts."""
    from mcpbench import subscriptions

    fx = _fixtures(tmp_path)
    sql = fx["sql-analyst"]
    assert sql.command[:2] == ["env", f"TMPDIR={tmp_path / 'sql-analyst' / 'tmp'}"]
    assert (
        sql.command[-1] == str(tmp_path / "sql-analyst" / "exports")
        and (tmp_path / "sql-analyst" / "tmp").is_dir()
    )
    exports = {p.name for p in Path(sql.command[-1]).iterdir()}
    assert exports == {"customers.csv", "plans.csv", "subscriptions.csv", "invoices.jsonl", "usage.tsv"}
    for table in ("customers", "plans", "subscriptions"):
        head = (Path(sql.command[-1]) / f"{table}.csv").read_text().splitlines()[0]
        assert tuple(head.split(",")) == subscriptions.COLUMNS[table]
    trees = tmp_path / "ancestry" / "trees"
    assert fx["ancestry"].command == ["env", "-C", str(tmp_path / "ancestry" / "run"), "/venv/bin/ancestry",
                                      "--gedcom-path", str(trees)]  # fmt: skip
    assert sorted(p.stem for p in trees.iterdir()) == sorted(fx["ancestry"].facts["files"])
    for ged in trees.iterdir():
        text = ged.read_text()
        assert text.isascii() and all(re.match(r"[0-4] \S", line) for line in text.splitlines())
    for n in ("gmpy2", "icons"):
        assert fx[n].command == [*QUIET, f"/venv/bin/{n}"]
        assert not (tmp_path / n).exists()


def _tables(sql: str) -> set[str]:
    return {m.lower() for m in re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", sql, re.IGNORECASE)}


def test_the_morning_groups_calls_stay_within_what_the_servers_accept(tmp_path):
    """sql-analyst runs one SELECT (or WITH) at a time on the exported tables, profiles only their columns and asks
    at most the rows it may show; ancestry only lists and views, by names and patterns that match a file; gmpy2 asks
    no division by zero, inverses of coprime pairs, Legendre symbols and modular roots over odd primes (roots of
    residues only), and trial division of numbers it finishes at once; icons asks only names and words that find an
    icon, in styles within its bounds."""
    from mcpbench import glyphs, primes, subscriptions

    fx = _fixtures(tmp_path)
    stems = [f + ".ged" for f in fx["ancestry"].facts["files"]]
    rng = random.Random(6)
    for _ in range(300):
        tool, args = BY_NAME["sql-analyst"].workload(rng, fx["sql-analyst"])
        if "sql" in args:
            sql = args["sql"]
            assert re.match(r"(SELECT|WITH) ", sql) and ";" not in sql and "read_" not in sql.lower()
            assert _tables(sql) <= {*subscriptions.COLUMNS, "churned"}, sql
            assert 1 <= args.get("max_rows", 200) <= 200
        if tool == "profile_column":
            assert args["column"] in subscriptions.COLUMNS[args["table"]]
        assert 0 <= args.get("sample_rows", 5) <= 20
        tool, args = BY_NAME["ancestry"].workload(rng, fx["ancestry"])
        assert tool in ("list_files", "view_file")
        pattern = args["name"].removesuffix(".ged") + ".ged"
        assert [s for s in stems if Path(s).match(pattern)], pattern
        tool, args = BY_NAME["gmpy2"].workload(rng, fx["gmpy2"])
        if tool in ("div", "mod"):
            assert int(args["b"]) != 0
        if tool == "invert":
            assert math.gcd(int(args["a"]), int(args["m"])) == 1
        if tool in ("legendre", "tonelli"):
            p = int(args["p"])
            assert p % 2 and primes.is_prime(p)
            if tool == "tonelli":
                assert pow(int(args["n"]), (p - 1) // 2, p) == 1
        if tool == "jacobi":
            assert int(args["n"]) > 0 and int(args["n"]) % 2
        if tool in (
            "prime_factors",
            "mobius",
            "phi",
            "divisors",
            "num_divisors",
            "sum_divisors",
            "is_smooth",
        ):
            assert 0 < int(args["n"]) < 10**10
        if tool == "prev_prime":
            assert int(args["n"]) > 2
        if tool == "binomial":
            assert 0 <= int(args["k"]) <= int(args["n"])
        tool, args = BY_NAME["icons"].workload(rng, fx["icons"])
        asked = [args["query"]] if tool == "search_icons" else args["icons"]
        assert set(asked) <= {*glyphs.NAMES, *glyphs.WORDS} and 1 <= len(asked) <= 50
        assert 1 <= args.get("limit", 10) <= 30 and 0.5 <= args.get("stroke_width", 2) <= 4
        assert isinstance(args.get("size", 24), int) and 1 <= args.get("size", 24) <= 1024
        assert re.fullmatch(r"currentColor|#[0-9a-f]{3,8}|[a-z]+", args.get("color", "currentColor"))
