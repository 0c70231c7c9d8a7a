"""World discovery: folders and entry points, one name each; configs of one group and name refused twice."""

from __future__ import annotations

import functools
import importlib.metadata
from pathlib import Path
from types import SimpleNamespace

import pytest

from core import worlds


@pytest.fixture(autouse=True)
def fresh_discovery():
    worlds.discover.cache_clear()
    worlds.config_index.cache_clear()
    yield
    worlds.discover.cache_clear()
    worlds.config_index.cache_clear()


def entry_point(name: str, value: str, dist: str = "someone-elses-world"):
    return SimpleNamespace(name=name, value=value, dist=SimpleNamespace(name=dist))


def test_the_projects_worlds_are_found_by_their_folders():
    found = worlds.discover()
    assert {"toolmaze", "taubench", "appworld"} <= set(found)
    for name, world in found.items():
        assert world.folder is not None and (world.folder / "plugin.py").is_file()
        assert worlds.get_plugin(name).name == name


def test_an_installed_package_is_a_world_by_its_entry_point(monkeypatch, tmp_path):
    pkg = tmp_path / "elsewhere_world"
    (pkg / "conf" / "study").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "plugin.py").write_text(
        "from core.plugin import Plugin\nclass P(Plugin):\n    name = 'elsewhere'\nPLUGIN = P()\n"
    )
    (pkg / "conf" / "study" / "elsewhere-study.yaml").write_text("# @package _global_\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [entry_point("elsewhere", "elsewhere_world.plugin:PLUGIN")]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: eps if group else [])
    found = worlds.discover()
    assert found["elsewhere"].folder == pkg and "entry point 'elsewhere'" in found["elsewhere"].origin
    assert worlds.get_plugin("elsewhere").name == "elsewhere"
    assert worlds.config_file("study", "elsewhere-study") == pkg / "conf" / "study" / "elsewhere-study.yaml"


def test_two_worlds_of_one_name_are_refused_naming_both(monkeypatch):
    eps = [entry_point("toolmaze", "somewhere.plugin:PLUGIN")]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: eps if group else [])
    with pytest.raises(worlds.DuplicateError) as err:
        worlds.discover()
    message = str(err.value)
    assert "two worlds are named 'toolmaze'" in message
    assert str(Path("environments") / "toolmaze") in message and "somewhere.plugin:PLUGIN" in message


def test_two_studies_of_one_name_are_refused_naming_both(monkeypatch, tmp_path):
    copy = tmp_path / "conf" / "study"
    copy.mkdir(parents=True)
    (copy / "table1.yaml").write_text("# @package _global_\n")
    real = worlds.config_roots()
    monkeypatch.setattr(worlds, "config_roots", lambda: [*real, ("other", tmp_path / "conf")])
    with pytest.raises(
        worlds.DuplicateError, match=r"two study configs are named 'table1': .*table1.yaml and .*table1.yaml"
    ):
        worlds.config_index()


def test_an_unknown_world_lists_the_known_ones():
    with pytest.raises(
        worlds.UnknownEnvironmentError, match=r"unknown environment .nowhere.; known: .*toolmaze"
    ):
        worlds.get_plugin("nowhere")


def test_a_group_file_without_its_package_line_is_refused(monkeypatch, tmp_path):
    """Selected beside another, a fault file without '# @package fault.<name>' would merge into it."""
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text("# @package fault.good\nname: good\n")
    bad.write_text("name: bad\n")
    index = {group: {} for group in worlds.CONFIG_GROUPS}
    index["fault"] = {"good": good}
    fake = functools.cache(lambda: index)
    monkeypatch.setattr(worlds, "config_index", fake)
    worlds.check()
    index["fault"]["bad"] = bad
    with pytest.raises(worlds.ConfigFileError, match=r"bad\.yaml: .*'# @package fault\.bad'"):
        worlds.check()
