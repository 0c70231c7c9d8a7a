"""Worlds the agents act in: tasks, tools and graders. They know nothing of monitors or models."""

from environments import _offline  # noqa: F401  (sets the litellm offline variables first)
