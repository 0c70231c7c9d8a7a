"""Mining the ``collection`` class (``collection_rules`` holds the checks and their words): per list
or object field of a tool's clean results (views applied), what its size, its members and its rows
always were. Called by ``vocabulary.learn_wide``.

Sizes against the call need support of their own (calls and rows, not distinct lists):

* ``len_by_args``: the same call repeated in the recording gave a list as long every time, over
  ``min_presence`` repeats or more of ``min_distinct_eq`` distinct calls or more (each repeat is one
  trial of "the same call, the same length"; one call repeated alone is a constant length in
  disguise, which needs a constant's support; a call that once gave another length, of this list
  or of any other list of the result, its own or nested, is a world that changes: no rule for any
  list of the tool);
* ``len_eq_arg``, ``len_eq_argnum``, ``echo_list``: an equality with an argument on ``min_presence``
  executions or more, with ``min_distinct_eq`` distinct sizes (a limit always reached, never one
  that happened to be the same number every time);
* ``same_width``: rows given as lists, of one width within each clean list, over
  ``min_distinct_eq`` lists whose rows beyond the first add up to the coincidence floor twice;
* ``len_by_key``: a map's entry met again in another clean result held a list as long, over
  ``min_presence`` meetings again of ``min_distinct_eq`` distinct entries; ``len_by_id``: the same
  for a list inside the records of a list, the record known by an identifier unique in its list;
  both only where lengths drawn at random would not have kept as well (``kept_by_chance``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from outcome_monitor.checking.answers import call_key
from outcome_monitor.checking.collection_rules import (
    asked_by_key,
    element_placeholder,
    number_after,
    order_key,
    words_with_numbers,
)
from outcome_monitor.checking.paths import ARG, ROOT
from outcome_monitor.checking.values import cached_date_key, id_like, is_number, same_value
from outcome_monitor.learning.admit import unseen_half
from outcome_monitor.learning.executions import Execution
from outcome_monitor.learning.uniques import unique_keys
from outcome_monitor.text.parse import text_kinds
from outcome_monitor.thresholds import DEFAULT, Thresholds, constant_floor

Found = tuple[dict[str, Any], dict[str, int]]


def _values_at(executions: Iterable[Execution]) -> dict[tuple[str, str], list[tuple[Any, dict[str, Any]]]]:
    """(context, field) -> [(value, arguments)] for every list or object field of every element."""
    out: dict[tuple[str, str], list[tuple[Any, dict[str, Any]]]] = {}
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if type(v) in (list, dict) and f and not f.startswith(("#", ARG)) and "(" not in f:
                        out.setdefault((context, f), []).append((v, ex.args))
                whole = row.get("")
                # the element itself: the result, a map's entry (a list of car types keyed by company)
                if type(whole) is list or (type(whole) is dict and context == ROOT):
                    out.setdefault((context, ""), []).append((whole, ex.args))
    return out


def string_elements(executions: Iterable[Execution]) -> set[str]:
    """Every string element of every list of strings in a tool's clean results."""
    out: set[str] = set()
    for seen in _values_at(executions).values():
        for v, _ in seen:
            if type(v) is list:
                out.update(e for e in v if type(e) is str)
    return out


