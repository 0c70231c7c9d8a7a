"""Hydra finds this package's search-path plugin by scanning the ``hydra_plugins`` namespace."""
