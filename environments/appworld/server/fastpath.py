"""A faster road to the same AppWorld responses: the ASGI app driven in this thread.

Runs inside the AppWorld venv. AppWorld's own request path (``Requester._request``) goes through
Starlette's ``TestClient``: httpx builds and parses a URL, a portal thread runs the event loop, and
FastAPI hands every sync dependency, endpoint and response validation to a worker thread. That is
~4 thread hand-offs per call, most of the round trip. Here the same FastAPI app (routing, argument
validation, exception handlers, response models, SQLite) gets the same ASGI scope and body, on an
event loop in this thread, and sync functions run inline (in a copied context, as the thread pool
does). Anything unusual (an unknown app or API, a path that httpx would re-encode, a redirect, a
request counter limit, timing on) goes through AppWorld's own path instead, so answers never differ.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

_METHODS = ("get", "post", "put", "patch", "delete")
# arguments that AppWorld's ``_request`` takes as its own keywords rather than as API data
_OWN_KEYWORDS = frozenset({"client", "raise_on_failure", "track", "show", "_app_name", "_api_name"})
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
# (module, name) of every thread-pool hand-off on an AppWorld request: FastAPI/Starlette's
# run_in_threadpool (sync dependencies, endpoints, response validation, exception handlers) and
# fastapi_login's anyio run_sync (the sync user loader behind every access token)
_THREADPOOL_USES = (
    ("fastapi.routing", "run_in_threadpool"),
    ("fastapi.dependencies.utils", "run_in_threadpool"),
    ("starlette.routing", "run_in_threadpool"),
    ("starlette._exception_handler", "run_in_threadpool"),
    ("starlette.middleware.errors", "run_in_threadpool"),
    ("fastapi_login.fastapi_login", "run_sync"),
)


def _plain(path: str) -> bool:
    """A path httpx sends unchanged: safe characters only, no empty, '.' or '..' segment."""
    if not _SAFE.issuperset(path):
        return False
    return all(seg not in ("", ".", "..") for seg in path[1:].split("/"))


async def _inline(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    # the thread pool runs func in a copy of the caller's context; so do we, minus the thread hop
    return contextvars.copy_context().run(func, *args, **kwargs)


async def _inline_run_sync(func: Callable[..., Any], *args: Any, **_options: Any) -> Any:
    # anyio's run_sync: keyword arguments are its options (limiter, cancellable), not func's
    return contextvars.copy_context().run(func, *args)


class _Response:
    """What AppWorld reads from an httpx response (``raise_if_failure``, ``response_to_json``)."""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content

    @property
    def text(self) -> str:
        # httpx decodes with the declared charset, utf-8 by default; AppWorld answers in utf-8 JSON
        return self.content.decode("utf-8", errors="replace") if self.content else ""

    def json(self) -> Any:
        return json.loads(self.content)  # what httpx's Response.json() does


class _Fallback(Exception):
    """This request takes AppWorld's own path."""


def _encode(data: dict[str, Any]) -> bytes:
    """httpx's urlencoding of ``params=`` / ``data=``: lists repeat the key, True -> 'true', None -> ''."""
    items: list[tuple[str, str]] = []
    for key, value in data.items():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v is not None and not isinstance(v, (str, int, float, bool)):
                raise _Fallback  # httpx would str() a dict: leave such oddities to it
            items.append(
                (str(key), "true" if v is True else "false" if v is False else "" if v is None else str(v))
            )
    return urlencode(items).encode("ascii")


