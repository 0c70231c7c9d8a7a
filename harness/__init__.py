"""The tool-result stream (faults, monitor), the agent loop over litellm, and the runner."""

from environments import _offline  # noqa: F401  (sets the litellm offline variables first)
