"""fetch: real downloads with pooch from a mirror of upstream's tree (HTTP on 127.0.0.1, and file://),
sha256 checks, task modules converted from their syntax tree, tampered and missing files."""

from __future__ import annotations

import functools
import hashlib
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from environments.taubench.__main__ import main
from environments.taubench.checksums import MODULE_SHA256, SHA256, TASK_FILES, upstream_path
from environments.taubench.data import load
from environments.taubench.fetch import FetchError, fetch
from environments.taubench.taskfile import TaskFileError, convert, to_json


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def lay_out_mirror(shared: Path, root: Path) -> Path:
    """Upstream's tree as far as the fetch needs it: data files, wikis and the task modules (not the JSON)."""
    for domain, files in SHA256.items():
        for name in files:
            path = upstream_path(domain, name)
            source = (
                shared / "upstream" / f"{domain}_{Path(path).name}"
                if name in TASK_FILES[domain].values()
                else shared / domain / name
            )
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, root / path)
    return root


@pytest.fixture
def mirror(data_dir, tmp_path):
    """A mirror of upstream's tree served over HTTP on 127.0.0.1; yields (base_url, folder)."""
    root = lay_out_mirror(data_dir.parent, tmp_path / "mirror")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def _all_pinned(dest: Path) -> dict[str, bool]:
    return {
        f"{d}/{name}": hashlib.sha256((dest / d / name).read_bytes()).hexdigest() == sha
        for d, files in SHA256.items()
        for name, sha in files.items()
    }


def test_fetch_from_a_loopback_mirror_reproduces_every_pinned_file(mirror, tmp_path):
    base_url, _ = mirror
    dest = tmp_path / "data"
    done = fetch(dest, base_url=base_url)
    assert len(done) == 12 and sum(k.startswith("retail/") for k in done) == 7
    assert all(_all_pinned(dest).values())
    for key, what in done.items():
        domain, name = key.split("/")
        verb = "converted" if name.startswith("tasks_") else "downloaded"
        assert what == f"{verb} {base_url}/{upstream_path(domain, name)}"
    assert (dest / "retail" / "LICENSE-taubench").is_file() and (
        dest / "airline" / "LICENSE-taubench"
    ).is_file()
    assert not list(dest.rglob("*.py"))  # upstream's modules are read, converted and not kept
    assert len(load(dest).tasks["test"]) == 115 and len(load(dest, "airline").tasks["test"]) == 50
    assert set(fetch(dest, base_url=base_url).values()) == {"present"}


def test_fetch_from_a_file_url_mirror(mirror, tmp_path):
    _, root = mirror
    dest = tmp_path / "data"
    done = fetch(dest, base_url=root.as_uri(), domains=["airline"])
    assert set(done) == {f"airline/{n}" for n in SHA256["airline"]}
    assert (
        done["airline/tasks_test.json"] == f"converted {root.as_uri()}/tau_bench/envs/airline/tasks_test.py"
    )
    assert all(v for k, v in _all_pinned_domain(dest, "airline").items())


def _all_pinned_domain(dest: Path, domain: str) -> dict[str, bool]:
    return {
        name: hashlib.sha256((dest / domain / name).read_bytes()).hexdigest() == sha
        for name, sha in SHA256[domain].items()
    }


def test_tampered_data_file_is_rejected_and_not_kept(mirror, tmp_path):
    base_url, root = mirror
    orders = root / "tau_bench/envs/retail/data/orders.json"
    orders.write_bytes(orders.read_bytes().replace(b'"pending"', b'"shipped"', 1))
    dest = tmp_path / "data"
    with pytest.raises(
        FetchError,
        match=r"orders\.json from http://127\.0\.0\.1:\d+/tau_bench/envs/retail/data/orders\.json does not match "
        r"its pinned sha256 .*not kept",
    ):
        fetch(dest, base_url=base_url)
    assert not (dest / "retail" / "orders.json").exists()


def test_tampered_task_module_is_rejected_before_it_is_read(mirror, tmp_path):
    base_url, root = mirror
    module = root / "tau_bench/envs/airline/tasks_test.py"
    module.write_bytes(module.read_bytes() + b"\nimport os\n")
    with pytest.raises(FetchError, match=r"tasks_test\.py from .*/airline/tasks_test\.py does not match"):
        fetch(tmp_path / "data", base_url=base_url, domains=["airline"])
    assert not (tmp_path / "data" / "airline" / "tasks_test.json").exists()


def test_converted_json_must_match_its_own_pin(mirror, tmp_path, monkeypatch):
    """A module that passes its pin but converts to other JSON (here: a pin moved to a changed module) is refused."""
    base_url, root = mirror
    module = root / "tau_bench/envs/airline/tasks_test.py"
    module.write_text(module.read_text().replace('annotator="0"', 'annotator="9"', 1))
    monkeypatch.setitem(
        MODULE_SHA256, "tau_bench/envs/airline/tasks_test.py", hashlib.sha256(module.read_bytes()).hexdigest()
    )
    with pytest.raises(
        FetchError, match=r"tasks_test\.json converted from .* has sha256 [0-9a-f]{64}, expected"
    ):
        fetch(tmp_path / "data", base_url=base_url, domains=["airline"])
    assert not (tmp_path / "data" / "airline" / "tasks_test.json").exists()


