"""Command line of the monitor: ``learn``, ``check``, ``explain``, ``coverage`` and ``proxy`` (see ``__main__``).

    python -m harness.monitor learn --env NAME [--sources traces,database,schemas] [--fold K | --all-folds] --out PATH
    python -m harness.monitor learn --input TRACES.jsonl [--fold K | --all-folds] --out FILE
    python -m harness.monitor check --registry FILE --input IN.jsonl --output OUT.jsonl [--variant full] [--env WORLD]
    python -m harness.monitor explain --registry FILE [--tool NAME]
    python -m harness.monitor coverage --env NAME [--registry FILE] [--tool NAME] [--json]
    python -m harness.monitor proxy [--record FILE] [--registry FILE] [--delivery immediate|deferred] -- CMD ARGS...

``learn --env`` uses the world's own contract sources (``contract_sources``: the ones its studies
use, built by ``harness.monitor.sources`` as the run's ``harness.run.registries`` does); ``--sources``
overrides them.

A cross-fit file (``--all-folds``) checks each row with the registry of its workflow's fold.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness.monitor.crossfit import CROSSFIT_KIND, CrossFit, build_crossfit, build_fold, workflow_of
from harness.monitor.receipt import VARIANTS, Monitor, annotate_stream
from harness.monitor.registry import Registry, learn, learn_schema_only


def read_jsonl(path: str) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL file; a line that is not a JSON object stops with one line naming the file
    and the line, and a missing or unreadable file with one line too."""
    try:
        fh = open(path, encoding="utf-8") if path != "-" else sys.stdin
    except OSError as exc:
        raise SystemExit(f"error: cannot read {path}: {exc.strerror or exc}") from None
    with fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise SystemExit(f"error: {path}:{i} is not JSON ({exc}); mend or drop that line") from None
            if not isinstance(row, dict):
                raise SystemExit(
                    f"error: {path}:{i} is not a JSON object (a row is {{tool, arguments, result}})"
                )
            yield row


def _traces(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.input:
        return list(read_jsonl(args.input))
    plugin, env = _world(args.env, world_options(args))
    try:
        return [dict(r) for r in plugin.clean_traces(env)]
    except NotImplementedError as exc:
        raise SystemExit(f"learn --env {args.env}: {exc}; pass --input TRACES.jsonl") from None


_WORLDS: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[Any, Any]] = {}
# the option that names a world's domain, by the name its ``make`` gives it
DOMAIN_OPTIONS = ("domain", "suite", "category")


def world_options(args: argparse.Namespace) -> dict[str, str]:
    """``--domain X`` (the world's own domain option: a world's domain, suite or
    category) and every ``--option KEY=VALUE``."""
    out: dict[str, str] = {}
    for item in getattr(args, "option", None) or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise SystemExit(f"error: --option {item!r}: write it KEY=VALUE (e.g. --option domain=airline)")
        out[key] = value
    domain = getattr(args, "domain", None)
    if domain:
        import inspect

        from core.worlds import UnknownEnvironmentError, get_plugin

        try:
            plugin = get_plugin(args.env)
        except UnknownEnvironmentError as exc:
            raise SystemExit(f"error: {exc.args[0] if exc.args else exc}") from None
        names = inspect.signature(plugin.make).parameters
        key = next((k for k in DOMAIN_OPTIONS if k in names), None)
        if key is None:
            raise SystemExit(
                f"error: --domain: the world {args.env!r} has no domain option; it takes {sorted(names)}"
            )
        out[key] = domain
    return out


def _world(name: str, options: dict[str, str] | None = None) -> tuple[Any, Any]:
    """The plugin and one environment of a world (built once per command), made with ``options``."""
    from core.worlds import UnknownEnvironmentError, get_plugin

    key = (name, tuple(sorted((options or {}).items())))
    if key not in _WORLDS:
        try:
            plugin = get_plugin(name)
            _WORLDS[key] = plugin, plugin.make(**(options or {}))
        except UnknownEnvironmentError as exc:
            raise SystemExit(f"error: {exc.args[0] if exc.args else exc}") from None
        except Exception as exc:  # a world's own error (missing data, a bad option): one line
            opts = " ".join(f"{k}={v}" for k, v in (options or {}).items())
            where = f"{name} ({opts})" if opts else name
            raise SystemExit(
                f"error: the world {where} cannot be made: {exc.args[0] if exc.args else exc}"
            ) from None
    return _WORLDS[key]


def _sources(args: argparse.Namespace, plugin: Any | None) -> tuple[str, ...]:
    """``--sources``, else the world's own contract sources, else (``--input``) traces only."""
    from harness.monitor.sources import check_sources

    if args.sources:
        try:
            return check_sources(s for s in args.sources.split(",") if s)
        except ValueError as exc:
            raise SystemExit(f"error: {exc}") from None
    return tuple(plugin.contract_sources) if plugin is not None else ("traces",)


