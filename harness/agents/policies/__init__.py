"""Scripted policies: importing this package imports every module in it, and each registers itself.

A new policy is one file here calling ``register_policy(name, factory)``; no list to edit.
"""

import importlib
import pkgutil

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _mod.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod}")
