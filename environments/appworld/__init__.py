"""AppWorld (Trivedi et al., 2024) behind an isolated bridge: 9 apps, 457 APIs, state-based scoring.

The ``appworld`` package (pydantic 1) lives in its own venv under ``.appworld/`` and runs in bridge
subprocesses; this package only speaks to them. See README.md.
"""
