"""Episodes in forked worker processes (``workers``): the same records as one process, nothing
finished lost when a worker dies, and the rules that pick how many workers run."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hydra import compose, initialize_config_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import load_fakeworld, policy_factory  # noqa: E402

from harness.config import CONF_DIR, Config, register, to_config  # noqa: E402
from harness.records import latest_by_episode, load_records  # noqa: E402
from harness.run.study import run_study  # noqa: E402
from harness.run.workers import WorkerFailed, worker_count  # noqa: E402

register()
fw = load_fakeworld()
MEASURED = ("latency_s",)  # wall-clock measurements: the only fields allowed to differ


def config(*extra: str):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return to_config(compose("config", overrides=["study=smoke", "progress=false", *extra]))


def fake_config(*extra: str):
    return config(
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "study.selection.params.salt=test",
        "arm=[baseline,monitor]",
        "model=[scripted-trusting,scripted-skeptic]",
        *extra,
    )


def monitors(group_id: str, variant: str, detector: str):
    return fw.NegativePriceMonitor(variant)


def comparable(run_dir: Path) -> dict[str, dict]:
    latest = latest_by_episode(load_records(run_dir / "episodes.jsonl"))
    return {e: {k: v for k, v in r.items() if k not in MEASURED} for e, r in latest.items()}


def test_two_workers_write_what_one_process_writes_through_litellm(tmp_path):
    """The product path: scripted models through litellm, monitors mined from ToolMaze's traces."""
    one = run_study(config("workers=1", "limit=3", "arm=[baseline,monitor]"), tmp_path / "one")
    two = run_study(config("workers=2", "limit=3", "arm=[baseline,monitor]"), tmp_path / "two")
    assert one["ran_now"] == two["ran_now"] == one["planned"] > 4
    assert one["by_status"] == two["by_status"]
    assert comparable(tmp_path / "one") == comparable(tmp_path / "two")
    assert len(load_records(tmp_path / "two" / "episodes.jsonl")) == two["planned"]  # each episode once
    assert sorted(p.name for p in (tmp_path / "two" / "transcripts").iterdir()) == sorted(
        p.name for p in (tmp_path / "one" / "transcripts").iterdir()
    )


def dying_factory(marker: Path):
    """The skeptic's worker dies (os._exit, as a segfault or the OOM killer would) on its first call."""

    def factory(spec, replicate):
        inner = policy_factory(spec, replicate)

        async def complete(messages, tools):
            if spec.name == "scripted-skeptic" and not marker.exists():
                marker.write_text(str(os.getpid()))
                os._exit(3)
            return await inner(messages, tools)

        return complete

    return factory


def test_a_dead_worker_loses_nothing_finished_and_a_rerun_completes(tmp_path):
    reference = tmp_path / "reference"
    run_study(fake_config("workers=1"), reference, factory=policy_factory, monitors=monitors)
    run_dir = tmp_path / "run"
    with pytest.raises(WorkerFailed, match="exited with code 3") as err:
        run_study(
            fake_config("workers=2", "concurrency=1"),
            run_dir,
            factory=dying_factory(tmp_path / "died"),
            monitors=monitors,
        )
    assert "rerun the same command" in str(err.value)
    partial = load_records(run_dir / "episodes.jsonl")
    assert (
        0 < len(partial) < len(comparable(reference))
    )  # the other worker went on; the dead one's episode is missing
    counts = run_study(fake_config("workers=2"), run_dir, factory=policy_factory, monitors=monitors)
    assert counts["skipped_finished"] == len(partial)
    assert len(load_records(run_dir / "episodes.jsonl")) == counts["planned"]  # nothing counted twice
    assert comparable(run_dir) == comparable(reference)


def plan_of(*models: tuple[str, bool], budget: float | None = None, n: int = 10) -> SimpleNamespace:
    specs = {name: SimpleNamespace(name=name, scripted=scripted) for name, scripted in models}
    cfg = SimpleNamespace(budget=SimpleNamespace(usd=budget, tokens=None))
    return SimpleNamespace(
        models=specs,
        reviewers={},
        user=None,
        schedule=[None] * n,
        cfg=cfg,
        specs=lambda: list(specs.values()),
    )


