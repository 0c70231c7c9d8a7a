"""scripts/mcp_servers_contracts.py on a small workload: the proxy in front of two third-party servers
(``make mcp-servers``), faults from its own shim. Checks the output's structure, that held-out clean calls
draw no receipt and that the raw result stays first; not the share flagged (that is the benchmark's figure)."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "scripts" / "mcp_servers_contracts.py"
sys.path.insert(0, str(REPO / "scripts"))

from mcpbench.faults import FAULTS, Context, Payload, read_text, render  # noqa: E402
from mcpbench.servers import BY_NAME  # noqa: E402

SMOKE = ("calculator", "sqlite")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=REPO)


@pytest.mark.slow
def test_two_servers_clean_calls_draw_no_receipt_and_faults_are_counted(tmp_path):
    pytest.importorskip("mcp")
    missing = [str(BY_NAME[n].binary) for n in SMOKE if not BY_NAME[n].binary.is_file()]
    if missing:
        pytest.skip(f"third-party MCP servers not installed ({', '.join(missing)}): run `make mcp-servers`")
    out = tmp_path / "figures.json"
    keep = tmp_path / "keep"
    done = _run(
        "--servers", ",".join(SMOKE), "--record", "60", "--clean", "20", "--passes", "1", "--json", str(out),
        "--keep", str(keep),
    )  # fmt: skip
    logs = "".join(f"\n--- {p}:\n{p.read_text()[-1500:]}" for p in sorted(keep.glob("*/stderr.log")))
    assert done.returncode == 0, done.stderr[-2000:] + logs
    text = done.stdout
    assert f"== tuning servers: {', '.join(SMOKE)}" in text
    assert "raw result first and unchanged: yes, every call" in text
    doc = json.loads(out.read_text())
    assert [s["server"] for s in doc["servers"]] == list(SMOKE)
    assert doc["commit"] and f"commit {doc['commit']}," in text
    for s in doc["servers"]:
        assert s["group"] == "tuning" and s["package"].startswith("mcp-server-")
        assert s["recorded"] == 60 - s["record_errors"] and s["rules"] > 0
        assert s["clean_calls"] == 20
        assert s["clean_receipts"] == [], s["clean_receipts"][:3]
        assert s["raw_first_broken"] == 0
        assert set(s["faulted"]) <= set(FAULTS) and len(s["faulted"]) >= 5
        faulted = sum(n for n, _ in s["faulted"].values())
        assert faulted + s["untouched"] == 20  # one pass over the held-out calls, none an error
        assert all(0 <= hit <= n for n, hit in s["faulted"].values())
        for kind, (n, hit) in s["faulted"].items():  # a receipt where one was flagged, up to 3 misses shown
            shown = s["examples"][kind]
            assert (shown["flagged"] is not None) == (hit > 0)
            assert len(shown["missed"]) == min(3, n - hit)
            assert all(m["faulted"] != m["clean"] for m in shown["missed"] if m["tool"] == "calculate")
        # the table's cell for each kind is the JSON's tally
        for kind, (n, hit) in s["faulted"].items():
            row = next(line for line in text.splitlines() if line.strip().startswith(kind + " "))
            assert f"{hit}/{n}" in row


def test_bad_input_is_one_line_and_exit_2():
    for args in (("--servers", "nope"), ("--faults", "drop_field,bogus"), ("--clean", "0")):
        done = _run(*args)
        assert done.returncode == 2
        assert done.stderr.strip().count("\n") == 0 and done.stderr.startswith("error:"), done.stderr
        assert "Traceback" not in done.stderr


ROWS = "[{'id': 7, 'name': 'Red Desk Lamp XL', 'price': 12.5, 'status': 'active', 'placed_on': '2024-02-01'}, " \
    "{'id': 9, 'name': 'Mini Fan', 'price': 3.0, 'status': 'backorder', 'placed_on': '2024-05-17'}]"  # fmt: skip


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_each_fault_changes_what_a_row_result_says(kind):
    """Every kind applies to SQL-like rows printed as a Python literal, and changes them (seeded: the same
    seed gives the same fault)."""
    p = read_text(ROWS)
    assert p.form == "literal_text"
    ctx = Context("read_query", {"query": "SELECT 1"}, {})
    got = FAULTS[kind](p, random.Random(3), ctx)
    assert got is not None and render(got) != ROWS
    again = FAULTS[kind](p, random.Random(3), ctx)
    assert again is not None and render(again) == render(got)


def test_duckdb_dates_are_read_and_printed_back_as_the_server_prints_them():
    text = "[(1055, 'Dmitri Rossi', datetime.date(2024, 2, 1)), (1116, 'Ada', datetime.date(2024, 4, 12))]"
    p = read_text(text)
    assert p.form == "literal_text" and render(p) == text
    moved = FAULTS["date_order"](p, random.Random(0), Context("query", {}, {}))
    assert moved is not None and render(moved).index("2024, 4, 12") < render(moved).index("2024, 2, 1")


def test_a_text_fault_keeps_a_wrapped_result_wrapped():
    p = Payload("structured", {"result": "14"})
    got = FAULTS["error_page"](p, random.Random(0), Context("calculate", {}, {}))
    assert got is not None and got.form == "structured" and list(got.value) == ["result"]
    assert got.value["result"].startswith("<!DOCTYPE html>")


def test_the_benchmark_shares_no_code_with_the_project():
    """The shim, its faults and the driver import nothing of the project (the fault library included): the
    monitor is reached only through its command line, as a user would."""
    for path in sorted((REPO / "scripts" / "mcpbench").glob("*.py")) + [SCRIPT]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            roots = {n.split(".")[0] for n in names}
            assert not roots & {"harness", "core", "environments", "analysis"}, (path.name, names)
