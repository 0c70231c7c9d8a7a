"""The wider vocabulary: learning from a user's recording that real traffic cannot fool, and the rule
classes past the paper's seven.

``learn(rows)`` (the default, ``vocabulary="wide"``) runs ``learn_wide``:

1. errors set aside by one status inference (``status.split_clean``), counted per tool;
2. views learned per tool (``views``: numbers, booleans, JSON, Python literals, tables and ``key:
   value`` lines read out of text; content blocks and rows by position) and applied;
3. the paper's classes mined per tool (``admit(per_tool=True)``: one tool's clean results never
   erase another's rule) with the recording's support bound on domains;
4. domains mended: a field that never varied and reads like an identifier is a constant only with
   the support an unseen value would need (the rule of succession: 1 / (n + 1) below 1 -
   confidence); a word of a vocabulary (``cancelled``, ``image/png``) keeps the usual support; a domain inside a
   well-known set (weekdays, months) becomes that set (a clock that moved two days is not a fault);
5. rules of the new classes: ``text`` on every text field (not an HTML page or an error, not empty;
   the result not an error by the status inference; a text cut short; a text naming the argument
   asked about), ``shape`` (a pattern per string field, kept only where held-out values match; no
   placeholder where no clean value was one; a machine token where every value was one; pooled by
   field name where a tool saw few values; no error page or placeholder, in a field seen only a few
   times, where the whole recording never held one), ``collection`` (sizes, kept entries, echoed members and map
   keys, uniform rows, unique ids, sorted lists, list elements), ``range`` (a score within [0, 1])
   and ``echo`` with ``part: date`` (a date on the day an argument names, pooled across the tools of
   one place: ``day_echo``);
6. signs, domains and echoes past a field's own support: the elements of a list of numbers, and a
   field seen few times signed by the recording's own rate of places that change sign (``signs``);
   names in the lists of a map keyed by names, and a short string a categorical argument always
   determined (``domains``); a field tools of one place echo, each through its own argument
   (``pooled_echo``).

The paper's studies keep ``vocabulary="paper"`` (the seven classes, registries pinned by hash).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from outcome_monitor.checking.paths import ARG, KEY, ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.shapes import (
    PLACEHOLDER_KINDS,
    compile_shape,
    no_placeholder_of,
    no_placeholder_params,
    placeholder_kind,
    token_fits,
    token_params,
)
from outcome_monitor.checking.values import id_like, json_type
from outcome_monitor.learning.bands import band_rules
from outcome_monitor.learning.computed import computed_signs
from outcome_monitor.learning.counts import soften_counts
from outcome_monitor.learning.cycles import from_zero, wraps, zone_signed
from outcome_monitor.learning.day_echo import day_echoes, recording_days
from outcome_monitor.learning.domains import (
    arg_lookups,
    lend_domains,
    map_element_domains,
    merge_elements,
    open_set,
)
from outcome_monitor.learning.executions import Execution, index_executions
from outcome_monitor.learning.gaps import date_caps
from outcome_monitor.learning.kinds import kind_rules
from outcome_monitor.learning.known_sets import KNOWN_SETS, known_set
from outcome_monitor.learning.mapdetect import map_executions
from outcome_monitor.learning.named_args import asked_limit, named_args
from outcome_monitor.learning.namesakes import (
    MIN_FIXED_SHAPE_DISTINCT,
    MIN_SHAPE_DISTINCT,
    prefix_table,
    suffix_rule,
    suffix_shapes,
    tool_prefixes,
)
from outcome_monitor.learning.namesakes import pattern_of as _shape
from outcome_monitor.learning.pooled_echo import pooled_echoes
from outcome_monitor.learning.relisted import own_values
from outcome_monitor.learning.routes import infer_routes, infer_views, routed_rows, vacuous_elements
from outcome_monitor.learning.same_answers import same_answers
from outcome_monitor.learning.signs import sign_rules
from outcome_monitor.learning.status import split_clean
from outcome_monitor.learning.write_reports import write_reports
from outcome_monitor.text.balance import balance_params
from outcome_monitor.text.parse import ending_params, text_contracts, text_kinds
from outcome_monitor.text.prose import prose_params
from outcome_monitor.text.tables import many_length
from outcome_monitor.text.views import apply_view
from outcome_monitor.text.wordsets import word_params
from outcome_monitor.thresholds import DEFAULT, Thresholds, constant_floor

VOCABULARIES = ("paper", "wide")

MIN_TOKEN_DISTINCT = 3  # a machine token (an id, a code, a status word): few distinct values over enough rows
MIN_TEXT_EMPTY = 14  # "never empty" asks twice the usual evidence: an empty note is a common legitimate value


def learn_wide(
    traces: Iterable[Mapping[str, Any]], th: Thresholds = DEFAULT
) -> tuple[list[Rule], dict[str, Any]]:
    """The wide vocabulary's rules of a recording, and what ``Registry.meta`` keeps of it (views,
    rows set aside, domains held back)."""
    from outcome_monitor.learning.admit import admit
    from outcome_monitor.learning.collect import collect
    from outcome_monitor.learning.executions import gc_paused

    split = split_clean(traces)
    # a tool whose results take one form per resource named also learns per route (routes.py)
    routes = infer_routes(split.clean, th.min_presence)
    copies = routed_rows(split.clean, routes)
    clean = [*split.clean, *copies]
    results: dict[str, list[Any]] = {}
    calls: dict[str, list[Any]] = {}
    for r in clean:
        results.setdefault(str(r["tool"]), []).append(r.get("result"))
        calls.setdefault(str(r["tool"]), []).append(r.get("arguments"))
    views = infer_views(results, calls)
    rows = [
        {**r, "result": apply_view(views[str(r["tool"])], r.get("result"), r.get("arguments"))}
        if str(r["tool"]) in views
        else r
        for r in clean
    ]
    index = map_executions(index_executions(rows), th)
    held_back: list[dict[str, Any]] = []
    with gc_paused():
        rules = admit(
            [collect(tool, ex, th=th, wide=True) for tool, ex in index.items()],
            th,
            held_back,
            per_tool=True,
        )
    rules = [
        r for r in soften_counts(_mend_domains(rules, th, held_back, index), index, th) if not _loose_type(r)
    ]
    # a list of one or more matches (one block per match) may match nothing
    rules = [r for r in rules if not (r.cls == "positive" and r.fields[0] == many_length(views.get(r.tool)))]
    clean_rows: dict[str, int] = {}
    raw_texts: dict[str, list[str]] = {}
    for r in clean:
        clean_rows[str(r["tool"])] = clean_rows.get(str(r["tool"]), 0) + 1
        if type(r.get("result")) is str:
            raw_texts.setdefault(str(r["tool"]), []).append(r["result"])
    raw_rules: list[Rule] = []
    columns = {tool: _string_columns(ex) for tool, ex in index.items()}
    pooled = _pooled_columns(columns)
    suffix = suffix_shapes(pooled)
    # brackets that close over each pooled place, judged once (not once per tool that reads it)
    closing_pool = {key: p for key, values in pooled.items() if (p := balance_params(values)) is not None}
    prefixes = prefix_table(columns)
    rules.extend(lend_domains(rules, columns, MIN_OWN_SEEN))
    html_free, placeholder_free = _recording_free(columns, index, th)
    # a field some tool held empty somewhere in the recording (a listing's event without a location):
    # empty is one of its values, wherever a record of any tool holds it under that name
    blank = {
        f
        for cols in columns.values()
        for (_, f), vs in cols.items()
        if f and any(type(v) is str and not v.strip() for v in vs)
    }
    rules.extend(day_echoes(index, th, recording_days(index)))
    recorded, set_aside = len(split.clean), split.set_aside()
    for tool, ex in index.items():
        text_rules = _text_rules(
            tool, columns[tool], pooled, th, html_free, placeholder_free, suffix, closing_pool, blank
        )
        rules.extend(tool_prefixes(text_rules, prefixes))
        rules.extend(_collection_rules(tool, ex, th, html_free))
        ending = ending_params(raw_texts.get(tool, []), th.min_presence)
        if ending is not None and len(raw_texts[tool]) == clean_rows.get(tool, 0):
            # the text as sent (before any view) always ended so: one cut short does not
            raw_rules.append(Rule(tool, "text", ROOT, ("",), ending, {"n": len(raw_texts[tool])}))
        if clean_rows.get(tool, 0) >= th.min_presence or (
            # a tool called a few times in a recording that is large (the recording's support, as for
            # error pages) speaks too, where none of its own calls was set aside as an error
            clean_rows.get(tool, 0) >= MIN_OWN_SEEN and recorded >= MIN_HTML_FREE and not set_aside.get(tool)
        ):
            # what set errors aside at learning speaks at checking: read as sent, whatever the view
            raw_rules.append(
                Rule(
                    tool,
                    "text",
                    ROOT,
                    ("",),
                    {"form": "error_result", "not": "error_result"},
                    {"n": clean_rows[tool]},
                )
            )
    rules.extend(named_args(index, th))
    meta: dict[str, Any] = {
        "source": "traces",
        "vocabulary": "wide",
        "n_executions": sum(len(v) for v in index.values()) - len(copies),
        "thresholds": th.to_json(),
    }
    if routes:
        meta["routes"] = routes
    rules.extend(_unit_ranges(index))
    rules.extend(band_rules(index, th))
    # signs of list elements, and of fields too rarely seen for a sign of their own (signs.py)
    rules.extend(sign_rules(index, rules, th)[0])
    # ...but none of a number whose sign the call decides (computed.py)
    rules = computed_signs(rules, index)
    # gaps between ordered dates that pile up against a cap (gaps.py)
    rules = date_caps(rules, index)
    # tools of one shape, and records of one shape under one object, speak for each other (kinds.py)
    # ...and months wrap, zones' offsets are signed (cycles.py)
    rules = [from_zero(r) for r in kind_rules(rules, index) if not wraps(r) and not zone_signed(r)]
    # names in the lists of a map keyed by names, pooled over its keys (domains.py)
    rules = merge_elements(rules, map_element_domains(index, th))
    # a short string a categorical argument always determined (domains.py)
    rules.extend(arg_lookups(index, th))
    # a field that tools of one place echo, each through its own argument (pooled_echo.py)
    rules.extend(pooled_echoes(index, rules, th))
    # the same call answers the same where nothing wrote and no clock shows (same_answers.py)
    rules.extend(same_answers(index, th))
    # a write's echo of what it changed may leave out what already held (write_reports.py)
    # a limit asked is a bound (len_le_arg), not an echo, pooled or not; element rules need their rows
    rules = vacuous_elements([r for r in write_reports(rules) if not asked_limit(r)], routes, index)
    if views:
        meta["views"] = views
        meta["viewed_rules"] = sorted(r.rule_id for r in rules if r.tool in views)
    rules.extend(raw_rules)
    if split.flagged or split.inferred:
        meta["set_aside"] = split.to_json()
    if held_back:
        meta["held_back"] = held_back
    return rules, meta


def _mend_domains(
    rules: list[Rule], th: Thresholds, held_back: list[dict[str, Any]], index: Mapping[str, list[Execution]]
) -> list[Rule]:
    out = []
    floor = constant_floor(th)
    for r in rules:
        if r.cls != "domain" or r.params.get("reference"):
            out.append(r)
            continue
        values = r.params["values"]
        whole = known_set(values)
        if whole is not None:
            out.append(
                replace(
                    r, params={**r.params, "values": whole}, support={**r.support, "known_set": len(whole)}
                )
            )
            continue
        # a boolean seen one way is a constant too: its other value is no stranger (a check that
        # passed every time the recording asked, ``valid: true``, fails for the next bad input)
        constant = (
            len(values) == 1
            and (id_like(values[0]) or type(values[0]) is bool)
            and r.support.get("n", 0) < floor
        )
        reason = (
            f"a constant {'boolean' if type(values[0]) is bool else 'identifier'} needs {floor} "
            "executions (one unseen value in n + 1)"
            if constant
            else open_set(values, r.fields[0]) or own_values(r, index)  # relisted.py
        )
        if reason is not None:
            held_back.append(
                {
                    "tool": r.tool,
                    "rule": f"domain {r.path}",
                    "values": len(values),
                    "n": r.support.get("n", 0),
                    "reason": reason,
                }
            )
            # the type rule the domain had suppressed speaks for the field again
            types = [json_type(v) for v in values] + (["null"] if r.params.get("nullable") else [])
            out.append(
                Rule(
                    r.tool,
                    "type",
                    r.context,
                    r.fields,
                    {"types": sorted(set(types))},
                    {"n": r.support.get("n", 0)},
                    r.source,
                )
            )
            continue
        out.append(r)
    return out


def _loose_type(r: Rule) -> bool:
    """A type rule that says too little to keep: a field that was always null (it holds a value when
    there is one), or one of three kinds or more (a value of any kind: a float is no surprise there)."""
    if r.cls != "type" or r.fields[0] == "":
        return False
    kinds = [t for t in r.params.get("types", ()) if t != "null"]
    return not kinds or len(kinds) >= LOOSE_KINDS


LOOSE_KINDS = 3


def _string_columns(executions: list[Execution]) -> dict[tuple[str, str], list[str]]:
    """(context, field) -> the string values of every field that only ever held strings."""
    cols: dict[tuple[str, str], list[Any]] = {}
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if f.startswith((ARG, "#")) or f == KEY or "(" in f:
                        continue
                    if f == "" and context != ROOT and type(v) is not str:
                        continue
                    cols.setdefault((context, f), []).append(v)
    out: dict[tuple[str, str], list[str]] = {}
    for key, vs in cols.items():
        strings = [v for v in vs if type(v) is str]
        if key == (ROOT, ""):
            # the result itself: text rules for its text answers, when most answers are text
            if len(strings) * 2 >= len(vs):
                out[key] = strings
        elif strings and len(strings) == len([v for v in vs if v is not None]):
            out[key] = strings
    return out


def _pooled_columns(
    columns: Mapping[str, Mapping[tuple[str, str], list[str]]],
) -> dict[tuple[str, str], list[str]]:
    """Every tool's string values of one (context, field), pooled: tools that carry a field of the same
    name at the same place draw it from one kind (a ``record_id`` is ``TRV-D5B7C4D7`` everywhere)."""
    out: dict[tuple[str, str], list[str]] = {}
    for cols in columns.values():
        for key, values in cols.items():
            if key != (ROOT, "") and key[1] != "":
                out.setdefault(key, []).extend(values)
    return out


MIN_HTML_FREE = 50  # distinct clean strings in the whole recording, none an HTML page
MIN_OWN_HTML_FREE = 1  # ...and a field seen once at least (a page is no field's clean value)
MIN_SENTENCE_WORDS = 3  # a text answer of this many words at least is a sentence, no placeholder
MIN_OWN_SEEN = 2  # a placeholder kept out, a domain lent: a field seen twice (once may be a one-off)


# placeholders no clean value of a whole recording was: a field seen twice keeps them out too (an
# empty value or one cut off with "..." is common enough in clean traffic to need a field's own support)
RECORDING_PLACEHOLDERS = ("null", "todo", "template", "lorem", "mojibake")
CUT_KINDS = frozenset({"empty", "truncated"})
WHOLE_KINDS = ("null", "todo")  # what a whole value is, never a part of free text (lorem, a template)


def _recording_free(
    columns: Mapping[str, Mapping[tuple[str, str], list[str]]],
    index: Mapping[str, list[Execution]],
    th: Thresholds,
) -> tuple[int, int]:
    """How many distinct clean strings the recording held (fields and list elements of every tool)
    where none was an HTML page or an HTTP error, else 0; and where none was a placeholder of
    ``RECORDING_PLACEHOLDERS``, else 0: an error page or a ``NULL`` in a field a tool saw only a few
    times is still what no clean result of any tool ever held."""
    from outcome_monitor.learning.collection_mining import string_elements

    seen: set[str] = set()
    for cols in columns.values():
        for key, values in cols.items():
            if key != (ROOT, ""):
                seen.update(values)
    for ex in index.values():
        seen.update(string_elements(ex))
    if len(seen) < max(MIN_HTML_FREE, th.min_presence):
        return 0, 0
    html = any("html" in text_kinds(t) for t in seen)
    placeholder = any(placeholder_kind(t) in RECORDING_PLACEHOLDERS for t in seen)
    return (0 if html else len(seen)), (0 if placeholder else len(seen))


def _text_rules(
    tool: str,
    columns: Mapping[tuple[str, str], list[str]],
    pooled: Mapping[tuple[str, str], list[str]],
    th: Thresholds,
    html_free: int = 0,
    placeholder_free: int = 0,
    suffix: Mapping[tuple[str, str], dict[str, Any]] | None = None,
    closing_pool: Mapping[tuple[str, str], dict[str, Any]] | None = None,
    blank: set[str] | frozenset[str] = frozenset(),
) -> list[Rule]:
    from outcome_monitor.learning.collection_mining import per_entry

    rules = []
    # a tool that cuts its own long texts with "..." somewhere (an excerpt) may cut any of them
    cuts = any(
        type(v) is str and placeholder_kind(v) == "truncated" for vs in columns.values() for v in set(vs)
    )
    for (context, f), values in sorted(columns.items()):
        distinct = list(dict.fromkeys(values))
        support = {"n": len(values), "distinct": len(distinct)}
        # a placeholder is never a value a field held clean: few distinct values over enough rows will do
        placeholder = no_placeholder_params(distinct, 3) if len(values) >= th.min_presence else None
        spared = {"truncated"} if cuts else set()
        if f in blank:
            spared.add("empty")
        if placeholder is not None and spared:
            placeholder = {
                **placeholder,
                "kinds": [k for k in placeholder.get("kinds", PLACEHOLDER_KINDS) if k not in spared],
            }
        if (
            placeholder is None
            and len(values) >= th.min_presence
            and len(distinct) >= 3
            and {placeholder_kind(v) for v in distinct} <= CUT_KINDS | {None}
        ):
            # sometimes empty or cut off with "...", never a TODO or a null: those kinds
            placeholder = {"form": "no_placeholder", "kinds": list(WHOLE_KINDS)}
        if placeholder is not None:
            rules.append(Rule(tool, "shape", context, (f,), placeholder, support))
        # ids, codes and status words stay machine tokens: 3 distinct values over enough rows
        token = (
            token_params(distinct, MIN_TOKEN_DISTINCT)
            if len(values) >= th.min_presence and (context, f) != (ROOT, "")
            else None
        )
        # numbers, length and dates of long text, whatever its form (text/prose.py)
        rules.extend(
            Rule(tool, "text", context, (f,), p, support) for p in prose_params(values, th.min_presence)
        )
        named = word_params(values)  # names of a closed vocabulary of words (wordsets.py)
        if named is not None:
            rules.append(Rule(tool, "text", context, (f,), named, support))
        # expressions and code close their brackets (balance.py); a tool that saw few speaks with its
        # namesakes' values at the place (a solver's thirty tools, each answering {"result": ...})
        closing = balance_params(values) or (
            (closing_pool or {}).get((context, f)) if len(values) >= MIN_OWN_SEEN else None
        )
        if closing is not None:
            rules.append(Rule(tool, "text", context, (f,), closing, support))
        if len(distinct) < th.min_presence:
            if token is not None:
                rules.append(Rule(tool, "shape", context, (f,), token, support))
            if html_free and MIN_OWN_HTML_FREE <= len(values) < th.min_presence and not per_entry(context, f):
                # too few values of its own (the root: too few for error_result): the recording's speak
                rules.append(
                    Rule(
                        tool,
                        "text",
                        context,
                        (f,),
                        {"form": "not_html", "not": "html"},
                        {**support, "recording_distinct": html_free},
                    )
                )
            from_pool = _pooled_shape(
                tool, context, f, distinct, pooled.get((context, f), []), placeholder, th, token is None
            )
            rules.extend(from_pool)
            if not any(r.params.get("form") == "shape" for r in from_pool):
                rules.extend(suffix_rule(tool, context, f, distinct, suffix or {}, support))
            if (
                placeholder_free
                and placeholder is None
                and len(values) >= MIN_OWN_SEEN
                # the result itself: only where every clean answer was a sentence (never one word)
                and (
                    (context, f) != (ROOT, "") or all(len(v.split()) >= MIN_SENTENCE_WORDS for v in distinct)
                )
                and not per_entry(context, f)
                and not any(r.params.get("form") == "no_placeholder" for r in from_pool)
                and all(placeholder_kind(v) is None for v in distinct)
            ):
                params = {"form": "no_placeholder", "kinds": list(RECORDING_PLACEHOLDERS)}
                rules.append(
                    Rule(
                        tool,
                        "shape",
                        context,
                        (f,),
                        params,
                        {**support, "recording_distinct": placeholder_free},
                    )
                )
            if len(values) >= th.min_presence and (context, f) != (ROOT, ""):
                # an error page or an error message is never a field's clean value: a field that held
                # few values over enough rows and never one of them keeps that (the root has error_result)
                seen = set().union(*(text_kinds(t) for t in distinct))
                for kind in ("html", "error"):
                    if kind not in seen:
                        rules.append(
                            Rule(tool, "text", context, (f,), {"form": f"not_{kind}", "not": kind}, support)
                        )
            continue
        shape = _shape(distinct)
        if shape is None and token is not None:
            rules.append(Rule(tool, "shape", context, (f,), token, support))
        if shape is None and len(distinct) < MIN_SHAPE_DISTINCT:
            from_pool = _pooled_shape(
                tool, context, f, distinct, pooled.get((context, f), []), {}, th, token is None
            )
            rules.extend(from_pool)
            if not any(r.params.get("form") == "shape" for r in from_pool):
                rules.extend(suffix_rule(tool, context, f, distinct, suffix or {}, support))
        if shape is not None:
            rules.append(Rule(tool, "shape", context, (f,), shape, support))
            continue  # a pattern already says what an error page or an empty value is not
        if (context, f) == (ROOT, ""):
            params_list = text_contracts(distinct, th.min_presence)
        else:
            seen = set().union(*(text_kinds(t) for t in distinct))
            params_list = [
                {"form": f"not_{kind}", "not": kind}
                for kind in ("html", "error", "empty")
                if kind not in seen
                and (kind != "empty" or (len(values) >= MIN_TEXT_EMPTY and "empty" not in spared))
            ]
        for params in params_list:
            rules.append(Rule(tool, "text", context, (f,), params, support))
    return rules


def _pooled_shape(
    tool: str,
    context: str,
    f: str,
    own: list[str],
    pooled: list[str],
    placeholder: dict[str, Any] | None,
    th: Thresholds,
    want_token: bool = True,
) -> list[Rule]:
    """A field the tool itself saw too few values of takes the pattern (and the no-placeholder and
    token rules) of every tool's values of the same name and place, where its own values all fit."""
    distinct = list(dict.fromkeys(pooled))
    if not own or len(distinct) < MIN_TOKEN_DISTINCT:
        return []
    support = {"n": len(own), "pooled_n": len(distinct)}
    out = []
    # a pattern needs its own support; a machine token a tool's own token's, over every tool's values
    shape = _shape(distinct) if len(distinct) >= MIN_FIXED_SHAPE_DISTINCT else None
    if shape is not None:
        check = compile_shape(f, shape)
        if all(check({f: v}, {}) is None for v in own):
            out.append(Rule(tool, "shape", context, (f,), shape, support))
    token = (
        token_params(distinct, MIN_TOKEN_DISTINCT)
        if want_token and shape is None and len(pooled) >= th.min_presence
        else None
    )
    if token is not None and all(token_fits(token, v) for v in own):
        out.append(Rule(tool, "shape", context, (f,), token, support))
    if len(distinct) < MIN_FIXED_SHAPE_DISTINCT:
        return out
    if placeholder is None:
        if no_placeholder_params(distinct, th.min_presence) is not None:
            out.append(Rule(tool, "shape", context, (f,), no_placeholder_of(own), support))
    return out