def test_how_many_workers_run():
    scripted = ("scripted-trusting", True)
    cpus = len(os.sched_getaffinity(0))
    assert worker_count(0, plan_of(scripted)) == min(cpus, 10)
    assert worker_count(0, plan_of(scripted, n=1)) == 1  # never more workers than episodes
    assert worker_count(0, plan_of(scripted), multirun=True) == 1  # a sweep's jobs already run side by side
    assert worker_count(0, plan_of(scripted, budget=1.0)) == 1  # a budget stops exactly in one process
    assert (
        worker_count(0, plan_of(scripted, ("deepseek-chat", False))) == 1
    )  # real models wait on the network
    assert worker_count(3, plan_of(scripted)) == 3
    assert worker_count(2, plan_of(scripted, ("deepseek-chat", False))) == 2  # asked for: shared budgets
    with pytest.raises(ValueError, match="workers must be >= 0"):
        Config(workers=-1)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has exited


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_workers_of_a_killed_run_exit_instead_of_lingering(tmp_path):
    """kill -9 of the parent: each worker notices on its next record (no reader left) and leaves quietly:
    no traceback or asyncio shutdown noise on the console or in run.log."""
    import signal
    import subprocess
    import time

    out = tmp_path / "run"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=table1",
            "limit=40",
            "workers=2",
            "progress=false",
            f"out={out}",
        ],
        cwd=Path(__file__).resolve().parents[3],
        stdout=(tmp_path / "console.txt").open("w"),
        stderr=subprocess.STDOUT,
    )
    records, deadline = out / "episodes.jsonl", time.monotonic() + 300
    children: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        children = [int(c) for c in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        if len(children) == 2 and records.exists() and records.read_bytes().count(b"\n") >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None and len(children) == 2, "the run ended before it could be killed mid-run"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while any(alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    lingering = [c for c in children if alive(c)]
    for c in lingering:
        os.kill(c, signal.SIGKILL)
    assert not lingering, "workers outlived their killed parent"
    for text in ((tmp_path / "console.txt").read_text(), (out / "run.log").read_text()):
        assert "Traceback" not in text and "Error" not in text, text[-3000:]


# ---------------------------------------------------------------------------------------------
# a real model (an OpenAI-compatible server on 127.0.0.1) in forked workers


class LoopbackServer:
    """Answers every chat completion with plain text after ``hold_s``, counting requests in flight."""

    def __init__(self, hold_s: float):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.hold_s, self.lock = hold_s, threading.Lock()
        self.in_flight = self.max_in_flight = 0
        self.arrivals: list[float] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, body: dict) -> None:
                import json

                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):  # noqa: N802  (pre-flight's model list)
                self._send({"object": "list", "data": [{"id": "smollm2-135m-instruct"}]})

            def do_POST(self):  # noqa: N802
                import time

                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with server.lock:
                    server.arrivals.append(time.monotonic())
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                time.sleep(server.hold_s)
                with server.lock:
                    server.in_flight -= 1
                self._send(
                    {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": "smollm2-135m-instruct",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": "done"},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 20, "completion_tokens": 1, "total_tokens": 21},
                    }
                )

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def local_model_config(api_base: str, *extra: str):
    return fake_config(
        "model=[smollm2-local]",
        "arm=[baseline]",
        "concurrency=8",
        "cache.mode=off",
        f"+model_overrides.smollm2-local.api_base='{api_base}'",
        "+model_overrides.smollm2-local.max_attempts=1",
        "+model_overrides.smollm2-local.timeout_s=60",
        *extra,
    )


def test_a_real_model_in_two_workers_writes_what_one_process_writes(tmp_path):
    with LoopbackServer(hold_s=0.0) as server:
        one = run_study(local_model_config(server.api_base, "workers=1"), tmp_path / "one", monitors=monitors)
        two = run_study(local_model_config(server.api_base, "workers=2"), tmp_path / "two", monitors=monitors)
    assert one["ran_now"] == two["ran_now"] == one["planned"] >= 4
    assert one["by_status"] == two["by_status"] and two["model_calls"] == one["model_calls"] > 0
    assert comparable(tmp_path / "one") == comparable(tmp_path / "two")


def test_two_workers_share_one_models_concurrency_and_request_rate(tmp_path):
    """Both workers together stay within the model's max_concurrency (2: each worker with its own
    would allow 4) and its requests per minute (120: a burst of 2, then one request every 0.5 s; each
    worker with its own bucket would send twice as fast)."""

    def run(server, name, *limits):
        return run_study(
            local_model_config(server.api_base, "workers=2", "replicates=5", *limits),
            tmp_path / name,
            monitors=monitors,
        )

    with LoopbackServer(hold_s=0.05) as server:
        counts = run(server, "slots", "+model_overrides.smollm2-local.max_concurrency=2")
    assert len(server.arrivals) == counts["model_calls"] >= 20 and server.max_in_flight == 2
    with LoopbackServer(hold_s=0.0) as server:
        counts = run(
            server,
            "rate",
            "+model_overrides.smollm2-local.max_concurrency=8",
            "+model_overrides.smollm2-local.requests_per_minute=120",
        )
    arrivals = sorted(server.arrivals)
    n = len(arrivals)
    assert n == counts["model_calls"] >= 20
    # the k-th request to arrive was reserved no earlier than 0.5 x (k - 1) s after the first reservation
    # and arrives no earlier than that; the first few (new connections) may arrive late, so measure from
    # the fifth, allowing it 0.3 s of lateness
    assert arrivals[-1] - arrivals[4] >= (n - 1 - 4) * 0.5 - 0.3
