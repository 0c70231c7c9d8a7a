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