def mine_collections(
    executions: list[Execution], th: Thresholds = DEFAULT, html_free: int = 0
) -> list[tuple[str, str, dict[str, Any], dict[str, int]]]:
    """(context, field, params, support) of each collection rule of one tool's clean executions.
    ``html_free``: the distinct clean strings of the whole recording, none an HTML page (0: some
    was, or too few): a list of strings with too few elements of its own to say it keeps that."""
    found: list[tuple[str, str, dict[str, Any], dict[str, int]]] = []
    # names unique by the odds of random draws assume a fixed pool: a store written between calls
    # (a request planned twice under one title) is none
    changing = changing_world(executions)
    names = not changing
    # the same call gives a list as long (the repeats of the recording showed it)
    found.extend((ROOT, f, p, s) for f, (p, s) in same_call_lengths(executions, th, changing))
    # ...and the same record (by its id) a nested list as long
    found.extend((context, f, p, s) for context, f, (p, s) in record_lengths(executions, th))
    for (context, f), seen in sorted(_values_at(executions).items()):
        distinct = {repr(v) for v, _ in seen}
        lists = [(v, a) for v, a in seen if type(v) is list]
        if len(lists) == len(seen):
            # sizes against the call and rows' widths: their own support (calls, rows), not distinct lists
            found.extend((context, f, p, s) for p, s in arg_sizes(lists, th))
            found.extend((context, f, p, s) for p, s in row_width([v for v, _ in lists], th))
        elif (context, f) == (ROOT, "") and lists and _lone_records(seen):
            # content blocks: several come as a list, one as the block itself (a list of one)
            alone = [(v if type(v) is list else [v], a) for v, a in seen]
            found.extend((context, f, {**p, "lone": True}, s) for p, s in arg_sizes(alone, th))
        elif all(type(v) is dict for v, _ in seen):
            found.extend((context, f, p, s) for p, s in entry_lengths([v for v, _ in seen], th))
        if len(seen) < th.min_presence or len(distinct) < th.min_presence:
            elements = [e for v, _ in lists for e in v]
            if (
                len(lists) == len(seen) >= 2
                and elements
                and all(type(e) is str for e in elements)
                and not per_entry(context, f)
            ):
                # an HTML page by the recording's evidence; a placeholder by the elements' own
                kinds = ["html"] if html_free else []
                support = (
                    {"n": len(lists), "recording_distinct": html_free} if html_free else {"n": len(lists)}
                )
                if _placeholder_free(elements, th):
                    kinds.append("placeholder")
                    support["distinct"] = len(set(elements))
                if kinds:
                    found.append((context, f, {"form": "elements", "not": kinds}, support))
            continue
        dicts = [(v, a) for v, a in seen if type(v) is dict]
        if len(lists) == len(seen):
            found.extend((context, f, p, s) for p, s in _list_rules(lists, th, names, "[*]" in context))
            found.extend(
                (context, f, p, s) for p, s in _element_rules([v for v, _ in lists], th, _quoted(lists))
            )
        elif len(dicts) == len(seen):
            kept = _kept_keys([d for d, _ in dicts])
            if kept:
                found.append((context, f, {"form": "has_keys", "keys": kept}, {"n": len(dicts)}))
            found.extend((context, f, p, s) for p, s in _keys_echo(dicts, th))
    return found


def per_entry(context: str, f: str) -> bool:
    """A place under one entry of a map keyed by ids (``variants.422111028.size``): a rule there
    would be one per id, each on a value or two."""
    segments = (context + "." + f).replace("[", ".").replace("]", ".").split(".")
    return any(id_like(seg) and any(c.isdigit() for c in seg) for seg in segments)


def _keys_echo(dicts: list[tuple[dict[str, Any], dict[str, Any]]], th: Thresholds) -> list[Found]:
    """A map keyed by the names a list argument asked for (ratings by hotel name): its keys are
    exactly those names on every clean call."""
    out: list[Found] = []
    list_args = sorted({k for _, a in dicts for k, x in a.items() if type(x) is list})
    for arg in list_args:
        pairs = [(set(map(str, d)), a[arg]) for d, a in dicts if type(a.get(arg)) is list]
        # a list of names, or of objects each naming its entry by one string field (files[*].path)
        for key in _naming_keys([x for _, xs in pairs for x in xs]):
            try:
                asked = [set(map(str, x if key is None else asked_by_key(x, key))) for _, x in pairs]
            except TypeError:
                continue
            if (
                len(pairs) >= th.min_presence
                and len({frozenset(x) for x in asked}) >= th.min_distinct_eq
                and all(k == x for (k, _), x in zip(pairs, asked, strict=True))
            ):
                params = {"form": "keys_echo", "arg": arg} | ({"key": key} if key is not None else {})
                out.append((params, {"n": len(pairs)}))
    return out


def _naming_keys(elements: list[Any]) -> list[str | None]:
    """How a list argument's elements may name a map's entries: themselves (None), or, where every
    element is an object, each string field they all hold."""
    if not elements or not all(type(x) is dict for x in elements):
        return [None]
    common = set.intersection(*({k for k, v in x.items() if type(v) is str} for x in elements))
    return sorted(common)


def _placeholder_free(elements: list[str], th: Thresholds) -> bool:
    """No placeholder (``N/A``, ``TODO``, a name cut off with ``...``) among ``min_presence`` or more
    distinct clean elements: one among the next ones is no name of the list."""
    distinct = set(elements)
    return len(distinct) >= th.min_presence and not any(element_placeholder(e) for e in distinct)


