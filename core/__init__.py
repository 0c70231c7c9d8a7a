"""The floor every layer stands on: the world protocol, the plugin interface, world discovery,
seeded randomness and the offline defaults.

Imports nothing of ``environments``, ``harness`` or ``analysis`` (discovery loads worlds by name,
at run time). Importing it sets the litellm offline variables first (``core.offline``).
"""

from core import offline  # noqa: F401  (sets the litellm offline variables before anything imports litellm)
