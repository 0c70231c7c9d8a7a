"""Offline defaults for every process, set before anything could import litellm.

litellm fetches a remote price map (and HF tokenizers) at import time unless told not to;
a user who wants live behaviour can export the variables themselves before starting.
"""

import os

OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_OFFLINE_MODE": "true",
    "LITELLM_LOG": "ERROR",
    "HF_HUB_OFFLINE": "1",
}


def apply() -> None:
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)


apply()