def _quoted(lists: list[tuple[list[Any], dict[str, Any]]]) -> bool:
    """Every element a string found in a text the call sent (a text's words, sorted by valence): the
    list repeats what that text repeated (case aside: the words come back lowercased)."""
    texts = [[x.lower() for x in a.values() if type(x) is str] for _, a in lists]
    return any(v for v, _ in lists) and all(
        type(e) is str and any(e.lower() in x for x in t)
        for (v, _), t in zip(lists, texts, strict=True)
        for e in v
    )


def _element_rules(lists: list[list[Any]], th: Thresholds, quoted: bool = False) -> list[Found]:
    """Rules on every element of a list of strings (lines, names, car types): what kind of text no
    clean element was, and a closed set of values where the elements drew from few. A list of
    strings and numbers (a command's output: its text, or a count alone) keeps the first only, for
    what kind of text none of them was."""
    elements = [e for v in lists for e in v]
    strings = [e for e in elements if type(e) is str]
    mixed = len(strings) < len(elements)
    if not strings or mixed and not all(type(e) is str or is_number(e) for e in elements):
        return []
    distinct = list(dict.fromkeys(strings))
    if len(distinct) < th.min_presence and len(strings) < th.min_presence:
        return []
    params: dict[str, Any] = {"form": "elements"}
    seen = set().union(*(text_kinds(e) for e in distinct))
    absent = [k for k in ("html", "error") if k not in seen]
    if _placeholder_free(distinct, th):
        absent.append("placeholder")
    if absent:
        params["not"] = absent
    if mixed:
        return [(params, {"n": len(lists), "distinct": len(distinct)})] if absent else []
    counts: dict[str, int] = {}
    for v in lists:
        for e in set(v):
            counts[e] = counts.get(e, 0) + 1
    if (
        2 <= len(counts) <= th.max_domain
        and all(c >= th.min_count_per_value for c in counts.values())
        and sum(counts.values()) >= max(th.min_presence, th.min_per_category * len(counts))
        and unseen_half(counts.values()) < 1 - th.confidence
    ):
        params["values"] = sorted(counts)
    multi = [v for v in lists if len(v) >= 2]
    if not quoted and len(multi) >= th.min_distinct_eq and all(len(set(v)) == len(v) for v in multi):
        params["distinct"] = True  # names in a listing (files, recipients): a duplicate is a copied entry
    if len(params) == 1:
        return []
    params["strings"] = True  # every clean element a string: a null or a number among them is not
    return [(params, {"n": len(lists), "distinct": len(distinct)})]


def _list_rules(
    lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds, names: bool = True, nested: bool = False
) -> list[Found]:
    out: list[tuple[dict[str, Any], dict[str, int]]] = []
    lengths = {len(v) for v, _ in lists}
    # one length every time is a constant: it needs the constant's support (a rule of succession)
    if len(lengths) == 1 and min(lengths) >= 1 and len(lists) >= constant_floor(th):
        out.append(({"form": "len_eq", "n": min(lengths)}, {"n": len(lists)}))
    else:
        # a call's limit bounds its list of results, not a list inside each result (an event's
        # categories stay within a small limit by chance)
        numeric_args = [] if nested else sorted({k for _, a in lists for k, x in a.items() if type(x) is int})
        for arg in numeric_args:
            pairs = [(len(v), a[arg]) for v, a in lists if type(a.get(arg)) is int]
            if (
                len(pairs) >= th.min_presence
                and len({lim for _, lim in pairs}) >= th.min_distinct_eq
                and all(n <= lim for n, lim in pairs)
                and any(n == lim for n, lim in pairs)
            ):
                out.append(({"form": "len_le_arg", "arg": arg}, {"n": len(pairs)}))
    out.extend(_echo_sets(lists, th))
    out.extend(_table_rules(lists, th, names))
    return out


