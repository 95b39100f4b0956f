"""engram as a LangGraph store (``pip install engramdb[langgraph]``).

``EngramStore`` is a ``langgraph.store.base.BaseStore`` over an engram ``Memory``: pass it
wherever LangGraph takes a store (``graph.compile(store=...)``,
``create_react_agent(..., store=...)``) and every ``put`` lands in engram, every
``search(query=...)`` runs engram's recall::

    from engram import Memory
    from engram.adapters.langgraph import EngramStore

    store = EngramStore(Memory(), index={"fields": ["text"]})
    store.put(("users", "alice"), "food", {"text": "Alice is vegetarian"})
    store.search(("users", "alice"), query="what does alice eat?")

How items map onto memories (namespaces, keys, content, value) is in
``engram.adapters.langgraph_items``. The ``index`` config takes LangGraph's keys:
``fields`` chooses the text engram indexes; engram embeds with its own model, so
``embed`` is accepted and not used, and ``dims``, when given, must equal the model's
dimension. ``put(..., index=False)`` stores an item that query searches rank last
(score None), like LangGraph's ``InMemoryStore``. TTLs are not supported. ``batch``
checks every op before running any; a put is an upsert and a delete of a missing key a
no-op however writers interleave (engram's store has no upsert by key: the adapter
re-reads and retries, see ``EngramStore._put``).

Importing this module imports langgraph; ``import engram`` never does.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import random
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from engram.adapters.langgraph_items import (
    ITEM_TAG,
    MAX_NAMESPACE,
    META,
    check_root,
    content_of,
    decode_namespace,
    encode_namespace,
    index_paths,
    indexed_text,
    item_parts,
    key_tag,
    matches,
    metadata_of,
)
from engram.errors import InvalidInputError, NotFoundError, StoreBusyError, StoreError, shown
from engram.memory import Memory
from engram.records import MemoryRecord

__all__ = ["EngramStore"]

#: Memories read per ``get_all`` page when a search lists or filters.
PAGE = 500
#: The most hits one engram recall returns (``Memory.search``'s ``limit`` bound).
MAX_RECALL = 10_000
#: A store search ranks by relevance alone: no abstaining (E7) on a weak match and no
#: dedup by title, which are for context blocks, not for a key-value store's search.
RECALL_OVERRIDES: dict[str, Any] = {"abstain": False, "dedup_by_title": False}
#: How many times a put re-reads its key after another writer deleted the memory it
#: was about to update (engram issue 27: 8 threads x 300 rounds on one key).
RACE_TRIES = 20
#: The base wait before a put runs again after PostgreSQL aborted it for another
#: writer's sake (``StoreBusyError``).
CONFLICT_WAIT_S = 0.01
#: The keys of LangGraph's ``IndexConfig`` this store reads.
INDEX_KEYS = ("dims", "embed", "fields")


class EngramStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are engram memories.

    ``memory`` is the engram ``Memory`` to write to; ``root`` is the engram namespace
    the LangGraph namespaces live under (``("users", "alice")`` is stored in
    ``langgraph/users/alice``); ``index`` is LangGraph's index config (see the module
    docstring).
    """

    supports_ttl = False

    def __init__(
        self,
        memory: Memory,
        *,
        index: IndexConfig | None = None,
        root: str = "langgraph",
    ) -> None:
        if not isinstance(memory, Memory):
            raise InvalidInputError(f"memory must be an engram Memory, got {shown(memory)}")
        self.memory = memory
        self.root = check_root(root)
        self.index_config = index
        self.fields = _index_fields(memory, index)

    # -- BaseStore's contract -------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order; each result sits at its op's position. Every op is
        checked before any runs, as ``PostgresStore`` and ``InMemoryStore`` do, so a
        bad op anywhere in the batch writes nothing."""
        ops = list(ops)
        for op in ops:
            self._check(op)
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                assert isinstance(op, PutOp)  # _check refused every other kind
                self._put(op)
                results.append(None)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` on a worker thread, so the event loop never waits on the store."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- the operations -------------------------------------------------------------
    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        name = self._engram_namespace(namespace)
        found = self._find(name, key) if name is not None else None
        if found is None:
            return None
        record, value = found
        return _item(namespace, key, value, record)

    def _check(self, op: Op) -> None:
        """What can be checked of ``op`` without the store: labels, op kind, and for a
        put its engram namespace, value and index paths."""
        if not isinstance(op, GetOp | SearchOp | ListNamespacesOp | PutOp):
            raise InvalidInputError(f"unknown store operation {type(op).__name__}")
        _check_labels(op)
        if isinstance(op, PutOp):
            self._engram_namespace(op.namespace, writing=True)
            if op.value is not None:
                metadata_of(op.key, op.value, indexed=True)
                if op.index:
                    index_paths(op.index)

    def _put(self, op: PutOp) -> None:
        """An upsert (or, with value None, a delete) of one key. Another writer may
        delete or create the key between reading and writing it; engram's store has no
        upsert by key, so the adapter re-reads and tries again (``RACE_TRIES`` times)."""
        name = self._engram_namespace(op.namespace, writing=True)
        assert name is not None
        for attempt in range(RACE_TRIES):
            try:
                if op.value is None:
                    self._delete(name, op.key)
                else:
                    self._upsert(name, op)
                return
            except NotFoundError:
                continue  # the memory went away under us: read again
            except StoreBusyError:
                # PostgreSQL aborted our transaction to break a deadlock with another
                # writer of this key (SQLSTATE 40P01/40001, which the store raises as
                # StoreBusyError): nothing of it was written, so run it again.
                time.sleep(CONFLICT_WAIT_S * (attempt + 1) * (0.5 + random.random()))
        raise StoreError(
            f"key {op.key!r} in {tuple(op.namespace)!r} changed under {RACE_TRIES} tries in "
            "a row (other writers keep putting and deleting it); try again"
        )

    def _delete(self, name: str, key: str) -> None:
        """Delete every memory holding ``key``; one that is already gone is no error."""
        self._forget(name, [record for record, _ in self._find_all(name, key)])

    def _forget(self, name: str, records: Sequence[MemoryRecord]) -> None:
        for record in records:
            # Another writer may have deleted it first: the key is gone either way.
            with contextlib.suppress(NotFoundError):
                self.memory.delete(record.id, namespace=name)

    def _upsert(self, name: str, op: PutOp) -> None:
        assert op.value is not None  # _put sends a None value to _delete
        paths = self.fields if op.index is None else [] if op.index is False else op.index
        text = indexed_text(op.value, index_paths(paths)) if paths else ""
        metadata = metadata_of(op.key, op.value, indexed=bool(text))
        content = content_of(op.key, text)
        found = self._find_all(name, op.key)
        if not found:
            record = self.memory.add(
                content, namespace=name, metadata=metadata, tags=[ITEM_TAG, key_tag(op.key)]
            )
            parts = item_parts(record)
            if parts is None or parts[0] != op.key:
                raise InvalidInputError(
                    f"memory {record.id} in {name!r} already holds the content of key "
                    f"{op.key!r} without being its item; delete it or use another root"
                )
            if parts[1] != metadata[META]["value"]:
                # engram handed back a memory with this content from a put that raced
                # ours (same text, another value): write our value onto it.
                self._update(name, record, content, metadata)
            return
        # Two writers that both found no key can both have added it; the newest memory
        # is the item, and the put that finds the others removes them.
        newest, *extra = found
        self._forget(name, [record for record, _ in extra])
        self._update(name, newest[0], content, metadata)

    def _update(
        self, name: str, before: MemoryRecord, content: str, metadata: dict[str, Any]
    ) -> None:
        self.memory.update(
            before.id,
            content if content != before.content else None,
            namespace=name,
            metadata={**before.metadata, META: metadata[META]},
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit <= 0:
            return []
        prefix = tuple(op.namespace_prefix)
        spaces = [(t, n) for t, n in self._namespaces() if t[: len(prefix)] == prefix]
        if not op.query:
            listed = heapq.merge(
                *(self._listed(t, n, op.filter) for t, n in spaces),
                key=lambda item: item.created_at,
                reverse=True,  # each namespace lists newest first
            )
            return list(itertools.islice(listed, op.offset, op.offset + op.limit))
        needed = op.offset + op.limit
        ranked = [hit for t, n in spaces for hit in self._ranked(t, n, op, needed)]
        ranked.sort(key=lambda item: -(item.score or 0.0))
        kept = ranked[op.offset : needed]
        if len(kept) < op.limit:
            # Items stored with index=False have no text to rank; like InMemoryStore,
            # they fill a short page, unscored.
            unindexed = (
                item for t, n in spaces for item in self._listed(t, n, op.filter, indexed=False)
            )
            kept.extend(itertools.islice(unindexed, op.limit - len(kept)))
        return kept

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found = [t for t, _ in self._namespaces()]
        for condition in op.match_conditions or ():
            found = [t for t in found if _matches_condition(condition, t)]
        if op.max_depth is not None:
            found = list({t[: op.max_depth] for t in found})
        return sorted(found)[op.offset : op.offset + op.limit]

    # -- helpers --------------------------------------------------------------------
    def _engram_namespace(self, namespace: Sequence[str], *, writing: bool = False) -> str | None:
        """The engram namespace of a tuple; None (or, to write, an error) when the
        tuple is too long for one."""
        name = encode_namespace(self.root, namespace)
        if len(name) <= MAX_NAMESPACE:
            return name
        if writing:
            raise InvalidInputError(
                f"the LangGraph namespace {tuple(namespace)!r} maps to the engram namespace "
                f"{name[:60]!r}... of {len(name)} characters; engram namespaces hold at most "
                f"{MAX_NAMESPACE}: use fewer or shorter labels, or a shorter root"
            )
        return None

    def _namespaces(self) -> list[tuple[tuple[str, ...], str]]:
        """(LangGraph tuple, engram namespace) of every namespace holding memories
        under this store's root."""
        out = []
        for entry in self.memory.browse.namespaces():
            name = entry["namespace"]
            labels = decode_namespace(self.root, name) if entry["memories"] else None
            if labels is not None:
                out.append((labels, name))
        return out

    def _find(self, name: str, key: str) -> tuple[MemoryRecord, dict[str, Any]] | None:
        """The memory holding ``key`` in engram namespace ``name``, with its value."""
        found = self._find_all(name, key)
        return found[0] if found else None

    def _find_all(self, name: str, key: str) -> list[tuple[MemoryRecord, dict[str, Any]]]:
        """Every memory holding ``key`` in ``name`` (more than one only after racing
        puts), most recently updated first."""
        page = self.memory.get_all(
            namespace=name, filters={"tags": [ITEM_TAG, key_tag(key)]}, limit=PAGE
        )
        found = []
        for record in page:
            parts = item_parts(record)
            if parts is not None and parts[0] == key:
                found.append((record, parts[1]))
        found.sort(key=lambda pair: (pair[0].updated_at, pair[0].id), reverse=True)
        return found

    def _listed(
        self,
        namespace: tuple[str, ...],
        name: str,
        filter: Mapping[str, Any] | None,
        *,
        indexed: bool | None = None,
    ) -> Iterator[SearchItem]:
        """The items of one namespace that pass ``filter``, newest first, read a page
        at a time (``indexed``: only items that were, or were not, indexed)."""
        for offset in itertools.count(0, PAGE):
            page = self.memory.get_all(
                namespace=name, filters={"tags": [ITEM_TAG]}, limit=PAGE, offset=offset
            )
            for record in page:
                parts = item_parts(record)
                if parts is None or (indexed is not None and parts[2] != indexed):
                    continue
                if matches(parts[1], filter):
                    yield _search_item(namespace, parts[0], parts[1], record, None)
            if len(page) < PAGE:
                return

    def _ranked(
        self, namespace: tuple[str, ...], name: str, op: SearchOp, needed: int
    ) -> list[SearchItem]:
        """The best ``needed`` indexed items of one namespace for ``op.query`` that pass
        ``op.filter``: engram's recall, read deeper while the filter thins it out."""
        assert op.query
        limit = min(max(needed, 1), MAX_RECALL)
        while True:
            hits = self.memory.search(op.query, namespace=name, limit=limit, **RECALL_OVERRIDES)
            found = []
            for hit in hits:
                parts = item_parts(hit.memory)
                if parts is not None and parts[2] and matches(parts[1], op.filter):
                    item = _search_item(namespace, parts[0], parts[1], hit.memory, hit.score)
                    found.append(item)
            if len(found) >= needed or len(hits) < limit or limit >= MAX_RECALL:
                return found[:needed]
            limit = min(limit * 4, MAX_RECALL)


