"""scripts/local_smoke.py without a model: its clean-up, its errors and its counting (the model run is `make local-smoke`)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "local_smoke.py"


@pytest.fixture(scope="module")
def smoke():
    spec = importlib.util.spec_from_file_location("local_smoke", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stop_server_ends_the_whole_process_group(smoke):
    # a leader with a child of its own, like a server that forks workers
    proc = subprocess.Popen(["bash", "-c", "sleep 300 & sleep 300; wait"], start_new_session=True)
    assert smoke._group_alive(proc.pid)
    smoke.stop_server(proc)
    assert proc.returncode is not None and not smoke._group_alive(proc.pid)


def test_a_missing_venv_is_one_clear_error(tmp_path):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--venv", str(tmp_path / "none"), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error: no virtualenv at") and "make local-smoke" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_a_non_loopback_api_base_is_refused(smoke, tmp_path):
    cfg = tmp_path / "m.yaml"
    cfg.write_text("name: m\nmodel: openai/x\napi_base: http://10.1.2.3:8080/v1\n")
    with pytest.raises(smoke.SmokeError, match="127.0.0.1"):
        smoke.server_address(cfg)
    api_base, host, port = smoke.server_address(ROOT / "conf" / "model" / "smollm2-local.yaml")
    assert host == "127.0.0.1" and api_base.endswith(f":{port}/v1")


def test_summary_counts_calls_by_outcome(smoke, tmp_path):
    tools = [{"type": "function", "function": {"name": n}} for n in ("search", "finish")]
    msgs = [
        {"role": "assistant", "tool_calls": [{"id": "a"}, {"id": "b"}]},
        {"role": "assistant", "content": "hi"},
    ]
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "e1.json").write_text(
        json.dumps({"tools": tools, "messages": msgs, "turns": []})
    )
    records = [
        {
            "arm": "baseline",
            "task_id": "t1",
            "status": "agent_failed",
            "success": False,
            "transcript": "transcripts/e1.json",
            "tool_calls": [
                {"tool": "search", "status": "ok"},
                {"tool": "search", "status": "malformed"},
                {"tool": "nope", "status": "error"},
            ],
            "final_answer": "hi",
        },
        {
            "arm": "monitor",
            "task_id": "t1",
            "status": "infra_error",
            "success": False,
            "transcript": None,
            "tool_calls": [],
            "error": "[timeout] model failed",
        },
    ]
    (tmp_path / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    s = smoke.summarize(tmp_path)
    assert s["episodes"] == 2 and s["by_status"] == {"agent_failed": 1, "infra_error": 1}
    assert s["tool_calls_by_outcome"] == {"executed_ok": 1, "malformed_arguments": 1, "unknown_tool": 1}
    assert s["totals"]["model_turns"] == 2 and s["totals"]["turns_with_tool_calls"] == 1
    assert s["totals"]["parallel_calls_ignored"] == 1 and s["infra_errors"] == {"[timeout] model failed": 1}


# ---------------------------------------------------------------------------------------------
# the exit status: a run in which the model never answered must not pass (issue 23)

TOOLS = [{"type": "function", "function": {"name": n}} for n in ("search", "finish")]


def _call(tool: str, status: str) -> dict:
    return {"tool": tool, "status": status}


def _episode(eid: str, status: str, turns: list[dict], calls: list[dict] = (), **rec) -> tuple[dict, dict]:
    """A record and its transcript; ``turns`` are the assistant messages that came back."""
    errored = status == "infra_error"
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, *turns]
    transcript = {
        "tools": TOOLS,
        "messages": messages,
        "turns": [{"latency_s": 1.0} for _ in turns] + ([{"error": "boom"}] if errored else []),
    }
    record = {
        "arm": "baseline",
        "task_id": eid,
        "status": status,
        "success": status == "completed",
        "transcript": f"transcripts/{eid}.json",
        "tool_calls": list(calls),
        "rounds": len(turns) + errored,
        "stop_reason": "infra_error" if errored else "final",
        "error": "[timeout] model failed after 2 attempt(s)" if errored else None,
        **rec,
    }
    return record, transcript


def _write_run(out: Path, episodes: list[tuple[dict, dict]]) -> Path:
    (out / "transcripts").mkdir(parents=True, exist_ok=True)
    for record, transcript in episodes:
        (out / record["transcript"]).write_text(json.dumps(transcript))
    (out / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r, _ in episodes))
    return out


def _all_infra(out: Path) -> Path:
    return _write_run(out, [_episode(f"t{i}", "infra_error", []) for i in range(4)])


def test_every_episode_an_infra_error_is_exit_3_naming_the_server_log(smoke, tmp_path):
    s = smoke.summarize(_all_infra(tmp_path))
    assert s["totals"]["episodes_reached_model"] == 0 and s["totals"]["model_turns"] == 0
    log = tmp_path / "llama-server.log"
    status, why = smoke.verdict(s, 0, None, log)
    assert status == smoke.EXIT_NO_MODEL == 3
    assert why.startswith("no episode reached the model") and str(log) in why
    assert "infra_error" in why and "\n" not in why


def test_one_answered_turn_is_enough_even_if_the_episode_then_failed_at_the_door(smoke, tmp_path):
    answered = {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}
    episodes = [_episode("t0", "infra_error", [answered], [_call("search", "ok")])]
    episodes += [_episode(f"t{i}", "infra_error", []) for i in (1, 2, 3)]
    s = smoke.summarize(_write_run(tmp_path, episodes))
    assert s["totals"]["episodes_reached_model"] == 1 and s["totals"]["model_turns"] == 1
    assert smoke.verdict(s, 0, None, tmp_path / "log") == (0, "")


def test_a_server_that_died_fails_the_run_even_after_answers(smoke, tmp_path):
    turn = {"role": "assistant", "content": "done"}
    s = smoke.summarize(_write_run(tmp_path, [_episode("t0", "agent_failed", [turn])]))
    status, why = smoke.verdict(s, 0, -11, tmp_path / "llama-server.log")
    assert status == 3 and "died" in why and "SIGSEGV" in why and "1 of 1 episodes reached" in why
    assert str(tmp_path / "llama-server.log") in why
    assert smoke.verdict(s, 0, 1, tmp_path / "log")[1].count("exit status 1") == 1


def test_the_runners_own_failure_keeps_its_status(smoke, tmp_path):
    s = smoke.summarize(_all_infra(tmp_path))
    status, why = smoke.verdict(s, 1, None, tmp_path / "log")
    assert status == 1 and "runner exited with status 1" in why
    empty = smoke.summarize(tmp_path / "nothing-here")
    assert smoke.verdict(empty, 0, None, tmp_path / "log")[0] == 3


def test_counts_tool_call_turns_and_malformed_ones(smoke, tmp_path):
    call = {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}
    text = {"role": "assistant", "content": "I think so"}
    episodes = [
        _episode(
            "t0",
            "agent_failed",
            [call, call, text],
            [_call("search", "malformed"), _call("search", "ok")],
        ),
        _episode("t1", "completed", [call], [_call("finish", "ok")]),
        _episode("t2", "infra_error", []),
    ]
    s = smoke.summarize(_write_run(tmp_path, episodes))
    t = s["totals"]
    assert (t["model_turns"], t["turns_with_tool_calls"], t["malformed_turns"], t["turns_text_only"]) == (
        4,
        3,
        1,
        1,
    )
    assert t["episodes_reached_model"] == 2
    assert [e["turns"] for e in s["per_episode"]] == [3, 1, 0]


def test_a_record_without_transcript_counts_its_answered_rounds(smoke):
    assert smoke._answered_without_transcript({"rounds": 3, "stop_reason": "infra_error"}) == 2
    assert smoke._answered_without_transcript({"rounds": 1, "stop_reason": "infra_error"}) == 0
    assert smoke._answered_without_transcript({"rounds": 2, "stop_reason": "final"}) == 2


def _fake_model_path(smoke, monkeypatch, tmp_path, server_cmd: list[str], episodes) -> dict:
    """main() with the server and the runner replaced: a process standing in for the server, records
    standing in for the runner's. Returns what the fakes saw."""
    seen: dict = {}
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr(smoke.signal, "signal", lambda *a: None)  # leave pytest's handlers alone
    monkeypatch.setattr(smoke, "check_server_installed", lambda venv: "CPU : AVX2 = 1 | FMA = 1 |")
    monkeypatch.setattr(smoke, "find_gguf", lambda venv: gguf)
    monkeypatch.setattr(smoke, "wait_ready", lambda *a: ["smollm2-135m-instruct"])

    def start_server(venv, gguf, host, port, log_path, n_ctx):
        log_path.write_text("fake server\n")
        seen["proc"] = subprocess.Popen(server_cmd, start_new_session=True)
        return seen["proc"]

    def run_episodes(out, limit, max_rounds, model):
        _write_run(out, episodes)
        if server_cmd[0] == "bash":  # the stand-in dies on its own: wait for it, as a crash would
            seen["proc"].wait(timeout=10)
        return 0

    monkeypatch.setattr(smoke, "start_server", start_server)
    monkeypatch.setattr(smoke, "run_episodes", run_episodes)
    return seen


