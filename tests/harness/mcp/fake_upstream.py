"""A bare-stdio MCP server that misbehaves on request (no SDK): tool ``ok`` answers, ``malformed``
answers with a result that is no CallToolResult, ``crash`` exits, ``hang`` never answers, ``quit``
answers and then exits (an upstream that dies while idle)."""

import json
import sys
import time

TOOLS = [
    {"name": n, "description": n, "inputSchema": {"type": "object", "properties": {}}}
    for n in ("ok", "malformed", "crash", "hang", "quit")
]


def reply(msg_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    method, msg_id = msg.get("method"), msg.get("id")
    if msg_id is None:
        continue  # notifications
    if method == "initialize":
        version = msg["params"]["protocolVersion"]
        reply(
            msg_id,
            {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "0"},
            },
        )
    elif method == "tools/list":
        reply(msg_id, {"tools": TOOLS})
    elif method == "tools/call":
        name = msg["params"]["name"]
        if name == "ok":
            reply(msg_id, {"content": [{"type": "text", "text": json.dumps({"n": 1})}]})
        elif name == "malformed":
            reply(msg_id, {"content": "not a list of blocks"})
        elif name == "crash":
            sys.exit(3)
        elif name == "quit":
            reply(msg_id, {"content": [{"type": "text", "text": json.dumps({"n": 0})}]})
            sys.exit(0)
        elif name == "hang":
            time.sleep(3600)
    else:
        sys.stdout.write(
            json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": method}}) + "\n"
        )
        sys.stdout.flush()