def _table_rules(
    lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds, names: bool = True
) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """Rows of one table (same fields), identifiers that never repeat, and an order the rows keep,
    each seen in every clean list of two rows or more. A list of n rows falls in a given order by
    chance once in n!: the lists' log2(n!) must add up to the coincidence floor."""
    out: list[tuple[dict[str, Any], dict[str, int]]] = []
    multi = [v for v, _ in lists if len(v) >= 2 and all(type(e) is dict for e in v)]
    if len(multi) < th.min_distinct_eq:
        return out
    bits = sum(math.lgamma(len(v) + 1) / math.log(2) for v in multi)
    if bits < th.min_presence:
        return out
    support = {"n": len(multi)}
    if all(all(set(e) == set(v[0]) for e in v) for v in multi):
        out.append(({"form": "uniform"}, support))
    keys = sorted(set.intersection(*(set(e) for v in multi for e in v)))
    out.extend(unique_keys(multi, th, names))
    # of keys that all kept the order, the first a record lists is the one the list is sorted by: a
    # violation's end sorts with its start in most lints, not in all (a fix spanning two lines)
    for k in sorted(keys, key=list(multi[0][0]).index):
        columns = [[e[k] for e in v] for v in multi]
        ordered = [[order_key(x) for x in c] for c in columns]
        # the lists whose every key reads as a number or a date (periods by day among periods by
        # week, 2025-W03, which the check passes as it passes them here) show the order alone
        ordered = [c for c in ordered if None not in c]
        if len({type(x) for c in ordered for x in c}) != 1:
            continue
        # an order needs lists long enough to show it: a pair is in order half the time (a first
        # payment larger than a refund is not a sorted list)
        long_enough = [c for c in ordered if len(set(c)) >= 3]
        for order in ("asc", "desc"):
            if (
                all(_monotone(c, order) for c in ordered)
                and len(long_enough) >= th.min_distinct_eq
                and sum(math.lgamma(len(c) + 1) / math.log(2) for c in long_enough) >= 2 * th.min_presence
            ):
                return [*out, ({"form": "sorted", "key": k, "order": order}, support)]
    return out


def _echo_sets(
    lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds
) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """Each key of the list's elements whose set of values equals (or sits within) a list argument,
    over ``min_presence`` calls whose lists were not empty (a linter asked for two rules that found
    nothing shows nothing of which rules it reports)."""
    out: list[tuple[dict[str, Any], dict[str, int]]] = []
    elements = [e for v, _ in lists for e in v]
    if not elements or not all(type(e) is dict for e in elements):
        return out
    keys = sorted(set.intersection(*(set(e) for e in elements)))
    list_args = sorted({k for _, a in lists for k, x in a.items() if type(x) is list})
    for k in keys:
        if not all(type(e[k]) in (str, int) for e in elements):
            continue
        for arg in list_args:
            pairs = [([e[k] for e in v], a[arg]) for v, a in lists if type(a.get(arg)) is list]
            try:
                sets = [(set(g), set(x)) for g, x in pairs]
            except TypeError:
                continue
            if len(pairs) < th.min_presence or len({frozenset(x) for _, x in sets}) < th.min_distinct_eq:
                continue
            if sum(1 for g, _ in sets if g) < th.min_presence:
                continue  # an empty answer sits within any set asked: it shows nothing of the echo
            if all(g == x for g, x in sets):
                form = "echo_set"
            elif all(g <= x for g, x in sets):
                form = "subset"
            else:
                continue
            out.append(({"form": form, "arg": arg, "key": k}, {"n": len(pairs)}))
    return out


def _monotone(column: list[Any], order: str) -> bool:
    pairs = zip(column, column[1:], strict=False)
    return all(a <= b for a, b in pairs) if order == "asc" else all(a >= b for a, b in pairs)


def _kept_keys(dicts: list[dict[str, Any]]) -> list[str]:
    """Entries every clean map held, where maps differ in their other entries (else it is a record,
    whose fields have required rules of their own)."""
    common = set.intersection(*(set(map(str, d)) for d in dicts))
    union = set().union(*(set(map(str, d)) for d in dicts))
    return sorted(common) if common and common != union else []


# ---- sizes against the call

MAX_CALLS = 1000  # a recording's distinct calls a len_by_args rule lists at most (else no rule)


