"""Record/replay cache: replay reproduces a recorded conversation exactly, misses and corruption are clear."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from harness.llm.cache import Cache, CacheError, key_for
from harness.llm.models import InfraError, ModelSpec, acomplete

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "d",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        },
    }
]
MSGS = [{"role": "user", "content": "find it"}]
SPEC = ModelSpec(name="s", model="scripted/first_tool", input_cost_per_mtok=1.0, output_cost_per_mtok=3.0)


def conversation(cache: Cache | None, replicate: int = 0) -> list[dict]:
    """A two-turn exchange; returns what a record would keep from each completion."""

    async def go():
        out, msgs = [], list(MSGS)
        for _ in range(2):
            c = await acomplete(SPEC, msgs, TOOLS, replicate=replicate, cache=cache)
            out.append({k: v for k, v in c.to_json().items() if k != "cached"})
            msgs.append(c.message)
            for tc in c.message["tool_calls"]:
                msgs.append({"role": "tool", "tool_call_id": tc["id"], "content": "result"})
        return out

    return asyncio.run(go())


def test_replay_reproduces_the_recorded_run_exactly(tmp_path):
    path = tmp_path / "cache.sqlite"
    with Cache(path, "record") as rec:
        recorded = conversation(rec)
        assert len(rec) == 2
    with Cache(path, "replay") as rep:
        assert conversation(rep) == recorded
    with Cache(path, "record") as again:  # record mode answers hits from the cache too
        assert conversation(again) == recorded and len(again) == 2


def test_replay_miss_is_a_cache_miss_infra_error_with_a_fix(tmp_path):
    path = tmp_path / "cache.sqlite"
    with Cache(path, "record") as rec:
        conversation(rec)
    with Cache(path, "replay") as rep, pytest.raises(InfraError) as err:
        conversation(rep, replicate=3)
    assert err.value.kind == "cache_miss"
    assert "mode=record" in str(err.value) and "'s'" in str(err.value) and "replicate 3" in str(err.value)
    with pytest.raises(CacheError, match="does not exist"):
        Cache(tmp_path / "none.sqlite", "replay")


def test_passthrough_and_off_store_nothing(tmp_path):
    path = tmp_path / "cache.sqlite"
    for mode in ("passthrough", "off"):
        conversation(Cache(path, mode))
    assert not path.exists() or len(Cache(path, "record")) == 0


def test_corrupted_row_gives_a_clear_error(tmp_path):
    path = tmp_path / "cache.sqlite"
    with Cache(path, "record") as rec:
        conversation(rec)
    key = key_for(SPEC, MSGS, TOOLS, 0)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE replies SET value = ? WHERE key = ?", ('{"message": {"role": "assis', key))
    with (
        Cache(path, "replay") as rep,
        pytest.raises(CacheError, match=r"corrupted cache row .*not valid JSON.*DELETE"),
    ):
        conversation(rep)


def test_not_a_database_gives_a_clear_error(tmp_path):
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(CacheError, match="not a usable SQLite cache"):
        Cache(path, "record")
    with pytest.raises(ValueError, match="cache mode"):
        Cache(tmp_path / "x.sqlite", "sometimes")


def test_values_are_json_not_pickle(tmp_path):
    path = tmp_path / "cache.sqlite"
    with Cache(path, "record") as rec:
        conversation(rec)
    import json

    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT value FROM replies").fetchall()
    assert rows and all(isinstance(json.loads(v)["message"], dict) for (v,) in rows)


def test_replay_prices_usage_with_the_current_table_and_needs_no_litellm(tmp_path):
    import dataclasses
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "cache.sqlite"
    with Cache(path, "record") as rec:
        recorded = conversation(rec)
    repriced = dataclasses.replace(SPEC, input_cost_per_mtok=10.0)
    with Cache(path, "replay") as rep:
        c = asyncio.run(acomplete(repriced, MSGS, TOOLS, cache=rep))
    u = recorded[0]["usage"]
    assert c.usage == u and c.cost_usd == pytest.approx(
        u["prompt_tokens"] * 10.0 / 1e6 + u["completion_tokens"] * 3.0 / 1e6
    )
    code = (
        "import asyncio, sys; from harness.llm.cache import Cache; from harness.llm.models import ModelSpec, acomplete; "
        f"s = ModelSpec(name='s', model='scripted/first_tool', input_cost_per_mtok=1.0, output_cost_per_mtok=3.0); "
        f"asyncio.run(acomplete(s, {MSGS!r}, {TOOLS!r}, cache=Cache({str(path)!r}, 'replay'))); "
        "print('litellm' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
