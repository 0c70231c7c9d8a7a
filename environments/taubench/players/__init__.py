"""Scripted agents for tau-bench (both domains): trusting, receipt-aware, skeptic, noisy."""

from environments.taubench.players.retail import POLICIES

__all__ = ["POLICIES"]
