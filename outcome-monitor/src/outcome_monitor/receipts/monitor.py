"""The monitor proper: check a tool result, and on a violation keep the raw result and append a
nonbinding receipt (paper shape), in the ablation variants full / stripped / generic.

``Monitor.annotate`` is the one entry point. Its receipt has one shape everywhere,
:class:`~outcome_monitor.receipts.receipt.Receipt` (a JSON object: what the agent reads, what the
MCP proxy appends, what an experiment records). ``wrap_tool`` / ``wrap_async_tool`` adapt it to any
Python tool function, ``annotate_stream`` to rows. The monitor never calls a tool, blocks an action,
or sees anything but the tool's name, arguments and result.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from outcome_monitor.checking.rules import Violation
from outcome_monitor.checking.values import MISSING
from outcome_monitor.receipts.receipt import Receipt, receipt_text
from outcome_monitor.receipts.recovery import recovery_tools
from outcome_monitor.receipts.tools import ToolLike
from outcome_monitor.registry import Registry

VARIANTS = ("full", "stripped", "generic")
GENERIC_WARNING = "This tool result may be incorrect; verify it before relying on it."
MAX_OBSERVED_CHARS = 200
MAX_EXTRA = 2  # further violated rules listed after the first, so receipts stay short


P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class Annotation:
    """The monitor's verdict on one result."""

    content: Any  # the raw result when clean, else {"tool_result": raw, "outcome_monitor": receipt}
    violations: list[Violation] = field(default_factory=list)  # every violated rule, first shown first
    receipt: Receipt | None = None  # None when no rule was violated
    recovery_tools: list[str] = field(default_factory=list)
    n_admissible: int = 0
    note: str | None = None  # set when the result could not be checked (it passes through raw)

    @property
    def fired(self) -> bool:
        return bool(self.violations)

    def receipt_text(self) -> str | None:
        """The receipt as the JSON text an agent reads (None when clean)."""
        return None if self.receipt is None else receipt_text(self.receipt)


def observed_value(v: Any) -> Any:
    """The witness as shown to the agent: JSON-able and bounded in size."""
    if v is MISSING:
        return "<missing>"
    if isinstance(v, str):
        return v if len(v) <= MAX_OBSERVED_CHARS else v[:MAX_OBSERVED_CHARS] + "..."
    if isinstance(v, (dict, list)):
        text = json.dumps(v, ensure_ascii=False, default=repr)
        return v if len(text) <= MAX_OBSERVED_CHARS else text[:MAX_OBSERVED_CHARS] + "..."
    return v


class Monitor:
    """An outcome monitor over a registry, for one tool catalog and one receipt variant."""

    def __init__(
        self, registry: Registry, catalog: Mapping[str, ToolLike] | None = None, variant: str = "full"
    ):
        if variant not in VARIANTS:
            raise ValueError(f"unknown receipt variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.registry = registry
        self.catalog = dict(catalog or {})
        self.variant = variant
        self.n_unchecked = 0  # results annotate could not check (passed through raw, with a note)

    def annotate(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        result: Any,
        exposed_tools: Sequence[str] = (),
        status: str = "ok",
    ) -> Annotation:
        """The verdict on one result. Never raises because of the result: one the monitor cannot
        check (nested past Python's recursion limit, say) comes back raw, unannotated, with a
        ``note``, and is counted in ``n_unchecked``."""
        if status == "error":
            return Annotation(result)  # explicit failures are already visible to the agent
        try:
            violations = self.registry.check(tool, arguments or {}, result)
            if not violations:
                return Annotation(result)
            fields = [f for v in violations for f in _violated_fields(v)]
            # with no episode interface given, the whole catalog is the public interface (or just a retry)
            exposed = exposed_tools or ([] if self.catalog else [tool])
            tools = recovery_tools(tool, fields, self.catalog, exposed)
            receipt = self.render(violations, tools)
        except Exception as exc:  # the monitor must never be what breaks a tool call
            self.n_unchecked += 1
            return Annotation(result, note=f"not checked: {_reason(exc)}")
        return Annotation(
            {"tool_result": result, "outcome_monitor": receipt}, violations, receipt, tools, len(tools)
        )

    def render(self, violations: list[Violation], tools: list[str]) -> Receipt:
        if self.variant == "generic":
            return {"warning": GENERIC_WARNING, "recovery_tools": tools}
        first = violations[0]
        receipt: Receipt = {"violated": first.sentence, "observed": observed_value(first.observed)}
        extra = list(dict.fromkeys(v.sentence for v in violations[1:] if v.sentence != first.sentence))[
            :MAX_EXTRA
        ]
        if extra:
            receipt["also_violated"] = extra
        if self.variant == "full":
            receipt["recovery_tools"] = tools
        return receipt


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _violated_fields(v: Violation) -> list[str]:
    return [v.path]


def call_arguments(sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments by name, as a model would send them (``**kwargs`` spread out)."""
    bound = sig.bind(*args, **kwargs)
    out: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        if sig.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            out.update(value)
        else:
            out[name] = value
    return out


def wrap_tool(
    fn: Callable[P, R], monitor: Monitor, name: str | None = None, exposed_tools: Sequence[str] = ()
) -> Callable[P, R | dict[str, Any]]:
    """``fn`` with every result checked by ``monitor``: returned as it is when clean, else
    ``{"tool_result": <raw>, "outcome_monitor": <receipt>}``. ``name`` is the tool's name in the
    registry (default: the function's). Exceptions pass through unchanged, and the monitor adds none
    (a result it cannot check is returned raw, counted in ``monitor.n_unchecked``); the signature and
    docstring are kept (``functools.wraps``), so frameworks that read them see the original."""
    tool = name or fn.__name__
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | dict[str, Any]:
        result = fn(*args, **kwargs)
        out: R | dict[str, Any] = monitor.annotate(
            tool, call_arguments(sig, args, kwargs), result, exposed_tools
        ).content
        return out

    return wrapped


def wrap_async_tool(
    fn: Callable[P, Awaitable[R]],
    monitor: Monitor,
    name: str | None = None,
    exposed_tools: Sequence[str] = (),
) -> Callable[P, Awaitable[R | dict[str, Any]]]:
    """``wrap_tool`` for a coroutine function: the check runs after the await (it never awaits)."""
    tool = name or fn.__name__
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    async def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | dict[str, Any]:
        result = await fn(*args, **kwargs)
        out: R | dict[str, Any] = monitor.annotate(
            tool, call_arguments(sig, args, kwargs), result, exposed_tools
        ).content
        return out

    return wrapped


def annotate_stream(
    monitor: Monitor, rows: Iterable[Mapping[str, Any]], exposed_tools: Sequence[str] = ()
) -> Iterator[dict[str, Any]]:
    """Each ``{tool, arguments, result[, status, exposed_tools]}`` row plus ``violations``,
    ``receipt``, ``content``, ``recovery_tools`` and ``n_admissible``."""
    for row in rows:
        exposed = row.get("exposed_tools") or exposed_tools
        ann = monitor.annotate(
            row["tool"], row.get("arguments") or {}, row.get("result"), exposed, row.get("status", "ok")
        )
        yield {
            **row,
            "violations": [v.to_json() for v in ann.violations],
            "receipt": ann.receipt,
            "content": ann.content,
            "recovery_tools": ann.recovery_tools,
            "n_admissible": ann.n_admissible,
            **({"note": ann.note} if ann.note is not None else {}),
        }