def same_call_lengths(
    executions: Iterable[Execution], th: Thresholds = DEFAULT, changing: bool | None = None
) -> list[tuple[str, Found]]:
    """(field, (params, support)) of each list field of the result's own element whose length the
    same arguments always repeated; none where some list of the result changed size under the same
    call (``changing_world``; ``changing``: its answer, where the caller has it)."""
    executions = list(executions)
    by_field: dict[str, dict[str, list[tuple[int | None, int]]]] = {}
    present: set[str] = set()
    calls: list[tuple[str, dict[str, Any], int]] = []
    for ex in executions:
        rows = ex.rows.get(ROOT, ())
        if len(rows) != 1:
            continue
        row = rows[0]
        fields = {
            f: v for f, v in row.items() if type(v) is list and not f.startswith(("#", ARG)) and "(" not in f
        }
        present.update(fields)
        calls.append((call_key(ex.args), fields, ex.count))
    if changing_world(executions) if changing is None else changing:
        return []
    for key, fields, count in calls:
        for f in present:
            v = fields.get(f)
            by_field.setdefault(f, {}).setdefault(key, []).append((None if v is None else len(v), count))
    out: list[tuple[str, Found]] = []
    for f, per_call in sorted(by_field.items()):
        if len(per_call) > MAX_CALLS:
            continue
        repeats = repeated = 0
        lengths: dict[str, int] = {}
        agreed = True
        for key, seen in per_call.items():
            ns = {n for n, _ in seen}
            if len(ns) != 1:
                agreed = False  # the same call gave another length (or none): the world changes
                break
            (n,) = ns
            if n is not None:
                lengths[key] = n
                again = sum(c for _, c in seen) - 1
                repeats += again
                repeated += again > 0
        # repeats of one call alone make a constant length in disguise (list_files every time): the
        # same-call rule needs distinct calls repeated
        if agreed and repeats >= th.min_presence and repeated >= th.min_distinct_eq:
            support = {"n": sum(len(s) for s in per_call.values()), "repeats": repeats, "calls": repeated}
            out.append((f, ({"form": "len_by_args", "lengths": dict(sorted(lengths.items()))}, support)))
    return out


def list_sizes(ex: Execution) -> tuple[tuple[str, str, int], ...]:
    """How many elements every list of one result held, at each place: the ``len(...)`` of every
    row's lists (a list of strings has no rows of its own), summed over the rows of a context."""
    sizes: dict[tuple[str, str], int] = {}
    for c, rows in ex.rows.items():
        for row in rows:
            for f, v in row.items():
                if f.startswith("len(") and type(v) is int:
                    sizes[(c, f)] = sizes.get((c, f), 0) + v
    return tuple(sorted((c, f, n) for (c, f), n in sizes.items()))


def changing_world(executions: Iterable[Execution]) -> bool:
    """The same call (the same arguments) gave another size of some list of the result, its own
    or a nested one: the tool reads a store that changes between calls (a knowledge graph written
    to, a search whose relations grew), and a list that kept its length did so by the luck of which
    writes came between its repeats."""
    seen: dict[str, tuple[tuple[str, str, int], ...]] = {}
    for ex in executions:
        key, sizes = call_key(ex.args), list_sizes(ex)
        if seen.setdefault(key, sizes) != sizes:
            return True
    return False


def entry_lengths(maps: list[dict[str, Any]], th: Thresholds = DEFAULT) -> list[Found]:
    """A map keyed by names whose entries are lists (fuel options per rental company): the same
    entry, met again in another clean result, held a list as long every time; over ``min_presence``
    meetings again of ``min_distinct_eq`` distinct entries or more, each entry keeps its length."""
    seen: dict[str, set[int]] = {}
    for m in maps:
        if not m or not all(type(v) is list for v in m.values()):
            return []
        for k, v in m.items():
            seen.setdefault(str(k), set()).add(len(v))
    met: dict[str, int] = {}
    for m in maps:  # one per distinct execution (another call that gave the same map counts)
        for k in m:
            met[str(k)] = met.get(str(k), 0) + 1
    again = sum(n - 1 for n in met.values())
    repeated = sum(1 for n in met.values() if n > 1)
    if len(seen) > MAX_CALLS or any(len(ns) != 1 for ns in seen.values()):
        return []
    if again < th.min_presence or repeated < th.min_distinct_eq:
        return []
    lengths = {k: next(iter(ns)) for k, ns in sorted(seen.items())}
    if kept_by_chance({k: (lengths[k], met[k]) for k in lengths}, th):
        return []
    return [
        ({"form": "len_by_key", "lengths": lengths}, {"n": len(maps), "repeats": again, "entries": repeated})
    ]


