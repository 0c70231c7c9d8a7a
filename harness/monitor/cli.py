"""The experiment's command line: ``outcome-monitor``'s (``outcome_monitor.cli.main``) plus the worlds.

    python -m harness.monitor learn --env NAME [--domain D] [--sources traces,database,schemas] [--fold K | --all-folds] --out PATH
    python -m harness.monitor learn --input TRACES.jsonl [--fold K | --all-folds] --out FILE
    python -m harness.monitor check --registry FILE --input IN.jsonl --output OUT.jsonl [--variant full] [--env WORLD]
    python -m harness.monitor explain --registry FILE [--tool NAME] [--fold K]
    python -m harness.monitor coverage --env NAME [--registry FILE] [--tool NAME] [--json]
    python -m harness.monitor proxy [--record FILE] [--registry FILE] [--delivery immediate|deferred] -- CMD ARGS...

``learn --env`` uses the world's own contract sources (``contract_sources``: the ones its studies
use, built by ``harness.monitor.sources`` as the run's ``harness.run.registries`` does); ``--sources``
overrides them. A cross-fit file (``--all-folds``) checks each row with the registry of its
workflow's fold.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from outcome_monitor.cli import main as lib
from outcome_monitor.receipts.monitor import Monitor
from outcome_monitor.registry import Registry

from harness.monitor.crossfit import CROSSFIT_KIND, CrossFit, build_crossfit, build_fold, workflow_of


def _traces(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.input:
        return list(lib.read_jsonl(args.input, args.skip_bad_lines))
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
    if bool(args.env) == bool(args.input):
        raise SystemExit("error: learn needs one of --env NAME or --input TRACES.jsonl")
    if args.fold is not None and args.all_folds:
        raise SystemExit("error: --fold and --all-folds: give one")
    sources = _sources(args, _world(args.env, world_options(args))[0] if args.env else None)
    shared = _shared_rules(args, sources)
    use_traces = bool(args.input) or "traces" in sources
    rows = _traces(args) if use_traces else []
    t0 = time.perf_counter()
    if not use_traces:
        if shared is None:
            raise SystemExit("error: no contract source to learn from")
        shared.save(args.out)
        lib.say(
            f"{shared.n_rules} rules over {len(shared.tools())} tools from {','.join(sources)} -> {args.out}"
        )
        return 0
    if args.all_folds:
        cf = build_crossfit(rows, args.folds, args.seed, schema_only=args.schema_only)
        if shared is not None:
            cf.registries = [r.merged(shared) for r in cf.registries]
        cf.save(args.out)
        took = time.perf_counter() - t0
        lib.say(
            f"{len(rows)} trace rows, {len(cf.assignment)} workflows -> {args.folds} registries, "
            f"{cf.n_rules} rules ({[r.n_rules for r in cf.registries]}) in {took:.2f}s -> {args.out}"
        )
        return 0
    if args.fold is not None:
        if args.schema_only:
            raise SystemExit("--schema-only with --fold: use --all-folds")
        reg = build_fold(rows, args.fold, args.folds, args.seed)
    else:
        reg = lib.learn_rows(rows, args, args.input or args.env)
    lib.say_set_aside(reg.meta.get("set_aside"))
    if shared is not None:
        reg = reg.merged(shared)
    reg.save(args.out)
    lib.say_held_back(reg, args.out)
    took = time.perf_counter() - t0
    lib.say(
        f"{len(rows)} trace rows + {','.join(s for s in sources if s != 'traces') or 'no other source'} -> "
        f"{reg.n_rules} rules over {len(reg.tools())} tools in {took:.2f}s -> {args.out}"
    )
    return 0


def load_any(path: str) -> Registry | CrossFit:
    """A registry or cross-fit file (one line for anything unreadable)."""
    loaded: Registry | CrossFit = lib.load_registry_file(path, {CROSSFIT_KIND: CrossFit.from_json})
    return loaded


def _one(loaded: Registry | CrossFit, fold: int) -> Registry:
    return loaded.registries[fold] if isinstance(loaded, CrossFit) else loaded


def cmd_check(args: argparse.Namespace) -> int:
    loaded = load_any(args.registry)
    catalog = _world(args.env, world_options(args))[1].tool_specs() if args.env else {}
    monitors: dict[int, Monitor] = {}

    def monitor_for(row: dict[str, Any]) -> Monitor:
        k = loaded.fold(workflow_of(row)) if isinstance(loaded, CrossFit) else 0
        return monitors.setdefault(k, Monitor(_one(loaded, k), catalog, args.variant))

    n, fired = lib.check_rows(lib.read_jsonl(args.input, args.skip_bad_lines), monitor_for, args.output)
    lib.say(f"{n} results checked, {fired} with violations -> {args.output}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    return lib.explain(_one(load_any(args.registry), args.fold), args.tool)


def cmd_coverage(args: argparse.Namespace) -> int:
    """Per tool, the result paths of the world's clean traces (or ``--input``) that carry no rule, and why."""
    if not args.env:
        return lib.cmd_coverage(args)
    plugin, env = _world(args.env, world_options(args))
    sources = _sources(args, plugin)
    try:
        rows = [dict(r) for r in plugin.clean_traces(env)]
    except NotImplementedError as exc:
        raise SystemExit(f"coverage --env {args.env}: {exc}") from None
    if args.registry:
        reg = _one(load_any(args.registry), args.fold)
    else:
        from harness.monitor.sources import world_registry

        reg = world_registry(plugin, env, sources, traces=rows)
    return lib.print_coverage(reg, rows, args)


def _world_arguments(p: argparse.ArgumentParser, env_help: str) -> None:
    p.add_argument("--env", help=env_help)
    p.add_argument(
        "--domain", help="with --env: the world's domain (its make's option domain, suite or category)"
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="with --env: an option of the world's make (repeatable)",
    )


def main(argv: list[str] | None = None) -> int:
    ap, subs = lib.build_parser("python -m harness.monitor")
    lp = subs["learn"]
    _world_arguments(lp, "a discovered world (python -m environments list): its contract sources")
    lp.add_argument("--fold", type=int, help="registry for fold K (trained on the other folds)")
    lp.add_argument("--all-folds", action="store_true", help="all cross-fit registries in one file")
    lp.add_argument("--folds", type=int, default=5)
    lp.add_argument("--seed", type=int, default=0)
    lp.add_argument(
        "--sources",
        help="comma list of traces, schemas, database (default: the world's own contract sources; "
        "with --input: traces)",
    )
    _world_arguments(subs["check"], "a registered world: its tool catalog gives the recovery tools")
    subs["explain"].add_argument("--fold", type=int, default=0, help="which registry of a cross-fit file")
    vp = subs["coverage"]
    _world_arguments(vp, "the world whose clean traces give the result paths (instead of --input)")
    vp.add_argument("--sources", help="with no --registry: comma list of traces, schemas, database")
    vp.add_argument("--fold", type=int, default=0, help="which registry of a cross-fit file")
    args = ap.parse_args(argv)
    commands = {
        **lib.COMMANDS,
        "learn": cmd_learn,
        "check": cmd_check,
        "explain": cmd_explain,
        "coverage": cmd_coverage,
    }
    return commands[args.cmd](args)
