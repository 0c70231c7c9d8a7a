"""One server through the monitor's proxy: record clean calls, learn, check held-out clean calls, check faulted.

The proxy is the project's (``python -m harness.monitor proxy``); the learning is the project's CLI
(``python -m harness.monitor learn --input``); nothing here imports the monitor. The fault shim
(``shim.py``) sits between the proxy and the server; its log says which calls it changed, the proxy and
the monitor never see it.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpbench.client import session
from mcpbench.faults import FAULTS
from mcpbench.servers import ROOT, Server

PY = sys.executable
SHIM = str(Path(__file__).with_name("shim.py"))
PREFIX = "[outcome monitor]"
MISSES_SHOWN = 3  # per server and kind, in --json


def seed_for(seed: int, *parts: str) -> int:
    """A seed per server and purpose, from the run's seed (crc32 of the names: stable, never ``hash()``)."""
    return (seed * 1_000_003 + zlib.crc32(":".join(parts).encode())) % 2**32


@dataclass
class Outcome:
    server: str
    group: str
    forms: str
    present: str | None
    recorded: int = 0
    record_errors: int = 0
    rules: int = 0
    learn_note: str = ""
    clean_calls: int = 0
    repeats: int = 0  # held-out clean calls identical (tool and arguments) to a recorded one
    clean_receipts: list[dict[str, Any]] = field(default_factory=list)
    faulted: dict[str, list[int]] = field(default_factory=dict)  # kind -> [calls faulted, flagged]
    # [faulted, flagged] over the faulted calls that repeat no recorded call (what a recorded answer
    # cannot vouch for)
    novel: list[int] = field(default_factory=lambda: [0, 0])
    untouched: int = 0  # faulted-session calls no fault could apply to
    raw_first_broken: int = 0
    unchecked: int = 0  # results the proxy passed through unchecked (a check that raised), from its stderr
    # kind -> {"flagged": one receipt, "missed": a few misses, each faulted beside its clean result}
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _receipt(result: Any) -> Any:
    return (result.meta or {}).get("outcome_monitor")


def _first_text(result: Any) -> str:
    first = result.content[0] if result.content else None
    return str(getattr(first, "text", "")) if first is not None else ""


def _proxy(*options: str, upstream: list[str]) -> list[str]:
    return [PY, "-m", "harness.monitor", "proxy", *options, "--", *upstream]


def _shim(
    kinds: list[str],
    seed: int,
    log: Path | None,
    present: str | None,
    upstream: list[str],
    outer_only: bool = False,
) -> list[str]:
    cmd = [PY, SHIM, "--faults", ",".join(kinds) or "none", "--seed", str(seed)]
    cmd += ["--log", str(log)] if log else []
    cmd += ["--present", present] if present else []
    cmd += ["--outer-only"] if outer_only else []
    return [*cmd, "--", *upstream]


