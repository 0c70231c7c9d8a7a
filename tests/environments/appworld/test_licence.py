"""AppWorld's licence: generated API docs, decrypted app code and anything derived from them stay in
the git-ignored ``.appworld/`` folder; no tracked file carries AppWorld's canary string or docs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from environments.appworld import paths

REPO = Path(__file__).resolve().parents[3]
CANARY = "appworld:" + "d17ac3f"  # split so this file does not carry it


def _tracked() -> dict[str, str]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout.split(
        b"\0"
    )
    out = {}
    for name in filter(None, names):
        path = REPO / name.decode()
        if path.is_file():
            out[name.decode()] = path.read_bytes().decode("utf-8", errors="replace")
    return out


def test_canary_string_is_not_tracked():
    hits = [name for name, text in _tracked().items() if CANARY in text]
    assert hits == [], f"AppWorld canary string in tracked files: {hits}"


def test_appworld_folder_is_ignored_and_untracked():
    tracked = _tracked()
    assert not [n for n in tracked if n.startswith(".appworld/") or n.endswith("openapi.json")]
    probe = subprocess.run(["git", "check-ignore", "-q", ".appworld/cache/x.json"], cwd=REPO)
    assert probe.returncode == 0, ".appworld/ must be git-ignored"


@pytest.mark.skipif(
    not (paths.CACHE / "outcome-monitors" / "openapi.json").exists(),
    reason=f"no generated AppWorld docs to compare with: {paths.SETUP_HINT}",
)
def test_generated_docs_are_not_tracked():
    docs = json.loads((paths.CACHE / "outcome-monitors" / "openapi.json").read_text())
    phrases = {
        op["description"]
        for doc in docs.values()
        for ops in doc["paths"].values()
        for op in ops.values()
        if isinstance(op, dict) and len(op.get("description") or "") >= 40
    }
    assert len(phrases) > 100  # the check compares against something real
    hits = sorted({(name, p[:60]) for name, text in _tracked().items() for p in phrases if p in text})
    assert hits == [], f"generated AppWorld API docs in tracked files: {hits[:5]}"
