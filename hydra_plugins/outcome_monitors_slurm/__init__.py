"""Hydra finds this package's launcher (hydra/launcher=slurm) by scanning the ``hydra_plugins`` namespace."""
