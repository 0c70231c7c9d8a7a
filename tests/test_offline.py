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
    return subprocess.run(
        [sys.executable, "-c", PROBE, *modules], capture_output=True, text=True, timeout=300
    )


def test_importing_packages_sets_offline_and_stays_offline():
    res = run_probe("environments", "harness", "analysis", "core.protocol")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ok" in res.stdout


def test_importing_litellm_after_the_project_makes_no_network_attempt():
    # litellm fetches its price map at import unless the offline variables were set first
    res = run_probe("harness", "litellm")
    assert res.returncode == 0, res.stdout + res.stderr


DENY_SITE = textwrap.dedent(
    """
    import socket
    def _deny(*a, **k):
        raise SystemExit("NETWORK ATTEMPT: %r" % (a[:1],))
    socket.getaddrinfo = _deny
    socket.socket.connect = lambda self, addr: _deny(addr)
    """
)


def run_cli_offline(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m ...`` with every socket lookup/connect denied (via sitecustomize)."""
    import os

    (tmp_path / "sitecustomize.py").write_text(DENY_SITE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LITELLM_")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=600, env=env)


def test_toolmaze_cli_runs_without_network(tmp_path):
    res = run_cli_offline(tmp_path, "environments.toolmaze", "describe", "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    assert '"sha256"' in res.stdout
    out = tmp_path / "c1.jsonl"
    res = run_cli_offline(
        tmp_path, "environments.toolmaze", "traces", "--mode", "P0", "--complexity", "C1", "--out", str(out)
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert out.read_text().count("\n") > 100


def test_the_network_guard_itself_fires(tmp_path):
    # the guard must be able to fail: a CLI that looks a host up is stopped and reported
    (tmp_path / "probe_net.py").write_text("import socket\nsocket.getaddrinfo('example.org', 80)\n")
    res = run_cli_offline(tmp_path, "probe_net")
    assert res.returncode != 0 and "NETWORK ATTEMPT" in (res.stdout + res.stderr)
