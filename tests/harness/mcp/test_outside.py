"""The proxy in front of real third-party MCP servers (``make mcp-servers``: mcp-server-time, mcp-server-git
in .cache/mcp-servers), driven by the official SDK's client, with faults injected between the proxy and
the server by ``interpose.py`` (outside the project's fault library). Each skips with one reason when
what it needs is absent; the tau-bench retail client of a modest recording is in test_outside_retail.py
(it reads fetched data, so CI's no-data step runs it alone)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
SERVERS = REPO / ".cache" / "mcp-servers" / "bin"
INTERPOSE = str(Path(__file__).with_name("interpose.py"))
PY = sys.executable
PREFIX = "[outcome monitor]"


def _server(name: str) -> str:
    path = SERVERS / name
    if not path.is_file():
        pytest.skip(f"third-party MCP servers not installed at {SERVERS}: run `make mcp-servers`")
    return str(path)


def _proxy(*options: str, upstream: list[str]) -> list[str]:
    return [PY, "-m", "harness.monitor", "proxy", *options, "--", *upstream]


def _faulted(fault: str, upstream: list[str], rate: float = 1.0, seed: int = 0) -> list[str]:
    return [PY, INTERPOSE, fault, str(rate), str(seed), "--", *upstream]


def _session(
    command: list[str], calls: list[tuple[str, dict]], env: dict | None = None, raw: bool = False, errlog=None
):
    """(listed tools, each call's CallToolResult) over one session of the SDK's client; ``raw``:
    through ``send_request`` (no client-side schema validation) instead of ``call_tool``."""

    async def go():
        params = StdioServerParameters(command=command[0], args=command[1:], env=env or dict(os.environ))
        out = []
        async with stdio_client(params, errlog or sys.stderr) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            for name, args in calls:
                if raw:
                    request = types.CallToolRequest(
                        params=types.CallToolRequestParams(name=name, arguments=args)
                    )
                    out.append(await session.send_request(request, types.CallToolResult))
                else:
                    out.append(await session.call_tool(name, args))
        return tools, out

    return anyio.run(go)


def _receipt(result) -> dict | None:
    return (result.meta or {}).get("outcome_monitor")


def _learn(recording: Path, out: Path) -> dict:
    done = subprocess.run(
        [PY, "-m", "harness.monitor", "learn", "--input", str(recording), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


ZONES = [
    "Europe/Paris", "Asia/Tokyo", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata",
    "America/Sao_Paulo", "Africa/Cairo", "Europe/Berlin", "America/Los_Angeles", "Asia/Singapore",
    "Pacific/Auckland", "Europe/Madrid", "America/Chicago", "Asia/Dubai", "Europe/Moscow",
]  # fmt: skip


def _time_calls(zones: list[str]) -> list[tuple[str, dict]]:
    calls = [("get_current_time", {"timezone": z}) for z in zones]
    for i, z in enumerate(zones):
        target = zones[(i + 3) % len(zones)]
        calls.append(
            (
                "convert_time",
                {"source_timezone": z, "time": f"{(7 * i) % 24:02d}:30", "target_timezone": target},
            )
        )
    return calls


SCHEMA_FAULTS = ("drop_field", "bool_as_string", "number_for_text", "empty_object", "html_page")


@pytest.mark.slow
def test_time_server_schema_breaking_results_reach_the_client_raw_with_a_receipt(tmp_path):
    """mcp-server-time declares an outputSchema: its clean traffic is learned, held-out clean calls draw
    no receipt, and each fault that breaks the declared shape reaches the SDK's stock ``call_tool`` raw,
    with a receipt naming what broke, never as an error or an exception, with no flag: the proxy lists
    tools without the schema it checks itself (``--keep-output-schemas`` lists them as declared, and then
    the stock client itself raises on the broken shape)."""
    time_server = [_server("mcp-server-time")]
    recording = tmp_path / "time.jsonl"
    _, recorded = _session(_proxy("--record", str(recording), upstream=time_server), _time_calls(ZONES[:12]))
    assert all(not r.is_error for r in recorded)
    registry = tmp_path / "time.json"
    _learn(recording, registry)

    held_out = _time_calls(ZONES[12:])
    tools, clean = _session(_proxy("--registry", str(registry), upstream=time_server), held_out)
    assert tools and not [t.name for t in tools if t.output_schema]  # the schemas the proxy checks
    assert [_receipt(r) for r in clean] == [None] * len(held_out)
    kept, _ = _session(_proxy("--keep-output-schemas", upstream=time_server), [])
    assert all(t.output_schema for t in kept)  # listed as the server declares them

    n = hit = 0
    for fault in SCHEMA_FAULTS:
        # the stock call_tool on the default listing (and on --drop-output-schemas, now a no-op);
        # the faulted server itself, through send_request, for the raw shape to compare with
        direct = _session(_faulted(fault, time_server), held_out[:3], raw=True)[1]
        for options in ((), ("--drop-output-schemas",)):
            with open(tmp_path / "stderr.txt", "w+") as errlog:
                _, got = _session(
                    _proxy("--registry", str(registry), *options, upstream=_faulted(fault, time_server)),
                    held_out[:3],
                    errlog=errlog,
                )
            # the closing line counts every call answered (none of them an error)
            closing = (tmp_path / "stderr.txt").read_text().strip().splitlines()[-1]
            receipts = sum(_receipt(r) is not None for r in got)
            assert closing.endswith(f"{len(got)} calls, {receipts} receipts, 0 answered with an error"), (
                closing
            )
            for proxied, faulted in zip(got, direct, strict=True):
                n += 1
                assert not proxied.is_error
                # the raw result first, unchanged in shape (the time itself moves between sessions)
                assert proxied.structured_content is not None or faulted.structured_content is None
                assert set(proxied.structured_content or {}) == set(faulted.structured_content or {})
                assert not proxied.content[0].text.startswith(PREFIX)
                receipt = _receipt(proxied)
                if receipt is not None:
                    hit += 1
                    assert proxied.content[-1].text.startswith(PREFIX)
                    if fault == "drop_field":
                        assert (
                            "day_of_week" in receipt["violated"] or "time_difference" in receipt["violated"]
                        )
                    if fault == "bool_as_string":
                        assert "is_dst" in receipt["violated"] and "boolean" in receipt["violated"]
    assert hit >= 0.9 * n, f"{hit} receipts on {n} faulted calls"


@pytest.mark.slow
def test_keep_output_schemas_hands_the_stock_client_a_schema_it_raises_on(tmp_path):
    """What the default avoids: with the schemas listed as declared, the SDK's call_tool validates the
    proxy's answer itself and raises on a schema-breaking result (the receipt never reaches the caller)."""
    time_server = [_server("mcp-server-time")]
    upstream = _faulted("bool_as_string", time_server)
    calls = _time_calls(ZONES[:1])

    async def go() -> Exception | None:
        command = _proxy("--keep-output-schemas", upstream=upstream)
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            await session.list_tools()
            try:
                await session.call_tool(*calls[0])
            except Exception as exc:  # the SDK's own output validation
                return exc
        return None

    raised = anyio.run(go)
    assert raised is not None and "schema" in str(raised).lower(), raised


def _git_repo(path: Path, commits: int) -> Path:
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="A",
        GIT_AUTHOR_EMAIL="a@example.org",
        GIT_COMMITTER_NAME="A",
        GIT_COMMITTER_EMAIL="a@example.org",
    )
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True, env=env)
    for i in range(commits):
        (path / "notes.txt").write_text(f"line {i}\n")
        subprocess.run(["git", "-C", str(path), "add", "notes.txt"], check=True, env=env)
        subprocess.run(["git", "-C", str(path), "commit", "-q", "-m", f"note {i}"], check=True, env=env)
    return path


