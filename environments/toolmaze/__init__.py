"""ToolMaze: an offline, deterministic re-implementation (see README.md in this folder)."""
