"""Data folders: resolution (a root with one folder per domain, or the retail files directly), sha256
checks against values carried in the project, clear errors."""

from __future__ import annotations

import re
import shutil

import pytest

from environments.taubench import data
from environments.taubench.checksums import MODULE_SHA256, SHA256, upstream_path
from environments.taubench.data import DataError, load, resolve_dir

RETAIL = SHA256["retail"]


def _copy(src, dst, names=RETAIL):
    dst.mkdir(parents=True)
    for name in names:
        shutil.copyfile(src / name, dst / name)
    return dst


def _listed(path):
    return {name: h for h, name in re.findall(r"^([0-9a-f]{64})  (\S+)", path.read_text(), re.M)}


def test_pinned_hashes_equal_source_md(data_dir):
    assert _listed(data_dir.parent / "SOURCE.md") == SHA256["retail"]
    assert _listed(data_dir.parent / "airline" / "SOURCE.md") == SHA256["airline"]
    # upstream/SOURCE.md names each module by its local file and its path in upstream's tree
    text = (data_dir.parent / "upstream" / "SOURCE.md").read_text()
    modules = dict(re.findall(r"^([0-9a-f]{64})  \S+ *\((\S+)\)", text, re.M))
    assert {path: h for h, path in modules.items()} == MODULE_SHA256
    for domain, files in SHA256.items():
        for name in files:
            if name.startswith("tasks_"):
                assert upstream_path(domain, name) in MODULE_SHA256


def test_license_notice_carries_mit_text(data_dir):
    from environments.taubench.fetch import NOTICE

    notice = NOTICE.read_text()
    assert (data_dir / "LICENSE").read_text().strip() in notice
    assert "59a200c6d575d595120f1cb70fea53cef0632f6b" in notice


def test_resolution_order(monkeypatch, tmp_path):
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    assert resolve_dir(None) == data.REPO_ROOT / "data" / "taubench" / "retail"
    assert resolve_dir(None, "airline") == data.REPO_ROOT / "data" / "taubench" / "airline"
    monkeypatch.setenv(data.ENV_VAR, str(tmp_path))
    assert resolve_dir(None) == tmp_path / "retail"
    assert resolve_dir(tmp_path / "x", "airline") == tmp_path / "x" / "airline"


def test_a_root_with_both_domains_and_a_bare_retail_folder(data_dir, tmp_path):
    root = data_dir.parent  # the shared copy: retail/ and airline/ side by side
    assert load(root).folder == data_dir.resolve()
    assert load(root, "airline").folder == (root / "airline").resolve()
    assert load(data_dir).folder == data_dir.resolve()  # the retail files directly: still retail
    with pytest.raises(DataError, match=r"airline data folder .*airline does not exist"):
        load(data_dir, "airline")
    with pytest.raises(ValueError, match="unknown tau-bench domain 'rail'"):
        load(root, "rail")


def test_gitignore_covers_default_folder():
    assert "data/taubench/" in (data.REPO_ROOT / ".gitignore").read_text().splitlines()


def test_missing_folder(tmp_path):
    with pytest.raises(DataError, match=r"does not exist: run `make data-taubench`"):
        load(tmp_path / "nowhere")
    with pytest.raises(DataError, match=r"airline data folder .* does not exist: run `make data-taubench`"):
        load(tmp_path / "nowhere", "airline")


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
        DataError, match=r"products\.json has sha256 [0-9a-f]{64}, expected " + RETAIL["products.json"]
    ):
        load(folder)
    airline = _copy(data_dir.parent / "airline", tmp_path / "root" / "airline", SHA256["airline"])
    (airline / "flights.json").write_bytes(b"{}")
    with pytest.raises(DataError, match=r"airline data file .*flights\.json has sha256"):
        load(tmp_path / "root", "airline")


def test_loaded_counts_match_raw_files(env, raw):
    base = env.data.base.collections
    assert {k: len(v) for k, v in base.items()} == {k: len(raw[k]) for k in ("orders", "products", "users")}
    for split in ("test", "train", "dev"):
        tasks = env.data.tasks[split]
        assert len(tasks) == len(raw[f"tasks_{split}"])
        assert [t.user_id for t in tasks] == [r["user_id"] for r in raw[f"tasks_{split}"]]
        assert [t.task_id for t in tasks] == [f"{split}-{i}" for i in range(len(tasks))]
    assert env.system_prompt.startswith("# Retail agent policy")