def _index_fields(memory: Memory, index: object) -> list[str]:
    """The default field paths of ``index`` (LangGraph's default: the whole value)."""
    if index is None:
        return ["$"]
    if not isinstance(index, Mapping):
        raise InvalidInputError(
            f"index must be a dict like LangGraph's IndexConfig, got {shown(index)}"
        )
    unknown = sorted(str(k) for k in index if k not in INDEX_KEYS)
    if unknown:
        raise InvalidInputError(
            f"unknown index setting(s) {', '.join(unknown)}; EngramStore reads "
            f"{', '.join(INDEX_KEYS)}"
        )
    dims = index.get("dims")
    model = memory.embedder
    if dims is not None and model is not None and dims != model.dimension:
        raise InvalidInputError(
            f"index dims is {dims!r} but engram embeds with {model.name} "
            f"({model.dimension} dimensions): leave dims and embed out (engram uses its own "
            f"model), or open the Memory with an embedder of {dims} dimensions"
        )
    return index_paths(index.get("fields"))


def _item_fields(
    namespace: tuple[str, ...], key: str, value: dict[str, Any], record: MemoryRecord
) -> dict[str, Any]:
    """What an ``Item`` and a ``SearchItem`` of a memory share."""
    times = {"created_at": record.created_at, "updated_at": record.updated_at}
    return {"namespace": namespace, "key": key, "value": value, **times}