TEXT_FAULTS = ("html_page", "empty_text", "error_text", "ids_redacted")


def test_git_server_text_results_learn_text_contracts(tmp_path):
    """mcp-server-git answers in plain text: the recording reads its log's lines into entries, no more
    than asked for; a 502 page, an empty answer, an error without isError and a log
    without ids are flagged, held-out clean logs are not."""
    git_server = [_server("mcp-server-git")]
    repo = str(_git_repo(tmp_path / "repo", 14))
    recording = tmp_path / "git.jsonl"
    train = [("git_log", {"repo_path": repo, "max_count": k}) for k in range(1, 13)]
    _session(_proxy("--record", str(recording), upstream=git_server), train)
    registry = _learn(recording, tmp_path / "git.json")
    rules = registry["tools"]["git_log"]
    # the log's Key: value lines are read into entries (the wide vocabulary's view): each has its
    # commit, there are no more than asked for, and a result that is an error by the recording's own status inference fires
    assert registry["meta"]["views"]["git_log"]["parse"] == "lines"
    ids = {r["id"] for r in rules}
    assert {
        "git_log:required:$.entries[*]:Commit",
        "git_log:collection:len_le_arg(max_count):$:entries",
    } <= ids
    assert any(r["params"].get("form") == "error_result" for r in rules)

    held_out = [("git_log", {"repo_path": repo, "max_count": k}) for k in (13, 14, 20)]
    _, clean = _session(_proxy("--registry", str(tmp_path / "git.json"), upstream=git_server), held_out)
    assert [_receipt(r) for r in clean] == [None] * len(held_out)
    for fault in TEXT_FAULTS:
        _, got = _session(
            _proxy("--registry", str(tmp_path / "git.json"), upstream=_faulted(fault, git_server)), held_out
        )
        for r in got:
            assert not r.is_error and not r.content[0].text.startswith(PREFIX)
            assert _receipt(r) is not None, (fault, r.content[0].text[:80])
