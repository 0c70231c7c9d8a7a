"""Each discovered world's own configs (``<world folder>/conf``) join Hydra's search path.

So ``python -m harness.run study=NAME`` finds a study, env or fault config inside any world's folder
(``core.worlds``), and the root ``conf/`` keeps only what is generic. Only this project's app is
touched: another Hydra app in the same environment keeps its own search path.
"""

from __future__ import annotations

from hydra.core.config_search_path import ConfigSearchPath
from hydra.plugins.search_path_plugin import SearchPathPlugin


class WorldConfigs(SearchPathPlugin):
    def manipulate_search_path(self, search_path: ConfigSearchPath) -> None:
        from core.worlds import ROOT_CONF, config_roots

        ours = {f"file://{ROOT_CONF}", str(ROOT_CONF)}
        if not any(str(el.path) in ours or str(el.path).rstrip("/") in ours for el in search_path.get_path()):
            return
        for owner, conf in config_roots():
            if owner != "root":
                search_path.append(provider=f"world-{owner}", path=f"file://{conf}")
