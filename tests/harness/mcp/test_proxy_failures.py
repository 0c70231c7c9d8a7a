"""Failures stay contained: an upstream that sends a malformed result, crashes or hangs gives the client an
MCP error for that call and one line on stderr, and the proxy keeps serving; one that exits while idle is
started again by the very next call; a registry that cannot be read, or an upstream that cannot start,
stops the proxy with one line and a non-zero exit; a recording that ends in a partial line is appended to
on a new line."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

FAKE = str(Path(__file__).with_name("fake_upstream.py"))
PY = sys.executable


def _calls(command: list[str], names: list[str], errlog, wait_for: Path | None = None) -> list:
    """Each call's result (or MCPError) over one session; a name ``"wait"`` waits until the text
    ``upstream exited`` appears once more in the file ``wait_for`` (the proxy noticed the upstream's
    exit)."""

    async def go() -> list:
        params = StdioServerParameters(command=command[0], args=command[1:])
        out: list = []
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            assert [t.name for t in (await session.list_tools()).tools] == [
                "ok",
                "malformed",
                "crash",
                "hang",
                "quit",
            ]
            waited = 0
            for name in names:
                if name == "wait":
                    assert wait_for is not None
                    waited += 1
                    deadline = time.monotonic() + 20
                    while wait_for.read_text().count("upstream exited") < waited:
                        assert time.monotonic() < deadline, "the proxy never noticed the upstream's exit"
                        await anyio.sleep(0.05)
                    continue
                try:
                    out.append(await session.call_tool(name, {}))
                except MCPError as exc:
                    out.append(exc)
        return out

    return anyio.run(go)


def test_malformed_crash_and_hang_are_errors_for_that_call_only(tmp_path):
    err = tmp_path / "stderr.txt"
    proxy = [PY, "-m", "harness.monitor", "proxy", "--timeout", "1", "--", PY, FAKE]
    with open(err, "w") as errlog:
        out = _calls(proxy, ["ok", "malformed", "ok", "crash", "ok", "hang", "ok"], errlog)
    ok = [out[i] for i in (0, 2, 4, 6)]
    assert [json.loads(r.content[0].text) for r in ok] == [{"n": 1}] * 4
    for i, word in ((1, "malformed"), (3, "crash"), (5, "hang")):
        assert isinstance(out[i], MCPError), out[i]
        assert out[i].message.startswith(f"outcome monitor proxy: {word}:")
    lines = err.read_text().splitlines()
    said = [line for line in lines if line.startswith("outcome monitor proxy: ")]
    assert [line.split(":")[1].strip() for line in said[:3]] == ["malformed", "crash", "hang"]
    assert not [line for line in lines if line.startswith("Traceback")]


@pytest.mark.parametrize(
    "content, says",
    [
        (None, "cannot read the registry"),
        ("{not json", "is not JSON"),
        ('{"format_version": -1}', "cannot be read: ValueError: unsupported registry format_version"),
    ],
)
def test_a_registry_that_cannot_be_read_stops_the_proxy_at_start(tmp_path, content, says):
    registry = tmp_path / "registry.json"
    if content is not None:
        registry.write_text(content)
    done = subprocess.run(
        [PY, "-m", "harness.monitor", "proxy", "--registry", str(registry), "--", PY, FAKE],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert done.stdout == ""


def test_no_upstream_command_is_one_line():
    done = subprocess.run(
        [PY, "-m", "harness.monitor", "proxy"], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no upstream:" in done.stderr


def test_an_upstream_that_died_while_idle_is_restarted_by_the_very_next_call(tmp_path):
    err = tmp_path / "stderr.txt"
    proxy = [PY, "-m", "harness.monitor", "proxy", "--", PY, FAKE]
    with open(err, "w") as errlog:
        out = _calls(proxy, ["ok", "quit", "wait", "ok", "quit", "wait", "ok"], errlog, wait_for=err)
    assert not [r for r in out if isinstance(r, MCPError)], out
    assert [json.loads(r.content[0].text)["n"] for r in out] == [1, 0, 1, 0, 1]
    lines = err.read_text().splitlines()
    assert lines.count("outcome monitor proxy: upstream exited; it starts again on the next request") == 2
    assert lines[-1] == "outcome monitor proxy: 5 calls, 0 receipts, 0 answered with an error"


@pytest.mark.parametrize(
    "upstream, why",
    [
        (["/bin/false"], "it exited (or closed its output) before answering initialize"),
        (["/nonexistent/outcome-monitor-upstream"], "no such command"),
        ([PY, "-c", "import time; time.sleep(30)"], "no answer to initialize within 1 s"),
    ],
)
def test_an_upstream_that_cannot_start_stops_the_proxy_with_one_line(upstream, why):
    # stdin held open: the proxy stops by itself, not because its client left
    with subprocess.Popen(
        [PY, "-m", "harness.monitor", "proxy", "--timeout", "1", "--", *upstream],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        returncode = proc.wait(timeout=60)
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
    assert returncode == 1, stderr
    assert stderr == (
        f"outcome monitor proxy: error: the upstream cannot start: {upstream[0]}: {why}; "
        "stopped after 0 calls, 0 receipts, 0 answered with an error\n"
    )
    assert stdout == ""


def test_a_client_waiting_on_an_upstream_that_cannot_start_gets_an_error_counted(tmp_path):
    err = tmp_path / "stderr.txt"
    # --timeout 5: the client's call reaches the proxy well before the upstream is given up on
    hung = [PY, "-c", "import time; time.sleep(60)"]
    proxy = [PY, "-m", "harness.monitor", "proxy", "--timeout", "5", "--", *hung]

    async def go() -> Exception | None:
        params = StdioServerParameters(command=proxy[0], args=proxy[1:])
        with open(err, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as session:
                await session.initialize()
                try:
                    await session.call_tool("ok", {})
                except MCPError as exc:
                    return exc
        return None

    got = anyio.run(go)
    assert isinstance(got, MCPError) and "the upstream cannot start" in got.message
    (line,) = err.read_text().splitlines()
    assert line.startswith("outcome monitor proxy: error: the upstream cannot start: ")
    assert line.endswith("stopped after 1 calls, 0 receipts, 1 answered with an error"), line


def test_recording_onto_a_partial_last_line_starts_on_a_new_line(tmp_path):
    recording = tmp_path / "traffic.jsonl"
    whole = json.dumps({"tool": "ok", "arguments": {}, "result": {"n": 1}, "status": "ok"})
    recording.write_text(whole + "\n" + whole[:25])  # a writer killed mid-row
    err = tmp_path / "stderr.txt"
    with open(err, "w") as errlog:
        _calls(
            [PY, "-m", "harness.monitor", "proxy", "--record", str(recording), "--", PY, FAKE], ["ok"], errlog
        )
    lines = recording.read_text().splitlines()
    assert lines[:2] == [whole, whole[:25]]  # the partial line is kept as it was, on its own
    assert [json.loads(line) for line in lines[2:]] == [json.loads(whole)]
    assert "ends in a partial line" in err.read_text()
    # a recording that ends cleanly gets no blank line
    with open(err, "w") as errlog:
        _calls(
            [PY, "-m", "harness.monitor", "proxy", "--record", str(recording), "--", PY, FAKE], ["ok"], errlog
        )
    assert recording.read_text().splitlines()[2:] == [whole, whole]
