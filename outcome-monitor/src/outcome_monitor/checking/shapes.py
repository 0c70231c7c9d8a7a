"""String shapes and placeholders: two rule forms a string field learns from its clean values.

``shape`` (``infer_shape``): a full-match pattern every clean value shares, inferred as Auto-Validate
does (Song and He, SIGMOD 2021, arXiv:2104.04659). Each value is cut into runs of one character
class (upper-case letters, lower-case letters, digits, spaces; any other character is a literal of
its own; digits grouped by thousands, ``1,234``, are one run). The finest tokenization under which
every value has the same sequence of classes wins: first upper and lower apart, then letters merged,
then letters and digits merged (hex ids mix them run by run). Per run: the text itself where every
value has the same text there (``W``, ``@``, ``example``, ``USD``; never a run of digits, which
moves with time: a year, a counter), else the tightest class that covers it (digits, capital
letters, hex digits, ...) with its length where that never varied. A varying length is ``+``: a
learned minimum fired on the next shorter clean value (ids counted from 1, small amounts).

A pattern is kept only where it cannot be a coincidence of the sample: (a) at least ``min_distinct``
distinct values; (b) it says more than "some words" (a digit, a literal other than a space, or a
fixed run of two or more letters: ``SFO`` yes, ``Mia Garcia`` no); (c) it holds out: the sorted
distinct values are split into alternate halves, a pattern is inferred on each, and every value of
the other half must match it (a length fixed in one half only, a literal one half never had, a
tokenization one half never needed: all give None). Auto-Validate bounds the false-positive rate
of a pattern on held-out values of the same column; (c) is that bound at zero over the other half.

``no_placeholder`` (``no_placeholder_params``): the field's clean values were never a placeholder
(``placeholder_kind``: ``N/A``, ``null``, ``TODO``, template text, lorem ipsum, mojibake, a value
cut off with ``...``, empty), so one now is a corruption.

``token`` (``token_params``): every clean value was a machine token (printable ASCII without spaces,
a digit or a separator in it or no capital letter), so a homoglyph, a replacement character, a name or
a word in an id field is a corruption.

Pure functions; knows nothing of how rules are stored, pooled or reported (rules.py wires both
forms in through ``compile_shape``, ``shape_expected`` and ``shape_sentence``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from outcome_monitor.checking.values import MISSING, asked

# a shape is for short strings (ids, codes, dates, amounts); longer text is prose
MAX_CHARS = 256
_GROUPED = r"[0-9]{1,3}(?:,[0-9]{3})+(?![0-9A-Za-z])"
_GROUPED_FULL = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*")
_GROUPED_REGEX = "[0-9]{1,3}(?:,[0-9]{3})*"
# finest first: upper / lower / digits apart; letters merged; letters and digits merged
_TOKENIZERS = (
    re.compile(_GROUPED + r"|[0-9]+|[A-Z]+|[a-z]+|[ \t]+|.", re.S),
    re.compile(_GROUPED + r"|[0-9]+|[A-Za-z]+|[ \t]+|.", re.S),
    re.compile(_GROUPED + r"|[A-Za-z0-9]+|[ \t]+|.", re.S),
)


@dataclass(frozen=True)
class _Class:
    name: str
    charset: str  # inside [...] of the regex
    chars: frozenset[str]
    one: str  # words for one character
    many: str


def _cls(name: str, charset: str, chars: str, one: str, many: str) -> _Class:
    return _Class(name, charset, frozenset(chars), one, many)


_DIG, _UP, _LOW = "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
# tightest first: a run takes the first class that covers every character seen there
_CLASSES = (
    _cls("digit", "0-9", _DIG, "digit", "digits"),
    _cls("upper", "A-Z", _UP, "capital letter", "capital letters"),
    _cls("lower", "a-z", _LOW, "lower-case letter", "lower-case letters"),
    _cls("letter", "A-Za-z", _UP + _LOW, "letter", "letters"),
    _cls("hex", "0-9a-f", _DIG + "abcdef", "hex digit", "hex digits"),
    _cls("HEX", "0-9A-F", _DIG + "ABCDEF", "hex digit", "hex digits"),
    _cls("lower_digit", "a-z0-9", _LOW + _DIG, "lower-case letter or digit", "lower-case letters or digits"),
    _cls("upper_digit", "A-Z0-9", _UP + _DIG, "capital letter or digit", "capital letters or digits"),
    _cls("alnum", "A-Za-z0-9", _UP + _LOW + _DIG, "letter or digit", "letters or digits"),
    _cls("space", " \\t", " \t", "space", "spaces"),
    # a sign that differs value to value (a UTC offset, +09:00 and -08:00); never a run's class
    _cls("sign", "+\\-", "+-", "sign", "signs"),
)
_BY_NAME = {c.name: c for c in _CLASSES}
_LETTERS = frozenset({"upper", "lower", "letter"})


@dataclass(frozen=True)
class _Slot:
    """One run of the shape: fixed text, or a class with a length (``hi`` None: varying)."""

    literal: str | None
    cls: str = ""  # a _CLASSES name, or "grouped" (digits grouped by thousands)
    lo: int = 1
    hi: int | None = None

    def regex(self) -> str:
        if self.literal is not None:
            return re.escape(self.literal)
        if self.cls == "grouped":
            return f"(?:{_GROUPED_REGEX})"
        c = f"[{_BY_NAME[self.cls].charset}]"
        if self.hi is not None:
            return c if self.hi == 1 else f"{c}{{{self.hi}}}"
        return f"{c}+" if self.lo <= 1 else f"{c}{{{self.lo},}}"

    def words(self) -> str:
        if self.literal is not None:
            return self.literal
        if self.cls == "grouped":
            return "<number>"
        c = _BY_NAME[self.cls]
        if self.hi is not None:
            return f"<{c.one}>" if self.hi == 1 else f"<{self.hi} {c.many}>"
        return f"<{c.many}>" if self.lo <= 1 else f"<{self.lo} or more {c.many}>"

    def informative(self) -> bool:
        """Whether this run says more than "some words" (see (b) in the module's docstring)."""
        if self.literal is not None:
            return bool(self.literal.strip())
        if self.cls == "space":
            return False
        if self.cls in _LETTERS:
            return self.hi is not None and self.hi >= 2
        return True  # digits, hex, letters with digits, grouped numbers


def _kind(tok: str, level: int) -> str:
    """A token's class at a tokenization level; any other character is its own literal (``=@``)."""
    c = tok[0]
    if "0" <= c <= "9":
        return "X" if level == 2 else "D"
    if "A" <= c <= "Z":
        return ("U", "A", "X")[level]
    if "a" <= c <= "z":
        return ("L", "A", "X")[level]
    if c in " \t":
        return "S"
    if c in "+-":
        return "=\u00b1"  # one kind: the slot says whether the sign ever differed
    return "=" + c


def _columns(values: Sequence[str], level: int) -> tuple[tuple[str, ...], list[list[str]]] | None:
    """The class sequence every value shares at ``level`` and the text of each run, or None."""
    findall = _TOKENIZERS[level].findall
    skeleton: tuple[str, ...] | None = None
    cols: list[list[str]] = []
    for v in values:
        toks = findall(v)
        kinds = tuple(_kind(t, level) for t in toks)
        if skeleton is None:
            skeleton, cols = kinds, [[] for _ in toks]
        elif kinds != skeleton:
            return None
        for col, t in zip(cols, toks, strict=True):
            col.append(t)
    return None if skeleton is None else (skeleton, cols)


def _slot(kind: str, texts: list[str]) -> _Slot | None:
    first = texts[0]
    if kind.startswith("="):
        if any(t != first for t in texts):
            return _Slot(None, "sign", 1, 1)  # both signs seen here (only "+" and "-" share a kind)
        return _Slot(first)
    if all(t == first for t in texts) and not any("0" <= ch <= "9" for ch in first):
        return _Slot(first)
    if any("," in t for t in texts):
        # thousands grouped in some values: every value's run must read as one grouped number
        return _Slot(None, "grouped") if all(_GROUPED_FULL.fullmatch(t) for t in texts) else None
    chars = set("".join(texts))
    cls = next((c for c in _CLASSES if chars <= c.chars), None)
    if cls is None:
        return None
    lengths = {len(t) for t in texts}
    if len(lengths) == 1:
        n = lengths.pop()
        return _Slot(None, cls.name, n, n)
    return _Slot(None, cls.name)  # a varying length: no bound (see the module's docstring)


def _infer(values: Sequence[str]) -> list[_Slot] | None:
    """The runs of the finest tokenization every value shares, or None."""
    for level in range(len(_TOKENIZERS)):
        found = _columns(values, level)
        if found is None:
            continue
        skeleton, cols = found
        slots = [_slot(k, col) for k, col in zip(skeleton, cols, strict=True)]
        if all(s is not None for s in slots):
            return _open_decimals(_merge([s for s in slots if s is not None]))
    return None


def _open_decimals(slots: list[_Slot]) -> list[_Slot]:
    """A decimal number's whole part takes any width (``$80.42`` beside ``$101.80``): its digits
    count the magnitude, not a code's fixed length; the decimals keep theirs (cents)."""
    out = list(slots)
    for i in range(len(out) - 2):
        s, dot, frac = out[i], out[i + 1], out[i + 2]
        if s.cls == "digit" and s.hi is not None and dot.literal == "." and frac.cls == "digit":
            out[i] = _Slot(None, "digit", 1, None)
    return out


def _merge(slots: list[_Slot]) -> list[_Slot]:
    """Adjacent literals as one (``.com``), so the example reads as the values do."""
    out: list[_Slot] = []
    for s in slots:
        if s.literal is not None and out and out[-1].literal is not None:
            out[-1] = _Slot((out[-1].literal or "") + s.literal)
        else:
            out.append(s)
    return out


def _pattern(slots: list[_Slot]) -> str:
    return "".join(s.regex() for s in slots)


_BASE64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")


def _base64(v: str) -> bool:
    """Base64 of bytes: its alphabet, a length of 4k, both letter cases (a hex digest has one)."""
    return len(v) % 4 == 0 and bool(_BASE64.fullmatch(v)) and v != v.lower() and v != v.upper()


def infer_shape(values: Sequence[str], min_distinct: int = 10) -> dict[str, Any] | None:
    """``{"form": "shape", "pattern": <full-match regex>, "example": <words>}`` every clean value of
    a string field matches, or None (too few distinct values, mere words, or the halves disagree)."""
    distinct = sorted({v for v in values if type(v) is str})
    if len(distinct) < max(min_distinct, 2) or any(len(v) > MAX_CHARS for v in distinct):
        return None
    if all(_base64(v) for v in distinct):
        return None  # encoded bytes: similar texts encode to fixed-looking runs that shift with a length
    slots = _infer(distinct)
    if slots is None or not any(s.informative() for s in slots):
        return None
    halves = (distinct[0::2], distinct[1::2])
    for train, held in (halves, halves[::-1]):
        part = _infer(train)
        if part is None:
            return None
        match = re.compile(_pattern(part)).fullmatch
        if not all(match(v) for v in held):
            return None
    pattern = _pattern(slots)
    match = re.compile(pattern).fullmatch
    if not all(match(v) for v in distinct):  # by construction; a guard against a tokenizer slip
        return None
    return {"form": "shape", "pattern": pattern, "example": "".join(s.words() for s in slots)}


# ---------------------------------------------------------------------------- placeholders

_NULL_WORDS = frozenset({"n/a", "na", "n.a.", "#n/a", "none", "null", "nil", "undefined", "nan"})
# case-insensitive, but a title-case word is also a name or an element (Nan, Nil, Na): only lower,
# upper and these spellings are placeholders; and "na" is a word in Welsh, Scots and Hungarian (only
# "NA" and "n/a" stand for nothing)
_NULL_SPELLINGS = frozenset({"N/A", "n/A", "N.A.", "#N/A", "None", "Null", "NaN", "Undefined"})
_DASHES = re.compile(r"[-\u2013\u2014]{1,3}|\?{1,3}")
_DASH_FIRST = frozenset("-\u2013\u2014?")
_TODO_FIRST = frozenset("tTfFxX")
_TODO = re.compile(r"(?:tbd|tba|todo|fixme)\b|x{3,}$|to be (?:determined|announced|confirmed)\b", re.I)
_TEMPLATE = re.compile(
    r"\{\{[^{}]*\}\}|\$\{[^{}]*\}|%\([A-Za-z_]\w*\)[sd]|\[object object\]|\bplaceholder\b", re.I
)
_TEMPLATE_WHOLE = re.compile(r"<[^<>]{1,80}>|\{[A-Za-z_]\w*\}|%[sd]")
# UTF-8 read as Latin-1 or cp1252: a lead byte (Â, Ã) before a continuation byte, or â€ (â€™)
_MOJIBAKE = re.compile(
    "[\u00c2\u00c3][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]|\u00e2\u20ac"
)
HEAD_CHARS = 4000  # placeholders show at the start of a value; a long text is read no further


def _mojibake(s: str) -> bool:
    if s.isascii():
        return False
    if "\ufffd" in s or _MOJIBAKE.search(s):
        return True
    for enc in ("cp1252", "latin-1"):
        try:
            fixed = s.encode(enc).decode("utf-8")
        except UnicodeError:
            continue
        if fixed != s:
            return True
    return False


def placeholder_kind(s: str) -> str | None:
    """The kind of placeholder ``s`` is (``empty``, ``null``, ``todo``, ``template``, ``lorem``,
    ``mojibake``, ``truncated``), or None. Never an ordinary word, name, id, number or date."""
    t = s[:HEAD_CHARS].strip()
    if not t:
        return "empty"
    low = t.lower()
    if low in _NULL_WORDS and (t == low or t == t.upper() or t in _NULL_SPELLINGS) and t != "na":
        return "null"
    # each regex only where its first character can start a match (a case-insensitive pattern may
    # match a non-ASCII letter, ı for i: there the regex decides)
    if t[0] in _DASH_FIRST and len(t) <= 3 and _DASHES.fullmatch(t):
        return "null"
    if (t[0] in _TODO_FIRST or not t.isascii()) and _TODO.match(t):
        return "todo"
    # cheap substring tests first: this runs on every string a rule checks
    if (("{" in t or "%" in t or "[" in t or "placeholder" in low) and _TEMPLATE.search(t)) or (
        t[0] in "<{%" and _TEMPLATE_WHOLE.fullmatch(t)
    ):
        return "template"
    if "lor" in low and (
        low == "lorem"
        or low.startswith(("lorem ", "lorem,"))
        or "lorem ipsum" in low
        or "dolor sit amet" in low
    ):
        return "lorem"
    if _mojibake(t):
        return "mojibake"
    if s[-64:].rstrip().endswith(("...", "\u2026")):  # the tail only: a long text is not copied
        return "truncated"
    return None


def no_placeholder_params(values: Sequence[str], min_distinct: int = 7) -> dict[str, Any] | None:
    """``{"form": "no_placeholder"}`` when no clean value is a placeholder, from at least
    ``min_distinct`` distinct values (the coincidence floor of thresholds.py), else None."""
    distinct = sorted({v for v in values if type(v) is str})
    if len(distinct) < min_distinct or any(placeholder_kind(v) is not None for v in distinct):
        return None
    return no_placeholder_of(distinct)


def no_placeholder_of(own: Sequence[str]) -> dict[str, Any]:
    """The no-placeholder rule of a field whose own values are ``own``: every kind, but an empty
    text where they were names joined by commas, one of them on some calls (none is next)."""
    if joined_names(own):
        return {"form": "no_placeholder", "kinds": [k for k in PLACEHOLDER_KINDS if k != "empty"]}
    return {"form": "no_placeholder"}


PLACEHOLDER_KINDS = ("empty", "null", "todo", "template", "lorem", "mojibake", "truncated")
_JOINED = re.compile(r"[^,\n]+(?:, [^,\n]+)*")


def joined_names(values: Sequence[str]) -> bool:
    """Values that are lists of names joined by ", " (a filter's matching tables), one name on some
    calls and several on others: a list that can hold one can hold none, shown as an empty text."""
    if not all(_JOINED.fullmatch(v) for v in values):
        return False
    counts = {v.count(", ") + 1 for v in values}
    return 1 in counts and len(counts) >= 2


# ---------------------------------------------------------------------------- checks and words


# a machine token: printable ASCII without spaces, short (ids, codes, status words, file names)
_TOKEN = re.compile(r"[\x21-\x7e]{1,64}")
# machine-made: a digit or a separator in it, or no capital letter (``final``, ``service_fee``); a
# word with capitals (``Paris``, ``SFO``) may be a place whose next value is ``New York``
_MACHINE = re.compile(r"[0-9_./:@#-]")


TOKEN_DIGIT_DISTINCT = 7  # "always held a digit" from this many distinct values (the coincidence floor)
TOKEN_CASE_DISTINCT = 20  # "never a capital letter" needs a pattern's evidence: user names mix cases


def token_params(values: Sequence[str], min_distinct: int = 3) -> dict[str, Any] | None:
    """``{"form": "token", ...}`` when every clean value is a machine token (printable ASCII, no
    space: an id, a code, a status word) made by a machine (a digit or a separator in it, or no
    capital letter), from at least ``min_distinct`` distinct values, else None.
    Kept as well: ``digit`` when every one of 7 distinct values held a digit (an id), ``case`` when
    none of 20 held a lower-case (``upper``) or a capital (``lower``) letter."""
    distinct = sorted({v for v in values if type(v) is str})
    if len(distinct) < min_distinct or not all(_TOKEN.fullmatch(v) for v in distinct):
        return None
    if not all(_MACHINE.search(v) or not any(c.isupper() for c in v) for v in distinct):
        return None
    params: dict[str, Any] = {"form": "token"}
    if len(distinct) >= TOKEN_DIGIT_DISTINCT and all(any(c.isdigit() for c in v) for v in distinct):
        params["digit"] = True
    letters = "".join(c for v in distinct for c in v if c.isalpha())
    if len(distinct) < TOKEN_CASE_DISTINCT:
        pass
    elif letters and letters.isupper():
        params["case"] = "upper"
    elif letters and letters.islower():
        params["case"] = "lower"
    return params


def token_fits(params: Mapping[str, Any], v: str) -> bool:
    """Whether ``v`` is a token of the kind ``params`` learned (a homoglyph, a replacement
    character, a name or a placeholder in an id field is not)."""
    if not _TOKEN.fullmatch(v):
        return False
    if params.get("digit") and not any(c.isdigit() for c in v):
        return False
    case = params.get("case")
    if case == "upper" and any(c.islower() for c in v):
        return False
    return not (case == "lower" and any(c.isupper() for c in v))


def compile_shape(
    field: str, params: Mapping[str, Any]
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, ...] | None]:
    """The check of a ``shape`` or ``no_placeholder`` rule on ``field``: only a string is judged (a
    missing value or another type belongs to the required and type rules), and not one the call's
    own arguments hold (an empty pointer, a "TODO" the caller sent, given back: the caller's)."""
    form = params.get("form")
    if form == "shape":
        match = re.compile(params["pattern"]).fullmatch  # once, when the registry loads

        def check_shape(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(field, MISSING)
            return (v,) if type(v) is str and match(v) is None and not asked(v, args) else None

        return check_shape
    if form == "no_placeholder":
        kinds = frozenset(params["kinds"]) if "kinds" in params else None  # None: every kind

        def check_placeholder(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(field, MISSING)
            if type(v) is not str:
                return None
            kind = placeholder_kind(v)
            if kind is None or (kinds is not None and kind not in kinds):
                return None
            return None if asked(v, args) else (v,)

        return check_placeholder
    if form == "token":

        def check_token(vals: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[Any, ...] | None:
            v = vals.get(field, MISSING)
            return (v,) if type(v) is str and not token_fits(params, v) and not asked(v, args) else None

        return check_token
    raise ValueError(f"unknown string rule form {form!r} (expected 'shape', 'no_placeholder' or 'token')")


def _token_words(params: Mapping[str, Any]) -> str:
    case = {"upper": "without lower-case letters", "lower": "without capital letters"}.get(
        params.get("case", "")
    )
    parts = (
        ["ASCII", "without spaces"]
        + (["with a digit"] if params.get("digit") else [])
        + ([case] if case else [])
    )
    return "a token (" + ", ".join(parts) + ")"


def shape_expected(params: Mapping[str, Any]) -> str:
    if params.get("form") == "shape":
        return f"shaped like {params['example']}"
    if params.get("form") == "token":
        return _token_words(params)
    return "not a placeholder"


def shape_sentence(name: str, params: Mapping[str, Any]) -> str:
    if params.get("form") == "shape":
        return f"{name} must look like {params['example']} (as every clean value did)"
    if params.get("form") == "token":
        return f"{name} must be {_token_words(params)} (as every clean value was)"
    return f"{name} must not be a placeholder (no clean value was)"
