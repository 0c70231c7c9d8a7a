"""``python -m harness.records schema [record|transcript]`` prints the JSON Schema of a line of
``episodes.jsonl`` (or of a transcript file); ``python -m harness.records fields`` prints the field
tables the README holds (a test keeps the two equal)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from harness.records.schema import RecordLine, Transcript, fields_markdown

if TYPE_CHECKING:
    from pydantic import BaseModel

SCHEMAS: dict[str, type[BaseModel]] = {"record": RecordLine, "transcript": Transcript}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m harness.records", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    schema = sub.add_parser(
        "schema", help="the JSON Schema (draft 2020-12) of a records line or a transcript"
    )
    schema.add_argument("what", nargs="?", choices=sorted(SCHEMAS), default="record")
    sub.add_parser("fields", help="the README's tables of record fields (Markdown)")
    args = ap.parse_args(argv)
    if args.command == "schema":
        out = SCHEMAS[args.what].model_json_schema()
        out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **out}
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        sys.stdout.write(fields_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
