"""Structure read out of text: parsing (JSON, Python literals, tables) and per-tool views."""
