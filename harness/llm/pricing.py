"""What a call costs: the provider-reported usage (cached prompt tokens included) priced from the
committed table when the model's config has one, else from litellm's bundled map, else 0 with
cost source ``none`` (warned once per model). ``price_line`` says the same in words for pre-flight.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from harness.llm.litellm_lazy import _litellm
from harness.llm.spec import ModelSpec

# the logger the door has always used: run logs and their filters keep one name for the model's warnings
log = logging.getLogger("harness.llm.models")


def _int(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def _field(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)


def _usage(resp: Any) -> dict[str, Any]:
    """Provider-reported token counts: prompt, completion, cached prompt (cache hits), reasoning.

    ``cached_tokens`` is part of ``prompt_tokens`` (OpenAI's ``prompt_tokens_details.cached_tokens``;
    DeepSeek's raw ``prompt_cache_hit_tokens``; Anthropic's ``cache_read_input_tokens``).
    """
    u = getattr(resp, "usage", None)
    if u is not None and hasattr(u, "model_dump"):
        u = u.model_dump()
    u = dict(u or {})
    prompt = _int(u.get("prompt_tokens"))
    out = {"prompt_tokens": prompt, "completion_tokens": _int(u.get("completion_tokens"))}
    cached = _int(_field(u.get("prompt_tokens_details") or {}, "cached_tokens"))
    cached = cached or _int(u.get("prompt_cache_hit_tokens")) or _int(u.get("cache_read_input_tokens"))
    out["cached_tokens"] = min(cached, prompt)
    details = u.get("completion_tokens_details") or {}
    if isinstance(details, Mapping) and details.get("reasoning_tokens"):
        out["reasoning_tokens"] = int(details["reasoning_tokens"])
    return out


_UNPRICED_WARNED: set[str] = set()


def compute_cost(spec: ModelSpec, usage: Mapping[str, int]) -> tuple[float, str]:
    """(USD, source) for one call from its usage: the committed table, else litellm's map, else 0.

    Cached prompt tokens are priced at the cached-input rate (the table's, or litellm's
    ``cache_read_input_token_cost``); a table without a cached price charges them the full input
    rate, an upper bound. We price usage ourselves rather than read litellm's response cost:
    custom providers lose their prefix in litellm's cost lookups.
    """
    pt, ct = _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
    cached = min(_int(usage.get("cached_tokens")), pt)
    if spec.priced_by_table:
        inp = spec.input_cost_per_mtok or 0.0
        hit = inp if spec.cached_input_cost_per_mtok is None else spec.cached_input_cost_per_mtok
        cost = ((pt - cached) * inp + cached * hit + ct * (spec.output_cost_per_mtok or 0.0)) / 1e6
        return cost, "table"
    if spec.scripted:
        return 0.0, "table"
    lt = _litellm()
    try:
        from litellm.types.utils import Usage

        details = {"cached_tokens": cached} if cached else None
        u = Usage(prompt_tokens=pt, completion_tokens=ct, total_tokens=pt + ct, prompt_tokens_details=details)
        p, c = lt.cost_per_token(model=spec.model, usage_object=u)
        return float(p) + float(c), "litellm"
    except Exception as exc:  # not in the offline map: report it rather than guess
        if spec.name not in _UNPRICED_WARNED:
            _UNPRICED_WARNED.add(spec.name)
            log.warning(
                "model %s (%s) has no price in its config nor in litellm's map (%s): its calls are "
                "recorded at 0 USD with cost_source 'none'",
                spec.name,
                spec.model,
                str(exc)[:200],
            )
        return 0.0, "none"


def price_line(spec: ModelSpec) -> str:
    """What the run will charge this model's calls, as the cost code prices them."""
    if spec.priced_by_table and any(
        (p or 0.0) > 0
        for p in (spec.input_cost_per_mtok, spec.cached_input_cost_per_mtok, spec.output_cost_per_mtok)
    ):
        cached = (
            ""
            if spec.cached_input_cost_per_mtok is None
            else f", cached input {spec.cached_input_cost_per_mtok}"
        )
        return (
            f"priced from its config: input {spec.input_cost_per_mtok or 0.0}{cached}, output "
            f"{spec.output_cost_per_mtok or 0.0} USD per million tokens"
        )
    if spec.priced_by_table or spec.scripted:
        return "no cost: its config prices it at 0"
    return "priced from litellm's bundled price map"
