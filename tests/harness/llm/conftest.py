"""A small fake OpenAI-compatible server on 127.0.0.1 for the adapter's real HTTP path (test double).

``fake_openai`` starts one per test on a free loopback port. Tests queue replies with ``reply``,
``fail`` or ``hang``; each POST /v1/chat/completions takes the next one (an empty queue answers with
plain text). GET /v1/models lists one model. Every request is kept (arrival time, path, body) so
tests can see what litellm sent and how long the adapter waited between attempts.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

MODEL_ID = "fake-local-model"


@dataclass
class Seen:
    at: float  # time.monotonic() on arrival
    path: str
    body: dict


@dataclass
class FakeOpenAI:
    host: str
    port: int
    actions: deque = field(default_factory=deque)
    seen: list[Seen] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def chat_requests(self) -> list[Seen]:
        return [s for s in self.seen if s.path.endswith("/chat/completions")]

    def chat_requests_after(self, n: int, within_s: float = 10.0) -> list[Seen]:
        """The chat requests once ``n`` have arrived (or ``within_s`` passed): a request the client
        sent and gave up on may still be in the socket when the call returns, on a loaded machine."""
        deadline = time.monotonic() + within_s
        while len(self.chat_requests) < n and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.chat_requests

    def reply(self, message: dict, usage: dict | None = None, finish_reason: str = "stop") -> None:
        body = {
            "id": f"chatcmpl-{len(self.actions)}",
            "object": "chat.completion",
            "created": 0,
            "model": MODEL_ID,
            "choices": [
                {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish_reason}
            ],
            "usage": usage or {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25},
        }
        self.actions.append(("json", 200, body, {}))

    def fail(self, status: int, headers: dict[str, str] | None = None, message: str | None = None) -> None:
        body = {
            "error": {
                "message": message or f"fake server says {status}",
                "type": "fake_error",
                "code": status,
            }
        }
        self.actions.append(("json", status, body, headers or {}))

    def hang(self) -> None:
        """Hold the request open until the test ends (the client's timeout must fire)."""
        self.actions.append(("hang", 0, None, {}))


def _handler(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def _send(self, status: int, body: dict, headers: dict[str, str]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            server.seen.append(Seen(time.monotonic(), self.path, {}))
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]}, {})
            else:
                self._send(404, {"error": {"message": "not found"}}, {})

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            server.seen.append(Seen(time.monotonic(), self.path, body))
            if not self.path.endswith("/chat/completions"):
                self._send(404, {"error": {"message": "not found"}}, {})
                return
            if server.actions:
                kind, status, payload, headers = server.actions.popleft()
            else:
                kind, status, headers = "json", 200, {}
                payload = {
                    "id": "chatcmpl-default",
                    "object": "chat.completion",
                    "created": 0,
                    "model": MODEL_ID,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "done"},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 20, "completion_tokens": 1, "total_tokens": 21},
                }
            if kind == "hang":
                server.release.wait(30)
                self.close_connection = True
                return
            self._send(status, payload, headers)

    return Handler


@pytest.fixture
def fake_openai():
    state = FakeOpenAI(host="127.0.0.1", port=0)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
