"""Failures stay contained: an upstream that sends a malformed result, crashes or hangs gives the client an
MCP error for that call and one line on stderr, and the proxy keeps serving; a registry that cannot be read
stops the proxy at start with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

FAKE = str(Path(__file__).with_name("fake_upstream.py"))
PY = sys.executable


def _calls(command: list[str], names: list[str], errlog) -> list:
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
            ]
            for name in names:
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
