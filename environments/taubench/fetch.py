"""Download the pinned retail files with ``pooch`` and check their sha256; copy task lists from a folder.

Sources: with ``base_url``, every file is ``<base_url>/<name>`` (a mirror that serves all seven);
without it the database and the policy come from upstream's raw URLs at the pinned commit, and
the task lists (which upstream ships as Python, not JSON) must already be in the folder or come
from ``tasks_from`` (a folder holding the JSON conversions, e.g. the project's shared copy).
A file whose sha256 differs is never kept. Knows nothing about tools or episodes.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

from environments.taubench.checksums import SHA256, TASK_FILES, UPSTREAM_URLS
from environments.taubench.data import file_sha256, resolve_dir

NOTICE = Path(__file__).with_name("LICENSE-taubench")


class FetchError(RuntimeError):
    """A download failed or a file did not match its pinned sha256."""


def fetch(
    dest: str | os.PathLike[str] | None = None,
    base_url: str | None = None,
    tasks_from: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Bring every pinned file into ``dest``; returns ``{file: what happened}``.

    What happened is ``present`` (already there, hash checked), ``downloaded <url>``, ``copied <path>``
    or ``missing`` (a task list with no source). Raises :class:`FetchError` on a failed download
    or a hash mismatch, naming the file.
    """
    import pooch  # imported here: loading data never needs it

    logging.getLogger("pooch").setLevel(logging.WARNING)
    folder = resolve_dir(dest)
    folder.mkdir(parents=True, exist_ok=True)
    done: dict[str, str] = {}
    for name, sha in SHA256.items():
        target = folder / name
        if target.is_file() and file_sha256(target) == sha:
            done[name] = "present"
            continue
        if base_url:
            url = f"{base_url.rstrip('/')}/{name}"
        elif name in UPSTREAM_URLS:
            url = UPSTREAM_URLS[name]
        elif tasks_from is not None:
            done[name] = _copy(Path(tasks_from) / name, target, sha)
            continue
        else:
            done[name] = "missing"
            continue
        try:
            pooch.retrieve(url, known_hash=f"sha256:{sha}", fname=name, path=folder, progressbar=False)
        except ValueError as exc:  # pooch's hash mismatch
            raise FetchError(
                f"{name} from {url} does not match its pinned sha256 {sha}; the file was not kept "
                f"(tampered, truncated or another version): {_first_line(exc)}"
            ) from None
        except Exception as exc:  # network and HTTP errors from requests
            raise FetchError(f"{name}: download from {url} failed: {_first_line(exc)}") from None
        done[name] = f"downloaded {url}"
    shutil.copyfile(NOTICE, folder / NOTICE.name)
    return done


def _copy(source: Path, target: Path, sha: str) -> str:
    if not source.is_file():
        raise FetchError(f"{source.name}: not found in {source.parent} (the folder given for the task lists)")
    got = file_sha256(source)
    if got != sha:
        raise FetchError(f"{source} has sha256 {got}, expected {sha}: not copied")
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
        tmp.write(source.read_bytes())
    os.replace(tmp.name, target)
    return f"copied {source}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def missing_help(folder: Path) -> str:
    tasks = ", ".join(TASK_FILES.values())
    return (
        f"the task lists ({tasks}) are not published upstream as JSON: rerun with --tasks-from DIR "
        f"(a folder holding them) or --base-url URL (a mirror serving all files), or copy them into {folder}"
    )
