"""A page per world, found the way the harness finds worlds: every ``environments/<name>/`` folder with
a README.md gets ``worlds/<name>.md`` embedding that README where it lives. A new world's folder
needs no edit to mkdocs.yml, so no file outside the folder names it (tests/test_layers.py)."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
SECTION = "Worlds"
log = logging.getLogger("mkdocs.plugins.worlds")


def _worlds(warn: bool = False) -> list[tuple[str, str]]:
    """(folder name, page title from the README's first heading) of every world with a README."""
    found = []
    for plugin in sorted((ROOT / "environments").glob("*/plugin.py")):
        readme = plugin.parent / "README.md"
        if not readme.is_file():  # a warning: --strict fails, so every world says what it is
            if warn:
                log.warning(f"world {plugin.parent.name!r} has no README.md: its docs page cannot be made")
            continue
        heading = next(
            (ln[2:] for ln in readme.read_text(encoding="utf-8").splitlines() if ln.startswith("# ")), ""
        )
        title = re.split(r":| \(| behind ", heading)[0].strip() or readme.parent.name
        found.append((readme.parent.name, title))
    return found


def on_config(config: Any) -> Any:
    for item in config["nav"]:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = [*item[SECTION], *({title: f"worlds/{name}.md"} for name, title in _worlds())]
            return config
    raise ValueError(f"mkdocs.yml's nav has no {SECTION!r} section for the world pages")


def on_files(files: Files, config: Any) -> Files:
    for name, _ in _worlds(warn=True):
        source = f"environments/{name}/README.md"
        page = f'--8<-- "{source}"\n\n---\n\n*This page is `{source}`, embedded where it lives beside the code.*\n'
        files.append(File.generated(config, f"worlds/{name}.md", content=page))
    return files
