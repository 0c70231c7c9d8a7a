"""The outcome monitor's proxy in front of third-party MCP servers (scripts/mcp_servers_contracts.py).

``servers``: the catalogue (each server's command, fixtures and seeded workload of clean calls, its group);
``faults``: silent faults on a tool result, written here from scratch (nothing of ``harness/faults``);
``shim``: the MCP server that sits between the proxy and a server and applies them;
``run``: the sessions (record, learn, check clean, check faulted); ``report``: the tables.
"""
