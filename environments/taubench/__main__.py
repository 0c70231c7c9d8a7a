"""Command line of the tau-bench world, both domains (bad input: one line on stderr, exit 2).

    python -m environments.taubench fetch [--dest DIR] [--base-url URL] [--domain D] [--tasks-from DIR]
    python -m environments.taubench fetch-historical [--dest DIR] [--base-url URL]
    python -m environments.taubench describe [--domain retail|airline] [--json] [--data-dir DIR]
    python -m environments.taubench replay [--domain D] --split test [--task N] [--dump-db PATH] [--json]
    python -m environments.taubench traces [--domain D] --split train --out F.jsonl [--seed 0] [--random-calls 4]
    python -m environments.taubench mcp-serve [--domain D] [--fault NAME --seed N --rate P] [--task ID]

``mcp-serve`` serves the domain's tools over MCP stdio on a fresh database kept for the session. It is a
thin entry: the process becomes ``python -m harness.mcp serve --env taubench ...`` (``os.execv``), since the
MCP server and the fault library live in the harness and a world imports nothing of the harness.

``--domain`` is ``retail`` (the default) or ``airline``; ``fetch`` brings both unless told one.
``replay`` runs every ground-truth action on a fresh database and scores it (exit 1 when a task
scores 0); ``--dump-db`` writes the final database(s) as JSON: one file with ``--task``, else a
folder of ``<split>-<index>.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from environments.taubench.checksums import DOMAINS, SPLITS_OF

SPLITS = tuple(dict.fromkeys(s for splits in SPLITS_OF.values() for s in splits))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


class UsageError(Exception):
    """Bad input from the command line."""


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m environments.taubench", description="tau-bench world (retail and airline)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    f = sub.add_parser("fetch", help="download, convert and verify the pinned data files of both domains")
    f.add_argument(
        "--dest", help="data root (default: $TAUBENCH_DATA or data/taubench); files go to <root>/<domain>/"
    )
    f.add_argument(
        "--base-url",
        help="the root of upstream's tree at the pinned commit, http(s):// or file:// (default: upstream's raw URLs)",
    )
    f.add_argument("--domain", choices=[*DOMAINS, "all"], default="all")
    f.add_argument(
        "--tasks-from",
        help="a data root (or retail folder) holding the task-list JSONs to copy instead of converting upstream's modules",
    )

    h = sub.add_parser(
        "fetch-historical", help="download and verify upstream's published GPT-4o airline trajectories"
    )
    h.add_argument(
        "--dest", help="data root (default: $TAUBENCH_DATA or data/taubench); files go to <root>/historical/"
    )
    h.add_argument("--base-url", help="the root of upstream's tree at the pinned commit (as for fetch)")

    d = sub.add_parser("describe", help="counts and the data folder's sha256")
    d.add_argument("--domain", choices=DOMAINS, default="retail")
    d.add_argument("--json", action="store_true")
    d.add_argument("--data-dir")

    r = sub.add_parser("replay", help="replay ground-truth actions and score them")
    r.add_argument("--domain", choices=DOMAINS, default="retail")
    r.add_argument("--split", default="test", choices=[*SPLITS, "all"])
    r.add_argument("--task", type=int, help="one task's index within the split")
    r.add_argument("--dump-db", help="with --task: a JSON file; without: a folder of <split>-<index>.json")
    r.add_argument("--json", action="store_true")
    r.add_argument("--data-dir")

    t = sub.add_parser("traces", help="clean tool executions as JSON lines")
    t.add_argument("--domain", choices=DOMAINS, default="retail")
    t.add_argument("--split", default="train", choices=[*SPLITS, "all"])
    t.add_argument("--out", required=True, help="output file ('-' for stdout)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--random-calls", type=int, default=4)
    t.add_argument("--data-dir")

    m = sub.add_parser("mcp-serve", help="the domain's tools over MCP stdio (python -m harness.mcp serve)")
    m.add_argument("--domain", choices=DOMAINS, default="retail")
    m.add_argument("--data-dir")
    m.add_argument("--task", help="the task whose episode opens the session (default: the first)")
    m.add_argument("--fault", help="a fault config name as the studies use it (e.g. taubench_status)")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--rate", type=float, default=1.0)
    return p


def _mcp_serve(args: argparse.Namespace) -> int:
    """Become ``python -m harness.mcp serve --env taubench ...``: a process boundary, not an import."""
    import os

    argv = [sys.executable, "-m", "harness.mcp", "serve", "--env", "taubench", "--domain", args.domain]
    if args.data_dir:
        argv += ["--option", f"data_dir={args.data_dir}"]
    if args.task:
        argv += ["--task", args.task]
    if args.fault:
        argv += ["--fault", args.fault, "--seed", str(args.seed), "--rate", str(args.rate)]
    elif args.rate != 1.0:
        raise UsageError("--rate needs --fault")
    sys.stdout.flush()
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def main(argv: list[str] | None = None) -> int:
    from environments.taubench.data import DataError
    from environments.taubench.fetch import FetchError

    args = build_parser().parse_args(argv)
    try:
        return {
            "fetch": _fetch,
            "fetch-historical": _fetch_historical,
            "describe": _describe,
            "replay": _replay,
            "traces": _traces,
            "mcp-serve": _mcp_serve,
        }[args.command](args)
    except (UsageError, DataError, FetchError) as exc:
        sys.stderr.write(f"taubench: error: {exc}\n")
        return 2
    except BrokenPipeError:  # the reader (e.g. head) closed the pipe: not an error of ours
        sys.stderr.close()
        return 0


def _env(args: argparse.Namespace) -> Any:
    from environments.taubench.env import TauBenchEnv

    return TauBenchEnv(data_dir=args.data_dir, domain=args.domain)


def _splits(args: argparse.Namespace) -> tuple[str, ...]:
    """The splits asked for, each one the domain has (``all``: every split of the domain)."""
    have = SPLITS_OF[args.domain]
    if args.split == "all":
        return have
    if args.split not in have:
        raise UsageError(f"--split {args.split}: the {args.domain} domain has only {', '.join(have)}")
    return (args.split,)


def _fetch(args: argparse.Namespace) -> int:
    from environments.taubench.data import resolve_root
    from environments.taubench.fetch import SCHEMES, fetch

    if args.tasks_from is not None and not Path(args.tasks_from).is_dir():
        raise UsageError(f"--tasks-from {args.tasks_from} is not a folder")
    if args.base_url is not None and not args.base_url.startswith(SCHEMES):
        raise UsageError(f"--base-url must start with http://, https:// or file://, got {args.base_url!r}")
    domains = DOMAINS if args.domain == "all" else (args.domain,)
    done = fetch(args.dest, base_url=args.base_url, domains=domains, tasks_from=args.tasks_from)
    for name, what in done.items():
        print(f"{name:26} {what}")
    print(f"all files verified under {resolve_root(args.dest)} ({', '.join(domains)})")
    return 0


def _fetch_historical(args: argparse.Namespace) -> int:
    from environments.taubench.data import resolve_root
    from environments.taubench.fetch import SCHEMES, fetch_historical

    if args.base_url is not None and not args.base_url.startswith(SCHEMES):
        raise UsageError(f"--base-url must start with http://, https:// or file://, got {args.base_url!r}")
    for name, what in fetch_historical(args.dest, base_url=args.base_url).items():
        print(f"{name:26} {what}")
    print(f"all files verified under {resolve_root(args.dest)} (historical)")
    return 0


def _describe(args: argparse.Namespace) -> int:
    from environments.taubench.env import describe

    d = describe(_env(args))
    if args.json:
        print(json.dumps(d, indent=2))
        return 0
    counts = ("users", "orders", "products", "flights", "reservations")
    print(f"tau-bench {d['domain']} in {d['data_dir']}")
    print(
        ", ".join(f"{k} {d[k]}" for k in counts if k in d)
        + (f" ({d['variants']} variants)" if "variants" in d else "")
    )
    print("tasks " + ", ".join(f"{s} {n}" for s, n in d["tasks"].items()))
    print(f"tools {d['tools']} {d['tool_categories']}")
    print(f"sha256 {d['sha256']}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from environments.taubench.replay import run_ground_truth

    splits = _splits(args)  # before the data loads: a bad split is the user's, not the data's
    env = _env(args)
    if args.task is not None:
        if args.split == "all":
            raise UsageError("--task needs one split (--split test, train or dev)")
        n = len(env.tasks(args.split))
        if not 0 <= args.task < n:
            raise UsageError(f"--task {args.task} is out of range for split {args.split} (0..{n - 1})")
        ep = run_ground_truth(env, f"{args.split}-{args.task}")
        outcome = ep.outcome(require_done=False)
        if args.dump_db:
            ep.db.dump(args.dump_db)
        d = {
            "task_id": ep.task.task_id,
            **{
                k: outcome.details[k]
                for k in (
                    "reward",
                    "r_actions",
                    "r_outputs",
                    "outputs",
                    "semantic_match",
                    "changed_records",
                    "db_digest",
                )
            },
        }
        print(
            json.dumps(d, indent=2)
            if args.json
            else f"{d['task_id']}: reward {d['reward']:.0f} (db match {d['r_actions']}, outputs {d['outputs'] or 'none'}, "
            f"changed {', '.join(d['changed_records']) or 'nothing'})"
        )
        return 0 if outcome.score == 1.0 else 1
    folder = Path(args.dump_db) if args.dump_db else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"--dump-db {folder} is a file; without --task it must be a folder")
        folder.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {}
    for split in splits:
        failed, semantic = [], 0
        for task in env.tasks(split):
            ep = run_ground_truth(env, task.task_id)
            outcome = ep.outcome(require_done=False)
            semantic += outcome.details["semantic_reward"] == 1.0
            if outcome.score != 1.0:
                failed.append(task.task_id)
            if folder is not None:
                ep.db.dump(folder / f"{task.task_id}.json")
        n = len(env.tasks(split))
        summary[split] = {"tasks": n, "reward_1": n - len(failed), "semantic_1": semantic, "failed": failed}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for split, s in summary.items():
            print(
                f"{split}: {s['tasks']} tasks, reward 1 on {s['reward_1']}, semantic 1 on {s['semantic_1']}"
                + (f"; failed: {', '.join(s['failed'])}" if s["failed"] else "")
            )
    return 0 if all(not s["failed"] for s in summary.values()) else 1


def _traces(args: argparse.Namespace) -> int:
    from environments.taubench.traces import traces

    if args.random_calls < 0:
        raise UsageError(f"--random-calls must be >= 0, got {args.random_calls}")
    splits = _splits(args)  # before the data loads: a bad split is the user's, not the data's
    env = _env(args)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    n = 0
    try:
        for split in splits:
            for row in traces(env, split=split, seed=args.seed, random_calls=args.random_calls):
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                n += 1
    finally:
        if out is not sys.stdout:
            out.close()
    sys.stderr.write(f"{n} rows ({', '.join(splits)}) -> {args.out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
