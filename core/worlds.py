"""Where worlds are found: every folder under ``environments/`` holding a plugin module, and every
installed package declaring an entry point in the group ``outcome_monitors.worlds``.

No list to edit: a world is discovered by its folder (``environments/<name>/plugin.py`` defining
``PLUGIN``) or by its entry point (``<name> = "package.module:PLUGIN"``, so a world can live in
another repository). Its configs (``conf/env``, ``conf/study``, ``conf/fault`` inside its folder)
join Hydra's search path (``hydra_plugins/outcome_monitors_worlds``). Two worlds of one name, or
two configs of one group and name, are refused with one line naming both places.

``get_plugin`` also takes a ``module:attr`` reference (a world that lives elsewhere, such as the
tests' small worlds). Discovery reads folders and package metadata only; a world's modules are
imported when it is asked for, so loading one world never loads the others.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from core.plugin import Plugin
from core.protocol import Environment

ENTRY_POINT_GROUP = "outcome_monitors.worlds"
WORLDS_PACKAGE = "environments"
ROOT_CONF = Path(__file__).resolve().parents[1] / "conf"  # the generic configs: arms, models, launchers
CONFIG_GROUPS = ("env", "study", "fault", "arm", "model")


class UnknownEnvironmentError(KeyError):
    """No such world (or it is not in this checkout)."""


class DuplicateError(ValueError):
    """Two worlds, or two configs of one group, share a name: which one is meant is not ours to guess."""


class ConfigFileError(ValueError):
    """A config file that Hydra would compose into something else than it means (its package line)."""


@dataclass(frozen=True)
class World:
    """A discovered world: its name, its plugin reference, its folder and where it was found."""

    name: str
    ref: str  # "module:attr" of its Plugin
    folder: Path | None
    origin: str  # a folder path or "entry point <name> of <distribution>"

    @property
    def conf(self) -> Path | None:
        conf = self.folder / "conf" if self.folder else None
        return conf if conf is not None and conf.is_dir() else None


def _folder_worlds() -> list[World]:
    spec = importlib.util.find_spec(WORLDS_PACKAGE)
    out = []
    for base in (spec.submodule_search_locations or []) if spec else []:
        for folder in sorted(Path(base).iterdir()):
            if folder.is_dir() and (folder / "plugin.py").is_file() and folder.name.isidentifier():
                out.append(
                    World(folder.name, f"{WORLDS_PACKAGE}.{folder.name}.plugin:PLUGIN", folder, str(folder))
                )
    return out


def _entry_point_worlds() -> list[World]:
    out = []
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep.dist, "name", None) or "an installed package"
        module = ep.value.partition(":")[0]
        package = module.rpartition(".")[0] or module
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        folder = Path(spec.origin).parent if spec is not None and spec.origin else None
        out.append(World(ep.name, ep.value, folder, f"entry point {ep.name!r} of {dist} ({ep.value})"))
    return out


@cache
def discover() -> dict[str, World]:
    """Every world by name; two of one name raise ``DuplicateError`` naming both places."""
    found: dict[str, World] = {}
    for world in [*_folder_worlds(), *_entry_point_worlds()]:
        if world.name in found:
            raise DuplicateError(
                f"two worlds are named {world.name!r}: {found[world.name].origin} and {world.origin}; "
                "rename one of them"
            )
        found[world.name] = world
    return found


def world_names() -> list[str]:
    return sorted(discover())


def config_roots() -> list[tuple[str, Path]]:
    """(owner, conf folder): the generic root configs first, then each world's own."""
    roots = [("root", ROOT_CONF)] if ROOT_CONF.is_dir() else []
    return roots + [(w.name, w.conf) for w in discover().values() if w.conf is not None]


@cache
def config_index() -> dict[str, dict[str, Path]]:
    """group -> config name -> its file, over every config root; a name twice in a group raises."""
    index: dict[str, dict[str, Path]] = {group: {} for group in CONFIG_GROUPS}
    for _owner, root in config_roots():
        for group in CONFIG_GROUPS:
            for path in sorted((root / group).glob("*.yaml")):
                seen = index[group].get(path.stem)
                if seen is not None:
                    raise DuplicateError(
                        f"two {group} configs are named {path.stem!r}: {seen} and {path}; rename one of them"
                    )
                index[group][path.stem] = path
    return index


def config_file(group: str, name: str) -> Path | None:
    """The file of config ``group/name`` wherever it lives (root or a world's folder), or None."""
    return config_index().get(group, {}).get(name)


# groups whose configs are selected several at a time: each file puts itself under its own name
MULTI_SELECT_GROUPS = ("arm", "model", "fault")


def check() -> None:
    """Raise ``DuplicateError`` if two worlds or two configs of one group share a name; ``ConfigFileError`` if an arm,
    model or fault file does not put itself under its name (its first line ``# @package <group>.<name>``:
    without it, selecting it beside another would merge the two into one)."""
    discover()
    index = config_index()
    for group in MULTI_SELECT_GROUPS:
        for name, path in index[group].items():
            lines = path.read_text(encoding="utf-8").splitlines()
            if not lines or lines[0].strip() != f"# @package {group}.{name}":
                raise ConfigFileError(
                    f"{path}: an {group} config starts with the line '# @package {group}.{name}' (it puts the "
                    f"config under its name, so several {group} configs can be selected at once); add it"
                )


def get_plugin(name: str) -> Plugin:
    world = discover().get(name)
    if world is None and ":" not in name:
        known = ", ".join(world_names()) or "none"
        raise UnknownEnvironmentError(
            f"unknown environment {name!r}; known: {known} (python -m environments list)"
        )
    ref = world.ref if world is not None else name
    module, _, attr = ref.partition(":")
    try:
        plugin: Any = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as exc:
        raise UnknownEnvironmentError(
            f"environment {name!r} is not available in this checkout ({exc})"
        ) from None
    except AttributeError:
        raise UnknownEnvironmentError(f"environment {name!r}: {module} has no {attr!r}") from None
    if not isinstance(plugin, Plugin):
        raise UnknownEnvironmentError(f"environment {name!r}: {ref} is not a core.plugin.Plugin")
    if world is not None and plugin.name != name:
        raise UnknownEnvironmentError(
            f"environment {name!r}: its plugin ({ref}) is named {plugin.name!r}; a world's plugin must carry "
            "the name it is found by (its folder or entry point name)"
        )
    return plugin


def get_environment(name: str, **options: Any) -> Environment:
    return get_plugin(name).make(**options)
