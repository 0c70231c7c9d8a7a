"""``python -m harness.studies_list``: every study (in each world's ``conf/study``), one line each: its
world, whether that world can start on this machine (and the command that makes it ready) and its
description. ``make studies`` (``python -m harness.run.sizes``) adds each study's episode count.

A study file's first comment line after ``# @package _global_`` is its one-line description: a whole
sentence of at most ``DESCRIPTION_WIDTH`` characters (the lines after it say the rest). Readiness is
the world plugin's own ``unavailable()`` (what ``python -m environments list`` prints). Imports only
the floor (``core``): the run imports this module for its ``--help``.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from pathlib import Path
from typing import Protocol

from core import worlds

DESCRIPTION_WIDTH = 100  # characters: a description fits one line beside the table's other columns
READY_WIDTH = 30  # the readiness column: a longer command is said under the table only
HEADER = "python -m harness.run study=<name> [overrides]   (arm=[a,b] model=[m] fault=[f] select; -m arm=a,b sweeps)"


def description(path: Path) -> str:
    """The study's one-line description: its first comment line that is not the package line."""
    lines = [ln.lstrip("# ").strip() for ln in path.read_text().splitlines() if ln.startswith("#")]
    return next((ln for ln in lines if not ln.startswith("@package")), "")


def studies() -> dict[str, str]:
    """Study name -> its one-line description."""
    return {name: description(path) for name, path in sorted(worlds.config_index()["study"].items())}


def world_of(path: Path) -> str:
    """The world whose ``conf`` folder holds this study file (``-`` for a root study)."""
    for owner, root in worlds.config_roots():
        if owner != "root" and root in path.parents:
            return owner
    return "-"


def readiness(world: str) -> str | None:
    """None when ``world`` can start here, else what is missing and the command that fetches it."""
    try:
        return worlds.get_plugin(world).unavailable()
    except worlds.UnknownEnvironmentError as exc:
        return str(exc.args[0])


def ready_cell(why: str | None) -> str:
    """``ready``, or ``needs <command>`` (the first command the plugin's reason quotes in backticks)."""
    if why is None:
        return "ready"
    command = re.search(r"`([^`]+)`", why)
    if command and len(command[1]) <= READY_WIDTH - len("needs "):
        return f"needs {command[1]}"
    return "not ready (see below)"  # the whole reason, with its command, is printed under the table


class Counter(Protocol):
    """Episodes a study plans (``harness.run.sizes.EpisodeCounter``)."""

    def count(self, study: str) -> int: ...

    def close(self) -> None: ...


def plan_cells(study: str, why: str | None, counter: Counter | None) -> tuple[str | None, str]:
    """(why the study cannot start here or None, its episode count as text) for one study."""
    from core.protocol import WorldUnavailable

    if counter is None:
        return why, ""
    if why is not None:
        return why, "-"  # its world cannot start here: nothing to select tasks from
    try:
        return None, str(counter.count(study))
    except WorldUnavailable as exc:  # the world starts, but this study's data is missing (a task download)
        return str(exc), "-"
    except Exception as exc:  # noqa: BLE001  (one study that cannot plan says why; the others still print)
        return None, f"? ({type(exc).__name__})"


def rows(counter: Counter | None = None) -> list[dict[str, str]]:
    """A row per study: study, world, ready (its cell), why (empty when ready), episodes (with a
    ``counter``), description."""
    index = worlds.config_index()["study"]
    owners = {name: world_of(path) for name, path in sorted(index.items())}
    world_why = {w: readiness(w) for w in sorted(set(owners.values()) - {"-"})}
    out = []
    logging.disable(logging.WARNING)  # the planner's steps log what a run would say; a listing does not
    try:
        for name, world in owners.items():
            why, n = plan_cells(name, world_why.get(world), counter)
            out.append(
                {"study": name, "world": world, "ready": ready_cell(why), "why": why or "", "episodes": n,
                 "description": description(index[name])}
            )  # fmt: skip
    finally:
        logging.disable(logging.NOTSET)
        if counter is not None:
            counter.close()
    return out


def render(table: list[dict[str, str]], count: bool) -> list[str]:
    """The listing's lines: the run command, a line per study, then why each unready world or study is."""
    w = {k: max([len(k), *(len(r[k]) for r in table)]) for k in ("study", "world", "ready", "episodes")}
    head = {"study": "study", "world": "world", "ready": "on this machine", "episodes": "episodes"}
    lines = [HEADER]
    for r in [head | {"description": "description"}, *table]:
        n = f"  {r['episodes']:>{w['episodes']}}" if count else ""
        lines.append(f"  {r['study']:<{w['study']}}  {r['world']:<{w['world']}}  {r['ready']:<{w['ready']}}{n}  "
                     f"{r['description']}")  # fmt: skip
    said: set[str] = set()
    for r in table:
        if r["why"] and r["why"] not in said:
            said.add(r["why"])
            who = r["world"] if r["why"] == readiness(r["world"]) else r["study"]
            lines.append(f"{who}: not ready: {r['why']}")
    if count:
        lines.append(
            "episodes: planned from the composed config (tasks x faults x arms x models x replicates x trials), "
            "nothing run; - where the world or its data is not here"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m harness.studies_list",
        description="every study, one line each (make studies adds each one's episode count)",
    )
    ap.parse_args([] if argv is None else argv)
    print("\n".join(render(rows(), count=False)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
