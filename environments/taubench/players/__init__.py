"""Scripted tau-bench agents for both domains: trusting, receipt-aware, skeptic and noisy.

One player per behaviour (``_base``: how a request, its calls and receipts are read; the behaviours'
configuration); each request goes to its domain's plan (``retail``, ``airline``), recognised by the
goal's action in the user's ``REQUEST`` line, or, before any request, by the tools offered. Players
keep no state across requests or episodes (the harness shares one instance of each). Knows nothing
about the harness, the database or the ground truth.
"""

from __future__ import annotations

import random
from typing import Any

from environments.taubench.players import airline, retail
from environments.taubench.players._base import Player, Turn, latest_request, text

DOMAINS = (retail, airline)


def _domain(req: dict | None, tools: list[dict]) -> Any:
    if req is not None:
        return airline if req.get("action") in airline.WRITES else retail
    names = {(t.get("function") or {}).get("name") for t in tools or []}
    return airline if "get_reservation_details" in names else retail


class TauBenchPlayer(Player):
    def respond(self, messages: list[dict], tools: list[dict], rng: random.Random) -> dict:
        _, req = latest_request(messages)
        domain = _domain(req, tools)
        if req is None:
            return text(domain.GREETING)
        turn = Turn(self, messages, rng, domain.odd, domain.WRITES, domain.STATUS_FIELD)
        return domain.plan(turn)


class Trusting(TauBenchPlayer):
    name = "trusting"


class ReceiptAware(TauBenchPlayer):
    name = "receipt-aware"
    follows_receipts = True


class Skeptic(TauBenchPlayer):
    name = "skeptic"
    follows_receipts = True
    checks_status = True


class Noisy(TauBenchPlayer):
    name = "noisy"
    noisy = True
    p_notice, p_follow, p_overreact = 0.15, 0.70, 0.20


POLICIES = {c.name: c for c in (Trusting, ReceiptAware, Skeptic, Noisy)}

__all__ = ["POLICIES", "Noisy", "ReceiptAware", "Skeptic", "Trusting"]
