"""The library's own tests: they import ``outcome_monitor``, the standard library, pytest and this
folder's ``fixtures`` only, so they run from the checkout's root (``pytest``) and in a fresh venv
holding just the built wheel and pytest. Under ``--import-mode=importlib`` (the root's setting)
pytest puts no test folder on ``sys.path``, so this one adds itself for ``import fixtures``."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
