"""The hash chain of ``episodes.jsonl``: a line edited, removed, inserted or moved shows where it is.

The writer ends every version-3 line with two keys: ``"seq":N`` (the line's record number in its
file, from 1) and ``"chain":"<64 hex>"``, where::

    chain = sha256(previous chain + the line's bytes up to its chain key, closed with "}")

and the "previous chain" before a file's first line is the empty string. A line of an older version
(no chain) is folded in as ``sha256(previous chain + the whole line)``, so the first chained line
after it covers it: a version-2 file resumed by this checkout is chained from its first new line on.

Why a running digest in each line (and not one digest of the file): each line commits to itself
and to everything before it, so checking a file names the first line that differs, and an append
costs one hash of one line, whatever the file's size. Why ``seq``: a digest alone says *where* the
file stops matching, the numbers say *what* happened there (a gap: removed; a number seen before:
inserted; a number from later: reordered). The one change a chain cannot see inside the file is
the removal of its last lines: ``Walk`` checks an *anchor* (the ``seq`` and ``chain`` a run's
manifest recorded when the run last finished) for that. Anyone can recompute the chain after an
edit, so this shows accidents and casual edits, not a determined forger.

Knows the byte layout of a line, nothing of the record schema; imports nothing of the harness.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

START = ""  # the chain before a file's first line
CHAIN_KEY = b',"chain":"'
SEQ_KEY = b',"seq":'
SUFFIX_LEN = len(CHAIN_KEY) + 64 + 2  # ,"chain":"<64 hex>"}


def link(prev: str, body: bytes) -> str:
    """The chain of a line whose bytes without its chain are ``body``, after a line chained ``prev``."""
    return hashlib.sha256(prev.encode("ascii") + body).hexdigest()


def seal(body: bytes, seq: int, prev: str) -> tuple[bytes, str]:
    """A record's JSON object (``{...}``, no newline) as its chained line (newline included) and chain."""
    numbered = b"%s%s%d}" % (body[:-1], SEQ_KEY, seq)
    chain = link(prev, numbered)
    return b'%s%s%s"}\n' % (numbered[:-1], CHAIN_KEY, chain.encode("ascii")), chain


def split(line: bytes) -> tuple[bytes, str] | None:
    """(the line up to its chain key closed with ``}``, its chain) of a chained line; None for a line
    without a chain where the writer puts it."""
    if len(line) > SUFFIX_LEN and line.endswith(b'"}') and line[-SUFFIX_LEN:-66] == CHAIN_KEY:
        try:
            return line[:-SUFFIX_LEN] + b"}", line[-66:-2].decode("ascii")
        except UnicodeDecodeError:
            return None
    return None


def seq_of(numbered: bytes) -> int | None:
    """The ``seq`` that ends a line without its chain (``...,"seq":12}``), or None."""
    i = numbered.rfind(SEQ_KEY, max(0, len(numbered) - 40))
    digits = numbered[i + len(SEQ_KEY) : -1] if i >= 0 else b""
    return int(digits) if digits.isdigit() else None


@dataclass
class Break:
    """Where a records file stops being what its writer wrote, and what happened there."""

    line: int  # 1-based line of the file (one past the end for removed last lines)
    kind: str  # edited, removed, inserted, reordered, unchained
    detail: str
    seq: int | None = None
    episode_id: str | None = None

    def describe(self) -> str:
        """``line 17 (episode monitor__t3__s0r0__ab12): edited: record 17 does not match its chain...``"""
        who = f" (episode {self.episode_id})" if self.episode_id else ""
        return f"line {self.line}{who}: {self.kind}: {self.detail}"


