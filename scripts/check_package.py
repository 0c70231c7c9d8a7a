"""The outcome-monitor library as a user gets it: built, installed alone into a fresh venv, and run there.

    python scripts/check_package.py [--keep DIR]        (make package-check)

1. ``python -m build`` makes the sdist and, from it, the wheel of a copy of ``outcome-monitor/`` (the
   checkout's files as a clone has them), so nothing is built inside the checkout; ``twine check
   --strict`` reads both. The checkout's ``outcome-monitor/`` is unchanged afterwards (``git status
   --porcelain --ignored``: no new ``build/``, ``dist/`` or ``*.egg-info``).
2. The wheel goes into a fresh venv that holds no distribution at all (``venv --without-pip``; this
   checkout's pip installs into it from outside, with no index): it must be the venv's one distribution
   afterwards, with one top-level package, ``outcome_monitor``, and the ``outcome-monitor`` command.
3. There, the package README's Python lines run with ``clean_rows`` and ``result`` supplied (they fire
   on a faulted result and on none of the held-out clean ones), and the proxy without the ``mcp`` extra
   is one line naming ``pip install "outcome-monitor[mcp]"``.
4. ``requirements/package-check.txt`` (hash-locked: pytest, hypothesis, the ``mcp`` extra's SDK) joins
   the venv, the extra is resolved against it with no index, and the library's own tests
   (``outcome-monitor/tests``, copied beside the built package, never on the checkout's ``src``) run.
5. The README's three proxy lines run with a stock MCP client (``ClientSession.call_tool``) against
   ``mcp-server-time`` from ``.cache/mcp-servers`` (``make mcp-servers``; no network): record, learn,
   check. Held-out clean calls get no receipt; the same calls through the project's fault shim
   (``scripts/mcpbench/shim.py``, faults that break the server's declared ``outputSchema``) reach the
   client as the raw result with a receipt, never as an exception. An upstream that cannot start is one
   line and a non-zero exit.

Each step prints one line with its time; a failure is one line naming the step and exit 1.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = "outcome-monitor"
PACKAGE = "outcome_monitor"
LOCK = ROOT / "requirements" / "package-check.txt"
SHIM = ROOT / "scripts" / "mcpbench" / "shim.py"
TIME_SERVER = ROOT / ".cache" / "mcp-servers" / "bin" / "mcp-server-time"
# the faults of the shim that break mcp-server-time's declared outputSchema (a field, a type, the whole result)
SCHEMA_FAULTS = "drop_field,wrong_type,error_page"
# issue 45's goal: a stock client gets the raw result and a receipt on at least this share of faulted calls
GOAL = 0.9
SAY_MCP_EXTRA = 'pip install "outcome-monitor[mcp]"'


class CheckFailed(Exception):
    """One step's failure, said in one line."""


def run(cmd: list[str | Path], *, cwd: Path | None = None, ok: bool = True, timeout: float = 600) -> str:
    """``cmd``'s stdout; with ``ok`` a non-zero exit fails the check with the command's last lines."""
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    if ok and proc.returncode != 0:
        tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
        raise CheckFailed(
            f"{Path(str(cmd[0])).name} {' '.join(str(c) for c in cmd[1:3])} ... exit {proc.returncode}: {tail}"
        )
    return proc.stdout


# what a build leaves in a source tree; other changes to the checkout (a concurrent edit) are not the check's
LEFTOVER = re.compile(r"(^|/)(build|dist)(/|$)|\.egg-info(/|$)")


def git_status() -> str:
    return run(["git", "status", "--porcelain", "--ignored", "--", LIBRARY], cwd=ROOT)


def copy_tree(dest: Path) -> Path:
    """The library (and the docs page its tests run) as a clone has them: tracked and untracked files
    git does not ignore, never a build's or an editable install's leftovers."""
    listed = run(["git", "ls-files", "-co", "--exclude-standard", "--", LIBRARY, "docs/monitor"], cwd=ROOT)
    for rel in listed.splitlines():
        src = ROOT / rel
        if src.is_file():  # a file deleted in the work tree but still in the index is not copied
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest / LIBRARY


def build(tree: Path, dist: Path) -> tuple[Path, Path]:
    # --no-isolation: the build runs on .venv's hash-locked setuptools, fetching nothing unchecked
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, tree])
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    run([sys.executable, "-m", "twine", "check", "--strict", wheel, sdist])
    return wheel, sdist


