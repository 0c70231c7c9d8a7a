"""``outcome-monitor`` (also ``python -m outcome_monitor``): learn, check, explain, coverage, proxy.

    outcome-monitor learn --input TRACES.jsonl --out REGISTRY.json [--vocabulary wide|paper]
    outcome-monitor check --registry REGISTRY.json --input IN.jsonl --output OUT.jsonl [--variant full]
    outcome-monitor explain --registry REGISTRY.json [--tool NAME]
    outcome-monitor coverage --input TRACES.jsonl [--registry REGISTRY.json] [--tool NAME] [--json]
    outcome-monitor proxy [--record FILE] [--registry FILE] -- COMMAND ARGS...

Every bad input stops with one line and a non-zero exit. A trace row is ``{tool, arguments,
result[, status]}``; ``--skip-bad-lines`` goes past a line that is not a JSON object (naming it)
instead of stopping there. ``build_parser`` and the ``cmd_*`` functions are what the experiment
harness extends with its worlds (``python -m harness.monitor``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from outcome_monitor.receipts.monitor import VARIANTS, Monitor, annotate_stream
from outcome_monitor.registry import KIND, Registry


def say(text: str) -> None:
    print(text, file=sys.stderr)


def read_jsonl(path: str, skip_bad: bool = False) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL file. A line that is not a JSON object stops with one line naming the file
    and the line (or, with ``skip_bad``, is named and skipped); a missing or unreadable file is one
    line too."""
    try:
        fh = open(path, encoding="utf-8") if path != "-" else sys.stdin  # noqa: SIM115
    except OSError as exc:
        raise SystemExit(f"error: cannot read {path}: {exc.strerror or exc}") from None
    skipped = 0
    with fh:
        try:
            for i, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    why = (
                        None
                        if isinstance(row, dict)
                        else "is not a JSON object (a row is {tool, arguments, result})"
                    )
                except ValueError as exc:
                    why = f"is not JSON ({exc})"
                if why is None:
                    yield row
                    continue
                if not skip_bad:
                    raise SystemExit(
                        f"error: {path}:{i} {why}; mend or drop that line, or pass --skip-bad-lines"
                    )
                skipped += 1
                say(f"skipped {path}:{i}: {why}")
        except UnicodeDecodeError as exc:
            raise SystemExit(f"error: {path} is not UTF-8 text ({exc.reason})") from None
    if skipped:
        say(f"skipped {skipped} bad line{'' if skipped == 1 else 's'} of {path}")


def load_registry_file(
    path: str, other_kinds: dict[str, Callable[[dict[str, Any]], Any]] | None = None
) -> Any:
    """A registry file (or a file of one of ``other_kinds``, read by its reader); one that is missing,
    not JSON, of another format version or otherwise unreadable stops with one line naming the file
    (and, for another version, its version and what to do)."""
    from outcome_monitor.registry_format import version_problem

    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"error: cannot read the registry {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SystemExit(f"error: the registry {path} is not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise SystemExit(f"error: the registry {path} is not a registry (a JSON object with format_version)")
    kind = obj.get("kind")
    reader: Callable[[dict[str, Any]], Any] = Registry.from_json
    if kind not in (None, KIND):
        if kind not in (other_kinds or {}):
            raise SystemExit(f"error: {path} is a {kind!r} file, not a registry")
        reader = (other_kinds or {})[kind]
    else:
        problem = version_problem(obj)
        if problem is not None:
            raise SystemExit(f"error: the registry {path} {problem}")
    try:
        return reader(obj)
    except (ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"error: the registry {path} cannot be read: {exc}; learn it again") from None


def say_set_aside(set_aside: dict[str, Any] | None) -> None:
    """Rows set aside as errors, per tool: flagged by the server, or errors by their content."""
    if not set_aside:
        return
    for kind, words in (("flagged", "sent as errors"), ("inferred", "errors by their content")):
        counts = set_aside.get(kind) or {}
        if counts:
            per_tool = ", ".join(f"{t} {n}" for t, n in counts.items())
            say(f"set aside {sum(counts.values())} rows {words}: {per_tool}")
    for tool, why in (set_aside.get("examples") or {}).items():
        say(f"  e.g. {tool}: {why}")


