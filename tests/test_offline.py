"""Importing the project changes no environment variable and never tries the network; its entry points
and the model door (``harness.llm``) set the offline defaults, so litellm stays offline too."""

import subprocess
import sys
import textwrap

from core.offline import OFFLINE_ENV

PROBE = textwrap.dedent(
    """
    import socket, sys
    def deny(*a, **k):
        raise SystemExit("NETWORK ATTEMPT: %r" % (a[:1],))
    socket.getaddrinfo = deny
    socket.socket.connect = lambda self, addr: deny(addr)
    import os
    for k in ("LITELLM_LOCAL_MODEL_COST_MAP", "LITELLM_OFFLINE_MODE", "LITELLM_LOG", "HF_HUB_OFFLINE"):
        os.environ.pop(k, None)
    import importlib
    before = dict(os.environ)
    for mod in sys.argv[1:]:
        importlib.import_module(mod)
        if mod == "harness.llm":  # the model door: offline defaults before litellm could be imported
            assert os.environ.get("LITELLM_OFFLINE_MODE") == "true", "the model door did not set the offline variables"
            assert os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP") == "True"
            before = dict(os.environ)
        changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
        assert not changed, "importing %s changed %s" % (mod, changed)
    print("ok")
    """
)


def run_probe(*modules: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *modules], capture_output=True, text=True, timeout=300
    )


def test_importing_packages_changes_no_environment_and_stays_offline():
    res = run_probe("environments", "harness", "analysis", "core.protocol", "harness.monitor")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ok" in res.stdout


def test_importing_litellm_through_the_model_door_makes_no_network_attempt():
    # litellm fetches its price map at import unless the offline variables were set first
    res = run_probe("harness", "harness.llm", "litellm")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ok" in res.stdout


def test_the_probe_can_fail():
    # without the door the variables stay unset, and the probe says the door did not set them
    res = subprocess.run(
        [sys.executable, "-c", PROBE.replace('mod == "harness.llm"', 'mod == "harness"'), "harness"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode != 0 and "did not set the offline variables" in res.stderr


DENY_SITE = textwrap.dedent(
    """
    import socket
    def _deny(*a, **k):
        raise SystemExit("NETWORK ATTEMPT: %r" % (a[:1],))
    socket.getaddrinfo = _deny
    socket.socket.connect = lambda self, addr: _deny(addr)
    import atexit, os, sys
    # what an entry point left in its own environment, for test_entry_points_set_the_offline_defaults
    atexit.register(lambda: sys.stderr.write("OFFLINE_ENV %s\\n" % os.environ.get("LITELLM_OFFLINE_MODE")))
    """
)


def run_cli_offline(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m ...`` with every socket lookup/connect denied (via sitecustomize)."""
    import os

    (tmp_path / "sitecustomize.py").write_text(DENY_SITE)
    env = {k: v for k, v in os.environ.items() if k not in OFFLINE_ENV}
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


def test_entry_points_set_the_offline_defaults(tmp_path):
    # `python -m ...` without make (which exports the variables too) is offline by itself
    for module in ("harness.run", "harness.verify", "harness.monitor", "harness.mcp", "harness.evaluations"):
        res = run_cli_offline(tmp_path, module, "--help")
        assert "NETWORK ATTEMPT" not in res.stdout + res.stderr, module
        assert "OFFLINE_ENV true" in res.stderr, (
            f"{module} did not set the offline variables: {res.stderr[-500:]}"
        )
