"""The monitor where tools run: in front of an MCP server (``mcp`` extra), around an inspect_ai tool (``inspect`` extra)."""
