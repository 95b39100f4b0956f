"""``Memory``: the library's front door (FEATURES I1).

The verbs follow what mem0 users know (``add``, ``search``, ``get``, ``get_all``,
``update``, ``delete``, ``history``) plus engram's ``recall`` (ranked hits and a context
block), ``feedback`` (seed 000's thumbs) and housekeeping (``purge``, ``reindex``,
``doctor``). The write path is raw-first (seed 004): the record is committed, then
embedded outside the transaction, then its vector is stored in a second short one.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from engram.config import Config
from engram.embed import Embedder, create_embedder
from engram.errors import (
    DimensionMismatchError,
    EmbeddingError,
    InvalidInputError,
    NotFoundError,
    StoreClosedError,
)
from engram.recall.pipeline import Filter, RecallRequest, Retriever, filter_from
from engram.records import HistoryEntry, Hit, MemoryRecord, Recall
from engram.safety import InjectionMode, enforce
from engram.store import open_store
from engram.store.base import InsertResult, ListQuery, Store, VectorRow, VectorSearch
from engram.text import normalize_content
from engram.validate import (
    build_record,
    checked_content,
    memory_category,
    memory_type,
    metadata_dict,
    namespace_for,
    optional_float,
    optional_str,
    positive_int,
    query_text,
    rating_value,
    session_key_value,
    string_list,
)

log = logging.getLogger("engram")

#: Records per transaction in ``add_many`` and ``reindex``.
BATCH = 256
#: Records ``add_many`` embeds in one call: enough that sorting by length leaves little
#: padding, few enough that a long import shows progress and holds little in memory.
EMBED_GROUP = 2048

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Scope:
    """Who a call is for: the namespace and the narrower ids stored on records."""

    namespace: str
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None


class Memory:
    """Long-term memory for an agent: store verbatim, recall what matters.

    ``Memory()`` opens the default store under ``ENGRAM_HOME``; ``Memory(":memory:")``
    opens a throwaway one; ``Memory("path/to/engram.db")`` a file of your choice. Pass
    ``embedder=`` to plug in any object with ``name``, ``dimension`` and ``embed_batch``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
        store: Store | None = None,
        allow_dimension_mismatch: bool = False,
    ) -> None:
        self.config = config or Config.load()
        if store is None:
            location = os.fspath(path) if path is not None else self.config.store_path
            store = open_store(location, self.config)
        self.store: Store = store
        if embedder == "default":
            self.embedder = create_embedder(self.config.embedder, self.config.home_path)
        elif isinstance(embedder, str):
            raise InvalidInputError("embedder must be an Embedder instance, None or 'default'")
        else:
            self.embedder = embedder
        # Dense top-k: a derived in-memory index (SQLite) or the database (PostgreSQL).
        self.index: VectorSearch | None = (
            self.store.vector_search(self.embedder.name, self.embedder.dimension)
            if self.embedder is not None
            else None
        )
        self._retriever = Retriever(self.store, self.config.recall, self.embedder, self.index)
        self._closed = False
        self.embed_failures = 0
        if not allow_dimension_mismatch:
            self._check_dimensions()

    # -- lifecycle ------------------------------------------------------------------
    def _check_dimensions(self) -> None:
        if self.embedder is None:
            return
        for model, dim in self.store.vector_dimensions().items():
            if dim != self.embedder.dimension:
                self.store.close()
                raise DimensionMismatchError(
                    f"this store holds {dim}-dimension vectors from {model!r} but the "
                    f"configured embedder {self.embedder.name!r} makes "
                    f"{self.embedder.dimension}-dimension vectors; run `engram reindex` to "
                    f"re-embed everything with {self.embedder.name!r}, or configure the "
                    f"embedder that made them"
                )

    def close(self) -> None:
        """Close the store; later calls raise ``StoreClosedError``."""
        if not self._closed:
            self._closed = True
            self._retriever.close()
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _open(self) -> None:
        if self._closed:
            raise StoreClosedError("this Memory is closed; open a new one to keep working")

    def scope(
        self,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> Scope:
        """Resolve the namespace rule (see ``engram.validate.namespace_for``)."""
        ns = namespace_for(namespace, user_id, agent_id, run_id, self.config.default_namespace)
        return Scope(ns, user_id, agent_id, run_id)

    # -- writes ---------------------------------------------------------------------
    def add(
        self,
        /,
        content: str | Sequence[Mapping[str, Any]],
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
        type: str | None = None,
        category: str | None = None,
        importance: float | None = None,
        score: float | None = None,
        created_at: Any = None,
        **fields: Any,
    ) -> MemoryRecord:
        """Store one memory verbatim and return it.

        ``content`` is text or a list of ``{role, content}`` messages. Adding exactly the
        same content to the same namespace again returns the stored memory. Extra keyword
        fields: ``title``, ``narrative``, ``facts``, ``confidence``, ``session_id``,
        ``who``, ``why``.
        """
        item = {
            "content": content,
            "user_id": user_id,
            "agent_id": agent_id,
            "run_id": run_id,
            "metadata": metadata,
            "tags": tags,
            "type": type,
            "category": category,
            "importance": importance,
            "score": score,
            "created_at": created_at,
            **fields,
        }
        return self.add_many([item], namespace=namespace)[0]

    def add_many(
        self,
        items: Sequence[str | Mapping[str, Any]],
        *,
        namespace: str | None = None,
        progress: Progress | None = None,
    ) -> list[MemoryRecord]:
        """Store many memories: validated first, then one transaction and one embedding
        batch per ``BATCH`` records. Items are strings or dicts of ``add``'s arguments.

        Every item is checked before anything is written, so one bad item stores nothing.
        """
        results = self.add_many_results(items, namespace=namespace, progress=progress)
        return [r.record for r in results]

    def add_many_results(
        self,
        items: Sequence[str | Mapping[str, Any]],
        *,
        namespace: str | None = None,
        progress: Progress | None = None,
    ) -> list[InsertResult]:
        """``add_many``, also saying per item whether it was new (``created``) or an
        exact duplicate of a stored memory (``created=False``, the stored record)."""
        self._open()
        if isinstance(items, str | bytes) or not isinstance(items, Sequence):
            raise InvalidInputError("items must be a list of strings or dicts")
        records: list[MemoryRecord] = []
        for i, item in enumerate(items):
            try:
                records.append(self._prepare(item, namespace, i))
            except InvalidInputError as exc:
                # In a batch, say which item is wrong (keeping the error's class).
                if len(items) > 1 and exc.args and not str(exc.args[0]).startswith("item "):
                    exc.args = (f"item {i}: {exc.args[0]}", *exc.args[1:])
                raise
        out: list[InsertResult] = []
        # Raw-first (seed 004): records are committed BATCH at a time; then the new ones
        # are embedded EMBED_GROUP at a time (length-sorted across the group, so little
        # compute goes to padding) and their vectors stored.
        for group in range(0, len(records), EMBED_GROUP):
            inserted: list[InsertResult] = []
            for start in range(group, min(group + EMBED_GROUP, len(records)), BATCH):
                inserted.extend(self.store.insert(records[start : start + BATCH]))
            model = self._embed_and_store([r.record for r in inserted if r.created])
            if model is not None:
                # Return what is stored now: the new records have a vector by ``model``.
                inserted = [
                    InsertResult(r.record.with_changes(embedding_model=model), True)
                    if r.created
                    else r
                    for r in inserted
                ]
            out.extend(inserted)
            if progress is not None:
                progress(len(out), len(records))
        return out

    _ITEM_KEYS = frozenset(
        {
            "content",
            "namespace",
            "user_id",
            "agent_id",
            "run_id",
            "session_id",
            "metadata",
            "tags",
            "type",
            "category",
            "importance",
            "score",
            "confidence",
            "title",
            "narrative",
            "facts",
            "created_at",
            "who",
            "why",
        }
    )

    def _prepare(
        self, item: str | Mapping[str, Any], namespace: str | None, position: int
    ) -> MemoryRecord:
        if isinstance(item, str):
            item = {"content": item}
        if not isinstance(item, Mapping):
            raise InvalidInputError(
                f"item {position} must be a string or a dict, got {type(item).__name__}"
            )
        unknown = set(item) - self._ITEM_KEYS
        if unknown:
            raise InvalidInputError(
                f"item {position} has unknown field(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(self._ITEM_KEYS))}"
            )
        if item.get("content") is None:
            raise InvalidInputError(f"item {position} has no 'content'")
        fields = {k: v for k, v in item.items() if v is not None}
        scope = self.scope(
            fields.pop("namespace", namespace),
            fields.get("user_id"),
            fields.get("agent_id"),
            fields.get("run_id"),
        )
        content = fields.pop("content")
        record = build_record(
            content, namespace=scope.namespace, max_chars=self.config.max_content_chars, **fields
        )
        return self._scan(record)

    def _scan(self, record: MemoryRecord) -> MemoryRecord:
        text = "\n".join(
            p for p in (record.title, record.content, record.narrative, *record.facts) if p
        )
        result = enforce(text, InjectionMode(self.config.injection_mode))
        if result.flagged:
            meta = dict(record.metadata)
            meta["injection_flags"] = list(result.reasons)
            return record.with_changes(metadata=meta)
        return record

    def _embed_and_store(self, records: Sequence[MemoryRecord]) -> str | None:
        """Embed outside any transaction; a failure leaves the memory stored, unembedded.

        Returns the embedding model's name when the vectors were stored, else None.
        """
        if not records or self.embedder is None:
            return None
        try:
            vectors = self.embedder.embed_batch([r.embedding_text() for r in records])
        except Exception as exc:  # raw-first: the memory is stored; reindex fills it later
            self.embed_failures += len(records)
            log.warning(
                "embedding failed, %d memories stored without vectors: %s", len(records), exc
            )
            return None
        rows = [
            VectorRow(r.id, self.embedder.name, np.asarray(v, np.float32), r.content_hash)
            for r, v in zip(records, vectors, strict=True)
        ]
        epoch = self.store.put_vectors(rows)
        if self.index is not None:
            by_ns: dict[str, list[int]] = {}
            for i, r in enumerate(records):
                by_ns.setdefault(r.namespace, []).append(i)
            if len(by_ns) == 1:
                ns, idx = next(iter(by_ns.items()))
                self.index.added(ns, [records[i].id for i in idx], vectors[idx], epoch)
            else:
                self.index.invalidate()
        return self.embedder.name

    def update(
        self,
        memory_id: str,
        content: str | None = None,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
        type: str | None = None,
        category: str | None = None,
        importance: float | None = None,
        score: float | None = None,
        title: str | None = None,
    ) -> MemoryRecord:
        """Change a memory; the old values stay in its history. Returns the new record."""
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        memory_id = _id(memory_id)
        changes: dict[str, Any] = {}
        if content is not None:
            if not isinstance(content, str):
                raise InvalidInputError(f"content must be a string, got {type_name(content)}")
            storage = checked_content(content, self.config.max_content_chars)
            changes["content"] = storage
            changes["content_hash"] = normalize_content(storage).content_hash
        if metadata is not None:
            changes["metadata"] = metadata_dict(metadata)
        if tags is not None:
            changes["tags"] = string_list("tags", tags)
        if type is not None:
            changes["type"] = memory_type(type)
        if category is not None:
            changes["category"] = memory_category(category)
        if importance is not None:
            changes["importance"] = optional_float("importance", importance, 0.0, 1.0)
        if score is not None:
            changes["score"] = optional_float("score", score, 0.0, 10.0)
        if title is not None:
            changes["title"] = optional_str("title", title)
        if not changes:
            raise InvalidInputError("nothing to update: pass content or a field to change")
        if "content" in changes or "title" in changes:
            # Scan the text as it will be; in flag mode the flags follow the new text
            # (set, replaced or cleared).
            proposed = self._get(scope, memory_id).with_changes(**changes)
            clean = {k: v for k, v in proposed.metadata.items() if k != "injection_flags"}
            scanned = self._scan(proposed.with_changes(metadata=clean))
            if scanned.metadata != proposed.metadata:
                changes["metadata"] = scanned.metadata
        _, after = self.store.update(scope.namespace, memory_id, changes)
        if "content" in changes or "title" in changes:
            if self.index is not None:
                self.index.invalidate(scope.namespace)
            model = self._embed_and_store([after])
            if model is not None:
                after = after.with_changes(embedding_model=model)
        return after

    def delete(
        self,
        memory_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> MemoryRecord:
        """Tombstone a memory: it leaves recall at once; ``purge`` removes it for good."""
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        record = self.store.delete(scope.namespace, _id(memory_id))
        if self.index is not None:
            self.index.removed(scope.namespace, record.id)
        return record

    def purge(self, *, namespace: str | None = None, all_namespaces: bool = False) -> int:
        """Hard-delete tombstoned memories of a namespace (or every namespace)."""
        self._open()
        target = None if all_namespaces else self.scope(namespace).namespace
        count = self.store.purge(target)
        if self.index is not None:
            self.index.invalidate()
        return count

    def feedback(
        self,
        memory_id: str,
        rating: int | str,
        comment: str | None = None,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> MemoryRecord:
        """Thumbs up (+1) or down (-1): quality moves by one, clamped to [-3, +3]."""
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        value = rating_value(rating)
        if comment is not None and not isinstance(comment, str):
            raise InvalidInputError(f"comment must be a string, got {type_name(comment)}")
        _, after = self.store.record_feedback(scope.namespace, _id(memory_id), value, comment)
        return after

    # -- reads ----------------------------------------------------------------------
    def _get(self, scope: Scope, memory_id: str) -> MemoryRecord:
        record = self.store.get(scope.namespace, _id(memory_id))
        if record is None:
            raise NotFoundError(f"no memory {memory_id!r} in namespace {scope.namespace!r}")
        return record

    def get(
        self,
        memory_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> MemoryRecord:
        """One live memory by id; ``NotFoundError`` if it is not in this namespace."""
        self._open()
        return self._get(self.scope(namespace, user_id, agent_id, run_id), memory_id)

    def get_all(
        self,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        limit: int = 100,
        offset: int = 0,
        include_deleted: bool = False,
    ) -> list[MemoryRecord]:
        """Memories of a namespace, newest first, filtered and paginated."""
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        positive_int("limit", limit, upper=100_000)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidInputError(f"offset must be an integer >= 0, got {offset!r}")
        query = _list_query(scope, filters, limit, offset, include_deleted)
        return self.store.list_memories(scope.namespace, query)

    def history(
        self,
        memory_id: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> list[HistoryEntry]:
        """Every create, update, delete, feedback and dedup of a memory, oldest first."""
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        entries = self.store.history(scope.namespace, _id(memory_id))
        if not entries:
            raise NotFoundError(f"no memory {memory_id!r} in namespace {scope.namespace!r}")
        return entries

    def feedback_log(self, *, namespace: str | None = None) -> list[dict[str, Any]]:
        """The feedback log of a namespace: (memory_id, rating, comment, time) rows."""
        self._open()
        return self.store.feedback_log(self.scope(namespace).namespace)

    def search(
        self,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 10,
        filters: Mapping[str, Any] | None = None,
    ) -> list[Hit]:
        """Ranked hits for ``query``, each with its score breakdown."""
        return list(
            self.recall(
                query,
                namespace=namespace,
                user_id=user_id,
                agent_id=agent_id,
                run_id=run_id,
                limit=limit,
                filters=filters,
            ).hits
        )

    def recall(
        self,
        /,
        query: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        budget_tokens: int | None = None,
        filters: Mapping[str, Any] | None = None,
        expand: bool = False,
        **overrides: Any,
    ) -> Recall:
        """The few memories that matter for ``query``, and a context block to inject.

        ``limit`` defaults to seed 000's 4. ``budget_tokens`` packs hits greedily into a
        token budget. ``expand=True`` joins the raw transcripts of the hits' sessions
        (``session_id``) into ``Recall.transcripts`` (seed 004). Keyword ``overrides``
        adjust recall settings for this call only (``fusion="rrf"``, ``alpha=0.3``,
        ``strategy="bm25"``...).
        """
        self._open()
        text = query_text(query)
        scope = self.scope(namespace, user_id, agent_id, run_id)
        k = positive_int("limit", limit if limit is not None else self.config.recall.limit)
        if budget_tokens is not None:
            positive_int("budget_tokens", budget_tokens, upper=10_000_000)
        cfg = self.config.recall
        if overrides:
            cfg = self.config.with_overrides(recall=overrides).recall
        request = RecallRequest(
            query=text,
            namespace=scope.namespace,
            limit=k,
            budget_tokens=budget_tokens,
            matches=_scope_filter(scope, filters),
            config=cfg,
        )
        result = self._retriever.recall(request)
        if not expand:
            return result
        sessions = [h.memory.session_id for h in result.hits if h.memory.session_id]
        if not sessions:
            return result
        return replace(result, transcripts=self.store.transcripts(scope.namespace, sessions))

    def add_transcript(
        self,
        session_key: str,
        content: str,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> bool:
        """Keep a session's raw transcript, verbatim and once (seed 004).

        Memories of the session carry ``session_id=session_key``; ``recall(...,
        expand=True)`` joins this transcript to them. Returns False when the session
        already has a transcript: the first one is kept unchanged.
        """
        self._open()
        scope = self.scope(namespace, user_id, agent_id, run_id)
        key = session_key_value(session_key)
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("transcript content must be a non-empty string")
        return self.store.put_transcript(scope.namespace, key, content, agent_id=agent_id)

    # -- maintenance ----------------------------------------------------------------
    def reindex(
        self,
        *,
        batch_size: int = BATCH,
        rebuild: bool = False,
        progress: Progress | None = None,
    ) -> int:
        """Embed every memory lacking a current vector (``rebuild`` re-embeds all).

        Runs in batches: embed outside the lock, then one short transaction per batch.
        Returns how many memories were embedded.
        """
        self._open()
        if self.embedder is None:
            raise EmbeddingError("no embedder is configured; set embedder.name = 'minilm'")
        positive_int("batch_size", batch_size)
        if rebuild:
            self.store.delete_vectors()
        else:
            dims = self.store.vector_dimensions()
            stale = [m for m, d in dims.items() if d != self.embedder.dimension]
            for model in stale:
                self.store.delete_vectors(model)
        total = self.store.stats(self.embedder.name).missing_vectors
        done = 0
        while True:
            batch = self.store.missing_vectors(self.embedder.name, limit=batch_size)
            if not batch:
                break
            before = self.embed_failures
            self._embed_and_store(batch)
            if self.embed_failures != before:
                raise EmbeddingError(
                    f"embedding failed after {done} of {total} memories; see the log and "
                    "run reindex again to continue"
                )
            done += len(batch)
            if progress is not None:
                progress(done, total)
        if self.index is not None:
            self.index.invalidate()
        return done

    def doctor(self) -> dict[str, Any]:
        """Versions, store, counts per namespace, vector index, embedder and recall mode."""
        self._open()
        from engram import __version__

        model = self.embedder.name if self.embedder is not None else None
        stats = self.store.stats(model)
        embedder: dict[str, Any] = {"configured": self.config.embedder.name}
        if self.embedder is not None:
            info = getattr(self.embedder, "info", None)
            embedder.update(info() if callable(info) else {"name": self.embedder.name})
            embedder["dimension"] = self.embedder.dimension
            embedder["failures"] = self.embed_failures
        mode = (
            self.config.recall.strategy
            if self.embedder is not None
            else "keyword (no embedder configured)"
        )
        if self.embedder is not None and stats.missing_vectors:
            mode += f" ({stats.missing_vectors} memories lack vectors: run `engram reindex`)"
        return {
            "engram": __version__,
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "store": {
                "backend": type(self.store).__name__,
                "location": stats.location,
                "schema": stats.schema_version,
                "tombstoned": stats.tombstoned,
            },
            "namespaces": stats.memories,
            "vectors": {
                "rows": stats.vectors,
                "missing": stats.missing_vectors,
                "index": self.index.state() if self.index is not None else None,
            },
            "embedder": embedder,
            "recall": {
                "mode": mode,
                "fusion": self.config.recall.fusion,
                "limit": self.config.recall.limit,
            },
            "injection_mode": self.config.injection_mode,
        }


def type_name(value: object) -> str:
    """The type name of ``value`` for error messages."""
    return type(value).__name__


def _id(memory_id: object) -> str:
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise InvalidInputError(f"memory id must be a non-empty string, got {memory_id!r}")
    return memory_id.strip()


def _scope_filter(scope: Scope, filters: Mapping[str, Any] | None) -> Filter | None:
    if filters is not None and not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    merged: dict[str, Any] = dict(filters or {})
    # Narrower ids than the one that named the namespace filter within it.
    for key in ("user_id", "agent_id", "run_id"):
        value = getattr(scope, key)
        if value is not None and scope.namespace != f"{key[:-3]}:{value}":
            merged.setdefault(key, value)
    return filter_from(merged)


def _list_query(
    scope: Scope,
    filters: Mapping[str, Any] | None,
    limit: int,
    offset: int,
    include_deleted: bool,
) -> ListQuery:
    if filters is not None and not isinstance(filters, Mapping):
        raise InvalidInputError(f"filters must be a dict, got {type_name(filters)}")
    f = dict(filters or {})
    for key, value in f.items():
        if key != "tags" and not (value is None or isinstance(value, str | int | float)):
            raise InvalidInputError(
                f"get_all filter {key!r} takes one string or number, got {value!r}; "
                "use recall or search for any-of filters"
            )
    ids: dict[str, Any] = {}
    for key in ("user_id", "agent_id", "run_id"):
        value = getattr(scope, key)
        if value is not None and scope.namespace != f"{key[:-3]}:{value}":
            ids[key] = value
    known = {"type", "category", "user_id", "agent_id", "run_id", "session_id"}
    direct = {k: str(f.pop(k)) for k in list(f) if k in known}
    ids.update(direct)
    tags = f.pop("tags", ())
    return ListQuery(
        type=ids.get("type"),
        category=ids.get("category"),
        tags=(tags,) if isinstance(tags, str) else tuple(tags),
        user_id=ids.get("user_id"),
        agent_id=ids.get("agent_id"),
        run_id=ids.get("run_id"),
        session_id=ids.get("session_id"),
        metadata=f,
        limit=limit,
        offset=offset,
        include_deleted=include_deleted,
    )


def default_home() -> Path:
    """The data directory: ``$ENGRAM_HOME`` or ``~/.engram``."""
    return Config.load().home_path
