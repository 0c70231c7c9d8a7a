"""The floor every layer stands on: the world protocol, the plugin interface, world discovery,
seeded randomness and the offline defaults.

Imports nothing of ``environments``, ``harness`` or ``analysis`` (discovery loads worlds by name,
at run time). Importing it changes no environment variable: the entry points and the model door
call ``core.offline.apply()``.
"""
