"""``python -m environments.appworld describe [--json]``: is AppWorld set up, how many APIs per app,
is the task data present. One clear line and a non-zero exit when something is missing."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from environments.appworld import paths
from environments.appworld.bridge import BridgeError


def describe() -> dict:
    from environments.appworld.env import fetch_sync

    out: dict = {
        "setup": paths.is_set_up(),
        "venv": str(paths.VENV),
        "cache": str(paths.CACHE),
        "appworld_root": str(paths.root()),
        "task_data": paths.has_task_data(),
        "tasks_dir": str(paths.tasks_dir()),
    }
    if not out["setup"]:
        out["error"] = f"AppWorld is not set up: {paths.SETUP_HINT}"
        return out
    apis = fetch_sync("apis")
    out["apis_per_app"] = dict(sorted(Counter(r["app"] for r in apis).items()))
    out["n_apis"] = len(apis)
    if not out["task_data"]:
        out["task_data_hint"] = paths.data_hint()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m environments.appworld")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("describe", help="setup state, API count per app, task data presence")
    d.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        info = describe()
    except BridgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
    if "error" in info:
        print(f"error: {info['error']}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
