"""mcp-secret-scrub (PyPI, mcp.server.fastmcp on the SDK 1.x): a platform team's CI build logs, scanned for
credentials that leaked into them and scrubbed before they are shared: scans by type, redactions, masks and hashes,
a full report, the profiles it knows.

Its results are structured content wrapped as ``{"result": {...}}`` (an ``outputSchema`` of an object of any keys)
beside the object itself as indented JSON: an ok flag, findings with a profile's name (``AWS_ACCESS_KEY_ID``,
``GITHUB_PAT``, ``CONNECTION_STRING``), a count, a character offset and a token length, totals and the types as a
list; a scrubbed text with ``[REDACTED:JWT]`` markers, four-character masks or ``[HASH:<16 hex>]`` digests, the types
scrubbed sorted, a count and the mode; a report's scan, scrubbed text, preview cut at 400 characters and advice;
the profiles as a list. The fixture holds no file: a seeded set of build logs (timestamped steps of a pipeline,
durations, test counts, artefact sizes) with made-up credentials of a dozen kinds planted in some of them (none a
real key), that the workload draws from whole or as a run of lines.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

UPPER = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
STEPS = ("checkout", "restore cache", "install dependencies", "lint", "unit tests", "integration tests", "build image",
         "push image", "migrate database", "deploy staging", "smoke tests", "notify")  # fmt: skip
SERVICES = ("orders", "billing", "search", "gateway", "inventory", "notifications")


def _pick(rng: random.Random, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def _leak(rng: random.Random, kind: str) -> str:
    """A made-up credential of one kind, in the line a careless step would print it."""
    if kind == "aws":
        return f"using AWS access key AKIA{_pick(rng, UPPER, 16)} for s3 sync"
    if kind == "aws_secret":
        return f"export AWS_SECRET_ACCESS_KEY={_pick(rng, ALNUM + '/+', 40)}"
    if kind == "github":
        return f"git remote set-url origin https://ghp_{_pick(rng, ALNUM, 36)}@example.invalid/acme/app.git"
    if kind == "slack":
        return f"posting to slack with xoxb-{_pick(rng, string.digits, 12)}-{_pick(rng, ALNUM, 24)}"
    if kind == "jwt":
        return (f"Authorization: Bearer eyJ{_pick(rng, ALNUM, 18)}.eyJ{_pick(rng, ALNUM, 30)}."
                f"{_pick(rng, ALNUM + '_-', 43)}")  # fmt: skip
    if kind == "bearer":
        return f"curl -H 'Authorization: Bearer {_pick(rng, ALNUM, 32)}' https://deploy.example.invalid/hooks"
    if kind == "database":
        scheme = rng.choice(("postgres", "postgresql", "mysql", "redis", "mongodb"))
        return (
            f"DATABASE_URL={scheme}://svc:{_pick(rng, ALNUM, 14)}@db-{rng.randrange(1, 9)}.internal:5432/app"
        )
    if kind == "password":
        return f"db password={_pick(rng, ALNUM, rng.randrange(16, 28))}"
    if kind == "api_key":
        return f"config api_key: '{_pick(rng, ALNUM, rng.randrange(20, 40))}'"
    if kind == "anthropic":
        return f"LLM_KEY=sk-ant-{_pick(rng, ALNUM + '-_', 40)}"
    if kind == "openrouter":
        return f"OPENROUTER=sk-or-v1-{_pick(rng, ALNUM, 48)}"
    body = "\n".join(_pick(rng, ALNUM + "+/", 64) for _ in range(rng.randrange(2, 5)))
    return f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"


KINDS = ("aws", "aws_secret", "github", "slack", "jwt", "bearer", "database", "password", "api_key", "anthropic",
         "openrouter", "private_key")  # fmt: skip


def _log(rng: random.Random, run: int) -> str:
    at = dt.datetime(2026, 3, 2, 8, 0, tzinfo=dt.UTC) + dt.timedelta(hours=run * 5 + rng.randrange(5))
    service = rng.choice(SERVICES)
    lines = [
        f"{at:%Y-%m-%dT%H:%M:%SZ} pipeline #{4100 + run} {service} started by {rng.choice(FIRST).lower()}"
    ]
    steps = STEPS[: rng.randrange(5, len(STEPS) + 1)]
    leaks = rng.sample(KINDS, rng.choice((0, 1, 1, 2, 3)))
    where = {rng.randrange(len(steps)): k for k in leaks}
    for i, step in enumerate(steps):
        at += dt.timedelta(seconds=rng.randrange(5, 400))
        line = f"{at:%Y-%m-%dT%H:%M:%SZ} [{i + 1}/{len(steps)}] {step}"
        if step.endswith("tests"):
            n = rng.randrange(40, 900)
            line += f": {n} passed, {rng.choice((0, 0, 0, 1, 2))} failed, {rng.randrange(0, 12)} skipped"
        elif step == "build image":
            line += f": {service}:{run}.{rng.randrange(10)} {rng.randrange(80, 900)} MB"
        line += f" ({rng.randrange(1, 3000) / 10:.1f}s)"
        lines.append(line)
        if i in where:
            lines.append(_leak(rng, where[i]))
    lines.append(f"{at:%Y-%m-%dT%H:%M:%SZ} pipeline #{4100 + run} finished")
    return "\n".join(lines)


def leaks_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture([*binary], {"logs": [_log(rng, run) for run in range(40)]})


def leaks_call(rng: random.Random, fx: Fixture) -> Call:
    log = rng.choice(fx.facts["logs"])
    if rng.random() < 0.3:  # a run of lines pasted into a ticket
        lines = log.split("\n")
        start = rng.randrange(len(lines))
        log = "\n".join(lines[start : start + rng.randrange(2, 8)])
    r = rng.random()
    if r < 0.34:
        return "scan_text", {"text": log}
    if r < 0.76:
        args: dict[str, object] = {"text": log}
        if rng.random() < 0.7:
            args["mode"] = rng.choice(("redact", "mask", "hash"))
        if rng.random() < 0.3:
            args["keep_label"] = rng.random() < 0.5
        return "scrub_text", args
    if r < 0.97:
        return "report_full", {"text": log}
    return "secret_profiles", {}
