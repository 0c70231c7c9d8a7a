"""Collection rules (class ``collection``, the wider vocabulary): what the clean results say about the
size and the members of a list or a map, learned per tool.

Forms (``params["form"]``), each over one list or map field of a context element:

* ``len_eq``: the list always held ``n`` elements (every clean result, at least ``min_presence``
  distinct ones): a truncated or padded list fires;
* ``len_le_arg``: never longer than the call's numeric argument ``arg`` (a ``limit``), which took
  ``min_distinct_eq`` values or more and was reached at least once;
* ``has_keys``: a map (keyed by names or ids) that always held ``keys``: a dropped entry fires,
  though what is left is still a valid map;
* ``keys_echo``: a map keyed by the names a list argument asked for holds exactly those (with
  ``key``: the argument is a list of objects, and their ``key`` names the entries);
* ``elements``: every string of a list is none of the kinds of text no clean element was (an error
  page, an error message) and, where the elements drew from few values, one of them; with
  ``strings``, every element is a string (a null or a number among names fires);
* ``uniform``: every element of a list of records has the same fields (a table's rows): a field
  dropped from one row fires;
* ``unique``: an identifier never repeats within one list: a duplicated or swapped-in record fires;
* ``sorted``: the list is ordered by a number or date key (a log, ``ORDER BY``): shuffled dates fire;
* ``echo_set``: the ids or names a list argument ``arg`` asked for are exactly those of
  ``each(list[*].k)`` (``subset``: among them): an entity swapped for another fires;
* ``len_by_args``: the same call (the same arguments) gives a list as long as it did in the
  recording: ``lengths`` maps each recorded call (``call_key``) to its length;
* ``same_answer``: the same call gives the same answer, word for word: ``answers`` maps each
  recorded call to a digest of its result (``answer_digest``; learned by ``same_answers``);
* ``len_by_key``: each entry of a map keyed by names (a list per company) holds a list as long as
  the same entry did in the recording: ``lengths`` maps each entry's key to its length;
* ``len_by_id``: a list inside a record (an e-mail's recipients) holds as many elements as it did
  for the same record, known by its identifier ``key``, in the recording;
* ``len_eq_arg``: as long as the integer argument ``arg`` asks (a ``limit`` always reached; with
  ``when``, only on calls made with exactly those arguments), or as long as the list argument
  ``arg`` (one answer per id asked);
* ``len_eq_argnum``: as long as the number after the word ``word`` in the string argument ``arg``
  (``LIMIT 7`` in a query); with ``lone`` (here and on ``len_eq_arg``) one record alone counts as a
  list of one (content blocks: several come as a list, one as the block itself);
* ``echo_list``: the list is the list argument ``arg`` again, element by element (numbers compared
  as numbers: ``741`` asked, ``741.0`` given); with ``omits`` (a write's report) some elements
  asked may be left out, in order;
* ``same_width``: a table of rows given as lists: every row of one list has as many cells.

The checks and their words; ``vocabulary`` mines them. Knows nothing of receipts or environments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from outcome_monitor.checking.answers import SameAnswers, call_key
from outcome_monitor.checking.shapes import placeholder_kind
from outcome_monitor.checking.values import MISSING, date_key, is_number, same_value
from outcome_monitor.text.parse import text_kinds

Values = Mapping[str, Any]
Verdict = tuple[Any, ...] | None
Check = Callable[[Values, Values], Verdict]

MAX_KEYS = 20
_KIND = {
    "html": "an HTML page or HTTP error",
    "error": "an error message",
    "placeholder": "a placeholder (N/A, TODO, lorem text, a value cut off with ...)",
}  # a receipt names at most this many kept keys


# ---- sizes against the call: len_by_args, len_eq_arg, len_eq_argnum, echo_list, same_width


def _short_of(n: int, want: int, reached: Any) -> bool:
    """A list off its limit: longer than asked, or shorter than both the limit and the longest list
    clean calls reached (``reached``): a log of 14 commits asked for 20 gives 14, which is what the
    data had, not a list cut short. A registry without ``reached`` asks for the limit exactly."""
    if n > want:
        return True
    return n < (min(want, int(reached)) if type(reached) is int else want)


SIZE_FORMS = frozenset(
    {
        "len_by_args",
        "len_by_id",
        "len_by_key",
        "len_eq_arg",
        "len_eq_argnum",
        "echo_list",
        "same_width",
        "same_answer",
    }
)
# a word and the number after it in a string argument: "LIMIT 7", "top=5", "max: 20"
_WORD_NUMBER = re.compile(r"\b([A-Za-z_]+)\s*[=:]?\s*(\d{1,6})\b")


def asked_by_key(asked: list[Any], key: str) -> list[Any]:
    """The values of ``key`` in a list argument of objects (``files[*].file_path``); KeyError or
    TypeError where an element is no object holding it."""
    return [x[key] for x in asked]


def element_placeholder(e: str) -> bool:
    """A list element that is a placeholder (``N/A``, ``TODO``, cut off with ``...``); an empty
    one is not judged (a blank line of a file is an element of its lines)."""
    kind = placeholder_kind(e)
    return kind is not None and kind != "empty"


def element_test(p: Mapping[str, Any]) -> Callable[[str], bool]:
    """Whether a string element keeps to form ``elements`` (its values, text kinds, placeholders)."""
    placeholders = "placeholder" in p.get("not", ())
    kinds = frozenset(k for k in p.get("not", ()) if k != "placeholder")  # text_kinds' own
    allowed = frozenset(p["values"]) if "values" in p else None
    return lambda e: (
        (allowed is None or e in allowed)
        and not (kinds and kinds & text_kinds(e))
        and not (placeholders and element_placeholder(e))
    )


def number_after(text: Any, word: str) -> int | None:
    """The number that follows ``word`` (any case) in ``text``, where it follows it exactly once."""
    if type(text) is not str:
        return None
    found = [int(n) for w, n in _WORD_NUMBER.findall(text) if w.lower() == word]
    return found[0] if len(found) == 1 else None


def words_with_numbers(text: str) -> dict[str, int]:
    """Each word (lower case) followed by a number exactly once in ``text``, with that number."""
    seen: dict[str, list[int]] = {}
    for w, n in _WORD_NUMBER.findall(text):
        seen.setdefault(w.lower(), []).append(int(n))
    return {w: ns[0] for w, ns in seen.items() if len(ns) == 1}


def _alone(v: Any, lone: bool) -> Any:
    """With ``lone``, one record (an object) stands for a list of one (one content block)."""
    return [v] if lone and isinstance(v, dict) else v


def compile_size(f: str, p: Mapping[str, Any]) -> Check:
    form = p["form"]
    if form == "len_by_args":
        lengths = dict(p["lengths"])

        def check_same_call(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            if not isinstance(v, list):
                return None
            n = lengths.get(call_key(args))
            return (len(v),) if n is not None and len(v) != n else None

        return check_same_call
    if form == "same_answer":
        same = SameAnswers(p["answers"])

        def check_same_answer(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            return (v,) if not same.matched(args, v) and same.differs(args, v) else None

        return check_same_answer
    if form == "len_by_key":
        by_key = dict(p["lengths"])

        def check_entries(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            if not isinstance(v, dict):
                return None
            for k, e in v.items():
                n = by_key.get(str(k))
                if n is not None and isinstance(e, list) and len(e) != n:
                    return ({str(k): len(e)},)
            return None

        return check_entries
    if form == "len_by_id":
        by_id, key = dict(p["lengths"]), str(p["key"])

        def check_record(vals: Values, args: Values) -> Verdict:
            v, rid = vals.get(f, MISSING), vals.get(key, MISSING)
            if not isinstance(v, list) or not isinstance(rid, (str, int)) or isinstance(rid, bool):
                return None
            n = by_id.get(str(rid))
            return (len(v),) if n is not None and len(v) != n else None

        return check_record
    if form == "len_eq_arg":
        arg, lone = str(p["arg"]), bool(p.get("lone"))
        when = frozenset(p["when"]) if "when" in p else None
        reached = p.get("reached")

        def check_len_arg(vals: Values, args: Values) -> Verdict:
            v, want = _alone(vals.get(f, MISSING), lone), args.get(arg, MISSING)
            if not isinstance(v, list) or (when is not None and set(args) != when):
                return None
            if isinstance(want, list):
                return (len(v),) if len(v) != len(want) else None
            if type(want) is int:
                return (len(v),) if _short_of(len(v), want, reached) else None
            return None

        return check_len_arg
    if form == "len_eq_argnum":
        arg, word, lone = str(p["arg"]), str(p["word"]), bool(p.get("lone"))
        reached_n = p.get("reached")

        def check_len_argnum(vals: Values, args: Values) -> Verdict:
            v = _alone(vals.get(f, MISSING), lone)
            if not isinstance(v, list):
                return None
            want = number_after(args.get(arg), word)
            return (len(v),) if want is not None and _short_of(len(v), want, reached_n) else None

        return check_len_argnum
    if form == "echo_list":
        arg, omits = str(p["arg"]), bool(p.get("omits"))

        def check_echo_list(vals: Values, args: Values) -> Verdict:
            v, asked = vals.get(f, MISSING), args.get(arg, MISSING)
            if not isinstance(v, list) or not isinstance(asked, list):
                return None
            if omits:
                return None if _in_order_within(v, asked) else (v,)
            if len(v) != len(asked) or not all(same_value(a, b) for a, b in zip(v, asked, strict=True)):
                return (v,)
            return None

        return check_echo_list
    if form == "same_width":

        def check_width(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            if not isinstance(v, list) or len(v) < 2 or not all(isinstance(e, list) for e in v):
                return None
            width = len(v[0])
            odd = next((e for e in v[1:] if len(e) != width), None)
            return None if odd is None else (odd,)

        return check_width
    raise ValueError(f"unknown collection form {form!r}")


def _in_order_within(given: list[Any], asked: list[Any]) -> bool:
    """Every element given is one asked, in the order asked (some asked may be left out)."""
    rest = iter(asked)
    return all(any(same_value(g, a) for a in rest) for g in given)


def size_expected(p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form == "same_answer":
        return "the answer the same call gave"
    if form == "len_by_args":
        return "as many elements as the same call gave"
    if form == "len_by_key":
        return "each entry as long as it was"
    if form == "len_by_id":
        return f"as many elements as the same {p['key']} had"
    if form == "len_eq_arg":
        return f"as many elements as arg.{p['arg']}"
    if form == "len_eq_argnum":
        return f"as many elements as the number after {p['word']} in arg.{p['arg']}"
    if form == "echo_list":
        return f"the elements of arg.{p['arg']}" + (" or some of them" if p.get("omits") else "")
    return "rows of one width"


def size_sentence(a: str, p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form == "same_answer":
        return (
            f"{a} must be what the same call (the same arguments) answered in the recording "
            "(every repeated clean call answered the same)"
        )
    if form == "len_by_args":
        return (
            f"{a} must hold as many elements as the same call (the same arguments) gave in the recording "
            "(every repeated clean call did)"
        )
    if form == "len_by_id":
        return (
            f"{a} must hold as many elements as it did for the same {p['key']} in the recording "
            "(every record met again did)"
        )
    if form == "len_by_key":
        return f"each entry of {a} must hold as many elements as the same entry did in the recording (every entry met again did)"
    if form == "len_eq_arg":
        when = f" when called with {', '.join(p['when'])} alone" if "when" in p else ""
        upto = f", up to the {p['reached']} clean results reached" if "reached" in p else ""
        return f"{a} must hold as many elements as the argument {p['arg']} asks{when}{upto} (as every clean result did)"
    if form == "len_eq_argnum":
        return (
            f"{a} must hold as many elements as the number after {p['word'].upper()} in the argument "
            f"{p['arg']} (as every clean result did)"
        )
    if form == "echo_list" and p.get("omits"):
        return (
            f"{a} must hold only elements of the argument {p['arg']}, in order (a write may leave out "
            "what it did not change, never add or alter one)"
        )
    if form == "echo_list":
        return f"{a} must hold the elements of the argument {p['arg']}, in order (as every clean result did)"
    return f"every row of {a} must have as many cells as the others (as in every clean result)"


def compile_collection(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    form = p["form"]
    if form in SIZE_FORMS:
        return compile_size(f, p)
    if form == "len_eq":
        n = int(p["n"])

        def check_len(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            return (len(v),) if isinstance(v, (list, dict)) and len(v) != n else None

        return check_len
    if form == "len_le_arg":
        arg = str(p["arg"])

        def check_limit(vals: Values, args: Values) -> Verdict:
            v, limit = vals.get(f, MISSING), args.get(arg, MISSING)
            if not isinstance(v, list) or not is_number(limit):
                return None
            return (len(v),) if len(v) > limit else None

        return check_limit
    if form == "has_keys":
        keys = tuple(p["keys"])

        def check_keys(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            if not isinstance(v, dict):
                return None
            gone = [k for k in keys if k not in v]
            return (sorted(v),) if gone else None

        return check_keys
    if form in ("echo_set", "subset"):
        arg, key, exact = str(p["arg"]), str(p["key"]), form == "echo_set"

        def check_members(vals: Values, args: Values) -> Verdict:
            items, asked = vals.get(f, MISSING), args.get(arg, MISSING)
            if not isinstance(items, list) or not isinstance(asked, list):
                return None
            got = [e.get(key) for e in items if isinstance(e, dict)]
            try:
                g, a = set(got), set(asked)
            except TypeError:
                return None
            return (got,) if (g != a if exact else not g <= a) else None

        return check_members
    if form == "keys_echo":
        arg, by = str(p["arg"]), (str(p["key"]) if "key" in p else None)

        def check_keys_echo(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            asked = args.get(arg, MISSING)
            if not isinstance(v, dict) or not isinstance(asked, list):
                return None
            try:
                want = set(map(str, asked if by is None else asked_by_key(asked, by)))
            except (TypeError, KeyError):  # not the list of objects the recording's calls sent
                return None
            return None if set(map(str, v)) == want else (sorted(map(str, v)),)

        return check_keys_echo
    if form == "elements":
        passes = element_test(p)
        distinct, only_strings = bool(p.get("distinct")), bool(p.get("strings"))

        def check_elements(vals: Values, args: Values) -> Verdict:
            items = vals.get(f, MISSING)
            if not isinstance(items, list):
                return None
            if only_strings:
                odd = next((e for e in items if type(e) is not str), MISSING)
                if odd is not MISSING:
                    return (odd,)
            if distinct:
                strings = [e for e in items if type(e) is str]
                if len(set(strings)) < len(strings):
                    return (next(e for i, e in enumerate(strings) if e in strings[:i]),)
            for e in items:
                if type(e) is str and not passes(e):
                    return (e,)
            return None

        return check_elements
    if form == "uniform":

        def check_uniform(vals: Values, args: Values) -> Verdict:
            items = vals.get(f, MISSING)
            if not isinstance(items, list) or len(items) < 2 or not all(isinstance(e, dict) for e in items):
                return None
            first = set(items[0])
            odd = next((e for e in items[1:] if set(e) != first), None)
            return None if odd is None else (sorted(set(odd) ^ first),)

        return check_uniform
    if form == "unique":
        key = str(p["key"])

        def check_unique(vals: Values, args: Values) -> Verdict:
            items = vals.get(f, MISSING)
            if not isinstance(items, list):
                return None
            seen: set[Any] = set()
            for e in items:
                v = e.get(key, MISSING) if isinstance(e, dict) else MISSING
                if v is MISSING or isinstance(v, (dict, list)):
                    continue
                if v in seen:
                    return (v,)
                seen.add(v)
            return None

        return check_unique
    if form == "sorted":
        key, desc = str(p["key"]), p["order"] == "desc"

        def check_sorted(vals: Values, args: Values) -> Verdict:
            items = vals.get(f, MISSING)
            if not isinstance(items, list):
                return None
            keys = [order_key(e.get(key, MISSING)) if isinstance(e, dict) else None for e in items]
            for a, b in zip(keys, keys[1:], strict=False):
                if a is None or b is None or type(a) is not type(b):
                    continue
                if (a < b) if desc else (a > b):
                    return ([e.get(key) for e in items if isinstance(e, dict)],)
            return None

        return check_sorted
    raise ValueError(f"unknown collection form {form!r}")


def compile_range(
    f: str, p: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    """The ``range`` class: a score or share between 0 and 1 stays there (form ``unit``); a number
    stays within one width of the band its clean values sat in (form ``band``)."""
    lo, hi = float(p["min"]), float(p["max"])

    def check_range(vals: Values, args: Values) -> Verdict:
        v = vals.get(f, MISSING)
        return (v,) if is_number(v) and not lo <= v <= hi else None

    return check_range


def range_expected(p: Mapping[str, Any]) -> str:
    return f"between {p['min']} and {p['max']}"


def range_sentence(a: str, p: Mapping[str, Any]) -> str:
    if p.get("form") == "band":
        return f"{a} must be between {p['min']} and {p['max']} (within one width of the band every clean value sat in)"
    return f"{a} must be between {p['min']} and {p['max']} (a share or score: every clean value was)"


def order_key(v: Any) -> Any:
    """What a sorted list is sorted by: a number, or an ISO date's sortable key; else None."""
    if is_number(v):
        return float(v)
    return date_key(v)


