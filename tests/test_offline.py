"""Importing the project, or running its CLIs, never tries the network (and sets litellm offline)."""

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import socket, sys
    def deny(*a, **k):
        raise SystemExit("NETWORK ATTEMPT: %r" % (a[:1],))
    socket.getaddrinfo = deny
    socket.socket.connect = lambda self, addr: deny(addr)
    import os
    for k in ("LITELLM_LOCAL_MODEL_COST_MAP", "LITELLM_OFFLINE_MODE"):
        os.environ.pop(k, None)
    import importlib
    for mod in sys.argv[1:]:
        importlib.import_module(mod)
    assert os.environ["LITELLM_OFFLINE_MODE"] == "true", "offline variables not set by the package"
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    print("ok")
    """
)


def run_probe(*modules: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE, *modules], capture_output=True, text=True, timeout=300)


def test_importing_packages_sets_offline_and_stays_offline():
    res = run_probe("environments", "harness", "analysis", "environments.base")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ok" in res.stdout


def test_importing_litellm_after_the_project_makes_no_network_attempt():
    # litellm fetches its price map at import unless the offline variables were set first
    res = run_probe("harness", "litellm")
    assert res.returncode == 0, res.stdout + res.stderr
