"""``python -m environments list [--json]``: every discovered world, its studies, players, the
conventions it offers the stock players, its contract sources, and whether it can start here (and if
not, what fetches what it needs)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core import worlds


def describe(name: str) -> dict[str, Any]:
    world = worlds.discover()[name]
    row: dict[str, Any] = {"name": name, "origin": world.origin}
    try:
        plugin = worlds.get_plugin(name)
    except worlds.UnknownEnvironmentError as exc:
        return {
            **row,
            "studies": [],
            "players": [],
            "player_conventions": None,
            "contract_sources": [],
            "ready": False,
            "why": exc.args[0],
        }
    studies = sorted(p.stem for p in (world.conf / "study").glob("*.yaml")) if world.conf else []
    why = plugin.unavailable()
    conventions = plugin.player_conventions()
    return {
        **row,
        "description": plugin.description,
        "studies": studies,
        "players": sorted({**plugin.scripted_policies(), **plugin.scripted_users()}),
        # None: the stock players read this world's tool schemas alone (generic mode)
        "player_conventions": conventions.name if conventions is not None else None,
        "contract_sources": list(plugin.contract_sources),
        "ready": why is None,
        "why": why,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m environments", description="the discovered worlds")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="every discovered world: studies, players, contract sources, readiness")
    ls.add_argument("--json", action="store_true", help="one JSON object: {worlds: [...]}")
    args = ap.parse_args(argv)
    try:
        worlds.check()
        rows = [describe(name) for name in worlds.world_names()]
    except worlds.DuplicateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"worlds": rows}, indent=2))
        return 0
    for row in rows:
        state = "ready" if row["ready"] else f"not ready: {row['why']}"
        print(f"{row['name']:<12} {state}")
        print(f"  studies: {', '.join(row['studies']) or '-'}")
        print(
            f"  players: {', '.join(row['players']) or '-'}   contract sources: {', '.join(row['contract_sources'])}"
        )
        if "description" in row:  # the plugin loaded
            stock = row["player_conventions"] or "none (stock players read the tool schemas alone)"
            print(f"  conventions for stock players: {stock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