def collection_expected(p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form in SIZE_FORMS:
        return size_expected(p)
    if form == "len_eq":
        return f"{p['n']} elements"
    if form == "len_le_arg":
        return f"at most arg.{p['arg']} elements"
    if form == "keys_echo":
        return f"entries keyed by arg.{p['arg']}" + (f"[*].{p['key']}" if "key" in p else "")
    if form == "elements":
        parts = ["strings"] if p.get("strings") else []
        parts += [f"one of {len(p['values'])} known values"] if "values" in p else []
        parts += [f"not {_KIND[k]}" for k in p.get("not", ())]
        parts += ["no two alike"] if p.get("distinct") else []
        return "elements " + ", ".join(parts)
    if form == "uniform":
        return "elements with the same fields"
    if form == "unique":
        return f"distinct {p['key']}s"
    if form == "sorted":
        return f"sorted by {p['key']} ({'descending' if p['order'] == 'desc' else 'ascending'})"
    if form == "has_keys":
        return "entries " + ", ".join(json.dumps(k, ensure_ascii=False) for k in p["keys"][:MAX_KEYS])
    return f"{p['key']}s {'==' if form == 'echo_set' else 'among'} arg.{p['arg']}"


def collection_sentence(a: str, p: Mapping[str, Any]) -> str:
    form = p["form"]
    if form in SIZE_FORMS:
        return size_sentence(a, p)
    if form == "len_eq":
        return f"{a} must hold {p['n']} elements (as every clean result did)"
    if form == "len_le_arg":
        return f"{a} must hold at most the argument {p['arg']} elements"
    if form == "has_keys":
        keys = p["keys"]
        shown = ", ".join(json.dumps(k, ensure_ascii=False) for k in keys[:MAX_KEYS])
        more = f" (and {len(keys) - MAX_KEYS} more)" if len(keys) > MAX_KEYS else ""
        return f"{a} must hold the entries {shown}{more} (as every clean result did)"
    if form == "keys_echo":
        asked = f"{p['arg']}'s values" if "key" not in p else f"{p['arg']}'s {p['key']}s"
        return f"{a} must hold an entry for each of the argument {asked}, and no other"
    if form == "elements":
        parts = ["be a string"] if p.get("strings") else []
        if "values" in p:
            shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in p["values"][:MAX_KEYS])
            parts.append(f"be one of {shown}")
        parts += [f"not be {_KIND[k]}" for k in p.get("not", ())]
        parts += ["differ from the others"] if p.get("distinct") else []
        return f"every element of {a} must " + " and ".join(parts) + " (as every clean element did)"
    if form == "uniform":
        return f"every element of {a} must have the same fields (as in every clean result)"
    if form == "unique":
        return f"the {p['key']}s of {a} must all differ (as in every clean result)"
    if form == "sorted":
        order = "latest or largest first" if p["order"] == "desc" else "earliest or smallest first"
        return f"{a} must be sorted by {p['key']}, {order} (as every clean result was)"
    if form == "echo_set":
        return f"the {p['key']}s of {a} must be exactly those the argument {p['arg']} asked for"
    return f"the {p['key']}s of {a} must be among those the argument {p['arg']} asked for"


__all__ = [
    "SIZE_FORMS",
    "element_placeholder",
    "collection_expected",
    "collection_sentence",
    "compile_collection",
    "compile_range",
    "compile_size",
    "number_after",
    "order_key",
    "range_expected",
    "range_sentence",
    "size_expected",
    "size_sentence",
    "words_with_numbers",
]
