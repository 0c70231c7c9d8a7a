"""Offline defaults, set by every entry point and by the model door before litellm is imported.

litellm fetches a remote price map (and HF tokenizers) at import time unless told not to. Importing
this module changes nothing: a library user's process keeps its environment (``import
harness.monitor`` sets no variable). ``apply()`` is called by the project's own entry points
(``python -m harness.run``, ``harness.verify``, ``harness.monitor``, ``harness.mcp``, ...) and by
``harness.llm`` (the one door to litellm), so nothing reaches the network unless a real model is
asked for. A user who wants live behaviour exports the variables before starting; ``setdefault``
keeps theirs.
"""

import os

OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_LOG": "ERROR",
    "HF_HUB_OFFLINE": "1",
}


def apply() -> None:
    """Set each offline variable the environment does not set already."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
