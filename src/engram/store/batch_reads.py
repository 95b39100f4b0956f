"""The graph reads of one batch of closing plans, each made once (issue 29, build25).

``add_many`` plans the closes of a batch's memories one after another before it writes
the batch's graph rows (``write.link``), so every plan of the batch reads the same graph:
the speaker's entity, their newest relations, a relation type's cardinality. At 20k
composed texts those reads were a tenth of ``add_many``'s time, most of them the same
read made again by the next memory. ``BatchReads`` is the store handed to the plans: it
remembers each graph read for the rest of the batch and forgets everything as soon as
anything else is touched (a plan closing a relation, ``graph.invalidate``, or any call
it does not know to be a read), so a plan reads what it would have read without it.
It lives for one batch, inside the batch's write transaction (no other writer).

Most entity reads of a plan find nothing: a subject is tried with each generic head
("billing service", "billing app", ...) and each is a name no entity has. So the first
entity read of a namespace reads every name its entities have (``GraphCountStore.entity_names``,
one statement, while there are at most ``NAMES_READ``), and a name outside them is
answered "none" without a statement; a name among them is read as before. That was
two in five of ``add_many``'s statements on PostgreSQL at 20k (issue 29, pgadd26).

It also holds the batch's own memories (``written``, batch40). They are in the store but
not yet committed, and the keyword index does not see them on every backend (SQLite's
is read on its second connection, PostgreSQL's inside the transaction): a reader that
needs an earlier memory's text ("The cat eats Purina." before "The cat eats Royal Canin
now." in one ``add_many`` or one mined chat) asks ``sharing`` for the batch's memories
that hold its words, so both backends, and a batch and one ``add`` at a time, read the
same earlier memories.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from engram.records import MemoryRecord
from engram.store.protocols.graph import canonical_name, normal_name
from engram.text import keywords, plural_stem

#: Names read at most for the "has no entity" answers: reading them costs a few
#: microseconds each, a statement a round trip (0.2-1 ms), and a batch asks a few
#: hundred names; past this many, every name is read as it is asked.
NAMES_READ = 20_000
#: ``sharing`` leaves out a word more than this share of a batch's memories hold (and
#: more than ``COMMON_MIN`` of them): a word of every other memory, like a name on each turn.
COMMON = 0.1
COMMON_MIN = 4
#: The reads remembered, per part of the store: none of them writes.
_READS = {
    "graph": frozenset({"entity", "entities", "relations"}),
    "graph_counts": frozenset({"current_relations", "relation_cardinality"}),
}


def _copy(value: Any) -> Any:
    """What a remembered read hands out: lists and dicts copied (a caller may change
    its own), records as they are (frozen)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def _key(part: str, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A read's arguments as a key (``relation_cardinality`` takes a list of types)."""
    if any(type(a) is list for a in args):
        args = tuple(tuple(a) if type(a) is list else a for a in args)
    return (part, method, args, *kwargs.items())


class BatchReads:
    """``store`` with the graph reads of ``_READS`` remembered until anything else is
    called on it."""

    def __init__(self, store: Any, written: Sequence[MemoryRecord] = ()) -> None:
        self._store = store
        self._memo: dict[Any, Any] = {}
        self.hits = 0
        """Reads answered from memory."""
        self.written = tuple(written)
        """The batch's memories, in the order they were written."""
        self._words: dict[str, list[tuple[MemoryRecord, frozenset[str]]]] = {}
        self._common: dict[str, frozenset[str]] = {}
        self.graph = _Part(self, "graph", store.graph)
        self.graph_counts = _Part(self, "graph_counts", store.graph_counts)

    def __getattr__(self, name: str) -> Any:
        # Anything else may write: what is remembered may be stale after it.
        self._memo.clear()
        return getattr(self._store, name)

    def read(self, key: Any, call: Callable[[], Any]) -> Any:
        try:
            found = self._memo.get(key, _MISSING)
        except TypeError:  # an argument that is no key: read it again
            return call()
        if found is _MISSING:
            found = self._memo[key] = call()
        else:
            self.hits += 1
        return _copy(found)

    def forget(self) -> None:
        self._memo.clear()

    def sharing(self, namespace: str, words: Collection[str]) -> list[tuple[MemoryRecord, int]]:
        """The batch's memories of ``namespace`` holding any of ``words`` (the query's
        ``engram.text.keywords``), each with how many of them it holds, in batch order.
        A word more than a tenth of a large batch holds (a speaker's name on every turn
        of an import) tells no memory from another and is not counted (``COMMON``). A
        memory's keywords are read once a batch (``add_many`` plans hundreds)."""
        said = self._said(namespace)
        common = self._common.get(namespace, frozenset())
        wanted = {plural_stem(w) for w in words} - common
        out: list[tuple[MemoryRecord, int]] = []
        for record, held in said:
            shared = len(wanted & held)
            if shared:
                out.append((record, shared))
        return out

    def _said(self, namespace: str) -> list[tuple[MemoryRecord, frozenset[str]]]:
        found = self._words.get(namespace)
        if found is None:
            found = self._words[namespace] = [
                (r, frozenset(map(plural_stem, keywords(r.content))))
                for r in self.written
                if r.namespace == namespace
            ]
            counts = Counter(w for _, held in found for w in held)
            most = max(COMMON_MIN, COMMON * len(found))
            self._common[namespace] = frozenset(w for w, n in counts.items() if n > most)
        return found

    def named(self, namespace: str, name: str) -> bool:
        """False when no entity of ``namespace`` can be ``name`` (``GraphStore.entity``
        would find none), from the namespace's names read once; True when it may."""
        names = getattr(self._store.graph_counts, "entity_names", None)
        if names is None:
            return True
        memo = ("names", namespace)
        if memo not in self._memo:
            self._memo[memo] = names(namespace, NAMES_READ)
        known = self._memo[memo]
        if known is None:
            return True
        key = canonical_name(name)
        return key in known or normal_name(key) in known


_MISSING = object()


@dataclass
class _Part:
    """One part of the store (``graph``, ``graph_counts``) through ``BatchReads``."""

    reads: BatchReads
    name: str
    part: Any

    def __getattr__(self, method: str) -> Any:
        target = getattr(self.part, method)
        if method not in _READS[self.name]:
            self.reads.forget()
            return target
        reads, name = self.reads, self.name
        unnamed = name == "graph" and method == "entity"

        def remembered(*args: Any, **kwargs: Any) -> Any:
            if unnamed and not kwargs and not reads.named(*args):
                reads.hits += 1
                return None
            key = _key(name, method, args, kwargs)
            return reads.read(key, lambda: target(*args, **kwargs))

        setattr(self, method, remembered)  # found without ``__getattr__`` from now on
        return remembered


def written(store: object) -> BatchReads | None:
    """``store`` when it is a batch's reads (the write path's plans), else None (the
    ``extract`` job reads the committed store, whose keyword index sees every memory)."""
    return store if isinstance(store, BatchReads) else None
