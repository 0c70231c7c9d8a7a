"""Data folder: resolution, sha256 checks against values carried in the project, clear errors."""

from __future__ import annotations

import re
import shutil

import pytest

from environments.taubench import data
from environments.taubench.checksums import SHA256
from environments.taubench.data import DataError, load, resolve_dir


def _copy(src, dst):
    dst.mkdir()
    for name in SHA256:
        shutil.copyfile(src / name, dst / name)
    return dst


def test_pinned_hashes_equal_source_md(data_dir):
    text = (data_dir.parent / "SOURCE.md").read_text()
    listed = dict((name, h) for h, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", text, re.M))
    assert listed == SHA256


def test_license_notice_carries_mit_text(data_dir):
    from environments.taubench.fetch import NOTICE

    notice = NOTICE.read_text()
    assert (data_dir / "LICENSE").read_text().strip() in notice
    assert "59a200c6d575d595120f1cb70fea53cef0632f6b" in notice


def test_resolution_order(monkeypatch, tmp_path):
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    assert resolve_dir(None) == data.REPO_ROOT / "data" / "taubench" / "retail"
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path))
    assert resolve_dir(None) == tmp_path
    assert resolve_dir(tmp_path / "x") == tmp_path / "x"


def test_gitignore_covers_default_folder():
    assert "data/taubench/" in (data.REPO_ROOT / ".gitignore").read_text().splitlines()


def test_missing_folder(tmp_path):
    with pytest.raises(DataError, match=r"does not exist: run `make data-taubench`"):
        load(tmp_path / "nowhere")


def test_missing_file_is_named(data_dir, tmp_path):
    folder = _copy(data_dir, tmp_path / "d")
    (folder / "tasks_dev.json").unlink()
    with pytest.raises(DataError, match=r"tasks_dev\.json is missing.*make data-taubench"):
        load(folder)


def test_tampered_file_is_named(data_dir, tmp_path):
    folder = _copy(data_dir, tmp_path / "d")
    body = (folder / "products.json").read_bytes()
    (folder / "products.json").write_bytes(body + b" ")
    with pytest.raises(
        DataError, match=r"products\.json has sha256 [0-9a-f]{64}, expected " + SHA256["products.json"]
    ):
        load(folder)


def test_loaded_counts_match_raw_files(env, raw):
    base = env.data.base.collections
    assert {k: len(v) for k, v in base.items()} == {k: len(raw[k]) for k in ("orders", "products", "users")}
    for split in ("test", "train", "dev"):
        tasks = env.data.tasks[split]
        assert len(tasks) == len(raw[f"tasks_{split}"])
        assert [t.user_id for t in tasks] == [r["user_id"] for r in raw[f"tasks_{split}"]]
        assert [t.task_id for t in tasks] == [f"{split}-{i}" for i in range(len(tasks))]
    assert env.system_prompt.startswith("# Retail agent policy")