def kept_by_chance(meetings: dict[str, tuple[int, int]], th: Thresholds) -> bool:
    """Whether every entry (or record) keeping its length, ``meetings`` giving each one's length and
    how often it was met, is what lengths drawn at random from all meetings' would give with chance
    1 - confidence or more: lengths nearly all 1 (a formula's one dependent cell, a lint rule's one
    fix) say nothing of the entry, however often it was met again (wide vocabulary)."""
    total = sum(met for _, met in meetings.values())
    counts: dict[int, int] = {}
    for length, met in meetings.values():
        counts[length] = counts.get(length, 0) + met
    logp = sum((met - 1) * math.log(counts[length] / total) for length, met in meetings.values())
    return logp >= math.log(1 - th.confidence)


def record_lengths(executions: Iterable[Execution], th: Thresholds = DEFAULT) -> list[tuple[str, str, Found]]:
    """(context, field, found) of each list inside records of a list (an e-mail's recipients) whose
    length the same record, by its identifier, kept every time it was met again in another clean
    result: over ``min_presence`` meetings again of ``min_distinct_eq`` distinct records or more."""
    # (context, field, id key) -> id -> (lengths seen, distinct executions met in)
    found: dict[tuple[str, str, str], dict[str, tuple[set[int], int]]] = {}
    repeated_keys: set[tuple[str, str]] = set()
    for ex in executions:
        for context, rows in ex.rows.items():
            if not context.endswith("[*]"):
                continue
            ids = [k for k in rows[0] if _record_id(k, rows[0][k])] if rows else []
            for k in ids:
                if not all(_record_id(k, r.get(k)) for r in rows) or len({r[k] for r in rows}) != len(rows):
                    # a key repeated within one list (a lint rule's code met twice in one file) is
                    # no record's identifier in any list
                    repeated_keys.add((context, k))
                    continue
                for r in rows:
                    for f, v in r.items():
                        if type(v) is not list or f.startswith(("#", ARG)) or "(" in f:
                            continue
                        per_id = found.setdefault((context, f, k), {})
                        lens, met = per_id.get(str(r[k]), (set(), 0))
                        per_id[str(r[k])] = (lens | {len(v)}, met + 1)
    best: dict[tuple[str, str], tuple[int, str, dict[str, int]]] = {}
    for (context, f, k), per_id in found.items():
        if (
            (context, k) in repeated_keys
            or len(per_id) > MAX_CALLS
            or any(len(lens) != 1 for lens, _ in per_id.values())
        ):
            continue
        again = sum(met - 1 for _, met in per_id.values())
        repeated = sum(1 for _, met in per_id.values() if met > 1)
        if again < th.min_presence or repeated < th.min_distinct_eq:
            continue
        lengths = {i: next(iter(lens)) for i, (lens, _) in sorted(per_id.items())}
        if kept_by_chance({i: (lengths[i], met) for i, (_, met) in per_id.items()}, th):
            continue
        if again > best.get((context, f), (0, "", {}))[0]:
            best[(context, f)] = (again, k, lengths)
    return [
        (
            context,
            f,
            ({"form": "len_by_id", "key": k, "lengths": lengths}, {"n": len(lengths), "repeats": again}),
        )
        for (context, f), (again, k, lengths) in sorted(best.items())
    ]


def _lone_records(seen: list[tuple[Any, dict[str, Any]]]) -> bool:
    """Results that are lists of records of one set of fields, or one such record alone."""
    fields = {frozenset(e) for v, _ in seen for e in (v if type(v) is list else [v]) if type(e) is dict}
    return len(fields) == 1 and all(
        type(v) is dict or (type(v) is list and all(type(e) is dict for e in v)) for v, _ in seen
    )


def _record_id(key: str, v: Any) -> bool:
    # a time is no identifier (two events start at one hour), nor a phrase (an explanation of a rule)
    return (type(v) is str and id_like(v) and cached_date_key(v) is None and " " not in v) or (
        type(v) is int and (key == "id" or key.endswith(("_id", "Id", "ID", "id_")))
    )


