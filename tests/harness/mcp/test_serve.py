"""The world server's session (no transport): one fresh database for the session, and a fault applied
to each result it can touch with probability --rate, drawn from --seed."""

from __future__ import annotations

import json

import pytest

from harness.mcp.serve import WorldSession
from tests.datapaths import TAUBENCH as SHARED
from tests.datapaths import require_retail


@pytest.fixture(scope="module")
def orders() -> list[str]:
    require_retail()
    return sorted(json.loads((SHARED / "retail" / "orders.json").read_text()))[:40]


def _statuses(session: WorldSession, orders: list[str]) -> list[str]:
    import anyio

    async def go() -> list[str]:
        return [(await session.call("get_order_details", {"order_id": o})).content["status"] for o in orders]

    return anyio.run(go)


def test_rate_decides_how_many_touchable_results_are_corrupted(orders, monkeypatch):
    monkeypatch.setenv("TAUBENCH_DATA", str(SHARED))
    clean = _statuses(WorldSession("taubench", {}), orders)
    known = {"pending", "processed", "delivered", "cancelled", "exchange requested", "return requested"}
    assert set(clean) <= known
    every = _statuses(WorldSession("taubench", {}, fault="taubench_status", seed=1), orders)
    assert all(s not in known for s in every)
    half = _statuses(WorldSession("taubench", {}, fault="taubench_status", seed=1, rate=0.5), orders)
    n = sum(s not in known for s in half)
    assert 8 <= n <= 32
    again = _statuses(WorldSession("taubench", {}, fault="taubench_status", seed=1, rate=0.5), orders)
    assert again == half  # seeded
    none = _statuses(WorldSession("taubench", {}, fault="taubench_status", seed=1, rate=0.0), orders)
    assert none == clean


def test_the_session_keeps_one_database(monkeypatch):
    require_retail()
    monkeypatch.setenv("TAUBENCH_DATA", str(SHARED))
    import anyio

    session = WorldSession("taubench", {})
    orders = json.loads((SHARED / "retail" / "orders.json").read_text())
    pending = next(o for o, v in sorted(orders.items()) if v["status"] == "pending")

    async def go() -> tuple:
        done = await session.call("cancel_pending_order", {"order_id": pending, "reason": "no longer needed"})
        after = await session.call("get_order_details", {"order_id": pending})
        return done, after

    done, after = anyio.run(go)
    assert done.status == "ok" and after.content["status"] == "cancelled"


@pytest.mark.parametrize(
    "kwargs, says",
    [({"fault": "no_such_fault"}, "unknown fault"), ({"rate": 2.0}, "--rate must be within")],
)
def test_bad_options_are_one_message(kwargs, says):
    # checked before the world's data is read: ToolMaze needs none, so this runs on a fresh clone
    with pytest.raises(ValueError, match=says):
        WorldSession("toolmaze", {}, **kwargs)
