"""What phase 1 (``collect``) hands phase 2 (``admit``): candidate rules with their evidence, keyed by
template (the pooling key: the same class over the same field names, across tools), the templates a
tool falsifies, and the rounding step of a value (memoized: every fold re-reads the same values)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from outcome_monitor.checking.values import quantum

DOMAIN_CANDIDATE = "domain?"  # per-tool evidence for a categorical domain, pooled by admit's _pool_domains


class TemplateKey(NamedTuple):
    """The pooling key of a rule: its class, context and fields, and what else tells two rules of
    them apart (``type``: the type names; ``positive``: strictness; ``relation``: form, k, c)."""

    cls: str
    context: str
    fields: tuple[str, ...]
    extra: tuple[Any, ...]

    @property
    def form(self) -> str | None:
        """A relation's form (``eq``, ``product``, ``add``, ...); None for other classes."""
        return self.extra[0] if self.cls == "relation" else None


class DomainKey(NamedTuple):
    """The pooling key of domain evidence: by leaf name alone, across contexts (``status``)."""

    cls: str
    leaf: str


Key = TemplateKey | DomainKey


# Each fold re-mines 80% of the same values: rounding steps once per value (dates: the shared
# cached_date_key). Keys carry the type (1e16 and 10**16 are equal but round differently);
# bounded by clearing.
_MEMO_MAX = 1 << 17
_QUANTUM_MEMO: dict[tuple[type, Any], float] = {}


def cached_quantum(v: Any) -> float:
    key = (type(v), v)
    q = _QUANTUM_MEMO.get(key)
    if q is None:
        if len(_QUANTUM_MEMO) >= _MEMO_MAX:
            _QUANTUM_MEMO.clear()
        q = _QUANTUM_MEMO[key] = quantum(v)
    return q


def template(cls: str, context: str, fields: tuple[str, ...], params: Mapping[str, Any]) -> Key:
    """The pooling key of a rule, from its parts (no ``Rule`` needed for a falsified template)."""
    if cls == DOMAIN_CANDIDATE:
        return DomainKey(cls, leaf(fields[0]))
    extra: tuple[Any, ...] = ()
    if cls == "type":
        extra = tuple(params["types"])
    elif cls == "positive":
        extra = (params["strict"],)
    elif cls == "relation":
        extra = (params["form"], params.get("k"), params.get("c"))
    return TemplateKey(cls, context, fields, extra)


class Candidate:
    """A rule that holds on all of one tool's examples, with additive evidence: the parts of a
    ``Rule``, which ``admit`` builds only for the candidates it keeps (tens of thousands are
    proposed per build, most pooled away)."""

    __slots__ = ("tool", "cls", "context", "fields", "params", "ev", "key")

    def __init__(
        self,
        tool: str,
        cls: str,
        context: str,
        fields: tuple[str, ...],
        params: dict[str, Any],
        ev: dict[str, Any],
        key: Key | None = None,
    ) -> None:
        self.tool, self.cls, self.context, self.fields, self.params, self.ev = (
            tool,
            cls,
            context,
            fields,
            params,
            ev,
        )
        self.key: Key = template(cls, context, fields, params) if key is None else key


@dataclass
class Collected:
    """Phase-1 output for one tool: candidates that hold, and templates the tool falsifies."""

    candidates: list[Candidate] = field(default_factory=list)
    falsified: set[Key] = field(default_factory=set)
    tool: str = ""
    # numeric fields present in every row of a context: a product template over three of them
    # that this tool does not hold is falsified by it (kept implicit: there are too many to list)
    dense: dict[str, frozenset[str]] = field(default_factory=dict)


def leaf(field: str) -> str:
    return field.rsplit(".", 1)[-1]


__all__ = [
    "DOMAIN_CANDIDATE",
    "Candidate",
    "Collected",
    "DomainKey",
    "Key",
    "TemplateKey",
    "cached_quantum",
    "leaf",
    "template",
]