def test_main_fails_with_one_line_when_no_episode_reached_the_model(smoke, monkeypatch, tmp_path, capsys):
    episodes = [_episode(f"t{i}", "infra_error", []) for i in range(4)]
    seen = _fake_model_path(smoke, monkeypatch, tmp_path, ["sleep", "300"], episodes)
    out = tmp_path / "o"
    rc = smoke.main(["--venv", str(tmp_path / "venv"), "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 3
    assert len(err) == 1 and err[0].startswith("error: no episode reached the model")
    assert str(out / "llama-server.log") in err[0]
    assert not smoke._group_alive(seen["proc"].pid)  # the server was stopped all the same
    summary = json.loads((out / "local_smoke_summary.json").read_text())
    assert summary["server_exit"] is None and summary["totals"]["episodes_reached_model"] == 0


def test_main_says_when_the_server_died_during_the_run(smoke, monkeypatch, tmp_path, capsys):
    turn = {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}
    episodes = [_episode("t0", "agent_failed", [turn], [_call("search", "ok")])]
    crash = ["bash", "-c", "sleep 0.2; kill -SEGV $$"]
    _fake_model_path(smoke, monkeypatch, tmp_path, crash, episodes)
    rc = smoke.main(["--venv", str(tmp_path / "venv"), "--out", str(tmp_path / "o")])
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    assert rc == 3 and "server died during the run (killed by SIGSEGV)" in line and "server log:" in line
    assert "episodes that reached the model: 1 of 1" in captured.out


def test_main_passes_when_the_model_answered(smoke, monkeypatch, tmp_path, capsys):
    turn = {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}
    episodes = [_episode("t0", "agent_failed", [turn], [_call("search", "malformed")])]
    seen = _fake_model_path(smoke, monkeypatch, tmp_path, ["sleep", "300"], episodes)
    rc = smoke.main(["--venv", str(tmp_path / "venv"), "--out", str(tmp_path / "o")])
    captured = capsys.readouterr()
    assert rc == 0 and captured.err == ""
    assert "with a tool call: 1, of them malformed: 1" in captured.out
    assert not smoke._group_alive(seen["proc"].pid)


# ---------------------------------------------------------------------------------------------
# the build: a fixed CPU baseline, never the build machine's (issue 23)


def test_a_build_with_amx_kernels_is_refused(smoke, tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    fake = venv / "bin" / "python"
    fake.write_text(
        "#!/bin/sh\necho 'CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1 |'\n"
    )
    fake.chmod(0o755)
    with pytest.raises(smoke.SmokeError, match="AMX_INT8"):
        smoke.check_server_installed(venv)
    assert smoke.compiled_features("CPU : SSE3 = 1 | AVX512 = 0 | AVX2 = 1 | LLAMAFILE = 1 |") == [
        "SSE3",
        "AVX2",
        "LLAMAFILE",
    ]


def test_the_makefile_builds_llama_cpp_for_a_fixed_baseline_with_its_own_pip_cache():
    out = subprocess.run(
        ["make", "-n", "-B", "local-smoke"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    lines = out.replace("\\\n", " ").splitlines()  # the recipe's continued lines as one
    (build,) = [line for line in lines if "-r requirements/local-model.txt" in line]
    for flag in (
        "GGML_NATIVE=OFF",
        "GGML_AVX512=OFF",
        "GGML_AMX_TILE=OFF",
        "GGML_AMX_INT8=OFF",
        "GGML_AVX2=ON",
    ):
        assert f"-D{flag}" in build
    # pip's own cache would hand back a wheel built natively: the build's cache is its own, named by the flags
    assert "--cache-dir .local-model/pip-cache-" in build and "--require-hashes" in build
    assert "--no-binary llama-cpp-python" in build


# ---------------------------------------------------------------------------------------------
# the built library itself (needs `make local-smoke`'s venv; CI does not build it)

LOCAL_VENV = ROOT / ".local-model" / "venv"
LOCAL_PY = LOCAL_VENV / "bin" / "python"
BATCHED = """
import json, sys
import llama_cpp
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=512, n_batch=64, n_threads=2, verbose=False)
out = llm.create_completion("The three primary colours are red, yellow and", max_tokens=4, temperature=0.0)
print(json.dumps({"info": llama_cpp.llama_print_system_info().decode(), "text": out["choices"][0]["text"],
                  "prompt_tokens": out["usage"]["prompt_tokens"]}))
"""


@pytest.mark.skipif(
    not any(LOCAL_VENV.glob(".installed*")),  # the Makefile's stamp: the venv is complete
    reason="needs .local-model/venv, which `make local-smoke` builds (CI does not)",
)
def test_the_built_library_evaluates_a_batched_prompt(smoke):
    """The crash of issue 23: a native build segfaulted on any prompt longer than one token."""
    gguf = smoke.find_gguf(LOCAL_VENV)
    r = subprocess.run([str(LOCAL_PY), "-c", BATCHED, str(gguf)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"exit {r.returncode} (-11 is the segfault): {r.stderr[-2000:]}"
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["prompt_tokens"] > 1 and got["text"]
    assert "AMX_INT8" not in smoke.compiled_features(got["info"])
