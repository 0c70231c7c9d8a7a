"""A domain's database: a shared, never-mutated base and cheap copy-on-write copies of it.

The collections are the domain's (retail: ``orders``, ``products``, ``users``; airline:
``flights``, ``reservations``, ``users``), each ``{id: record}`` and an attribute of the copy
(``db.orders``). A :class:`DB` shares every record with its :class:`BaseDB` until a tool asks to
write one (``writable``) or adds one (``insert``); only then is that record deep-copied. A copy
costs one shallow dict copy per collection, so replaying hundreds of tasks needs no full deep copy.

Hashes follow upstream's equality: a record's exact digest is the sha256 of ``str`` of its
key-sorted nested tuples (so ``51`` differs from ``51.0`` and float noise counts). Two copies of one
base are equal exactly when the records that differ from the base are the same, so a copy's
digest is a hash over the base's identity and a (collection, key, record digest) line for each
record whose digest differs from its base record's (or that the base lacks): only the records a
tool took for writing are hashed, and a base record's digest is computed when first compared (once
per process). The semantic digest rounds every number to cents first (``51 == 51.0``,
``41.91999999999999 == 41.92``). Knows nothing about tools, tasks or episodes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def to_hashable(value: Any) -> Any:
    """Dicts become key-sorted tuples of pairs, lists become tuples, scalars stay."""
    if isinstance(value, dict):
        return tuple((k, to_hashable(v)) for k, v in sorted(value.items()))
    if isinstance(value, list):
        return tuple(to_hashable(v) for v in value)
    return value


def exact_digest(record: Any) -> str:
    return hashlib.sha256(str(to_hashable(record)).encode()).hexdigest()


def to_cents(value: Any) -> Any:
    """Every number rounded to cents as a float (booleans stay booleans)."""
    if isinstance(value, dict):
        return {k: to_cents(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_cents(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return round(float(value), 2) + 0.0  # + 0.0 folds -0.0 into 0.0
    return value


def semantic_digest(record: Any) -> str:
    text = json.dumps(to_cents(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, scalars), several times faster than copy.deepcopy."""
    if type(value) is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [copy_json(v) for v in value]
    return value


_DIGESTS = {"exact": exact_digest, "semantic": semantic_digest}


class BaseDB:
    """The loaded database. Never mutated: episodes work on :meth:`fresh` copies.

    ``collections`` keeps the caller's order (upstream's loader order, used for dumps); digests
    walk the collections in sorted order. ``identity`` (e.g. the data files' hash) enters every
    digest, so copies of different bases never share one.
    """

    def __init__(self, collections: dict[str, dict[str, Any]], identity: str = ""):
        if not collections:
            raise ValueError("a database needs at least one collection")
        self.collections = dict(collections)
        self.names = tuple(sorted(self.collections))  # the order the lines enter the digest
        self.identity = identity
        self._digests: dict[tuple[str, str, str], str] = {}  # (kind, collection, key) -> record digest

    def fresh(self) -> DB:
        return DB(self)

    def record_digest(self, kind: str, collection: str, key: str) -> str:
        memo = (kind, collection, key)
        if memo not in self._digests:
            self._digests[memo] = _DIGESTS[kind](self.collections[collection][key])
        return self._digests[memo]

    def digest(self, kind: str = "exact") -> str:
        return self.fresh().digest(kind)


def _line(collection: str, key: str, digest: str) -> str:
    return f"{collection}\0{key}\0{digest}\n"


class DB:
    """One episode's database: each collection an attribute holding ``{id: record}``.

    Read records freely; before every change to one, take it through :meth:`writable` (a new
    record goes in through :meth:`insert`): the first time gives this copy its own record, and every
    time forgets that record's remembered digests.
    """

    def __init__(self, base: BaseDB):
        self.base = base
        self.data: dict[str, dict[str, Any]] = {c: dict(records) for c, records in base.collections.items()}
        for c, records in self.data.items():
            setattr(self, c, records)  # db.orders, db.reservations ...: the tools' view
        self.owned: set[tuple[str, str]] = set()
        # digests of owned records; a record's entries are dropped whenever it is taken for writing
        self._memo: dict[tuple[str, str, str], str] = {}

    def collection(self, name: str) -> dict[str, Any]:
        if name not in self.data:
            raise KeyError(f"unknown collection {name!r}; known: {', '.join(self.data)}")
        return self.data[name]

    def writable(self, collection: str, key: str) -> Any:
        coll = self.collection(collection)
        for kind in _DIGESTS:
            self._memo.pop((kind, collection, key), None)
        if (collection, key) not in self.owned:
            coll[key] = copy_json(coll[key])
            self.owned.add((collection, key))
        return coll[key]

    def insert(self, collection: str, key: str, record: Any) -> None:
        """Add (or replace) a record this copy owns, e.g. a new reservation."""
        for kind in _DIGESTS:
            self._memo.pop((kind, collection, key), None)
        self.collection(collection)[key] = record
        self.owned.add((collection, key))

    def digest(self, kind: str = "exact") -> str:
        """A hash of the whole database; equal contents give equal digests (``kind``: exact | semantic)."""
        h = hashlib.sha256(f"{self.base.identity}\0{kind}\n".encode())
        for c in self.base.names:
            coll, base = self.data[c], self.base.collections[c]
            owned = sorted(k for (oc, k) in self.owned if oc == c)
            added = [k for k in owned if k not in base]
            if len(coll) == len(base) + len(added) and all(k in coll for k in added):
                lines = [
                    _line(c, k, d)
                    for k in owned
                    if (d := self._owned_digest(kind, c, k))
                    != (self.base.record_digest(kind, c, k) if k in base else None)
                ]
            else:  # keys were removed outside the tools: every record, marked as such
                lines = ["\0every record\n"] + [
                    _line(c, k, self._digest_of(c, k, kind)) for k in sorted(coll)
                ]
            h.update("".join(lines).encode())
        return h.hexdigest()

    def _owned_digest(self, kind: str, c: str, k: str) -> str:
        memo = (kind, c, k)
        if memo not in self._memo:
            self._memo[memo] = _DIGESTS[kind](self.data[c][k])
        return self._memo[memo]

    def _digest_of(self, c: str, k: str, kind: str) -> str:
        if (c, k) in self.owned:
            return self._owned_digest(kind, c, k)
        return self.base.record_digest(kind, c, k)

    def upstream_hash(self) -> str:
        """Upstream's form, sha256 of ``str`` of the whole nested tuple (slow; for cross-checks)."""
        return exact_digest(self.to_dict())

    def changed(self) -> list[tuple[str, str]]:
        """(collection, key) of records whose content differs from the base, sorted."""
        out = []
        for c, k in sorted(self.owned):
            base = self.base.collections[c]
            # unequal values differ for sure; equal ones may still differ in type (1 vs 1.0): then the digests decide
            if (
                k not in base
                or self.data[c][k] != base[k]
                or self._owned_digest("exact", c, k) != self.base.record_digest("exact", c, k)
            ):
                out.append((c, k))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The whole database in upstream's loader shape (records shared, not copied)."""
        return dict(self.data)

    def dump(self, path: Any) -> None:
        """Write the database as JSON; numbers exactly as the tools wrote them (float repr, ints stay ints)."""
        text = json.dumps(self.to_dict(), ensure_ascii=False)  # dumps, not dump: json's C encoder
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
