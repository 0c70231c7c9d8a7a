"""Download every pinned file of both domains from upstream's tree with ``pooch``, converting the task lists.

``base_url`` stands for the root of upstream's tree at the pinned commit (default: upstream's raw
URLs), so any mirror of that tree serves, ``file://`` included: a domain's database is at
``<base>/tau_bench/envs/<domain>/data/<file>``, its policy at ``.../<domain>/wiki.md``, its task
lists are upstream's modules ``.../<domain>/tasks_<split>.py``. Each download is checked against its
pinned sha256 by pooch; a task module is then read as data (``taskfile``: the syntax tree, never
imported or executed) and the JSON written from it must match its own pinned sha256 too. A file
that fails its hash is never kept. ``tasks_from`` (optional) takes the task-list JSON from a folder
laid out like the data root instead of converting. Files land in ``<root>/<domain>/`` (``data``'s
layout). Every failure raises :class:`FetchError`, one line naming the file. Knows nothing about
tools or episodes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from environments.taubench.checksums import (
    DOMAINS,
    HISTORICAL_DIR,
    HISTORICAL_SHA256,
    MODULE_SHA256,
    SHA256,
    TASK_FILES,
    UPSTREAM_RAW,
    historical_upstream_path,
    upstream_path,
)
from environments.taubench.data import domain_dir, file_sha256, resolve_root
from environments.taubench.taskfile import TaskFileError, convert, to_json

NOTICE = Path(__file__).with_name("LICENSE-taubench")
SCHEMES = ("http://", "https://", "file://")


class FetchError(RuntimeError):
    """A download failed, a file did not match its pinned sha256, or a task module did not convert."""


def fetch(
    dest: str | os.PathLike[str] | None = None,
    base_url: str | None = None,
    domains: Iterable[str] = DOMAINS,
    tasks_from: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Bring every pinned file of ``domains`` into the data root; returns ``{"<domain>/<file>": what happened}``.

    What happened is ``present`` (already there, hash checked), ``downloaded <url>``, ``converted <url>``
    (a task list from upstream's module) or ``copied <path>``. Raises :class:`FetchError` on the first
    failure, naming the file.
    """
    import pooch  # imported here: loading data never needs it

    pooch.get_logger().setLevel(logging.WARNING)  # pooch's own logger, not in logging's registry
    base = (base_url or UPSTREAM_RAW).rstrip("/")
    if not base.startswith(SCHEMES):
        raise FetchError(f"base URL {base_url!r} must start with http://, https:// or file://")
    root = resolve_root(dest)
    done: dict[str, str] = {}
    for domain in domains:
        folder = domain_dir(root, domain)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FetchError(
                f"cannot create the {domain} data folder {folder}: {exc.strerror or exc}"
            ) from None
        tasks = set(TASK_FILES[domain].values())
        for name, sha in SHA256[domain].items():
            target = folder / name
            if target.is_file() and file_sha256(target) == sha:
                done[f"{domain}/{name}"] = "present"
                continue
            url = f"{base}/{upstream_path(domain, name)}"
            if name in tasks and tasks_from is not None:
                what = _copy(domain_dir(Path(tasks_from), domain) / name, target, sha)
            elif name in tasks:
                what = _convert(pooch, url, upstream_path(domain, name), target, sha)
            else:
                _download(pooch, url, name, folder, sha)
                what = f"downloaded {url}"
            done[f"{domain}/{name}"] = what
        try:
            shutil.copyfile(NOTICE, folder / NOTICE.name)
        except OSError as exc:
            raise FetchError(f"cannot write {folder / NOTICE.name}: {exc.strerror or exc}") from None
    return done


def fetch_historical(
    dest: str | os.PathLike[str] | None = None, base_url: str | None = None
) -> dict[str, str]:
    """Bring upstream's published trajectories (``HISTORICAL_SHA256``) into ``<root>/historical/``, each
    checked against its sha256; returns ``{"historical/<file>": what happened}`` like :func:`fetch`."""
    import pooch

    pooch.get_logger().setLevel(logging.WARNING)
    base = (base_url or UPSTREAM_RAW).rstrip("/")
    if not base.startswith(SCHEMES):
        raise FetchError(f"base URL {base_url!r} must start with http://, https:// or file://")
    folder = resolve_root(dest) / HISTORICAL_DIR
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"cannot create the folder {folder}: {exc.strerror or exc}") from None
    done: dict[str, str] = {}
    for name, sha in HISTORICAL_SHA256.items():
        key = f"{HISTORICAL_DIR}/{name}"
        if (folder / name).is_file() and file_sha256(folder / name) == sha:
            done[key] = "present"
            continue
        url = f"{base}/{historical_upstream_path(name)}"
        _download(pooch, url, name, folder, sha)
        done[key] = f"downloaded {url}"
    try:  # upstream's MIT notice travels with the copy
        shutil.copyfile(NOTICE, folder / NOTICE.name)
    except OSError as exc:
        raise FetchError(f"cannot write {folder / NOTICE.name}: {exc.strerror or exc}") from None
    return done


def _download(pooch: Any, url: str, fname: str, folder: Path, sha: str) -> None:
    try:
        pooch.retrieve(
            url,
            known_hash=f"sha256:{sha}",
            fname=fname,
            path=folder,
            progressbar=False,
            downloader=_from_file if url.startswith("file://") else None,
        )
    except ValueError as exc:  # pooch's hash mismatch
        raise FetchError(
            f"{fname} from {url} does not match its pinned sha256 {sha}; the file was not kept "
            f"(tampered, truncated or another version): {_first_line(exc)}"
        ) from None
    except Exception as exc:  # network and HTTP errors, a missing local file
        raise FetchError(f"{fname}: download from {url} failed: {_first_line(exc)}") from None


def _convert(pooch: Any, url: str, module: str, target: Path, sha: str) -> str:
    """Download upstream's task module (hash-pinned), read it as data, write the JSON (hash-pinned)."""
    name = Path(module).name
    with tempfile.TemporaryDirectory() as tmp:
        _download(pooch, url, name, Path(tmp), MODULE_SHA256[module])
        source = (Path(tmp) / name).read_bytes()
    try:
        text = to_json(convert(source, label=module))
    except TaskFileError as exc:
        raise FetchError(f"{target.name}: {exc}") from None
    got = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if got != sha:
        raise FetchError(
            f"{target.name} converted from {url} has sha256 {got}, expected {sha}: not written "
            "(the converter and the pinned JSON disagree)"
        )
    _write(target, text.encode("utf-8"))
    return f"converted {url}"


def _copy(source: Path, target: Path, sha: str) -> str:
    if not source.is_file():
        raise FetchError(f"{target.name}: not found at {source} (the folder given for the task lists)")
    got = file_sha256(source)
    if got != sha:
        raise FetchError(f"{source} has sha256 {got}, expected {sha}: not copied")
    _write(target, source.read_bytes())
    return f"copied {source}"


def _write(target: Path, body: bytes) -> None:
    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
            tmp.write(body)
        os.replace(tmp.name, target)
    except OSError as exc:
        raise FetchError(f"{target.name}: cannot write {target}: {exc.strerror or exc}") from None


def _from_file(url: str, output_file: Any, pooch: Any) -> None:
    """A pooch downloader for ``file://`` URLs: the mirror is a folder on this machine."""
    path = Path(url2pathname(unquote(urlparse(url).path)))
    with open(path, "rb") as src:
        if isinstance(output_file, (str, os.PathLike)):
            with open(output_file, "wb") as out:
                shutil.copyfileobj(src, out)
        else:
            shutil.copyfileobj(src, output_file)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