def say_held_back(reg: Registry, out: str) -> None:
    held = reg.meta.get("held_back") or []
    for h in held[:10]:  # the recording's support bound: domains kept out, each named
        say(f"held back: {h['tool']}: {h['rule']} ({h['values']} values in {h['n']}): {h['reason']}")
    if len(held) > 10:
        say(f"held back: {len(held) - 10} more domains (all under meta.held_back in {out})")


def learn_rows(rows: list[dict[str, Any]], args: argparse.Namespace, where: str) -> Registry:
    from outcome_monitor.registry import learn, learn_schema_only

    if not rows:
        raise SystemExit(f"error: {where}: no trace rows to learn from")
    # coverage learns too, with no --schema-only of its own
    schema_only = getattr(args, "schema_only", False)
    reg = learn_schema_only(rows) if schema_only else learn(rows, vocabulary=args.vocabulary)
    if not reg.n_rules:
        say(f"warning: {where}: {len(rows)} rows gave no rule (too few clean results of each tool?)")
    return reg


def cmd_learn(args: argparse.Namespace) -> int:
    if not args.input:
        raise SystemExit("error: learn needs --input TRACES.jsonl (rows of {tool, arguments, result})")
    t0 = time.perf_counter()
    rows = list(read_jsonl(args.input, args.skip_bad_lines))
    reg = learn_rows(rows, args, args.input)
    say_set_aside(reg.meta.get("set_aside"))
    reg.save(args.out)
    say_held_back(reg, args.out)
    say(
        f"{len(rows)} trace rows -> {reg.n_rules} rules over {len(reg.tools())} tools "
        f"in {time.perf_counter() - t0:.2f}s -> {args.out}"
    )
    return 0


