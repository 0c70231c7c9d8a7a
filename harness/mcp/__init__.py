"""A discovered world's tools served over MCP stdio (``python -m harness.mcp serve``), optionally with a
fault of the fault library applied to its results. Needs the ``mcp`` extra (``make mcp``)."""
