"""AppWorldEnv and its plugin without the task data (tasks say what to run), the describe command,
the study config, and the full benchmark tasks when the user's data download is present."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from core.protocol import ToolCall
from core.worlds import get_plugin
from environments.appworld import paths
from environments.appworld.env import TERMINAL_TOOL, AppWorldDataMissing, AppWorldEnv

REPO = Path(__file__).resolve().parents[3]
needs_setup = pytest.mark.skipif(not paths.is_set_up(), reason=f"AppWorld setup missing: {paths.SETUP_HINT}")
needs_data = pytest.mark.skipif(not paths.has_task_data(), reason=paths.data_hint())


def test_plugin_shape():
    plugin = get_plugin("appworld")
    assert plugin.name == "appworld" and plugin.contract_sources == ("schemas",)
    env = plugin.make(pool_size=1)
    assert isinstance(env, AppWorldEnv) and env.needs_user is False and env.name == "appworld"
    assert plugin.select(env, "stratified_hash", {}, 0) is None  # not AppWorld's rule


def test_tasks_without_data_say_what_to_run(monkeypatch, tmp_path):
    monkeypatch.setenv("APPWORLD_ROOT", str(tmp_path))
    env = AppWorldEnv()
    with pytest.raises(AppWorldDataMissing) as err:
        env.tasks()
    msg = str(err.value)
    assert "appworld download data" in msg and "APPWORLD_ROOT" in msg and str(tmp_path) in msg
    with pytest.raises(AppWorldDataMissing):
        env.episode("any_1")


@needs_setup
def test_describe_json():
    done = subprocess.run(
        [sys.executable, "-m", "environments.appworld", "describe", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    per_app = info["apis_per_app"]
    # the counts the notes measured on appworld==0.1.3.post1
    assert per_app == {
        "amazon": 66,
        "api_docs": 4,
        "file_system": 26,
        "gmail": 42,
        "phone": 30,
        "simple_note": 17,
        "splitwise": 65,
        "spotify": 91,
        "supervisor": 6,
        "todoist": 56,
        "venmo": 54,
    }
    assert info["n_apis"] == sum(per_app.values()) == 457
    assert info["task_data"] is paths.has_task_data()


def test_describe_without_setup_is_one_clear_line(tmp_path):
    env = {"OM_APPWORLD_HOME": str(tmp_path / "nowhere"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "environments.appworld", "describe", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "make appworld-setup" in done.stderr and "Traceback" not in done.stderr


@needs_setup
def test_episode_tools_are_the_catalog():
    env = AppWorldEnv()
    specs = env.tool_specs()
    assert TERMINAL_TOOL in specs
    assert specs["spotify__show_song"].parameters["required"] == ["song_id"]  # public
    assert specs["spotify__show_account"].parameters["required"] == ["access_token"]  # secured
    assert (
        specs["spotify__show_song"].category == "read"
        and specs["venmo__create_transaction"].category == "write"
    )


@needs_setup
def test_call_validates_before_the_bridge():
    env = AppWorldEnv()
    from core.protocol import Task
    from environments.appworld.env import AppWorldEpisode

    ep = AppWorldEpisode(env, Task("t_1", "t", "", "appworld"))
    bad = asyncio.run(ep.call(ToolCall("spotify__show_song", {"song_id": "x"})))
    assert bad.status == "error" and bad.meta.get("validation_error")
    unknown = asyncio.run(ep.call(ToolCall("spotify__nope", {})))
    assert unknown.status == "error"


def test_heldout_study_config():
    from hydra import compose, initialize_config_dir

    from harness.config import CONF_DIR, register, to_config

    assert (
        (REPO / "environments/appworld/conf/study/appworld-heldout.yaml")
        .read_text()
        .startswith("# @package _global_")
    )
    register()
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(compose("config", overrides=["study=appworld-heldout"]))
    assert cfg.study.name == "appworld-heldout" and cfg.study.env.name == "appworld"
    assert list(cfg.arm) == ["baseline", "monitor"]
    assert cfg.study.selection.rule == "hash_sample" and cfg.study.selection.params["n"] == 32
    AppWorldEnv(**cfg.study.env.options)  # the options are AppWorldEnv's keywords


# ------------------------------------------------------------------------------ with the data download


@needs_setup
@needs_data
def test_heldout_selection_is_frozen():
    plugin = get_plugin("appworld")
    env = plugin.make()
    cfg = yaml.safe_load((REPO / "environments/appworld/conf/study/appworld-heldout.yaml").read_text())
    sel = cfg["study"]["selection"]
    first = plugin.select(env, sel["rule"], sel["params"], 0)
    again = plugin.select(plugin.make(), sel["rule"], sel["params"], 0)
    assert [t.task_id for t in first] == [t.task_id for t in again]
    assert len(first) == 32 and len({t.task_id for t in first}) == 32
    assert all(t.split == "test_normal" for t in first)


@needs_setup
@needs_data
def test_benchmark_episode_end_to_end():
    env = AppWorldEnv(pool_size=1)
    task = env.tasks("dev")[0] if env.tasks("dev") else env.tasks()[0]

    async def run():
        ep = env.episode(task.task_id)
        try:
            opening = await ep.open()
            assert task.task_id not in opening and len(opening) > 20
            names = {s.name for s in ep.tools()}
            assert TERMINAL_TOOL in names and "supervisor__show_account_passwords" in names
            pw = await ep.call(ToolCall("supervisor__show_account_passwords", {}))
            assert pw.status in ("ok", "error")
            done = await ep.call(ToolCall(TERMINAL_TOOL, {"answer": "unknown"}))
            out = await ep.score()
            assert 0.0 <= out.score <= 1.0 and "appworld" in out.details
            return done
        finally:
            await ep.close()
            await env.aclose()

    asyncio.run(run())


def test_main_side_never_imports_appworld():
    code = (
        "import sys\n"
        "import environments.appworld.plugin, environments.appworld.bridge, environments.appworld.probe\n"
        "import environments.appworld.__main__, environments.appworld.install\n"
        "bad = [m for m in sys.modules if m == 'appworld' or m.startswith('appworld.') or m == 'pydantic']\n"
        "print(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_data_digest_tracks_the_task_folder(monkeypatch, tmp_path):
    plugin = get_plugin("appworld")
    monkeypatch.setenv("APPWORLD_ROOT", str(tmp_path))
    without = plugin.data_digest(AppWorldEnv())
    (tmp_path / "data" / "tasks" / "a_1").mkdir(parents=True)
    (tmp_path / "data" / "tasks" / "a_1" / "specs.json").write_text("{}")
    with_tasks = plugin.data_digest(AppWorldEnv())
    assert without != with_tasks and with_tasks == plugin.data_digest(AppWorldEnv())