def check_rows(
    rows: Iterator[dict[str, Any]], monitor_for: Callable[[dict[str, Any]], Any], output: str
) -> tuple[int, int]:
    n = fired = 0
    try:
        out = open(output, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise SystemExit(f"error: cannot write {output}: {exc.strerror or exc}") from None
    with out:
        for row in rows:
            if "tool" not in row:
                raise SystemExit(f"error: a row of the input has no 'tool' key: {json.dumps(row)[:120]}")
            for res in annotate_stream(monitor_for(row), [row]):
                out.write(json.dumps(res, ensure_ascii=False, default=repr) + "\n")
                n += 1
                fired += bool(res["violations"])
    return n, fired


def cmd_check(args: argparse.Namespace) -> int:
    mon = Monitor(load_registry_file(args.registry), {}, args.variant)
    n, fired = check_rows(read_jsonl(args.input, args.skip_bad_lines), lambda _row: mon, args.output)
    say(f"{n} results checked, {fired} with violations -> {args.output}")
    return 0


def explain(reg: Registry, tool: str | None) -> int:
    if tool and tool not in reg.rules:
        say(f"no rules for tool '{tool}'")
        return 1
    by_source: dict[str, int] = {}
    for rs in [reg.rules.get(tool, [])] if tool else reg.rules.values():
        for r in rs:
            by_source[r.source] = by_source.get(r.source, 0) + 1
    print("rules by source: " + ", ".join(f"{s} {n}" for s, n in sorted(by_source.items())))
    print("\n".join(reg.explain(tool)))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    return explain(load_registry_file(args.registry), args.tool)


def print_coverage(reg: Registry, rows: list[dict[str, Any]], args: argparse.Namespace) -> int:
    from outcome_monitor.checking.coverage import path_coverage

    cov = path_coverage(reg, rows)
    if args.json:
        print(json.dumps(cov.to_json(args.tool), indent=1, ensure_ascii=False, default=repr))
    else:
        print("\n".join(cov.lines(args.tool)))
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Per tool, the result paths of the clean rows that carry no rule, and why."""
    if not args.input:
        raise SystemExit("error: coverage needs --input TRACES.jsonl (the clean rows whose paths it reads)")
    rows = list(read_jsonl(args.input, args.skip_bad_lines))
    if args.registry:
        reg = load_registry_file(args.registry)
    else:
        reg = learn_rows(rows, args, args.input)
    return print_coverage(reg, rows, args)


def cmd_proxy(args: argparse.Namespace) -> int:
    from outcome_monitor.adapters.mcp_proxy import main as proxy_main

    args.command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return proxy_main(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "learn": cmd_learn,
    "check": cmd_check,
    "explain": cmd_explain,
    "coverage": cmd_coverage,
    "proxy": cmd_proxy,
}


def build_parser(
    prog: str = "outcome-monitor",
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and its subcommands' parsers (a caller may add options to them)."""
    ap = argparse.ArgumentParser(
        prog=prog, description="outcome monitor: learn, check, explain, coverage, proxy"
    )
    from outcome_monitor._version import __version__

    ap.add_argument("--version", action="version", version=f"outcome-monitor {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("learn", help="learn contracts from clean traces")
    lp.add_argument("--input", help="trace JSONL ({tool, arguments, result[, status]} per line)")
    lp.add_argument("--schema-only", action="store_true", help="required fields and types only")
    lp.add_argument(
        "--vocabulary",
        choices=("wide", "paper"),
        default="wide",
        help="wide (default): errors set aside, text read, per-tool rules and the text, shape and "
        "collection classes; paper: the paper's seven classes as its studies learn them",
    )
    lp.add_argument("--out", required=True, help="the registry file to write")
    cp = sub.add_parser("check", help="check results and render receipts")
    cp.add_argument("--registry", required=True)
    cp.add_argument("--input", required=True)
    cp.add_argument("--output", required=True)
    cp.add_argument("--variant", choices=VARIANTS, default="full")
    ep = sub.add_parser("explain", help="the rules in plain words")
    ep.add_argument("--registry", required=True)
    ep.add_argument("--tool")
    vp = sub.add_parser("coverage", help="result paths that carry no rule, per tool, and why")
    vp.add_argument("--input", help="clean trace JSONL: the result paths to cover")
    vp.add_argument("--registry", help="a registry file (default: learned from --input)")
    vp.add_argument("--vocabulary", choices=("wide", "paper"), default="wide", help="with no --registry")
    vp.add_argument("--tool")
    vp.add_argument("--json", action="store_true")
    for p in (lp, cp, vp):
        p.add_argument(
            "--skip-bad-lines", action="store_true", help="skip (and name) lines that are not JSON objects"
        )
    pp = sub.add_parser("proxy", help="the monitor in front of an MCP server: record and check")
    pp.add_argument("--record", help="append each clean call as a trace row (learn --input reads it)")
    pp.add_argument("--registry", help="check each result; a receipt follows the raw content on a violation")
    pp.add_argument("--delivery", choices=("immediate", "deferred"), default="immediate")
    pp.add_argument("--timeout", type=float, default=30.0, help="seconds an upstream call may take")
    pp.add_argument(
        "--no-output-schemas",
        action="store_true",
        help="do not check results against the upstream tools' declared outputSchema (the tools are then "
        "listed as declared)",
    )
    pp.add_argument(
        "--keep-output-schemas",
        action="store_true",
        help="list each tool's outputSchema as declared, also where the proxy checks it (by default it is "
        "left out there, so a client that validates results itself, as the SDK's call_tool does, gets a "
        "schema-breaking result and its receipt instead of raising)",
    )
    pp.add_argument(
        "--drop-output-schemas",
        action="store_true",
        help="list tools without outputSchema: the default where the proxy checks the schema, so a no-op "
        "kept for old command lines (with --no-output-schemas it still drops them)",
    )
    pp.add_argument(
        "--upstream-url", help="an upstream MCP server over streamable HTTP (instead of -- COMMAND)"
    )
    pp.add_argument(
        "--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp, not stdio"
    )
    pp.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS... of the upstream server")
    return ap, {"learn": lp, "check": cp, "explain": ep, "coverage": vp, "proxy": pp}


def main(argv: list[str] | None = None) -> int:
    ap, _ = build_parser()
    args = ap.parse_args(argv)
    return COMMANDS[args.cmd](args)
