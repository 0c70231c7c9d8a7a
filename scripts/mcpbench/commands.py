"""cli-mcp-server (PyPI): shell commands run over an operations folder of logs, CSV exports, configs and code.

Its results are several text blocks without structure: what the command wrote to stdout (counts from ``wc``
and ``grep -c``, ``ls -l`` listings with sizes and dates, log and CSV lines, ``uniq -c`` tallies), what it
wrote to stderr when it wrote anything, and last ``Command completed with return code: N`` (0, 1 for a
``grep`` that found nothing, 2 for a missing file); a command the server refuses is one sentence
(``Security violation: ...``). The server runs only the commands its environment allows (reads, plus
``cp`` and ``mkdir``) inside the folder, pipes and all; a path argument of a plain command is made absolute
before it runs. The folder is made once with fixed modification times and kept as a pristine copy; every
server start begins from it (``cp -a``, times kept). The workload mostly reads; its writes copy files into a
``backup`` folder that no read lists, and a few calls fail as a user's would (a word never logged, a file not
there, a command not allowed).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

# start each session from the pristine folder (times kept): the server then reads and writes its own copy
RESET = 'rm -rf "$1" && cp -a "$0" "$1" && d="$1" && shift && exec env ALLOWED_DIR="$d" "$@"'
ALLOWED = "ls,cat,head,tail,wc,grep,sort,uniq,cut,awk,find,du,cp,mkdir"
ENV = (f"ALLOWED_COMMANDS={ALLOWED}", "ALLOWED_FLAGS=all", "ALLOW_SHELL_OPERATORS=true", "COMMAND_TIMEOUT=20")
LEVELS = ("INFO", "INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG")
COMPONENTS = ("api", "worker", "scheduler", "billing", "export", "auth")
EVENTS = (
    "order {n} placed by customer {m}", "payment {n} settled in {ms} ms", "user {m} signed in",
    "export {n} finished: {k} rows", "retry {k} for job {n} after timeout", "cache miss for item {n}",
    "invoice {n} sent to customer {m}", "job {n} failed: timeout after {k} s", "disk usage at {p}%",
)  # fmt: skip
ITEMS = ("kettle", "lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "blender", "monitor")
STATUS = ("paid", "shipped", "delivered", "cancelled", "refunded")
LOGS = ("app", "worker", "scheduler", "billing", "export", "auth")
WORDS = ("ERROR", "WARN", "timeout", "payment", "export", "signed in", "cache miss", "invoice", "retry")
MISSING = ("PANIC", "segfault", "OOM", "deadlock")


def _log(rng: random.Random, n: int) -> str:
    at = dt.datetime(2025, 6, rng.randrange(1, 25), rng.randrange(24), tzinfo=dt.UTC)
    lines = []
    for _ in range(n):
        at += dt.timedelta(seconds=rng.randrange(1, 600))
        event = rng.choice(EVENTS).format(n=rng.randrange(10_000, 99_999), m=rng.randrange(100, 999),
                                          ms=rng.randrange(5, 3000), k=rng.randrange(1, 50), p=rng.randrange(40, 99))  # fmt: skip
        lines.append(
            f"{at.strftime('%Y-%m-%dT%H:%M:%SZ')} {rng.choice(LEVELS)} [{rng.choice(COMPONENTS)}] {event}"
        )
    return "\n".join(lines) + "\n"


def _orders(rng: random.Random, n: int) -> str:
    rows = ["id,date,customer,item,qty,total,status"]
    for k in range(n):
        day = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(300))
        qty = rng.randrange(1, 9)
        rows.append(f"{20_001 + k},{day.isoformat()},{rng.choice(FIRST)} {rng.choice(LAST)},{rng.choice(ITEMS)},"
                    f"{qty},{qty * rng.uniform(4, 250):.2f},{rng.choice(STATUS)}")  # fmt: skip
    return "\n".join(rows) + "\n"


def _stock(rng: random.Random) -> str:
    rows = ["sku,item,warehouse,on_hand,reorder_at"]
    for item in ITEMS:
        for wh in rng.sample(("LDS", "MAN", "BRS", "GLA"), rng.randrange(1, 4)):
            rows.append(
                f"SKU-{rng.randrange(1000, 9999)},{item},{wh},{rng.randrange(0, 400)},{rng.randrange(5, 60)}"
            )
    return "\n".join(rows) + "\n"


def _config(rng: random.Random) -> str:
    return (f"[server]\nhost = 127.0.0.1\nport = {rng.randrange(8000, 9000)}\nworkers = {rng.randrange(1, 9)}\n\n"
            f"[limits]\nmax_upload_mb = {rng.randrange(5, 200)}\ntimeout_s = {rng.randrange(5, 120)}\n\n"
            f"[owner]\nname = {rng.choice(FIRST)} {rng.choice(LAST)}\n")  # fmt: skip


def _code(rng: random.Random, name: str) -> str:
    lines = [f'"""{name.capitalize()} jobs."""', "", "import datetime", ""]
    for verb in rng.sample(
        ("load", "save", "send", "count", "retry", "export", "check"), rng.randrange(2, 5)
    ):
        lines += ["", f"def {verb}_{name}(ids, limit={rng.randrange(10, 500)}):",
                  f"    # TODO({rng.choice(FIRST).lower()}): batch by {rng.randrange(10, 100)}",
                  "    return [i for i in ids if i < limit]", ""]  # fmt: skip
    return "\n".join(lines)


def commands_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "ops.pristine", work / "ops"
    files: dict[str, str] = {}
    for name in LOGS:
        files[f"logs/{name}.log"] = _log(rng, rng.randrange(30, 160))
    files["data/orders.csv"] = _orders(rng, rng.randrange(120, 240))
    files["data/refunds.csv"] = _orders(rng, rng.randrange(10, 40))
    files["data/stock.csv"] = _stock(rng)
    files["config/app.ini"] = _config(rng)
    files["config/crontab"] = "".join(f"{rng.randrange(60)} {rng.randrange(24)} * * * run {job}\n"
                                      for job in rng.sample(LOGS, 4))  # fmt: skip
    for name in ("billing", "export", "notify"):
        files[f"src/{name}.py"] = _code(rng, name)
    files["README.md"] = (
        f"# Operations\n\nOwner: {rng.choice(FIRST)} {rng.choice(LAST)}\nOn call: {rng.choice(FIRST)}\n"
    )
    stamp = dt.datetime(2025, 7, 1, 8, 0, tzinfo=dt.UTC).timestamp()
    for rel, text in files.items():
        path = pristine / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        stamp += rng.randrange(600, 90_000)
        os.utime(path, (stamp, stamp))
    (pristine / "backup").mkdir()
    for folder in ("logs", "data", "config", "src", "backup"):
        os.utime(pristine / folder, (stamp, stamp))
    shutil.copytree(pristine, live)  # for a first look before any server start; each start replaces it
    facts: dict[str, Any] = {
        "files": {rel: len(text.splitlines()) for rel, text in files.items()},
        "copies": 0,
    }
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *ENV, *binary], facts)


def _read(rng: random.Random, files: dict[str, int]) -> str:
    logs = sorted(f for f in files if f.startswith("logs/"))
    csvs = sorted(f for f in files if f.endswith(".csv"))
    log, csv = rng.choice(logs), rng.choice(csvs)
    word = rng.choice(WORDS)
    r = rng.random()
    if r < 0.1:
        return f"wc {rng.choice(('-l', '-w', '-c', '-lw'))} " + " ".join(
            rng.sample(logs + csvs, rng.randrange(1, 5))
        )
    if r < 0.2:
        return f"grep -c '{word}' " + " ".join(rng.sample(logs, rng.randrange(1, 4)))
    if r < 0.28:
        return f"grep -n '{word}' {log} | head -n {rng.randrange(1, 8)}"
    if r < 0.36:
        return f"tail -n {rng.randrange(1, 25)} {log}"
    if r < 0.42:
        return f"head -n {rng.randrange(2, 25)} {csv}"
    if r < 0.5:
        flags = rng.choice(("", "h", "S", "r", "t", "tr", "Sr", "a", "ah"))
        return f"ls -l{flags} " + " ".join(rng.sample(("logs", "data", "config", "src"), rng.randrange(1, 3)))
    if r < 0.54:
        return f"ls -l --time-style=long-iso {rng.choice(('logs', 'data', 'src'))}"
    if r < 0.62:
        table, field = rng.choice((("data/orders.csv", (3, 4, 5, 7)), ("data/refunds.csv", (4, 5, 7)),
                                   ("data/stock.csv", (2, 3))))  # fmt: skip
        return f"cut -d, -f{rng.choice(field)} {table} | sort | uniq -c | sort -rn | head -n {rng.randrange(2, 9)}"
    if r < 0.68:
        fields = rng.choice(("$2", "$3", "$2, $3"))
        return f"awk '{{print {fields}}}' {log} | sort | uniq -c | sort -rn | head -n {rng.randrange(3, 12)}"
    if r < 0.74:
        # no '>' nor ';' in a program: the server would read them as a redirection and a command's end
        if csv == "data/stock.csv":
            return f"awk -F, '{{s += ${rng.choice((4, 5))}}} END {{print NR - 1, s}}' {csv}"
        status = rng.choice(STATUS)
        return f'awk -F, \'$7 == "{status}" {{n++}} $7 == "{status}" {{s += $6}} END {{print n, s}}\' {csv}'
    if r < 0.8:
        key = rng.choice(("-k6", "-k5", "-k2"))
        return f"sort -t, {key} -n {csv} | tail -n {rng.randrange(1, 6)}"
    if r < 0.85:
        if rng.random() < 0.4:
            return f"cat {rng.choice(('config/app.ini', 'config/crontab', 'README.md'))}"
        code = rng.choice(("src/billing.py", "src/export.py", "src/notify.py"))
        return f"grep -n {rng.choice(('def', 'TODO', 'return', 'limit'))} {code}"
    if r < 0.9:
        return f"find {rng.choice(('logs', 'data', 'src', 'config'))} -type f -size +{rng.randrange(0, 9)}k | sort"
    if r < 0.94:
        return "du -b " + " ".join(rng.sample(logs + csvs, rng.randrange(1, 4)))
    if r < 0.97:
        return f"grep -i '{rng.choice(ITEMS)}' data/orders.csv | grep -c '{rng.choice(STATUS)}'"
    return f"grep -c '{rng.choice(MISSING)}' {log}"  # nothing found: 0, return code 1


def commands_call(rng: random.Random, fx: Fixture) -> Call:
    files: dict[str, int] = fx.facts["files"]
    r = rng.random()
    if r < 0.01:
        return "show_security_rules", {}
    if r < 0.06:  # a copy into the backup folder (no output but the return code)
        fx.facts["copies"] += 1
        source = rng.choice(sorted(files))
        target = f"backup/{Path(source).stem}-{fx.facts['copies']}{Path(source).suffix}"
        return "run_command", {"command": f"cp {source} {target}"}
    if r < 0.08:
        return "run_command", {"command": f"mkdir -p backup/2025-{rng.randrange(1, 13):02d}"}
    if r < 0.095:  # a file that is not there: stderr and return code 1
        return "run_command", {"command": f"head -n 3 data/{rng.choice(('returns', 'payroll', 'leads'))}.csv"}
    if r < 0.105:  # a command not allowed: refused in one sentence
        return "run_command", {
            "command": rng.choice(("rm data/refunds.csv", "touch logs/new.log", "chmod 600 README.md"))
        }
    return "run_command", {"command": _read(rng, files)}
