"""The noisy policy: deterministic per rng, choices replayed from its notes, rates follow its parameters."""

from __future__ import annotations

import random

import pytest
from _toolmaze_bound import Noisy, get_policy

from harness.agents.policies.noisy import NoisyParams, parse_noisy_name, register_noisy

RECEIPT = {"violated": "price must be positive", "observed": -12.5, "recovery_tools": ["get_price_b"]}
BAD = {"item": "widget", "price": -12.5}


def _after_flagged(convo, receipt: dict | None):
    return convo.call("get_price_a", {"item": "widget"}).result(BAD, receipt=receipt)


def _rates(policy: Noisy, convo, n: int = 400) -> dict[str, float]:
    counts: dict[str, int] = {}
    for seed in range(n):
        reply = policy.respond(convo.messages, convo.tools, random.Random(seed))
        tool, args = convo.next_call(reply)
        kind = (
            "abandon"
            if tool == "finish"
            else "follow"
            if tool == "get_price_b"
            else ("retry" if tool == "get_price_a" else "ignore")
        )
        counts[kind] = counts.get(kind, 0) + 1
    return {k: v / n for k, v in counts.items()}


def test_deterministic_for_a_fixed_rng(convo):
    _after_flagged(convo, RECEIPT)
    policy = Noisy()
    replies = [policy.respond(convo.messages, convo.tools, random.Random(7)) for _ in range(3)]
    assert replies[0] == replies[1] == replies[2]


def test_receipt_rates_move_with_the_parameters(convo):
    _after_flagged(convo, RECEIPT)
    low = _rates(Noisy(NoisyParams(p_follow=0.2, p_overreact=0.0)), convo)
    high = _rates(Noisy(NoisyParams(p_follow=0.9, p_overreact=0.0)), convo)
    assert low.get("follow", 0) < high.get("follow", 0)
    assert "abandon" not in low and "abandon" not in high
    over = _rates(Noisy(NoisyParams(p_follow=0.5, p_overreact=0.4)), convo)
    assert over.get("abandon", 0) > 0.25 and over.get("follow", 0) > 0.35  # binomial n=400 around 0.4 / 0.5


def test_notice_rate_moves_with_p_notice(convo):
    _after_flagged(convo, None)  # implausible, no receipt
    never = _rates(Noisy(NoisyParams(p_notice=0.0)), convo)
    often = _rates(Noisy(NoisyParams(p_notice=0.8)), convo)
    assert never == {"ignore": 1.0}
    assert often.get("retry", 0) > 0.7


def test_a_choice_is_replayed_from_the_notes_in_later_turns(convo):
    _after_flagged(convo, RECEIPT)
    policy = Noisy(NoisyParams(p_follow=0.5, p_overreact=0.0))
    seeds = {
        convo.next_call(policy.respond(convo.messages, convo.tools, random.Random(s)))[0]: s
        for s in range(50)
    }
    assert {"get_price_b", "place_order"} <= set(seeds)  # both choices occur
    for tool, seed in seeds.items():
        turn = convo.__class__()
        turn.messages = [dict(m) for m in convo.messages]
        reply = policy.respond(turn.messages, turn.tools, random.Random(seed))
        turn.messages.append({**reply, "tool_calls": [{**reply["tool_calls"][0], "id": "c9"}]})
        args = convo.next_call(reply)[1]
        turn.messages.append(
            {
                "role": "tool",
                "tool_call_id": "c9",
                "name": tool,
                "content": '{"item": "widget", "price": 12.5}'
                if tool == "get_price_b"
                else '{"confirmation_code": "CF-9"}',
            }
        )
        assert args  # a real call was made
        # whatever the next rng says, the earlier receipt decision stands
        for other in range(20):
            nxt = convo.next_call(policy.respond(turn.messages, turn.tools, random.Random(other)))
            assert nxt[0] == ("place_order" if tool == "get_price_b" else "finish")


def test_names_with_parameters():
    assert parse_noisy_name("noisy") == NoisyParams()
    assert parse_noisy_name("noisy?p_notice=0.3&p_follow=0.6") == NoisyParams(p_notice=0.3, p_follow=0.6)
    with pytest.raises(ValueError):
        parse_noisy_name("noisy?p_bogus=1")
    with pytest.raises(ValueError):
        parse_noisy_name("noisy?p_follow=0.9&p_overreact=0.5")
    assert Noisy.from_name("noisy?p_overreact=0").params == NoisyParams(p_overreact=0.0)
    name = register_noisy("noisy?p_notice=0.5")
    policy = get_policy(name)
    assert isinstance(policy, Noisy) and policy.params.p_notice == 0.5 and policy.name == name