def check_wheel(wheel: Path) -> str:
    """The wheel's top level is the package and its metadata; every requirement is an extra's."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = z.read(meta).decode()
    top = {n.split("/")[0] for n in names}
    info = meta.split("/")[0]
    if top != {PACKAGE, info}:
        raise CheckFailed(f"the wheel's top level is {sorted(top)}, not {PACKAGE} and {info}")
    if f"{PACKAGE}/py.typed" not in names:
        raise CheckFailed(f"the wheel has no {PACKAGE}/py.typed")
    required = [r for r in re.findall(r"^Requires-Dist: (.+)$", metadata, re.M) if "extra ==" not in r]
    if required:
        raise CheckFailed(f"the wheel requires {required}: the library has no required dependency")
    extras = sorted(re.findall(r"^Provides-Extra: (.+)$", metadata, re.M))
    return f"extras {', '.join(extras)}; {len(names)} files"


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def pip_into(venv: Path, *args: str | Path) -> str:
    """This checkout's pip, installing into ``venv`` (which has none of its own)."""
    return run([sys.executable, "-m", "pip", "--python", venv_python(venv), *args])


DISTRIBUTIONS = (
    "import importlib.metadata as m; print('\\n'.join(sorted(d.metadata['Name'] for d in m.distributions())))"
)


def install_wheel(venv: Path, wheel: Path) -> str:
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    before = run([venv_python(venv), "-c", DISTRIBUTIONS]).split()
    if before:
        raise CheckFailed(f"the fresh venv already holds {before}")
    pip_into(venv, "install", "-q", "--no-index", wheel)  # no index: a required dependency would fail here
    after = run([venv_python(venv), "-c", DISTRIBUTIONS]).split()
    if after != [LIBRARY]:
        raise CheckFailed(f"installing the wheel gave {after}, not {LIBRARY} alone")
    top = run([venv_python(venv), "-c", TOP_LEVEL]).split()
    if top != [PACKAGE]:
        raise CheckFailed(f"the installed top-level names are {top}, not {PACKAGE}")
    if not (venv / "bin" / LIBRARY).is_file():
        raise CheckFailed(f"the wheel installed no {LIBRARY} command")
    return f"1 distribution ({LIBRARY}), 1 top-level package ({PACKAGE})"


# the installed files' top-level names inside site-packages (the command in bin/ is outside it)
TOP_LEVEL = """
import importlib.metadata as m
files = m.distribution('outcome-monitor').files or []
top = {f.parts[0] for f in files if not f.parts[0].endswith('.dist-info') and f.parts[0] != '..'}
print('\\n'.join(sorted(top)))
"""

IMPORT_MS = """
import time
t = time.perf_counter()
import outcome_monitor
took = (time.perf_counter() - t) * 1000
assert outcome_monitor.__file__.startswith(__import__('sys').prefix), outcome_monitor.__file__
print(f"{took:.1f}")
"""


def import_ms(venv: Path, cwd: Path) -> float:
    """``import outcome_monitor`` in a fresh interpreter, best of 5 (from the venv, not the checkout)."""
    return min(float(run([venv_python(venv), "-c", IMPORT_MS], cwd=cwd)) for _ in range(5))


# The README's Python lines with clean_rows and result supplied: an order tool whose clean results echo
# the id, keep a status from a small set and a positive total; held-out rows are other ids, never learned.
README_DRIVER = r"""
import contextlib, io, json, random, re, sys
readme = open(sys.argv[1], encoding="utf-8").read()
(code,) = re.findall(r"^```python\n(.*?)^```$", readme, re.S | re.M)

def rows(ids, seed):
    rng = random.Random(seed)
    return [{"tool": "get_order", "arguments": {"order_id": i},
             "result": {"order_id": i, "status": rng.choice(["pending", "shipped", "delivered"]),
                        "total": round(rng.uniform(5, 500), 2), "items": rng.randint(1, 5)}} for i in ids]

clean_rows = rows([f"A{i}" for i in range(2, 202)], 0)
held_out = rows(["A1"] * 40, 1)

def readme(result):
    ns = {"clean_rows": clean_rows, "result": result}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md", "exec"), ns)
    return ns["verdict"]

faulted = {**held_out[0]["result"], "total": -held_out[0]["result"]["total"]}
verdict = readme(faulted)
assert verdict.fired and verdict.content["tool_result"] == faulted, verdict
assert verdict.content["outcome_monitor"] == verdict.receipt
fired = [r["result"] for r in held_out if readme(r["result"]).fired]
assert not fired, f"fired on held-out clean results: {fired[:2]}"
print(json.dumps({"rules": [v.rule_class for v in verdict.violations], "held_out": len(held_out)}))
"""


def readme_example(venv: Path, tree: Path, work: Path) -> str:
    driver = work / "readme_driver.py"
    driver.write_text(README_DRIVER, encoding="utf-8")
    out = json.loads(run([venv_python(venv), driver, tree / "README.md"], cwd=work))
    return f"fires on a negative total ({', '.join(out['rules'])}); silent on {out['held_out']} held-out clean results"


