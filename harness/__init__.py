"""The tool-result stream (faults, monitor), the agent loop over litellm, and the runner."""

from core import offline  # noqa: F401  (sets the litellm offline variables first)
