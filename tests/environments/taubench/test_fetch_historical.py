"""fetch-historical: upstream's published trajectories from a mirror (file://), pinned by sha256."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from environments.taubench import checksums
from environments.taubench.__main__ import main
from environments.taubench.fetch import FetchError, fetch_historical

BODY = b'[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {}, "traj": []}]'


@pytest.fixture
def mirror(tmp_path, monkeypatch) -> Path:
    """A mirror of upstream's tree holding one trajectories file, pinned by its own sha256."""
    root = tmp_path / "mirror"
    (root / "historical_trajectories").mkdir(parents=True)
    (root / checksums.historical_upstream_path("gpt-4o-airline.json")).write_bytes(BODY)
    monkeypatch.setitem(checksums.HISTORICAL_SHA256, "gpt-4o-airline.json", hashlib.sha256(BODY).hexdigest())
    return root


def test_fetch_lands_in_the_data_roots_historical_folder_with_the_notice(mirror, tmp_path):
    dest = tmp_path / "data"
    done = fetch_historical(dest, base_url=mirror.as_uri())
    assert done == {
        "historical/gpt-4o-airline.json": f"downloaded {mirror.as_uri()}/historical_trajectories/gpt-4o-airline.json"
    }
    assert (dest / "historical" / "gpt-4o-airline.json").read_bytes() == BODY
    assert (dest / "historical" / "LICENSE-taubench").is_file()
    assert fetch_historical(dest, base_url=mirror.as_uri()) == {"historical/gpt-4o-airline.json": "present"}


def test_a_file_that_fails_its_pin_is_not_kept(mirror, tmp_path):
    (mirror / "historical_trajectories" / "gpt-4o-airline.json").write_bytes(BODY + b" ")
    dest = tmp_path / "data"
    with pytest.raises(FetchError, match="does not match its pinned sha256"):
        fetch_historical(dest, base_url=mirror.as_uri())
    assert not (dest / "historical" / "gpt-4o-airline.json").exists()


def test_cli_fetch_historical(mirror, tmp_path, capsys):
    dest = tmp_path / "data"
    assert main(["fetch-historical", "--dest", str(dest), "--base-url", mirror.as_uri()]) == 0
    assert "historical/gpt-4o-airline.json" in capsys.readouterr().out
    assert main(["fetch-historical", "--dest", str(dest), "--base-url", "mirror.example"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_pin_is_the_one_source_md_names():
    assert checksums.HISTORICAL_SHA256 == {
        "gpt-4o-airline.json": "e9e6c0297660c537f83d4fd9c476ce7a9a86ecd2784874b7bfc13be598e37bfa"
    }
