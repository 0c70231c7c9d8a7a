"""The tables: per server and fault kind, the share of faulted calls flagged; clean receipts; per group."""

from __future__ import annotations

from collections.abc import Iterable

from mcpbench.faults import FAULTS
from mcpbench.run import Outcome


def _share(hit: int, n: int) -> str:
    return f"{hit}/{n} ({100 * hit / n:.0f}%)" if n else "-"


def group_lines(group: str, outcomes: list[Outcome]) -> list[str]:
    lines = [f"== {group} servers: {', '.join(o.server for o in outcomes) or 'none'}"]
    if not outcomes:
        return lines
    kinds = [k for k in FAULTS if any(k in o.faulted for o in outcomes)]
    width = max(len(k) for k in [*kinds, "fault kind"])
    names = [o.server for o in outcomes]
    col = max(12, *(len(n) for n in names))
    lines.append(
        f"  {'fault kind':<{width}}  " + "  ".join(f"{n:>{col}}" for n in names) + f"  {'all':>{col}}"
    )
    for kind in kinds:
        cells = [_share(*reversed(o.faulted.get(kind, [0, 0]))) for o in outcomes]
        n = sum(o.faulted.get(kind, [0, 0])[0] for o in outcomes)
        hit = sum(o.faulted.get(kind, [0, 0])[1] for o in outcomes)
        lines.append(
            f"  {kind:<{width}}  " + "  ".join(f"{c:>{col}}" for c in cells) + f"  {_share(hit, n):>{col}}"
        )
    totals = [
        (sum(t[1] for t in o.faulted.values()), sum(t[0] for t in o.faulted.values())) for o in outcomes
    ]
    hit, n = sum(t[0] for t in totals), sum(t[1] for t in totals)
    lines.append(
        f"  {'all kinds':<{width}}  "
        + "  ".join(f"{_share(*t):>{col}}" for t in totals)
        + f"  {_share(hit, n):>{col}}"
    )
    novel = [(o.novel[1], o.novel[0]) for o in outcomes]
    lines.append(
        f"  {'  on new calls':<{width}}  "
        + "  ".join(f"{_share(*t):>{col}}" for t in novel)
        + f"  {_share(sum(t[0] for t in novel), sum(t[1] for t in novel)):>{col}}"
    )
    cc = sum(o.clean_calls for o in outcomes)
    cr = sum(len(o.clean_receipts) for o in outcomes)
    clean_cells = [f"{len(o.clean_receipts)}/{o.clean_calls}" for o in outcomes]
    lines.append(
        f"  {'clean receipts':<{width}}  "
        + "  ".join(f"{c:>{col}}" for c in clean_cells)
        + f"  {f'{cr}/{cc}':>{col}}"
    )
    broken = sum(o.raw_first_broken for o in outcomes)
    lines.append(
        f"  raw result first and unchanged: {'yes, every call' if not broken else f'NO on {broken} calls'}"
    )
    unchecked = {o.server: o.unchecked for o in outcomes if o.unchecked}
    if unchecked:
        lines.append(
            f"  WARNING: results the monitor could not check (passed through raw; the proxy's stderr, kept with "
            f"--keep, says why): {', '.join(f'{k} {n}' for k, n in unchecked.items())}"
        )
    return lines


def server_lines(outcomes: Iterable[Outcome]) -> list[str]:
    lines = [
        "Servers (clean calls recorded through the proxy, rules learned, held-out calls that repeat a recorded "
        "one, faulted-session calls no fault fit):"
    ]
    for o in outcomes:
        shown = " [shim-presented form]" if o.present else ""
        lines.append(
            f"  {o.server:<19} {o.group:<8} recorded {o.recorded:>4} ({o.record_errors} errors skipped), "
            f"{o.rules:>4} rules, repeats {o.repeats:>2}/{o.clean_calls}, untouched {o.untouched:>3}: "
            f"{o.forms}{shown}"
        )
    return lines


def receipt_lines(outcomes: Iterable[Outcome], limit: int = 3) -> list[str]:
    lines = []
    for o in outcomes:
        for r in o.clean_receipts[:limit]:
            receipt = r["receipt"]
            first = receipt[0] if isinstance(receipt, list) else receipt
            lines.append(
                f"  clean receipt, {o.server}.{r['tool']}: {first.get('violated')!s:.140} "
                f"(observed {str(first.get('observed'))[:60]})"
            )
    return lines


def summary_lines(outcomes: list[Outcome]) -> list[str]:
    """One line per group against the issue's target, then both groups' clean calls together."""
    lines = []
    for group in ("tuning", "held-out"):
        chosen = [o for o in outcomes if o.group == group]
        if not chosen:
            continue
        n = sum(t[0] for o in chosen for t in o.faulted.values())
        hit = sum(t[1] for o in chosen for t in o.faulted.values())
        cc = sum(o.clean_calls for o in chosen)
        cr = sum(len(o.clean_receipts) for o in chosen)
        new = cc - sum(o.repeats for o in chosen)
        new_r = sum(not r["repeat"] for o in chosen for r in o.clean_receipts)
        novel = _share(sum(o.novel[1] for o in chosen), sum(o.novel[0] for o in chosen))
        lines.append(
            f"summary, {group}: {_share(hit, n)} of faulted calls flagged over every kind "
            f"({novel} of those that repeat no recorded call); "
            f"{cr} receipts on {cc} held-out clean calls ({new_r} on the {new} that repeat no recorded call)"
        )
    cc = sum(o.clean_calls for o in outcomes)
    cr = sum(len(o.clean_receipts) for o in outcomes)
    lines.append(
        f"summary, all servers: {cr} receipts on {cc} held-out clean calls "
        "(the issue's target: >= 80% flagged, 0 receipts on >= 300 held-out clean calls, the raw result first)"
    )
    return lines
