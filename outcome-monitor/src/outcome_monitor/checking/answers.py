"""The same call gives the same answer (``collection`` form ``same_answer``): calls keyed by their
arguments as canonical JSON, answers by a short digest, and ``SameAnswers``, which judges a call met
before on its ``marshal`` bytes. Knows nothing of receipts or environments.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Mapping
from json.encoder import JSONEncoder
from typing import Any

from outcome_monitor.checking.values import MISSING

# canonical JSON, as json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
# default=str) writes it: the text of call keys and answer digests. json.dumps makes an encoder and
# the encoder its C encoder on every call, which costs twice the encoding of a few arguments: this C
# encoder is made once, without the cycle check (its table of the objects being written would be
# shared between calls: a cyclic value raises RecursionError rather than ValueError)
_CANON = JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode
_MAKE = getattr(json.encoder, "c_make_encoder", None)
_C_CANON = _MAKE and _MAKE(None, str, json.encoder.encode_basestring, None, ":", ",", True, False, True)


def canonical(v: Any) -> str:
    return "".join(_C_CANON(v, 0)) if _C_CANON else _CANON(v)


def call_key(args: Mapping[str, Any]) -> str:
    """One text per call: the arguments as canonical JSON (keys sorted)."""
    return canonical(args)


def answer_digest(v: Any) -> str:
    """A short digest of an answer (the result as its view reads it): the same answer, the same
    digest; a registry keeps it instead of the answer."""
    return hashlib.sha256(canonical(v).encode()).hexdigest()[:16]


_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(v: Any) -> bool:
    """``v`` holds JSON's own types only (dicts with string keys, lists, strings, numbers, booleans,
    None; no subclass): two such values with the same ``marshal`` bytes have the same canonical
    JSON. (marshal writes exact builtin types only, each with its own type code; but a bytearray
    shares the code of bytes, whose ``str`` differs, and a code object's ``str`` holds its address.)"""
    stack = [v]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is dict:
            if not all(type(k) is str for k in x):
                return False
            stack.extend(x.values())
        elif t is list:
            stack.extend(x)
        elif t not in _SCALARS:
            return False
    return True


# marshal's format 2: floats exactly, no references to objects written before (whose use turns on
# reference counts); a type marshal does not write (a subclass, an object, MISSING) raises ValueError
_FORMAT = 2


class SameAnswers:
    """The same call gives the same answer: ``answers`` maps each recorded call's key to its answer's
    digest. Judging costs the call's canonical JSON and, for a recorded call, the answer's JSON and
    sha256; ``marshal`` writes both in a third of that (no key sorting, no escaping). So ``seen`` maps
    a call's marshal bytes to those of an answer whose digest matched, or to b"" for a call the
    recording never made: a call met before, answered by the same bytes, is ``matched`` on two
    ``marshal.dumps``; anything else is judged by the digest (``differs``). Only values of JSON's own
    types are kept (``plain``): equal bytes are then an equal canonical JSON."""

    def __init__(self, answers: Mapping[str, str]):
        self.answers = dict(answers)
        self.seen: dict[bytes, bytes] = {}
        self.limit = 4 * len(self.answers) + 64  # another key order, an interned string: a few forms

    def matched(self, args: Any, v: Any) -> bool:
        """A call met before (by its arguments' marshal bytes): one the recording never made, or one
        answered by these very bytes when its digest matched. False asks ``differs``."""
        try:
            b = self.seen.get(marshal.dumps(args, _FORMAT))
            return b is not None and (not b or b == marshal.dumps(v, _FORMAT))
        except ValueError:
            return False

    def differs(self, args: Any, v: Any) -> bool:
        """``v`` is not what the recording answered the same call (a call it never made, or a
        missing ``v``, never is): its digest is another."""
        want = self.answers.get(call_key(args))
        if want is not None and v is not MISSING and answer_digest(v) != want:
            return True
        if plain(args) and (want is None or v is not MISSING and plain(v)):
            if len(self.seen) >= self.limit:
                self.seen.clear()
            try:
                got = b"" if want is None else marshal.dumps(v, _FORMAT)
                self.seen[marshal.dumps(args, _FORMAT)] = got
            except ValueError:  # nested deeper than marshal writes
                pass
        return False


__all__ = ["SameAnswers", "answer_digest", "call_key", "canonical", "plain"]