def _shared_rules(args: argparse.Namespace, sources: tuple[str, ...]) -> Registry | None:
    """Rules from the world's non-trace sources (its result schemas, its public database)."""
    if not [s for s in sources if s != "traces"]:
        return None
    if not args.env:
        raise SystemExit("--sources schemas/database need --env NAME (the world that offers them)")
    from harness.monitor.sources import shared_registry

    plugin, env = _world(args.env, world_options(args))
    try:
        return shared_registry(plugin, env, sources)
    except NotImplementedError as exc:
        raise SystemExit(f"learn --env {args.env}: {exc}; pass --sources") from None


def cmd_learn(args: argparse.Namespace) -> int:
    sources = _sources(args, _world(args.env, world_options(args))[0] if args.env else None)
    shared = _shared_rules(args, sources)
    use_traces = bool(args.input) or "traces" in sources
    rows = _traces(args) if use_traces else []
    t0 = time.perf_counter()
    if not use_traces:
        if shared is None:
            raise SystemExit("error: no contract source to learn from")
        shared.save(args.out)
        print(
            f"{shared.n_rules} rules over {len(shared.tools())} tools from {','.join(sources)} -> {args.out}",
            file=sys.stderr,
        )
        return 0
    if args.all_folds:
        cf = build_crossfit(rows, args.folds, args.seed, schema_only=args.schema_only)
        if shared is not None:
            cf.registries = [r.merged(shared) for r in cf.registries]
        cf.save(args.out)
        took = time.perf_counter() - t0
        print(
            f"{len(rows)} trace rows, {len(cf.assignment)} workflows -> {args.folds} registries, "
            f"{cf.n_rules} rules ({[r.n_rules for r in cf.registries]}) in {took:.2f}s -> {args.out}",
            file=sys.stderr,
        )
        return 0
    if args.fold is not None:
        if args.schema_only:
            raise SystemExit("--schema-only with --fold: use --all-folds")
        reg = build_fold(rows, args.fold, args.folds, args.seed)
    else:
        if not rows:
            raise SystemExit(f"error: {args.input or args.env}: no trace rows to learn from")
        reg = learn_schema_only(rows) if args.schema_only else learn(rows, vocabulary=args.vocabulary)
    _say_set_aside(reg.meta.get("set_aside"))
    held = reg.meta.get("held_back") or []
    if shared is not None:
        reg = reg.merged(shared)
    reg.save(args.out)
    for h in held[:10]:  # the recording's support bound: domains kept out, each named
        print(
            f"held back: {h['tool']}: {h['rule']} ({h['values']} values in {h['n']}): {h['reason']}",
            file=sys.stderr,
        )
    if len(held) > 10:
        print(
            f"held back: {len(held) - 10} more domains (all under meta.held_back in {args.out})",
            file=sys.stderr,
        )
    took = time.perf_counter() - t0
    print(
        f"{len(rows)} trace rows + {','.join(s for s in sources if s != 'traces') or 'no other source'} -> "
        f"{reg.n_rules} rules over {len(reg.tools())} tools in {took:.2f}s -> {args.out}",
        file=sys.stderr,
    )
    return 0


def _say_set_aside(set_aside: dict[str, Any] | None) -> None:
    """Rows set aside as errors, per tool: flagged by the server, or errors by their content."""
    if not set_aside:
        return
    for kind, words in (("flagged", "sent as errors"), ("inferred", "errors by their content")):
        counts = set_aside.get(kind) or {}
        if counts:
            per_tool = ", ".join(f"{t} {n}" for t, n in counts.items())
            print(f"set aside {sum(counts.values())} rows {words}: {per_tool}", file=sys.stderr)
    for tool, why in (set_aside.get("examples") or {}).items():
        print(f"  e.g. {tool}: {why}", file=sys.stderr)


def load_any(path: str) -> Registry | CrossFit:
    """A registry or cross-fit file; one that is missing, not JSON, of another format version or
    otherwise unreadable stops the command with one line naming the file."""
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"error: cannot read the registry {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SystemExit(f"error: the registry {path} is not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise SystemExit(f"error: the registry {path} is not a registry (a JSON object with format_version)")
    try:
        return CrossFit.from_json(obj) if obj.get("kind") == CROSSFIT_KIND else Registry.from_json(obj)
    except (ValueError, KeyError, TypeError) as exc:
        # another format version, or a file that is JSON but no registry: learn it again with this version
        raise SystemExit(f"error: the registry {path} cannot be read: {exc}; learn it again") from None


