"""Command line of the AgentDojo world (bad input: one line on stderr, exit 2).

    python -m environments.agentdojo replay [--suite S|all] [--seed N] [--json] [--out FILE]

``replay`` runs every user task's ground truth through a world episode and prints, per suite,
``N/M ground truths pass the package's utility check`` (the package's own pipeline and check), how many
of the world's grades agree with it, the tasks whose check passes with no call at all, and a digest of
the final states (the same seed, the same digest; seed 0 is compared with ``replay-digests.json``, the
digests recorded when the world was written). Exit 1 when a ground truth fails the package's check, a
grade disagrees, or a seed-0 digest differs from the recorded one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn

from environments.agentdojo import package

# the digests of seed 0 as replayed when the world was written: a replay elsewhere must give the same
RECORDED = Path(__file__).with_name("replay-digests.json")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m environments.agentdojo", description="the AgentDojo world")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("replay", help="replay every ground truth; the world's grade against the package's")
    r.add_argument("--suite", choices=[*package.SUITES, "all"], default="all")
    r.add_argument("--seed", type=int, default=0, help="the episode seed (it draws each episode's clock)")
    r.add_argument("--json", action="store_true", help="one JSON object per suite, every task's row")
    r.add_argument("--out", help="also write the JSON (per-task grades and state digests) to this file")
    return p


def _replay(args: argparse.Namespace) -> int:
    from environments.agentdojo.env import AgentDojoWorld
    from environments.agentdojo.replay import replay_suite, summary

    suites = package.SUITES if args.suite == "all" else (args.suite,)
    recorded = json.loads(RECORDED.read_text())
    comparable = args.seed == recorded["seed"] and recorded["benchmark_version"] == package.BENCHMARK_VERSION
    out, bad = {}, 0
    for name in suites:
        s = summary(replay_suite(AgentDojoWorld(suite=name), seed=args.seed))
        out[name] = s
        bad += s["tasks"] - s["agree"] + s["tasks"] - s["package_pass"]
        same = s["digest"] == recorded["suites"].get(name)
        if comparable:
            s["digest_as_recorded"] = same
            bad += not same
        if not args.json:
            no_call = ", ".join(s["no_call"]) or "none"
            note = (" (as recorded)" if same else " (DIFFERS from the recorded one)") if comparable else ""
            print(
                f"{name}: {s['package_pass']}/{s['tasks']} ground truths pass the package's utility check; "
                f"the world's grade agrees on {s['agree']}/{s['tasks']}; pass with no call: {no_call}; "
                f"state digest {s['digest'][:16]}{note}"
            )
    if len(suites) > 1 and not args.json:
        tot = {k: sum(out[n][k] for n in suites) for k in ("tasks", "package_pass", "agree")}
        print(
            f"{package.BENCHMARK_VERSION}: {tot['package_pass']}/{tot['tasks']} ground truths pass the package's "
            f"utility check ({'/'.join(str(out[n]['tasks']) for n in suites)}); the world's grade agrees on "
            f"{tot['agree']}/{tot['tasks']}"
        )
    doc = {"benchmark_version": package.BENCHMARK_VERSION, "seed": args.seed, "suites": out}
    if args.json:
        print(json.dumps(doc, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=2) + "\n")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    why = package.unavailable()
    if why is not None:
        sys.stderr.write(f"agentdojo: {why}\n")
        return 2
    try:
        return {"replay": _replay}[args.command](args)
    except ValueError as exc:
        sys.stderr.write(f"agentdojo: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
