"""fetch: real downloads with pooch over HTTP from a server on 127.0.0.1, sha256 checks, a tampered file."""

from __future__ import annotations

import functools
import hashlib
import http.server
import shutil
import threading

import pytest

from environments.taubench.__main__ import main
from environments.taubench.checksums import SHA256, TASK_FILES
from environments.taubench.data import load
from environments.taubench.fetch import FetchError, fetch


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def mirror(data_dir, tmp_path):
    """A folder of the seven files served over HTTP on 127.0.0.1; yields (base_url, folder)."""
    root = tmp_path / "mirror"
    root.mkdir()
    for name in SHA256:
        shutil.copyfile(data_dir / name, root / name)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_downloads_and_verifies_every_file(mirror, tmp_path):
    base_url, _ = mirror
    dest = tmp_path / "data"
    done = fetch(dest, base_url=base_url)
    assert done == {name: f"downloaded {base_url}/{name}" for name in SHA256}
    for name, sha in SHA256.items():
        assert hashlib.sha256((dest / name).read_bytes()).hexdigest() == sha
    assert (dest / "LICENSE-taubench").is_file()
    assert len(load(dest).tasks["test"]) == 115
    assert fetch(dest, base_url=base_url) == {name: "present" for name in SHA256}


def test_tampered_file_is_rejected_and_not_kept(mirror, tmp_path):
    base_url, root = mirror
    body = (root / "orders.json").read_bytes()
    (root / "orders.json").write_bytes(body.replace(b'"pending"', b'"shipped"', 1))
    dest = tmp_path / "data"
    with pytest.raises(
        FetchError,
        match=r"orders\.json from http://127\.0\.0\.1:\d+/orders\.json does not match "
        r"its pinned sha256 .*not kept",
    ):
        fetch(dest, base_url=base_url)
    assert not (dest / "orders.json").exists()


def test_missing_file_on_the_mirror(mirror, tmp_path):
    base_url, root = mirror
    (root / "wiki.md").unlink()
    with pytest.raises(FetchError, match=r"wiki\.md: download from .*/wiki\.md failed"):
        fetch(tmp_path / "data", base_url=base_url)


def test_tasks_from_folder_without_base_url(data_dir, tmp_path):
    dest = tmp_path / "data"
    dest.mkdir()
    for name in ("users.json", "orders.json", "products.json", "wiki.md"):  # already present: no download
        shutil.copyfile(data_dir / name, dest / name)
    done = fetch(dest, tasks_from=data_dir)
    assert {done[n] for n in TASK_FILES.values()} == {f"copied {data_dir / n}" for n in TASK_FILES.values()}
    assert {done[n] for n in ("users.json", "orders.json", "products.json", "wiki.md")} == {"present"}


def test_tasks_missing_without_source(data_dir, tmp_path, capsys):
    dest = tmp_path / "data"
    dest.mkdir()
    for name in ("users.json", "orders.json", "products.json", "wiki.md"):
        shutil.copyfile(data_dir / name, dest / name)
    assert main(["fetch", "--dest", str(dest)]) == 1
    err = capsys.readouterr().err
    assert "not published upstream as JSON" in err and "--tasks-from" in err


def test_cli_fetch_ok_and_tampered(mirror, tmp_path, capsys):
    base_url, root = mirror
    assert main(["fetch", "--dest", str(tmp_path / "a"), "--base-url", base_url]) == 0
    assert "all files verified" in capsys.readouterr().out
    (root / "tasks_dev.json").write_bytes((root / "tasks_dev.json").read_bytes() + b"\n")
    assert main(["fetch", "--dest", str(tmp_path / "b"), "--base-url", base_url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tasks_dev.json" in err[0] and "sha256" in err[0]
    assert main(["fetch", "--dest", str(tmp_path / "c"), "--base-url", "ftp://x"]) == 2
    assert "--base-url must start with http" in capsys.readouterr().err
