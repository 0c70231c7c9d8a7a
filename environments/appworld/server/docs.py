"""API docs for the bridge: the released ``openapi`` docs of every app, built once into the cache.

Runs inside the AppWorld venv. The docs are generated from the installed (decrypted) app code and
stay in ``$APPWORLD_CACHE`` (licence: never committed). Knows nothing of worlds or the harness.
"""

from __future__ import annotations

import json
import os
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")


def docs_path() -> str:
    return os.path.join(os.environ["APPWORLD_CACHE"], "outcome-monitors", "openapi.json")


def build_docs() -> dict[str, Any]:
    """``{app: openapi document}`` for every public app (about 30 s: call once, then ``load_docs``)."""
    from appworld.api_docs import prepare_api_docs
    from appworld.apps import get_all_apps

    return {app: prepare_api_docs(app, format="openapi") for app in get_all_apps()}


def load_docs() -> dict[str, Any]:
    path = docs_path()
    if not os.path.exists(path):
        docs = build_docs()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(docs, fh)
        os.replace(tmp, path)  # atomic: two bridges building at once never leave half a file
        return docs
    with open(path) as fh:
        return json.load(fh)


def api_table(docs: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per public API: app, api, method, path, description, parameters (JSON Schema of the
    arguments, path and query parameters and the JSON body merged), and each response's schema
    by status code."""
    rows = []
    for app, doc in docs.items():
        for path, ops in doc["paths"].items():
            for method, op in ops.items():
                if method not in METHODS:
                    continue
                api = op["operationId"].split("__", 1)[1]
                props: dict[str, Any] = {}
                required: list[str] = []
                for p in op.get("parameters", []) or []:
                    sch = dict(p.get("schema") or {})
                    if p.get("description"):
                        sch.setdefault("description", p["description"])
                    props[p["name"]] = sch
                    if p.get("required"):
                        required.append(p["name"])
                body = (
                    ((op.get("requestBody") or {}).get("content") or {}).get("application/json") or {}
                ).get("schema")
                if body:
                    props.update(body.get("properties") or {})
                    required.extend(body.get("required") or [])
                secured = bool(op.get("security"))
                if secured:
                    props["access_token"] = {
                        "type": "string",
                        "description": "Access token from the app's login API.",
                    }
                    required.append("access_token")
                responses = {
                    code: ((r.get("content") or {}).get("application/json") or {}).get("schema") or {}
                    for code, r in (op.get("responses") or {}).items()
                }
                rows.append(
                    {
                        "name": f"{app}__{api}",
                        "app": app,
                        "api": api,
                        "method": method,
                        "path": path,
                        "description": op.get("description", ""),
                        "secured": secured,
                        "parameters": {
                            "type": "object",
                            "properties": props,
                            "required": sorted(set(required)),
                        },
                        "responses": responses,
                    }
                )
    return sorted(rows, key=lambda r: r["name"])
