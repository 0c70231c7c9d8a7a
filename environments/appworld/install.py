"""``python3 -m environments.appworld.install``: the AppWorld venv, its app code and API docs, once.

Standard library only (it runs before any venv exists). Creates ``.appworld/venv`` with the pinned
``requirements.lock``, runs ``appworld install`` (unpacks the app code) and builds the ``openapi``
docs, with every AppWorld cache under ``.appworld/cache`` (``APPWORLD_CACHE``; never ``~/.appworld``).
A stamp holding the hash of the lock file makes a rerun a no-op.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from environments.appworld import paths

LOCK = Path(__file__).resolve().parent / "requirements.lock"


def _key() -> str:
    text = LOCK.read_text() + paths.APPWORLD_VERSION + f"{sys.version_info[0]}.{sys.version_info[1]}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _docs_file() -> Path:
    return paths.CACHE / "outcome-monitors" / "openapi.json"


def _run(cmd: list[str], what: str, **kw) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"error: appworld-setup: {what} failed: {tail[0]}")


def main() -> int:
    key = _key()
    if paths.is_set_up() and paths.STAMP.read_text().strip() == key and _docs_file().exists():
        print(f"AppWorld setup in place ({paths.HOME})")
        return 0
    if sys.version_info < (3, 11):  # noqa: UP036 (runs under the system python, before any venv)
        print("error: appworld-setup needs Python >= 3.11 (set PY=python3.11)", file=sys.stderr)
        return 2
    if paths.STAMP.exists() and paths.STAMP.read_text().strip() != key:
        _docs_file().unlink(missing_ok=True)  # another pinned set: its docs may differ
    home_cache = Path.home() / ".appworld"
    home_before = home_cache.exists()
    paths.HOME.mkdir(parents=True, exist_ok=True)
    paths.CACHE.mkdir(parents=True, exist_ok=True)
    paths.root().mkdir(parents=True, exist_ok=True)
    if not paths.PYTHON.exists():
        print(f"creating {paths.VENV}")
        _run([sys.executable, "-m", "venv", str(paths.VENV)], "creating the venv")
    print("installing appworld (pinned, about 40 s on a fresh venv)")
    _run(
        [str(paths.PYTHON), "-m", "pip", "install", "-q", "-r", str(LOCK)], "pip install -r requirements.lock"
    )
    print("unpacking the app code (appworld install)")
    _run(
        [str(paths.VENV / "bin" / "appworld"), "install"],
        "appworld install",
        cwd=str(paths.root()),
        env=paths.bridge_env(),
    )
    print("building the openapi docs into the cache (about 30 s, once)")
    lines = json.dumps({"id": 1, "op": "apis"}) + "\n" + json.dumps({"id": 2, "op": "exit"}) + "\n"
    done = subprocess.run(
        [str(paths.PYTHON), str(paths.SERVER)],
        input=lines,
        capture_output=True,
        text=True,
        cwd=str(paths.root()),
        env=paths.bridge_env(),
    )
    reply = json.loads(done.stdout.splitlines()[0]) if done.stdout.strip() else {}
    if not reply.get("ok"):
        print(
            f"error: appworld-setup: building the API docs failed: {reply.get('error') or done.stderr[-300:]}",
            file=sys.stderr,
        )
        return 2
    if not home_before and home_cache.exists():
        print(
            f"error: appworld-setup: something wrote {home_cache}; APPWORLD_CACHE should keep it under "
            f"{paths.CACHE}",
            file=sys.stderr,
        )
        return 2
    paths.STAMP.write_text(key + "\n")
    print(f"AppWorld ready: {len(reply['result'])} APIs; venv {paths.VENV}, cache {paths.CACHE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