@dataclass
class Walk:
    """Checks a file's lines in order (``feed`` each, then ``finish``) and collects every break.

    After a break it takes up the chain again from the line that broke, so one edited line is
    reported once and the lines after it are still checked.
    """

    anchor: tuple[int, str] | None = (
        None  # (seq, chain) the file must hold: its last line when the run finished
    )
    state: str = START  # the chain the next line must link to
    expected: int = 1  # the seq of the next line if nothing was moved
    breaks: list[Break] = field(default_factory=list)
    head: tuple[int, str] | None = None  # (seq, chain) of the last chained line taken
    unchained: int = 0  # older-version lines before the first chained one
    lines: int = 0
    _alt: str | None = None  # after an edit: the chain the edited line would have had (its chain was edited)
    _chained: bool = False
    _seen: dict[int, int] = field(default_factory=dict)  # seq -> the first line holding it
    _gaps: list[tuple[Break, int, int]] = field(default_factory=list)  # (break, first, last missing seq)
    _anchored: bool = False

    def feed(self, lineno: int, raw: bytes, must_chain: bool = False) -> Break | None:
        """Check one line (its bytes, no newline); ``must_chain``: it is a version-3 record."""
        self.lines += 1
        parts = split(raw)
        if parts is None:
            if self._chained:
                return self._break(lineno, "inserted", "a line without a chain after chained lines", None)
            if must_chain:
                return self._break(lineno, "unchained", "a version-3 line without its chain", None)
            self.state = link(self.state, raw)  # an older version's line: the next chained line covers it
            self.unchained += 1
            self.expected += 1
            return None
        numbered, chain = parts
        first_chained = not self._chained
        self._chained = True
        prev, seq = self.state, seq_of(numbered)
        links = link(prev, numbered) == chain or (
            self._alt is not None and link(self._alt, numbered) == chain
        )
        if seq is None:
            brk = self._break(lineno, "edited", "the line has no record number (seq)", None)
            self._take(chain, None)
            return brk
        first = self._seen.setdefault(seq, lineno)
        if self.anchor is not None and seq == self.anchor[0]:
            self._anchored = True
            if links and chain != self.anchor[1]:  # consistent, yet not what the run wrote: re-chained
                brk = self._break(lineno, "edited", f"record {seq} is not the one its run wrote (the manifest holds "
                                  "another chain): the lines up to here were rewritten and chained anew", seq)  # fmt: skip
                self._take(chain, seq)
                return brk
        if seq == self.expected:
            if links:
                self._take(chain, seq)
                return None
            older = (
                f" (or one of the {self.unchained} unchained older lines before it)"
                if first_chained and self.unchained
                else ""
            )
            brk = self._break(
                lineno,
                "edited",
                f"record {seq} does not match its chain: it{older} was changed after it was written",
                seq,
            )
            self._take(chain, seq, alt=link(prev, numbered))
            return brk
        if seq > self.expected:
            lo, hi = self.expected, seq - 1
            brk = self._break(lineno, "removed", f"record{_range(lo, hi)} missing before record {seq}", seq)
            self._gaps.append((brk, lo, hi))
            self._take(chain, seq)
            return brk
        if first != lineno:  # a number seen before: this line is not where the writer put it
            return self._break(
                lineno, "inserted", f"a second record {seq} (line {first} holds the first)", seq
            )
        return self._break(lineno, "reordered", f"record {seq} comes after record {self.expected - 1}", seq)

    def _break(self, lineno: int, kind: str, detail: str, seq: int | None) -> Break:
        brk = Break(lineno, kind, detail, seq)
        self.breaks.append(brk)
        return brk

    def _take(self, chain: str, seq: int | None, alt: str | None = None) -> None:
        self.state, self._alt = chain, alt
        if seq is not None:
            self.expected = seq + 1
            self.head = (seq, chain)

    def finish(self) -> list[Break]:
        """Every break in line order; a gap whose records turn up later is a move, not a removal."""
        for brk, lo, hi in self._gaps:
            if all(s in self._seen for s in range(lo, hi + 1)):
                brk.kind, brk.detail = "reordered", f"record {brk.seq} comes before record{_range(lo, hi)}"
        last = self.head[0] if self.head else 0
        if self.anchor is not None and not self._anchored and last < self.anchor[0]:  # else a gap says it
            self.breaks.append(
                Break(self.lines + 1, "removed", f"the file ends at record {last}, but its run had written record "
                      f"{self.anchor[0]} when it last finished (the anchor in manifest.json or sweep.json): the "
                      f"last {self.anchor[0] - last} record(s) were removed")
            )  # fmt: skip
        self.breaks.sort(key=lambda b: b.line)
        return self.breaks


def _range(lo: int, hi: int) -> str:
    return f" {lo}" if lo == hi else f"s {lo}..{hi}"