def measure(
    server: Server,
    work: Path,
    seed: int,
    n_record: int,
    n_clean: int,
    passes: int,
    kinds: list[str],
    outer_only: bool = False,
) -> Outcome:
    out = Outcome(server.name, server.group, server.forms, server.present)
    if work.exists():  # a kept folder of an earlier run: the proxy appends to a recording, so start afresh
        shutil.rmtree(work)
    work.mkdir(parents=True)
    errlog = (work / "stderr.log").open("a")
    fixture = server.setup(work, random.Random(seed_for(seed, server.name, "fixture")), [str(server.binary)])
    rng = random.Random(seed_for(seed, server.name, "workload"))
    calls = [server.workload(rng, fixture) for _ in range(n_record + n_clean)]
    train, held = calls[:n_record], calls[n_record:]
    recorded_keys = {json.dumps(c, sort_keys=True) for c in train}
    # per held-out call: the recording made the same call (tool and arguments)
    repeats = [json.dumps(c, sort_keys=True) in recorded_keys for c in held]
    upstream = fixture.command
    if server.present:  # the shim presents the server's results in another form, faulting nothing
        upstream = _shim([], 0, None, server.present, fixture.command)

    recording, registry = work / "recording.jsonl", work / "registry.json"
    recorded = session(_proxy("--record", str(recording), upstream=upstream), train, errlog=errlog)
    out.record_errors = sum(bool(r.is_error) for r in recorded)
    out.recorded = sum(1 for _ in recording.open()) if recording.exists() else 0
    learned = subprocess.run(
        [PY, "-m", "harness.monitor", "learn", "--input", str(recording), "--out", str(registry)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    if learned.returncode != 0:
        raise RuntimeError(f"{server.name}: learn failed: {learned.stderr.strip().splitlines()[-1:]}")
    out.learn_note = " | ".join(learned.stderr.strip().splitlines()[-3:])
    tools = json.loads(registry.read_text()).get("tools", {})
    out.rules = sum(len(rules) for rules in tools.values())

    checked = _proxy("--registry", str(registry), upstream=upstream)
    clean = session(checked, held, errlog=errlog)
    flagged_clean: list[dict[str, Any]] = []
    for (tool, args), result, repeat in zip(held, clean, repeats, strict=True):
        if result.is_error:
            continue
        out.clean_calls += 1
        out.repeats += repeat
        receipt = _receipt(result)
        if receipt is not None:
            out.clean_receipts.append({"tool": tool, "arguments": args, "receipt": receipt, "repeat": repeat})
            flagged_clean.append(
                {"tool": tool, "arguments": args, "receipt": receipt, "clean": _payload(result)}
            )
    # every clean receipt with its result in full, for --keep (a false alarm is read against what it flagged)
    with (work / "receipts.jsonl").open("w") as f:
        f.writelines(json.dumps(m) + "\n" for m in flagged_clean)

    log = work / "shim.jsonl"
    log.unlink(missing_ok=True)
    shim = _shim(kinds, seed_for(seed, server.name, "shim"), log, server.present, fixture.command, outer_only)
    faulted_calls = held * passes
    got = session(_proxy("--registry", str(registry), upstream=shim), faulted_calls, errlog=errlog)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    missed: list[dict[str, Any]] = []
    if len(lines) != len(got):
        raise RuntimeError(f"{server.name}: the shim logged {len(lines)} calls for {len(got)} made")
    for j, ((tool, args), result, line) in enumerate(zip(faulted_calls, got, lines, strict=True)):
        kind = line["fault"]
        receipt = _receipt(result)
        out.raw_first_broken += not _raw_first(result, line, receipt)
        if kind is None:
            out.untouched += not line["error"]
            continue
        tally = out.faulted.setdefault(kind, [0, 0])
        tally[0] += 1
        tally[1] += receipt is not None
        if not repeats[j % len(held)]:
            out.novel[0] += 1
            out.novel[1] += receipt is not None
        seen = out.examples.setdefault(kind, {"flagged": None, "missed": []})
        if receipt is not None and seen["flagged"] is None:
            seen["flagged"] = {"tool": tool, "receipt": receipt}
        elif receipt is None:
            # the faulted text beside the same call's clean text (the held-out calls in the same order)
            before = clean[j % len(held)]
            if len(seen["missed"]) < MISSES_SHOWN:
                seen["missed"].append(
                    {
                        "tool": tool,
                        "arguments": args,
                        "clean": _payload_text(before),
                        "faulted": _payload_text(result),
                    }
                )
            missed.append({"tool": tool, "arguments": args, "fault": kind, "clean": _payload(before),
                           "faulted": _payload(result)})  # fmt: skip
    errlog.close()
    # every miss in full, for --keep (the figures' examples are cut short)
    with (work / "missed.jsonl").open("w") as f:
        f.writelines(json.dumps(m) + "\n" for m in missed)
    # the proxy names each result it could not check on its stderr ("<tool>: not checked: <why>"): a rule
    # that raises must be counted, never read as a miss
    with (work / "stderr.log").open(errors="replace") as f:
        out.unchecked = sum(": not checked: " in line for line in f)
    return out


def _raw_first(result: Any, line: dict[str, Any], receipt: Any) -> bool:
    """The shim's result reached the client unchanged and first; a receipt, if any, is one more block last."""
    # a result of no blocks (an empty list shown one block per item) has nothing to put first: the
    # receipt, if any, is then its one block
    text = _first_text(result) if line["blocks"] else ""
    if hashlib.sha256(text.encode()).hexdigest() != line["first"] or (
        line["blocks"] and text.startswith(PREFIX)
    ):
        return False
    extra = 1 if receipt is not None else 0
    if len(result.content) != line["blocks"] + extra:
        return False
    return receipt is None or _text_of(result.content[-1]).startswith(PREFIX)


def _payload_text(result: Any) -> str:
    """What a result says, cut to 400 characters: its structured content, else its blocks' text."""
    if result.structured_content is not None:
        text = json.dumps(result.structured_content)
    else:
        text = " | ".join(_text_of(b) for b in result.content if not _text_of(b).startswith(PREFIX))
    return text[:400]


def _payload(result: Any) -> dict[str, Any]:
    """A result as the proxy's client got it, in full: its structured content and each block's text
    (a receipt's block left out)."""
    blocks = [_text_of(b) for b in result.content if not _text_of(b).startswith(PREFIX)]
    return {"structured": result.structured_content, "blocks": blocks}


def _text_of(block: Any) -> str:
    return str(getattr(block, "text", ""))


ALL_KINDS = list(FAULTS)
