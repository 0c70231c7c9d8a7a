"""The tau-bench retail client of a modest recording through the proxy (the world server's MCP side):
it reads fetched data (tests/datapaths.py), so it lives apart from the third-party servers' tests."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("mcp")

from tests.datapaths import TAUBENCH, require_retail  # noqa: E402
from tests.harness.mcp.test_outside import PY, _learn, _proxy, _receipt, _session  # noqa: E402


@pytest.mark.slow
def test_retail_modest_recording_is_quiet_on_held_out_lookups(tmp_path):
    """The retail client of a modest recording: 240 calls recorded (150 order lookups, 50 users, 40
    products), then 60 held-out clean order lookups draw at most one receipt."""
    require_retail()
    env = dict(os.environ, TAUBENCH_DATA=str(TAUBENCH))
    orders = json.loads((TAUBENCH / "retail" / "orders.json").read_text())
    products = json.loads((TAUBENCH / "retail" / "products.json").read_text())
    ids = sorted(orders)
    users = sorted({o["user_id"] for o in orders.values()})
    world = [PY, "-m", "environments.taubench", "mcp-serve"]
    calls = (
        [("get_order_details", {"order_id": o}) for o in ids[:150]]
        + [("get_user_details", {"user_id": u}) for u in users[:50]]
        + [("get_product_details", {"product_id": p}) for p in sorted(products)[:40]]
    )
    recording = tmp_path / "retail.jsonl"
    _session(_proxy("--record", str(recording), upstream=world), calls, env=env)
    assert len(recording.read_text().splitlines()) == 240
    learned = _learn(recording, tmp_path / "retail.json")
    assert learned["meta"].get("held_back")  # the support bound held some domains back, and says which
    lookups = [("get_order_details", {"order_id": o}) for o in ids[-60:]]
    _, clean = _session(_proxy("--registry", str(tmp_path / "retail.json"), upstream=world), lookups, env=env)
    fired = [_receipt(r) for r in clean if _receipt(r)]
    assert len(fired) <= 1, fired
