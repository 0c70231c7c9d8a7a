"""BFCL multi-turn (the pinned ``bfcl-eval`` wheel, imported unmodified from its data folder) as a world."""
