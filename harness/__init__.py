"""The tool-result stream (faults, monitor), the agent loop over litellm, and the runner.

Importing the package changes no environment variable (``harness.monitor`` is a library too); the
entry points and ``harness.llm`` apply the offline defaults (``core.offline``).
"""
