"""Checks the Makefile's knobs before any target runs: one line for the first bad value, nothing when all
are fine (the Makefile turns a line into `make`'s own one-line error, exit 2).

Usage (from the Makefile): python3 scripts/knobs.py GOALS -- KNOB=value ...  (empty values are unset).
Standard library only: it runs before the project's virtualenv exists.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN_GOALS = {"figures", "verify", "report", "inspect-export"}


def check(knob: str, value: str, goals: set[str]) -> str | None:
    path = Path(value)
    if knob == "MODELS":
        unknown = [
            m
            for m in value.split(",")
            if "/" not in m and not (ROOT / "conf/model" / f"{m.strip()}.yaml").is_file()
        ]
        if unknown:
            known = ", ".join(sorted(p.stem for p in (ROOT / "conf/model").glob("*.yaml")))
            return f"MODELS={value}: unknown model {unknown[0]!r} (a conf/model name: {known}; or a litellm string provider/model)"
    elif knob == "LIMIT":
        if not value.isdigit() or int(value) < 1:
            return f"LIMIT={value}: not a positive whole number (the first N workflows of the frozen list)"
    elif knob == "OUT":
        if path.exists() and not path.is_dir():
            return f"OUT={value} names a file; OUT is a run folder (an existing folder resumes its run): pick a folder path"
    elif knob == "REPLAY":
        if not path.is_file():
            return f"REPLAY={value}: no such file; point it at the llm_cache.sqlite of a recorded run"
    elif knob == "RUN" and goals & RUN_GOALS:
        if not (path / "episodes.jsonl").is_file():
            return f"RUN={value}: no run there (no episodes.jsonl); run one first (e.g. make replicate-table1) or name a run folder"
    elif knob == "HTML":
        if path.is_dir():
            return f"HTML={value} is a folder; HTML names the report's file (e.g. report.html)"
    elif knob == "PROGRESS":
        if value not in ("true", "false"):
            return f"PROGRESS={value}: must be true or false"
    elif knob == "TAUBENCH_BASE_URL":
        if not value.startswith(("http://", "https://", "file://")):
            return f"TAUBENCH_BASE_URL={value}: not a URL (http://, https:// or file:// standing for upstream's tree)"
    elif knob == "TAUBENCH_TASKS":
        if not path.is_dir():
            return f"TAUBENCH_TASKS={value}: no such folder"
    return None


def main(argv: list[str]) -> int:
    split = argv.index("--") if "--" in argv else len(argv)
    goals = set(argv[:split])
    for item in argv[split + 1 :]:
        knob, _, value = item.partition("=")
        why = check(knob, value.strip(), goals) if value.strip() else None
        if why:
            print(why)
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
