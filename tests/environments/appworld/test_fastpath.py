"""The bridge's fast road answers exactly as AppWorld's own request path does.

Reads: every probe response of the session world (drawn on the fast road) is asked again on
``road="appworld"`` (AppWorld's TestClient path) and must be equal, status and body. Writes change
the world, so they go to two twin worlds (same seed, same frozen clock), one per road, in the same
order. Odd requests (bad types, unknown APIs, missing or bad tokens, paths httpx would re-encode,
AppWorld's own keywords) are compared too, and must not all be handed to AppWorld's path.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest

from environments.appworld import paths
from environments.appworld.bridge import Bridge, BridgeError
from environments.appworld.probe import probe_calls

pytestmark = pytest.mark.skipif(not paths.is_set_up(), reason=f"AppWorld setup missing: {paths.SETUP_HINT}")

FROZEN = "2023-05-18T12:00:00"
WRITES = ("post", "put", "patch", "delete")
SESSION_ENDERS = ("logout", "delete_account")
CLOCK_READS = ("get_current_date_and_time",)  # the session world's clock runs: compare status only


def _odd_calls(world: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Requests off the beaten track: each must get AppWorld's own answer on the fast road too."""
    song = world["ids"]["spotify"]["Song"][0]
    token = world["tokens"]["spotify"]
    email = world["users"]["spotify"]["email"]
    return [
        ("spotify", "show_song", {"song_id": "abc"}),  # 422, bad type
        ("spotify", "show_song", {"song_id": -3}),  # 409-style not found
        ("spotify", "show_song", {"song_id": 1.5}),
        ("spotify", "show_song", {}),  # path parameter missing
        ("spotify", "show_song", {"song_id": ""}),  # empty segment (a trailing slash)
        ("spotify", "show_song", {"song_id": "1 2"}),  # needs percent-encoding
        ("spotify", "show_song", {"song_id": "1?x=2"}),
        ("spotify", "show_song", {"song_id": "../songs"}),
        ("spotify", "show_song", {"song_id": "%41"}),
        ("spotify", "show_song", {"song_id": "é"}),
        ("spotify", "show_song", {"song_id": song, "track": False}),  # AppWorld's own keyword
        ("spotify", "show_song", {"song_id": song, "unknown_arg": 1}),
        ("spotify", "no_such_api", {}),  # AppWorld raises: a 500
        ("no_such_app", "show_song", {}),
        ("spotify", "show_song_privates", {"song_id": song}),  # 401, no token
        ("spotify", "show_song_privates", {"song_id": song, "access_token": "bad"}),
        ("spotify", "show_song_privates", {"song_id": song, "access_token": None}),
        ("spotify", "show_song_privates", {"song_id": song, "access_token": token}),
        ("spotify", "search_songs", {"query": "é ü & =+", "page_limit": 3}),
        ("spotify", "search_songs", {"query": None, "page_index": True}),
        ("spotify", "search_songs", {"query": ["a", "b"], "page_limit": "x"}),
        ("spotify", "search_songs", {"query": {"a": 1}}),  # httpx str()s a dict
        ("spotify", "login", {"username": email, "password": "wrong"}),  # the form body, 401
        ("spotify", "login", {"username": email}),  # 422
        ("spotify", "login", {}),
        ("api_docs", "show_app_descriptions", {}),
        ("api_docs", "show_api_doc", {"app_name": "spotify", "api_name": "show_song"}),
        ("supervisor", "show_profile", {}),  # no task supervisor in a seeded world
    ]