MIN_UNIT_DISTINCT = 20  # a share or score: many distinct fractions, all within [0, 1]


def _fractions(executions: list[Execution]) -> tuple[dict[tuple[str, str], set[float]], set[tuple[str, str]]]:
    """A tool's float values within [0, 1] per (context, field), and the places that held another number."""
    cols: dict[tuple[str, str], set[float]] = {}
    other: set[tuple[str, str]] = set()
    for ex in executions:
        for context, rows in ex.rows.items():
            for row in rows:
                for f, v in row.items():
                    if f.startswith((ARG, "#")) or "(" in f or v is None:
                        continue
                    if type(v) is float and 0.0 <= v <= 1.0:
                        cols.setdefault((context, f), set()).add(v)
                    elif type(v) in (int, float):
                        other.add((context, f))
    return cols, other


def _unit_ranges(index: Mapping[str, list[Execution]]) -> list[Rule]:
    """A float field whose clean values are many distinct fractions, all between 0 and 1 (a match
    score, a share), pooled across the tools that carry it at the same place: a doubled or
    percent-scaled value fires. A tool that ever held another number there keeps no such rule, nor
    does any other tool of that field."""
    per_tool = {tool: _fractions(ex) for tool, ex in index.items()}
    pooled: dict[tuple[str, str], set[float]] = {}
    spoiled: set[tuple[str, str]] = set()
    for cols, other in per_tool.values():
        spoiled |= other
        for key, values in cols.items():
            pooled.setdefault(key, set()).update(values)
    out = []
    for tool, (cols, _) in sorted(per_tool.items()):
        for (context, f), values in sorted(cols.items()):
            n = len(pooled[(context, f)])
            if (context, f) in spoiled or n < MIN_UNIT_DISTINCT:
                continue
            params = {"form": "unit", "min": 0, "max": 1}
            out.append(
                Rule(tool, "range", context, (f,), params, {"distinct": len(values), "pooled_distinct": n})
            )
    return out


def _collection_rules(
    tool: str, executions: list[Execution], th: Thresholds, html_free: int = 0
) -> list[Rule]:
    from outcome_monitor.learning.collection_mining import mine_collections

    return [
        Rule(tool, "collection", context, (f,), params, support)
        for context, f, params, support in mine_collections(executions, th, html_free)
    ]


__all__ = ["KNOWN_SETS", "VOCABULARIES", "known_set", "learn_wide"]