def arg_sizes(lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds = DEFAULT) -> list[Found]:
    """Equalities of a list's size with an argument: an integer (a limit always reached), a list
    (one answer per id asked, or the list itself echoed), a number after a word in a text (``LIMIT 7``)."""
    out: list[Found] = []
    names = sorted({k for _, a in lists for k in a})
    for arg in names:
        pairs = [(v, a[arg]) for v, a in lists if arg in a]
        if len(pairs) < th.min_presence:
            continue
        if all(type(x) is int for _, x in pairs):
            out.extend(_limit_reached(arg, lists, th))
        elif all(type(x) is list for _, x in pairs):
            if not all(len(v) == len(x) for v, x in pairs):
                continue
            if len({repr(x) for _, x in pairs}) >= th.min_distinct_eq and all(
                same_value(e, y) for v, x in pairs for e, y in zip(v, x, strict=True)
            ):
                # the list asked, given back element by element: no coincidence over 3 distinct lists
                out.append(({"form": "echo_list", "arg": arg}, {"n": len(pairs)}))
            elif len({len(x) for _, x in pairs}) >= th.min_distinct_eq:
                out.append(({"form": "len_eq_arg", "arg": arg}, {"n": len(pairs)}))
        elif all(type(x) is str for _, x in pairs):
            out.extend(_argnum(arg, [(len(v), x) for v, x in pairs], th))
    return out


def _limit_reached(arg: str, lists: list[tuple[list[Any], dict[str, Any]]], th: Thresholds) -> list[Found]:
    """A list as long as an integer argument asked, on every clean call; or, where some calls gave
    fewer (a log cut by a date range), on every call made with one set of arguments (``when``: a
    ``max_count`` alone is always reached, with ``since`` it need not be)."""
    groups: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for v, a in lists:
        if type(a.get(arg)) is int:
            groups.setdefault(tuple(sorted(a)), []).append((len(v), a[arg]))
    every = [p for ps in groups.values() for p in ps]

    def holds(pairs: list[tuple[int, int]]) -> bool:
        return (
            len(pairs) >= th.min_presence
            and len({x for _, x in pairs}) >= th.min_distinct_eq
            and all(n == x for n, x in pairs)
        )

    if holds(every):
        return [({"form": "len_eq_arg", "arg": arg, "reached": max(n for n, _ in every)}, {"n": len(every)})]
    # one set of arguments at most (the best supported): a rule's id names its argument, not the set
    held = sorted((-len(ps), names) for names, ps in groups.items() if len(groups) > 1 and holds(ps))
    if not held:
        return []
    names = held[0][1]
    reached = max(n for n, _ in groups[names])
    return [
        (
            {"form": "len_eq_arg", "arg": arg, "when": list(names), "reached": reached},
            {"n": len(groups[names])},
        )
    ]


def _argnum(arg: str, pairs: list[tuple[int, str]], th: Thresholds) -> list[Found]:
    """Words followed by a number in a text argument whose number the list's length always was."""
    counts: dict[str, int] = {}
    for _, text in pairs:
        for w in words_with_numbers(text):
            counts[w] = counts.get(w, 0) + 1
    out: list[Found] = []
    for word in sorted(w for w, c in counts.items() if c >= th.min_presence):
        asked = [(n, number_after(text, word)) for n, text in pairs]
        hits = [(n, x) for n, x in asked if x is not None]
        if (
            len(hits) >= th.min_presence
            and len({x for _, x in hits}) >= th.min_distinct_eq
            and all(n == x for n, x in hits)
        ):
            reached = max(n for n, _ in hits)
            out.append(
                ({"form": "len_eq_argnum", "arg": arg, "word": word, "reached": reached}, {"n": len(hits)})
            )
    return out


def row_width(lists: list[list[Any]], th: Thresholds = DEFAULT) -> list[Found]:
    """Rows given as lists (a sheet's cells) of one width within every clean list of two rows or more."""
    tables = [v for v in lists if len(v) >= 2 and all(type(e) is list for e in v)]
    if len(tables) < th.min_distinct_eq or any(type(e) is not list for v in lists for e in v):
        return []
    if sum(len(v) - 1 for v in tables) < 2 * th.min_presence:
        return []
    if all(len({len(e) for e in v}) == 1 for v in tables):
        return [({"form": "same_width"}, {"n": len(tables)})]
    return []


__all__ = [
    "MAX_CALLS",
    "arg_sizes",
    "mine_collections",
    "per_entry",
    "row_width",
    "same_call_lengths",
    "string_elements",
]