def _item(
    namespace: tuple[str, ...], key: str, value: dict[str, Any], record: MemoryRecord
) -> Item:
    """The ``Item`` of a memory."""
    return Item(**_item_fields(namespace, key, value, record))


def _search_item(
    namespace: tuple[str, ...],
    key: str,
    value: dict[str, Any],
    record: MemoryRecord,
    score: float | None,
) -> SearchItem:
    """The ``SearchItem`` of a memory (``score``: engram's recall score, or None when
    the search ranked nothing)."""
    return SearchItem(**_item_fields(namespace, key, value, record), score=score)


def _check_labels(op: Op) -> None:
    """LangGraph's label rule for ops handed straight to ``batch`` (``BaseStore``'s
    methods check it before batching): a label is a non-empty string without ``.``
    or NUL, so ``"a.b"`` can never address the namespace ``("a", "b")``."""
    if isinstance(op, GetOp | PutOp):
        paths = [op.namespace]
    elif isinstance(op, SearchOp):
        paths = [op.namespace_prefix]
    elif isinstance(op, ListNamespacesOp):
        paths = [condition.path for condition in op.match_conditions or ()]
    else:
        return
    for path in paths:
        for label in path:
            if not isinstance(label, str) or not label or "." in label or "\x00" in label:
                raise InvalidNamespaceError(
                    f"invalid namespace label {label!r} in {tuple(path)!r}: labels are "
                    "non-empty strings without '.' or NUL"
                )


def _matches_condition(condition: MatchCondition, labels: tuple[str, ...]) -> bool:
    """LangGraph's prefix/suffix namespace match, ``"*"`` matching any one label."""
    path = tuple(condition.path)
    if len(labels) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(labels, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(labels), reversed(path), strict=False)
    else:
        raise InvalidInputError(
            f"unsupported namespace match type {condition.match_type!r}: use prefix or suffix"
        )
    return all(want in ("*", label) for label, want in pairs)