def test_missing_file_on_the_mirror(mirror, tmp_path):
    base_url, root = mirror
    (root / "tau_bench/envs/retail/wiki.md").unlink()
    with pytest.raises(FetchError, match=r"wiki\.md: download from .*/tau_bench/envs/retail/wiki\.md failed"):
        fetch(tmp_path / "data", base_url=base_url, domains=["retail"])
    (root / "tau_bench/envs/airline/data/users.json").unlink()
    with pytest.raises(
        FetchError, match=r"users\.json: download from file://.*/airline/data/users\.json failed"
    ):
        fetch(tmp_path / "data", base_url=root.as_uri(), domains=["airline"])


def test_tasks_from_a_folder_instead_of_converting(data_dir, tmp_path):
    dest = tmp_path / "data"
    (dest / "retail").mkdir(parents=True)
    for name in ("users.json", "orders.json", "products.json", "wiki.md"):  # already present: no download
        shutil.copyfile(data_dir / name, dest / "retail" / name)
    done = fetch(dest, domains=["retail"], tasks_from=data_dir.parent)
    assert {done[f"retail/{n}"] for n in TASK_FILES["retail"].values()} == {
        f"copied {data_dir / n}" for n in TASK_FILES["retail"].values()
    }
    assert all(_all_pinned_domain(dest, "retail").values())


def test_cli_fetch_ok_tampered_and_bad_url(mirror, tmp_path, capsys):
    base_url, root = mirror
    assert main(["fetch", "--dest", str(tmp_path / "a"), "--base-url", base_url]) == 0
    assert "all files verified" in capsys.readouterr().out
    module = root / "tau_bench/envs/retail/tasks_dev.py"
    module.write_bytes(module.read_bytes() + b"\n")
    assert main(["fetch", "--dest", str(tmp_path / "b"), "--base-url", base_url, "--domain", "retail"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tasks_dev.py" in err[0] and "sha256" in err[0]
    assert main(["fetch", "--dest", str(tmp_path / "c"), "--base-url", "ftp://x"]) == 2
    assert "--base-url must start with http://, https:// or file://" in capsys.readouterr().err


# ----------------------------------------------------------------------------- the converter alone


def test_convert_reads_literals_only_and_never_runs_the_module(tmp_path):
    marker = tmp_path / "ran"
    source = f"""
import pathlib
pathlib.Path({str(marker)!r}).write_text("executed")
from tau_bench.types import Action, Task
TASKS = [
    Task(annotator="1", user_id="u_1", instruction="hi " "there",
         actions=[Action(name="cancel", kwargs={{"id": "X", "n": -2, "ok": True}})], outputs=["4"]),
]
"""
    rows = convert(source)
    assert not marker.exists()
    assert rows == [
        {
            "annotator": "1",
            "user_id": "u_1",
            "instruction": "hi there",
            "actions": [{"name": "cancel", "kwargs": {"id": "X", "n": -2, "ok": True}}],
            "outputs": ["4"],
        }
    ]
    assert to_json(rows).startswith('[\n {\n  "annotator": "1"') and not to_json(rows).endswith("\n")


@pytest.mark.parametrize(
    "source, says",
    [
        (
            "TASKS = [Task(user_id='u', instruction='i', actions=[], outputs=[], extra=1)]",
            "unknown ['extra']",
        ),
        ("TASKS = [Task(user_id='u', instruction='i', actions=[])]", "missing ['outputs']"),
        ("TASKS = [Task(user_id=make(), instruction='i', actions=[], outputs=[])]", "not a literal value"),
        ("TASKS = [Job(user_id='u')]", "expected a Task(...) call"),
        ("TASKS = [Task('u')]", "keyword arguments only"),
        (
            "TASKS = [Task(user_id='u', instruction='i', actions=[Action(name='x')], outputs=[])]",
            "name= and kwargs=",
        ),
        ("A = []\nB = []", "expected one top-level list"),
        ("TASKS = [", "not valid Python"),
    ],
)
def test_convert_refuses_what_is_not_a_literal_task_list(source, says):
    with pytest.raises(TaskFileError, match=r"^task module.*" + __import__("re").escape(says)):
        convert(source)


def test_upstream_modules_convert_to_the_pinned_json(data_dir):
    shared = data_dir.parent
    for domain, files in TASK_FILES.items():
        for name in files.values():
            module = shared / "upstream" / f"{domain}_{Path(upstream_path(domain, name)).name}"
            text = to_json(convert(module.read_bytes()))
            assert hashlib.sha256(text.encode()).hexdigest() == SHA256[domain][name], (domain, name)


def test_a_data_root_that_cannot_be_written_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(FetchError, match=r"cannot create the retail data folder .*a-file/retail"):
        fetch(blocker, base_url="http://127.0.0.1:9/")
    assert main(["fetch", "--dest", str(blocker), "--domain", "airline"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot create the airline data folder" in err[0]
