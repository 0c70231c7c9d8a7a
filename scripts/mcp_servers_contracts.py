"""The monitor's proxy in front of third-party MCP servers: clean calls recorded, contracts learned, silent
faults injected between the proxy and the server, the share flagged per server and fault kind.

    python scripts/mcp_servers_contracts.py [--servers all|NAME,...] [--group all|tuning|held-out]
        [--record N] [--clean N] [--passes P] [--seed S] [--faults KIND,...] [--json FILE] [--keep DIR]
        [--shim-outer-only]

For each server of the catalogue (scripts/mcpbench/catalogue.py; ``make mcp-servers`` installs them: from
PyPI, hash-locked, into .cache/mcp-servers, .cache/mcp-servers-mcp1 and .cache/mcp-servers-office; from
npm, by its lock, into .cache/mcp-servers-npm):

1. its fixtures are made (a git repository, SQLite and DuckDB shops, workbooks, a knowledge graph, a project
   folder, a web site served on 127.0.0.1, a task file, a JavaScript project, text files, Word documents, a
   library's database, an operations folder, documents to convert, PDFs, calendar feeds, a health export,
   archives, BibTeX files, data files to profile, slide decks, patch series, a GraphQL schema, a burns unit's
   cases, trade files, build logs, billing exports, family trees) and a seeded workload of ``--record`` +
   ``--clean`` clean calls drawn (none needs the network or a key);
2. the first ``--record`` calls go through ``python -m harness.monitor proxy --record``, and
   ``python -m harness.monitor learn --input`` learns a registry from that recording;
3. the other ``--clean`` calls (held out from the recording) go through ``proxy --registry``: every receipt
   there is a false alarm;
4. the same held-out calls, ``--passes`` times, go through ``proxy --registry`` with the fault shim
   (scripts/mcpbench/shim.py, sharing no code with harness/faults) between proxy and server: each result
   gets one fault kind (a seeded rotation; a kind that cannot apply to a result gives way to one that
   can), and the shim's log says which. A faulted call is flagged when the client got a receipt.
   A fault finding nothing to change in a result's outer form is tried inside it (the text that structured
   content wraps, the JSON body after a text's header lines); ``--shim-outer-only`` is the shim as it was
   up to 2026-12-06, to compare with figures measured before.

Every fault kind changes what the result says. The servers come in two groups, reported apart: ``tuning`` (time,
git, sqlite, calculator, duckdb, math, spreadsheet, spreadsheet-blocks, memory, filesystem, fetch, everything,
tree-sitter, excel, markitdown, taskmanager, sequential-thinking, eslint, text-editor, word, alchemy, shell,
pandoc, git-json, eggcalc, pdf-reader, webcal, apple-health, archive, bibtex, data-profiler, text-utils,
powerpoint, diffchunk, graphql-schema, clinical-calc, units, molecules, cymraeg, oews, ach, brasil, countbean,
clawlendar, sqlfluff, hl7, biopython, sympy, acb, subnets, mortgages, electronics, usda, mqtt-spec, oyemi,
secret-scrub) may be looked at while the monitor's learning is tuned; ``held-out`` (sql-analyst, ancestry, gmpy2,
icons) must not be (``--group tuning`` runs the first alone). duckdb, math, spreadsheet and
spreadsheet-blocks were held out until 2026-12-06 (measured held out once, at f20ff20: 314/638 faulted calls
flagged, 49%); memory, filesystem, fetch and everything were held out from then until the evening of 2026-12-06
(measured held out once, at aa59f11: 452/640, 71%, 20 clean receipts); tree-sitter, excel, markitdown and
taskmanager were held out from the evening of 2026-12-06 (measured held out once, at 8ef6e3d: 456/640 before and
482/640, 75%, after that evening's learning changes, with 9 clean receipts); sequential-thinking, eslint,
text-editor and word were held out from the night of 2026-12-06 (measured held out once, with the library of
78cddc6: 421/640, 66%, faulted calls flagged, 403/640 with 235f507's, no clean receipt, the same again with
b329618's; their misses not read); alchemy, shell, pandoc and git-json were held out from 2026-12-07 until that
morning (picked and given their workloads without this measurement, then measured held out once, with the
libraries of d4a9933 and 9231d02: 399/640, 62%, 1 clean receipt on 640); eggcalc, pdf-reader, webcal and
apple-health were held out from the morning of 2026-12-07 (picked and given their workloads without this
measurement), measured held out once, at 6f521c6 with misses unread: 454/616 faulted calls flagged (74%), 122
clean receipts (109 of them pdf-reader's, a mixed-list type bug, fixed at 0c65022); after reading those receipts,
at 1e32c4e: 437/616 (71%), 11 receipts; tuned on since the morning of 2026-12-07, later. archive, bibtex,
data-profiler and text-utils, the held-out four since later on the morning of 2026-12-07, were picked and given
their workloads without this measurement, then measured held out once, at 0ad44e7: 514/640 (80%) with 1e32c4e's
library, 519/640 (81%) with 0ad44e7's, 13 clean receipts (10 after reading them at 3166d6d), their misses not
read; tuned on since 2026-12-07 (midday). powerpoint, diffchunk, graphql-schema and clinical-calc, held out from
midday of 2026-12-07, were picked and given their workloads without this measurement, then measured held out once,
at d11a399: 533/640 (83%) with c378b8e's library and the same with c03bc0c's, 6 clean receipts; tuned on since
2026-12-07's second session. units, molecules, cymraeg and oews, held out from 2026-12-07's second session, were
picked and given their workloads by a helper without this measurement, then measured held out once, at a20debd:
550/640 (86%), 9 clean receipts, the same with b547395's library; their receipts were read and two guards built
from them (6 receipts at 7c1ae29); tuned on since the afternoon of 2026-12-07.
ach, brasil, countbean and clawlendar, held out from the afternoon of 2026-12-07, were picked and given their
workloads by a helper without this measurement (only their clean calls run), then measured held out once, at
370e473: 535/640 (84%), 9 clean receipts, 536/640 and 9 with 163ffeb's library; their receipts were read and two
guards built from them (534/640, 2 receipts at 419a022); tuned on since the evening of 2026-12-07. sqlfluff, hl7,
biopython and sympy, held out from the evening of 2026-12-07, were picked and given their workloads by a helper
without this measurement (only their clean calls run), then measured held out once, at 822a97b: 475/640 (74%), 9
clean receipts, the same with a55e77f's library; their receipts and misses were read and guards built from them
(485/640, 76%, 4 receipts at 887bb5c); tuned on since the night of 2026-12-07. acb, subnets, mortgages and
electronics, held out from the night of 2026-12-07, were picked and given their workloads by a helper without this measurement (only their clean
calls run, straight and through the proxy's recording), then measured held out at 38049ea: 569/640 (89%), 1 clean
receipt, the same with 845ebb7's library; their misses not read and no guard built from them. usda, mqtt-spec,
oyemi and secret-scrub, held out from the night of 2026-12-07, later, were picked and given their workloads by a
helper without this measurement (only their clean calls run, straight and through the proxy's recording), then
measured held out at 3b9ea93 and 9ba7d08: 521/640 (81%), 9 clean receipts, the same with 845ebb7's library; their
misses not read and no guard built from them. sql-analyst, ancestry, gmpy2 and icons, held out from late on the night
of 2026-12-07, were picked and given their workloads by a helper without this measurement (only their clean calls run,
straight and through the proxy's recording), then measured held out with a7e1656's and 968d003's libraries: 479/640
(75%) and no clean receipt on seed 0, 494/640 (77%) and 1 receipt on seed 1; their misses not read. The eight before
them are tuned on since (measured blind again at a7e1656: 1,090/1,280 with 10 receipts on seed 0, 1,077/1,280 with
19 on seed 1; 3 and 1 receipts after the guards read off them). ``spreadsheet-blocks`` is
the spreadsheet server with its structured content dropped by the shim, so its several content blocks are what the
proxy sees: a form the shim presents, said so in every table. Prints the tables (each with the share flagged among
the faulted calls that repeat no recorded call, "on new calls": a recorded call's own answer, ``same_answer``,
vouches only for calls the recording made); ``--json`` writes every figure, each clean receipt, and per server and
kind one receipt and up to three misses (the faulted result beside the same call's clean one). The figures are the
monitor's on these servers, not the paper's."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcpbench.catalogue import BY_NAME, SERVERS  # noqa: E402
from mcpbench.faults import FAULTS  # noqa: E402
from mcpbench.report import group_lines, receipt_lines, server_lines, summary_lines  # noqa: E402
from mcpbench.run import ALL_KINDS, Outcome, measure  # noqa: E402
from mcpbench.servers import VENVS, Server  # noqa: E402


def _choose(spec: str) -> list[Server]:
    if spec == "all":
        return list(SERVERS)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown or not names:
        raise ValueError(
            f"unknown server(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(BY_NAME)}"
        )
    return [BY_NAME[n] for n in names]


def _commit() -> str:
    """The checkout's commit (with ``+changes`` when its tracked files differ), so a figure names its code."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(root), "diff", "--quiet", "HEAD", "--", "harness", "scripts"]
        ).returncode
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--servers", default="all", help=f"all, or a comma list of: {', '.join(BY_NAME)}")
    ap.add_argument("--record", type=int, default=150, help="clean calls recorded per server (default 150)")
    ap.add_argument("--clean", type=int, default=160, help="held-out clean calls per server (default 160)")
    ap.add_argument("--passes", type=int, default=1, help="times the held-out calls are replayed faulted (1)")
    ap.add_argument(
        "--group",
        default="all",
        choices=("all", "tuning", "held-out"),
        help="only this group's servers (while tuning the monitor: tuning, so the held-out stay unseen)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--faults", default="all", help=f"all, or a comma list of: {', '.join(FAULTS)}")
    ap.add_argument(
        "--shim-outer-only",
        action="store_true",
        help="fault only a result's outer form, as the shim did up to 2026-12-06 (to compare with earlier figures)",
    )
    ap.add_argument("--json", type=Path, help="write every figure here")
    ap.add_argument(
        "--keep",
        type=Path,
        help="keep recordings, registries, shim logs and every missed faulted call (missed.jsonl) and every clean receipt (receipts.jsonl) in full here (a subfolder per server, replaced)",
    )
    a = ap.parse_args(argv)
    try:
        servers = [s for s in _choose(a.servers) if a.group in ("all", s.group)]
        if not servers:
            raise ValueError(f"no server of group {a.group} among {a.servers}")
        kinds = ALL_KINDS if a.faults == "all" else [k.strip() for k in a.faults.split(",")]
        if any(k not in FAULTS for k in kinds):
            raise ValueError(f"unknown fault kind in {a.faults!r}; known: {', '.join(FAULTS)}")
        if min(a.record, a.clean, a.passes) < 1:
            raise ValueError("--record, --clean and --passes must be at least 1")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        import mcp  # noqa: F401
    except ImportError:
        print("error: the MCP SDK is not installed here (make mcp)", file=sys.stderr)
        return 2
    missing = sorted({str(s.binary) for s in servers if not s.binary.is_file()})
    if missing:
        print(f"error: {', '.join(missing)} not installed (run `make mcp-servers`)", file=sys.stderr)
        return 2

    commit = _commit()  # before the run: the checkout may change under a long one
    outcomes: list[Outcome] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-") as tmp:
        root = a.keep or Path(tmp)
        for s in servers:
            t = time.perf_counter()
            try:
                o = measure(s, root / s.name, a.seed, a.record, a.clean, a.passes, kinds, a.shim_outer_only)
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                print(f"error: {s.name}: {exc}", file=sys.stderr)
                return 1
            outcomes.append(o)
            print(f"[{s.name}: {time.perf_counter() - t:.0f} s]", file=sys.stderr, flush=True)
    took = time.perf_counter() - t0

    print(f"The outcome monitor's proxy in front of {len(outcomes)} third-party MCP server{'s' * (len(outcomes) != 1)} (commit {commit}, "
          f"seed {a.seed}; "
          f"{a.record} calls recorded, {a.clean} held-out clean calls and {a.clean * a.passes} faulted calls "
          f"per server; {took:.0f} s). Each cell: faulted calls flagged / faulted.")  # fmt: skip
    for line in server_lines(outcomes):
        print(line)
    for group in ("tuning", "held-out"):
        for line in group_lines(group, [o for o in outcomes if o.group == group]):
            print(line)
    for line in [*receipt_lines(outcomes), *summary_lines(outcomes)]:
        print(line)
    if a.shim_outer_only:
        print("Note: --shim-outer-only: faults on each result's outer form only (the shim up to 2026-12-06).")
    if any(o.present for o in outcomes):
        print("Note: spreadsheet-blocks is a form the shim presents (structuredContent and outputSchema dropped), "
              "not the server's own.")  # fmt: skip
    if a.json:
        doc = {
            "commit": commit,
            "seed": a.seed,
            "record": a.record,
            "clean": a.clean,
            "passes": a.passes,
            "shim_outer_only": a.shim_outer_only,
            "venvs": {k: str(v) for k, v in VENVS.items()},
            "servers": [{**o.as_json(), "package": BY_NAME[o.server].package} for o in outcomes],
        }
        a.json.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