def cmd_check(args: argparse.Namespace) -> int:
    loaded = load_any(args.registry)
    catalog = {}
    if args.env:
        catalog = _world(args.env, world_options(args))[1].tool_specs()
    n = fired = 0
    with open(args.output, "w", encoding="utf-8") as out:
        monitors: dict[int, Monitor] = {}
        for row in read_jsonl(args.input):
            if isinstance(loaded, CrossFit):
                k = loaded.fold(workflow_of(row))
                mon = monitors.setdefault(k, Monitor(loaded.registries[k], catalog, args.variant))
            else:
                mon = monitors.setdefault(0, Monitor(loaded, catalog, args.variant))
            for res in annotate_stream(mon, [row]):
                out.write(json.dumps(res, ensure_ascii=False, default=repr) + "\n")
                n += 1
                fired += bool(res["violations"])
    print(f"{n} results checked, {fired} with violations -> {args.output}", file=sys.stderr)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    loaded = load_any(args.registry)
    reg = loaded.registries[args.fold] if isinstance(loaded, CrossFit) else loaded
    if args.tool and args.tool not in reg.rules:
        print(f"no rules for tool '{args.tool}'", file=sys.stderr)
        return 1
    by_source: dict[str, int] = {}
    for rs in [reg.rules.get(args.tool, [])] if args.tool else reg.rules.values():
        for r in rs:
            by_source[r.source] = by_source.get(r.source, 0) + 1
    print("rules by source: " + ", ".join(f"{s} {n}" for s, n in sorted(by_source.items())))
    print("\n".join(reg.explain(args.tool)))
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Per tool, the result paths of the world's clean traces that carry no rule, and why."""
    from harness.monitor.coverage import path_coverage

    plugin, env = _world(args.env, world_options(args))
    sources = _sources(args, plugin)
    try:
        rows = [dict(r) for r in plugin.clean_traces(env)]
    except NotImplementedError as exc:
        raise SystemExit(f"coverage --env {args.env}: {exc}") from None
    if args.registry:
        loaded = load_any(args.registry)
        reg = loaded.registries[args.fold] if isinstance(loaded, CrossFit) else loaded
    else:
        from harness.monitor.sources import world_registry

        reg = world_registry(plugin, env, sources, traces=rows)
    cov = path_coverage(reg, rows)
    if args.json:
        print(json.dumps(cov.to_json(args.tool), indent=1, ensure_ascii=False, default=repr))
    else:
        print("\n".join(cov.lines(args.tool)))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m harness.monitor", description="outcome monitor: learn, check, explain"
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("learn", help="mine contracts from clean traces")
    src = lp.add_mutually_exclusive_group(required=True)
    src.add_argument("--env", help="a discovered world (python -m environments list): its contract sources")
    src.add_argument(
        "--input", help="trace JSONL ({tool, arguments, result[, status, workflow_id]} per line)"
    )
    which = lp.add_mutually_exclusive_group()
    which.add_argument("--fold", type=int, help="registry for fold K (trained on the other folds)")
    which.add_argument("--all-folds", action="store_true", help="all cross-fit registries in one file")
    lp.add_argument("--folds", type=int, default=5)
    lp.add_argument("--seed", type=int, default=0)
    lp.add_argument("--schema-only", action="store_true", help="required fields and types only")
    lp.add_argument(
        "--sources",
        help="comma list of traces, schemas, database (default: the world's own contract sources; "
        "with --input: traces)",
    )
    lp.add_argument(
        "--vocabulary",
        choices=("wide", "paper"),
        default="wide",
        help="wide (default): errors set aside, text read, per-tool rules and the text, shape and "
        "collection classes; paper: the paper's seven classes as its studies learn them",
    )
    lp.add_argument("--out", required=True)
    lp.add_argument(
        "--domain",
        help="with --env: the world's domain (its make's option domain, suite or category)",
    )
    lp.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="with --env: an option of the world's make (repeatable)",
    )
    cp = sub.add_parser("check", help="check results and render receipts")
    cp.add_argument("--registry", required=True)
    cp.add_argument("--input", required=True)
    cp.add_argument("--output", required=True)
    cp.add_argument("--variant", choices=VARIANTS, default="full")
    cp.add_argument("--env", help="a registered world: its tool catalog gives the recovery tools")
    cp.add_argument(
        "--domain",
        help="with --env: the world's domain (its make's option domain, suite or category)",
    )
    cp.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="with --env: an option of the world's make (repeatable)",
    )
    ep = sub.add_parser("explain", help="the rules in plain words")
    ep.add_argument("--registry", required=True)
    ep.add_argument("--tool")
    ep.add_argument("--fold", type=int, default=0, help="which registry of a cross-fit file")
    vp = sub.add_parser("coverage", help="result paths that carry no rule, per tool, and why")
    vp.add_argument("--env", required=True, help="the world whose clean traces give the result paths")
    vp.add_argument("--registry", help="a registry or cross-fit file (default: learned as learn --env does)")
    vp.add_argument("--sources", help="with no --registry: comma list of traces, schemas, database")
    vp.add_argument("--fold", type=int, default=0, help="which registry of a cross-fit file")
    vp.add_argument("--tool")
    vp.add_argument(
        "--domain",
        help="with --env: the world's domain (its make's option domain, suite or category)",
    )
    vp.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="with --env: an option of the world's make (repeatable)",
    )
    vp.add_argument("--json", action="store_true")
    pp = sub.add_parser("proxy", help="the monitor in front of an MCP server (stdio): record and check")
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
    args = ap.parse_args(argv)
    if args.cmd == "proxy":
        from harness.monitor.proxy import main as proxy_main

        args.command = args.command[1:] if args.command[:1] == ["--"] else args.command
        return proxy_main(args)
    return {"learn": cmd_learn, "check": cmd_check, "explain": cmd_explain, "coverage": cmd_coverage}[
        args.cmd
    ](args)
