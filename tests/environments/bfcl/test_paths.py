"""Where the wheel is looked for, and what happens when it is missing or altered (no wheel needed)."""

from __future__ import annotations

import pytest

from environments.bfcl import paths
from environments.bfcl.checker import call_string, parse_result
from environments.bfcl.schemas import parameters_schema, response_schema, to_json_schema


def test_missing_wheel_says_how_to_fetch_it(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path))
    why = paths.unavailable()
    assert why is not None and "make data-bfcl" in why and str(tmp_path) in why
    from core.worlds import get_plugin

    assert get_plugin("bfcl").unavailable() == why
    with pytest.raises(paths.DataError, match="make data-bfcl"):
        paths.load()


def test_default_folder_is_git_ignored_data_bfcl(monkeypatch):
    monkeypatch.delenv(paths.ENV_VAR, raising=False)
    assert paths.data_dir() == paths.DEFAULT_ROOT
    assert paths.DEFAULT_ROOT.parts[-2:] == ("data", "bfcl")
    ignored = (paths.DEFAULT_ROOT.parents[1] / ".gitignore").read_text().splitlines()
    assert "data/bfcl/" in ignored


def test_an_altered_wheel_is_refused(tmp_path):
    pytest.importorskip("mpmath", reason="mpmath is not installed: make worlds")
    (tmp_path / paths.WHEEL).write_bytes(b"not the wheel")
    with pytest.raises(paths.DataError, match="is not the pinned"):
        paths.load(tmp_path)


def test_bfcl_types_map_to_json_schema():
    doc = {
        "name": "f",
        "parameters": {
            "type": "dict",
            "properties": {
                "price": {"type": "float"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "meta": {"type": "dict", "properties": {"n": {"type": "integer"}, "x": {"type": "any"}}},
            },
            "required": ["price"],
        },
        "response": {"type": "dict", "properties": {"ok": {"type": "boolean"}, "vals": {"type": "tuple"}}},
    }
    p = parameters_schema(doc)
    assert p["type"] == "object" and p["required"] == ["price"]
    assert p["properties"]["price"] == {"type": "number"}
    assert (
        p["properties"]["meta"]["type"] == "object"
        and p["properties"]["meta"]["properties"]["n"]["type"] == "integer"
    )
    assert "type" not in p["properties"]["meta"]["properties"]["x"]  # any: no constraint
    r = response_schema(doc)
    assert r == {"type": "object", "properties": {"ok": {"type": "boolean"}, "vals": {"type": "array"}}}
    with pytest.raises(ValueError, match="no JSON Schema mapping"):
        to_json_schema({"type": "complex"})


def test_call_strings_and_results():
    assert call_string("mv", {"source": "a.txt", "destination": "b"}) == "mv(source='a.txt', destination='b')"
    assert (
        call_string("f", {"x": [1, 2.5, None, True], "y": {"k": "v"}})
        == "f(x=[1, 2.5, None, True], y={'k': 'v'})"
    )
    assert call_string("os.system", {}) is None and call_string("f", {"a b": 1}) is None
    assert parse_result('{"a": 1}') == ({"a": 1}, False)
    assert parse_result('{"error": "no"}') == ({"error": "no"}, True)
    assert parse_result("Error during execution: boom") == ("Error during execution: boom", True)
    assert parse_result("None") == ("None", False)


def _fake_python(tmp_path, body: str):
    """A stand-in for ``python -m pip download ... -d DIR ...``: the shell script gets pip's arguments."""
    script = tmp_path / "fake-python"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return str(script)


def test_fetch_keeps_only_the_pinned_wheel(tmp_path):
    from environments.bfcl.fetch import FetchError, fetch

    dest = tmp_path / "data"
    wrong = _fake_python(
        tmp_path,
        'while [ "$1" != "-d" ]; do shift; done; printf tampered > "$2/' + paths.WHEEL + '"\n',
    )
    with pytest.raises(FetchError, match="is not the pinned"):
        fetch(str(dest), python=wrong)
    assert not (dest / paths.WHEEL).exists()  # a wrong file is never kept
    failing = _fake_python(
        tmp_path, 'echo "ERROR: No matching distribution found for bfcl-eval" >&2; exit 1\n'
    )
    with pytest.raises(FetchError, match="No matching distribution"):
        fetch(str(dest), python=failing)