def _odd_writes(world: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    song = world["ids"]["spotify"]["Song"][0]
    token = world["tokens"]["spotify"]
    return [
        ("spotify", "like_song", {"song_id": song, "access_token": token}),  # 200
        ("spotify", "like_song", {"song_id": song, "access_token": token}),  # 422: liked already
        ("spotify", "unlike_song", {"song_id": song, "access_token": token}),  # a DELETE
        ("spotify", "like_song", {"song_id": "x", "access_token": token}),
        ("spotify", "like_song", {"song_id": song}),
        ("spotify", "review_song", {"song_id": song, "access_token": token, "rating": 9}),
        ("spotify", "review_song", {"song_id": song, "access_token": token, "rating": 4, "text": 'é\n"q"'}),
        ("spotify", "create_playlist", {"access_token": token, "title": "t", "is_public": "maybe"}),
        ("spotify", "create_playlist", {"access_token": token, "title": "t", "is_public": True}),
    ]


def _compare(a: dict[str, Any], b: dict[str, Any], what: Any) -> None:
    assert (a["status_code"], a["content"]) == (b["status_code"], b["content"]), what


def test_reads_equal_on_both_roads(seeded, responses, aw_loop):
    bridge, _apis, world = seeded
    calls = [(r["app"], r["api"], r["args"]) for r in responses]

    async def run():
        again = []
        for app, api, args in calls:
            again.append(await bridge.request("call", app=app, api=api, args=args, road="appworld"))
        odd = []
        for app, api, args in _odd_calls(world):
            fast = await bridge.request("call", app=app, api=api, args=args)
            slow = await bridge.request("call", app=app, api=api, args=args, road="appworld")
            odd.append((app, api, args, fast, slow))
        return again, odd

    again, odd = aw_loop.run_until_complete(run())
    for r, slow in zip(responses, again, strict=True):
        assert slow["served_by"] == "appworld"
        if r["api"] in CLOCK_READS:
            assert r["status_code"] == slow["status_code"], (r["tool"], r["args"])
        else:
            _compare(r, slow, (r["tool"], r["args"]))
    served = Counter(r["served_by"] for r in responses)
    assert served["fast"] >= 0.95 * len(responses), served  # the fast road really serves
    codes = Counter(r["status_code"] for r in responses)
    assert codes[200] > 100 and sum(n for c, n in codes.items() if c != 200) > 100, codes
    odd_codes = Counter()
    for app, api, args, fast, slow in odd:
        _compare(fast, slow, (app, api, args))
        odd_codes[fast["status_code"]] += 1
    assert {200, 401, 422, 500} <= set(odd_codes), odd_codes
    assert sum(1 for *_, fast, _ in odd if fast["served_by"] == "fast") >= len(odd) // 2


def test_writes_equal_on_twin_worlds():
    async def run():
        fast, slow = await asyncio.gather(Bridge().start(), Bridge().start())
        try:
            apis = await fast.request("apis")
            wf, ws = await asyncio.gather(
                fast.request("seed", seed=1, frozen_time=FROZEN),
                slow.request("seed", seed=1, frozen_time=FROZEN),
            )
            assert wf == ws  # twins: same users, ids and tokens
            probes = probe_calls(apis, wf, random.Random(1), variants=2, methods=WRITES)
            # APIs that end a session go last: before them, the tokens open every secured write
            last = [c for c in probes if c[1] in SESSION_ENDERS]
            calls = _odd_writes(wf) + [c for c in probes if c[1] not in SESSION_ENDERS] + last
            out = []
            for app, api, args in calls:
                a, b = await asyncio.gather(
                    fast.request("call", app=app, api=api, args=args),
                    slow.request("call", app=app, api=api, args=args, road="appworld"),
                )
                out.append((app, api, args, a, b))
            return out
        finally:
            await asyncio.gather(fast.close(), slow.close())

    out = asyncio.run(run())
    for app, api, args, a, b in out:
        _compare(a, b, (app, api, args))
    codes = Counter(a["status_code"] for *_, a, _ in out)
    assert codes[200] >= 60 and codes[409] >= 20 and codes[422] >= 20, codes  # writes that really ran
    assert len({app for app, _api, _args, a, _b in out if a["status_code"] == 200}) >= 5
    assert Counter(a["served_by"] for *_, a, _ in out)["fast"] >= 0.95 * len(out)


def test_unknown_road_is_refused(seeded, aw_loop):
    bridge, _apis, _world = seeded
    with pytest.raises(BridgeError, match="unknown road 'fastest'"):
        aw_loop.run_until_complete(
            bridge.request("call", app="spotify", api="show_song", args={}, road="fastest")
        )