class FastRequester:
    """``request(app, api, args)``: the response ``requester._request(...)`` gives, sooner."""

    def __init__(self, requester: Any):
        import sys

        from appworld.apps import get_all_apps
        from appworld.requester import RequestTimeTracker, _get_api_name_to_doc

        self.requester = requester
        self._docs = _get_api_name_to_doc
        self._timing = RequestTimeTracker
        self._apps = set(get_all_apps(skip_admin=False, skip_api_docs=False, skip_supervisor=False))
        client = requester.client
        transport = client._transport  # Starlette's TestClient transport: the app, root path, state
        self._client = client
        self._app = transport.app
        self._root_path = transport.root_path
        self._app_state = transport.app_state
        netloc = client.base_url.netloc.decode("ascii")
        host, _, port = netloc.partition(":")
        self._server = [host, int(port) if port else 80]
        # the headers the TestClient's httpx client puts on every request, in its order
        self._headers = [(b"host", netloc.encode("ascii"))] + [
            (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in client.headers.multi_items()
        ]
        self._base = client.base_url.raw_path.rstrip(b"/").decode("ascii")
        self._loop = asyncio.new_event_loop()
        self._swaps = [
            (sys.modules[m], name, _inline_run_sync if name == "run_sync" else _inline)
            for m, name in _THREADPOOL_USES
            if m in sys.modules and hasattr(sys.modules[m], name)
        ]
        self.fast = 0  # calls served here
        self.slow = 0  # calls handed to AppWorld's own path
        self.last_road = ""  # which of the two served the last call

    def request(self, app: str, api: str, args: dict[str, Any]) -> Any:
        self.last_road = "fast"
        try:
            response = self._fast(app, api, args)
        except _Fallback:
            response = None
        if response is None:
            self.slow += 1
            self.last_road = "appworld"
            return self.requester._request(_app_name=app, _api_name=api, **args)
        self.fast += 1
        self.last_road = "fast"
        return response

    def _fast(self, app: str, api: str, args: dict[str, Any]) -> Any:
        req = self.requester
        if (
            app not in self._apps
            or self._timing.on
            or not _OWN_KEYWORDS.isdisjoint(args)
            or req.client is not self._client
            or self._client.cookies
            or req.remote_apis_url
        ):
            return None
        doc = self._docs(app, include_private_apis=True).get(api)
        if doc is None:
            return None  # AppWorld's path raises its own "No API named ..." error
        path, method = doc["path"], doc["method"].lower()
        if method not in _METHODS:
            return None
        data = copy.deepcopy(args)
        for name in list(data):  # path parameters, substituted as AppWorld does
            if "{" + name + "}" in path:
                path = path.replace("{" + name + "}", str(data[name]))
                data.pop(name)
        if not path.startswith("/") or not _plain(path):
            return None
        headers = list(self._headers)
        query = body = b""
        send_data = dict(data)
        if "access_token" in send_data:  # Requester.prepare: the token travels as a bearer header
            headers.append((b"authorization", f"Bearer {send_data.pop('access_token')}".encode("latin-1")))
        if method in ("get", "delete"):
            query = _encode(send_data)
        elif "auth/token" in path:  # the login form, urlencoded
            if not send_data:
                return None
            body = _encode(send_data)
            headers += [
                (b"content-length", str(len(body)).encode()),
                (b"content-type", b"application/x-www-form-urlencoded"),
            ]
        else:
            body = json.dumps(send_data).encode("utf-8")  # httpx's json= encoding
            headers += [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")]
        # from here on the request counts, exactly as on AppWorld's path (which may raise its limit error)
        req.request_tracker.add_request(method=method, url=path, data=data)
        status, content = self._run(method.upper(), self._base + path, query, body, headers)
        if 300 <= status < 400:  # a redirect httpx would follow (none expected): let AppWorld's path do it
            self.last_road = "appworld"
            return req._request(_app_name=app, _api_name=api, track=False, **args)
        response = _Response(status, content)
        req.raise_if_failure(response)
        return response

    def _run(
        self, method: str, path: str, query: bytes, body: bytes, headers: list[tuple[bytes, bytes]]
    ) -> tuple[int, bytes]:
        """One ASGI request/response cycle on this thread's loop, with the TestClient's scope."""
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method,
            "path": path,
            "raw_path": (path + "?" + query.decode("ascii") if query else path).encode("ascii"),
            "root_path": self._root_path,
            "scheme": "http",
            "query_string": query,
            "headers": headers,
            "client": ["testclient", 50000],
            "server": list(self._server),
            "extensions": {"http.response.debug": {}},
            "state": self._app_state.copy(),
        }
        sent = False
        done = asyncio.Event()
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await done.wait()
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                if method != "HEAD":
                    chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    done.set()

        # swapped in for this request only: AppWorld's own path keeps its threads, as shipped
        saved = [getattr(mod, name) for mod, name, _ in self._swaps]
        for mod, name, inline in self._swaps:
            setattr(mod, name, inline)
        try:
            # an exception in the app propagates, as with the TestClient (raise_server_exceptions)
            self._loop.run_until_complete(self._app(scope, receive, send))
        finally:
            for (mod, name, _), original in zip(self._swaps, saved, strict=True):
                setattr(mod, name, original)
        if not status:
            raise AssertionError("TestClient did not receive any response.")
        return status, b"".join(chunks)
