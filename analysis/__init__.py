"""Numbers and pictures from episode records alone. Never imports litellm."""

from core import offline  # noqa: F401  (sets the litellm offline variables first)
