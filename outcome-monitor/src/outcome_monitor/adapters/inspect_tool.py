"""An inspect_ai tool with outcome-monitor receipts (needs the ``inspect`` extra, inspect-ai 0.3.285).

``monitored(tool, monitor)`` is the same tool for the model (name, description, parameters, viewer
and options unchanged) whose result is checked after each call: a clean result comes back as the
tool returned it; a violating one comes back as content blocks, the raw result first and unchanged,
then one text block ``[outcome monitor] {"violated": ..., "observed": ..., "recovery_tools": [...]}``
(the MCP proxy's wording). ``record=rows.append`` also hands each answered call to ``rows`` as a
``{tool, arguments, result, status}`` row, so clean runs become the traces ``learn`` reads.

The result is read as the MCP proxy reads a text block (``text.parse_text``: JSON, else a Python
literal container, else the text), so rules learned from recorded rows check the same values. A
tool that raises (``ToolError`` included) is an explicit failure: it propagates unchecked, like a
result with status "error". inspect_ai is imported when a tool is wrapped, never by
``import outcome_monitor``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from outcome_monitor.receipts.monitor import Monitor, call_arguments
from outcome_monitor.receipts.receipt import receipt_text
from outcome_monitor.text.parse import parse_text

if TYPE_CHECKING:
    from inspect_ai.tool import Tool, ToolDef

PREFIX = "[outcome monitor]"  # as the MCP proxy's receipt block begins

Row = dict[str, Any]


def result_value(raw: Any) -> Any:
    """An inspect tool result as the monitor sees it: text parsed (JSON, a Python literal, else
    text), a content block by its text (or its JSON dump), several blocks as a list."""
    if isinstance(raw, str):
        return parse_text(raw)
    if isinstance(raw, (bool, int, float)) or raw is None:
        return raw
    if isinstance(raw, list):
        values = [result_value(block) for block in raw]
        return values[0] if len(values) == 1 else values
    text = getattr(raw, "text", None)
    if isinstance(text, str):
        return parse_text(text)
    dump = getattr(raw, "model_dump", None)
    return dump(mode="json", exclude_none=True) if callable(dump) else raw


def with_receipt(raw: Any, text: str) -> list[Any]:
    """``raw`` as content blocks, unchanged and first, then the receipt's text block."""
    from inspect_ai.tool import ContentText

    blocks = list(raw) if isinstance(raw, list) else [raw]
    blocks = [ContentText(text=b if isinstance(b, str) else str(b)) if _scalar(b) else b for b in blocks]
    return [*blocks, ContentText(text=f"{PREFIX} {text}")]


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool, int, float))


def monitored(
    tool: Tool | ToolDef,
    monitor: Monitor | None = None,
    *,
    name: str | None = None,
    exposed_tools: Sequence[str] = (),
    record: Callable[[Row], Any] | None = None,
) -> Tool:
    """``tool`` (an inspect_ai ``Tool``, e.g. the value of a ``@tool`` factory, or a ``ToolDef``) with receipts from
    ``monitor`` and/or each answered call handed to ``record``. ``name``: the tool's name in the
    registry (default: its inspect name); ``exposed_tools``: the tools a receipt may list (default:
    the monitor's catalog, else a retry of this tool)."""
    try:
        from inspect_ai.tool import ToolDef
    except ImportError:  # the extra is absent: say how to get it, not which module is missing
        raise ImportError('monitored() needs inspect_ai: pip install "outcome-monitor[inspect]"') from None

    if monitor is None and record is None:
        raise ValueError("monitored(tool, ...) needs a monitor, a record callable, or both")
    tdef = tool if isinstance(tool, ToolDef) else ToolDef(tool)
    fn = tdef.tool
    registry_name = name or tdef.name
    sig = inspect.signature(fn)

    @functools.wraps(fn)  # inspect reads the signature and type hints through __wrapped__
    async def execute(*args: Any, **kwargs: Any) -> Any:
        raw = await fn(*args, **kwargs)
        value = result_value(raw)
        arguments = call_arguments(sig, args, kwargs)
        if record is not None:
            record({"tool": registry_name, "arguments": arguments, "result": value, "status": "ok"})
        if monitor is None:
            return raw
        ann = monitor.annotate(registry_name, arguments, value, exposed_tools)
        if ann.receipt is None:
            return raw
        return with_receipt(raw, receipt_text(ann.receipt))

    return ToolDef(
        execute,
        name=tdef.name,
        description=tdef.description,
        parameters=tdef.parameters,
        parallel=tdef.parallel,
        viewer=tdef.viewer,
        model_input=tdef.model_input,
        max_output=tdef.max_output,
        options=tdef.options,
    ).as_tool()
