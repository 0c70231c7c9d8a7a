"""Test-wide guards: offline litellm variables, and no network connection from any test.

A test that needs a socket to this machine (loopback) may open one; anything else fails loudly.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

from core.offline import OFFLINE_ENV

for _k, _v in OFFLINE_ENV.items():
    os.environ.setdefault(_k, _v)
os.environ.setdefault("MPLBACKEND", "Agg")

_real_getaddrinfo = socket.getaddrinfo
_real_connect = socket.socket.connect
_LOCAL_NAMES = {"localhost", "127.0.0.1", "::1", "", None}


class NetworkAttempt(RuntimeError):
    pass


def _is_local(host: object) -> bool:
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(str(host)).is_loopback
    except ValueError:
        return False


def _guarded_getaddrinfo(host, *args, **kwargs):
    if not _is_local(host):
        raise NetworkAttempt(f"test tried to resolve {host!r}: the harness must stay offline")
    return _real_getaddrinfo(host, *args, **kwargs)


def _guarded_connect(self, address):
    if isinstance(address, tuple) and not _is_local(address[0]):
        raise NetworkAttempt(f"test tried to connect to {address!r}: the harness must stay offline")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", _guarded_getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    yield


def pytest_addoption(parser):
    parser.addoption(
        "--slurm",
        action="store_true",
        help="run the tests marked slurm, on the cluster SLURM_CONF names (make test-slurm brings one up)",
    )


_TESTS = Path(__file__).resolve().parent
_reads_data: dict[Path, bool] = {}


def _mentions_datapaths(path: Path) -> bool:
    if path not in _reads_data:
        _reads_data[path] = path.is_file() and "datapaths" in path.read_text(encoding="utf-8")
    return _reads_data[path]


def _needs_data(path: Path) -> bool:
    """A test reads data a user must fetch when its module, or a conftest above it, uses tests/datapaths.py."""
    if _mentions_datapaths(path):
        return True
    folder = path.parent
    while folder == _TESTS or _TESTS in folder.parents:
        if folder != _TESTS and _mentions_datapaths(folder / "conftest.py"):
            return True
        folder = folder.parent
    return False


def pytest_collection_modifyitems(config, items):
    """Tests that read fetched data are marked ``data`` (CI's no-data step runs them with the data
    folders pointed at an empty folder: each must skip, never fail). Tests marked ``slurm`` need a
    cluster: deselected unless ``--slurm`` is given."""
    for item in items:
        if _needs_data(Path(str(item.path))):
            item.add_marker(pytest.mark.data)
    if config.getoption("--slurm"):
        return
    deselected = [item for item in items if item.get_closest_marker("slurm")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("slurm")]
