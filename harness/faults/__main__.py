"""Command line for the fault library and its validity studies.

    python -m harness.faults incidents [--json]              # the incident suite: types, counts, sources

The studies that measure the monitor with these faults live in ``python -m harness.evaluations``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def _print_incidents(summary: dict[str, Any]) -> None:
    print(
        f"Incident suite: {summary['n_faults']} faults, {summary['n_types']} types, "
        f"{summary['n_incidents']} sources; kinds {summary['kinds']}; taxonomy classes {summary['taxonomy_classes']}"
    )
    for t, row in summary["types"].items():
        print(f"  {t:<22} {row['n_faults']:>3}  {row['description']}")
    print()
    for f in summary["faults"]:
        print(f"  {f['id']:<13} {f['type']:<22} {f['kind']:<10} {f['fault_class']:<26} {f['incident']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m harness.faults",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    inc = sub.add_parser("incidents", help="summarise the incident-derived suite")
    inc.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    if args.cmd == "incidents":
        from harness.faults.incidents import load_suite

        summary = load_suite().summary()
        if args.json:
            print(json.dumps(summary, indent=1))
        else:
            _print_incidents(summary)
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