def without_mcp(venv: Path, work: Path) -> str:
    proc = subprocess.run(
        [venv / "bin" / LIBRARY, "proxy", "--", sys.executable, "-c", "pass"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = proc.stderr.strip().splitlines()
    if proc.returncode == 0 or len(lines) != 1 or SAY_MCP_EXTRA not in lines[0]:
        raise CheckFailed(f"the proxy without the mcp extra: exit {proc.returncode}, stderr {lines[-3:]}")
    return f"exit {proc.returncode}, one line: {lines[0]}"


def add_check_lock(venv: Path, wheel: Path) -> str:
    pip_into(venv, "install", "-q", "--require-hashes", "-r", LOCK)
    # the user's `pip install "outcome-monitor[mcp]"`, answered by the hash-locked pins already there
    pip_into(venv, "install", "-q", "--no-index", f"{wheel}[mcp]")
    pip_into(venv, "check")
    return f"{len(run([venv_python(venv), '-c', DISTRIBUTIONS]).split())} distributions after {LOCK.name}"


def library_tests(venv: Path, tree: Path) -> str:
    out = run(
        [venv_python(venv), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=tree, ok=False
    )
    last = out.strip().splitlines()[-1] if out.strip() else "(no output)"
    if not re.search(r"\d+ passed", last) or re.search(r"failed|error", last):
        raise CheckFailed(f"the library's tests in the fresh venv: {last}")
    return last.strip("= ")


# A stock MCP client (the SDK's ClientSession.call_tool) in front of `outcome-monitor proxy ...`.
PROXY_DRIVER = r"""
import json, sys
import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Africa/Cairo",
         "America/Sao_Paulo", "Asia/Kolkata", "Europe/London", "Pacific/Auckland"]
PREFIX = "[outcome monitor]"

async def main(command, calls):
    seen = []
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        for k in range(calls):
            zone = ZONES[k % len(ZONES)]
            if k % 3 == 2:
                name, args = "convert_time", {"source_timezone": zone, "time": f"{k % 24:02d}:{k % 60:02d}",
                                              "target_timezone": ZONES[(k * 7 + 3) % len(ZONES)]}
            else:
                name, args = "get_current_time", {"timezone": zone}
            try:
                result = await session.call_tool(name, args)  # the stock call: it validates against listed schemas
            except Exception as exc:  # what a stock client meets instead of a receipt
                seen.append({"tool": name, "raised": f"{type(exc).__name__}: {exc}"[:200]})
                continue
            texts = [getattr(b, "text", "") for b in result.content]
            seen.append({"tool": name, "error": bool(result.is_error), "blocks": len(texts),
                         "receipt": any(t.startswith(PREFIX) for t in texts),
                         "raw_first": bool(texts) and not texts[0].startswith(PREFIX),
                         "meta": bool((result.meta or {}).get("outcome_monitor"))})
    print(json.dumps(seen))

calls = int(sys.argv[1])
anyio.run(main, sys.argv[2:], calls)
"""


def readme_proxy_lines(readme: Path) -> list[list[str]]:
    """The README's three ``outcome-monitor`` command lines, split as a shell would, with this machine's
    ``mcp-server-time`` in place of the README's ``uvx mcp-server-time`` (CI has neither uv nor network)."""
    lines = [ln.strip() for ln in readme.read_text(encoding="utf-8").splitlines()]
    commands = [
        shlex.split(ln)
        for ln in lines
        if ln.startswith(f"{LIBRARY} proxy ") or ln.startswith(f"{LIBRARY} learn ")
    ]
    if [c[1] for c in commands] != ["proxy", "learn", "proxy"]:
        raise CheckFailed(
            f"the README's proxy lines are {[' '.join(c) for c in commands]}, not proxy, learn, proxy"
        )
    for c in (commands[0], commands[2]):
        upstream = c[c.index("--") + 1 :]
        if upstream[-1:] != ["mcp-server-time"]:
            raise CheckFailed(f"the README's proxy line {' '.join(c)!r} does not end in mcp-server-time")
        c[c.index("--") + 1 :] = [str(TIME_SERVER)]
    return commands


def proxy_lines(venv: Path, tree: Path, work: Path) -> str:
    """The README's three proxy lines, driven by a stock MCP client where they serve one."""
    if not TIME_SERVER.is_file():
        raise CheckFailed(f"{TIME_SERVER.relative_to(ROOT)} is missing: run `make mcp-servers`")
    record, learn, check = readme_proxy_lines(tree / "README.md")
    driver = work / "proxy_driver.py"
    driver.write_text(PROXY_DRIVER, encoding="utf-8")
    cli, py = str(venv / "bin" / LIBRARY), str(venv_python(venv))

    def client(calls: int, line: list[str]) -> list[dict[str, object]]:
        return json.loads(run([py, driver, str(calls), cli, *line[1:]], cwd=work, timeout=300))

    for left in ("calls.jsonl", "faults.jsonl"):  # both are appended to: a run starts them afresh
        (work / left).unlink(missing_ok=True)
    recorded = client(60, record)
    if any("raised" in c or c["error"] for c in recorded):
        raise CheckFailed(
            f"recording: a clean call failed: {[c for c in recorded if 'raised' in c or c['error']][:1]}"
        )
    run([cli, *learn[1:]], cwd=work)
    registry = learn[learn.index("--out") + 1]
    explained = run([cli, "explain", "--registry", registry], cwd=work)
    if not explained.strip():
        raise CheckFailed("explain printed nothing for the learned registry")
    clean = client(30, check)  # held-out clean calls
    bad = [c for c in clean if "raised" in c or c["error"] or c["receipt"]]
    if bad:
        raise CheckFailed(
            f"held-out clean calls through the proxy: {len(bad)} raised or got a receipt: {bad[:2]}"
        )
    # the same line, each result faulted between the proxy and the server (the shim's log says which)
    cut = check.index("--") + 1
    shim = [
        py,
        str(SHIM),
        "--faults",
        SCHEMA_FAULTS,
        "--seed",
        "0",
        "--log",
        str(work / "faults.jsonl"),
        "--",
    ]
    faulted_calls = client(30, [*check[:cut], *shim, *check[cut:]])
    faults = [json.loads(line) for line in (work / "faults.jsonl").read_text().splitlines()]
    raised = [c for c in faulted_calls if "raised" in c]
    if raised:
        raise CheckFailed(f"the stock client raised on {len(raised)} faulted calls: {raised[0]['raised']}")
    hit = [c for c, f in zip(faulted_calls, faults, strict=True) if f.get("fault")]
    flagged = [c for c in hit if c["receipt"] and c["meta"] and c["raw_first"]]
    if not hit or len(flagged) < GOAL * len(hit):
        raise CheckFailed(
            f"faulted calls: {len(flagged)} of {len(hit)} got the raw result and a receipt (goal {GOAL:.0%})"
        )
    # an upstream that cannot start: one line, a non-zero exit
    dead = subprocess.run([cli, "proxy", "--", str(work / "no-such-server")], cwd=work, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    dead_lines = dead.stderr.strip().splitlines()
    if dead.returncode == 0 or len(dead_lines) != 1:
        raise CheckFailed(f"an upstream that cannot start: exit {dead.returncode}, stderr {dead_lines[-3:]}")
    share = len(flagged) / len(hit)
    return (
        f"{len(recorded)} calls recorded, {len(explained.splitlines())} lines explained; {len(clean)} held-out "
        f"clean calls, 0 receipts; {len(flagged)}/{len(hit)} faulted calls ({share:.0%}) got the raw result and "
        f"a receipt, 0 raised; a missing upstream: exit {dead.returncode}, one line"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--keep", type=Path, help="work in this folder and keep it (default: a temporary one, removed)"
    )
    a = ap.parse_args(argv)
    work = a.keep.resolve() if a.keep else Path(tempfile.mkdtemp(prefix="outcome-monitor-check-"))
    if a.keep:
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    step = "start"
    try:
        before = git_status()
        venv, tree = work / "venv", copy_tree(work / "tree")

        def say(name: str, what: str, since: float) -> None:
            print(f"package-check: {name}: {what} ({time.perf_counter() - since:.1f} s)", flush=True)

        step, t = "build", time.perf_counter()
        wheel, sdist = build(tree, work / "dist")
        say(step, f"{wheel.name}, {sdist.name}; twine check --strict passed", t)
        steps = [
            ("wheel", lambda: check_wheel(wheel)),
            ("fresh venv", lambda: install_wheel(venv, wheel)),
            ("import", lambda: f"import {PACKAGE}: {import_ms(venv, work):.1f} ms (best of 5)"),
            ("README example", lambda: readme_example(venv, tree, work)),
            ("proxy without the extra", lambda: without_mcp(venv, work)),
            ("check lock", lambda: add_check_lock(venv, wheel)),
            ("library tests", lambda: library_tests(venv, tree)),
            ("README proxy lines", lambda: proxy_lines(venv, tree, work)),
        ]
        for step, act in steps:
            t = time.perf_counter()
            say(step, act(), t)
        step = "checkout unchanged"
        left = [e for e in set(git_status().splitlines()) - set(before.splitlines()) if LEFTOVER.search(e)]
        if left:
            raise CheckFailed(f"the check left build output in the checkout's {LIBRARY}/: {sorted(left)[:5]}")
    except (CheckFailed, subprocess.TimeoutExpired) as exc:
        print(f"package-check: {step} failed: {exc}", file=sys.stderr)
        return 1
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"package-check: passed in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
