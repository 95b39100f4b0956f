"""``mem.admin``: housekeeping on a store — reindex, purge, doctor, export, import, and
the feedback log."""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO, Unpack

import numpy as np

from engram import transfer
from engram._version import __version__
from engram.core import Part
from engram.errors import (
    EmbeddingError,
    EngramError,
    InjectionBlocked,
    InvalidInputError,
    StoreClosedError,
    StoreError,
    shown,
)
from engram.ids import resolve_prefix
from engram.injection_detector import CODE, FLAGS
from engram.recall.chunks import fill_chunks
from engram.recall.conditions import fill_conditions
from engram.recall.doc_windows import fill_windows
from engram.recall.request import RecallRequest
from engram.recall.standing_items import fill_standing
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols import ImportCounts, ListQuery, TableRow, TranscriptRow
from engram.store.tables import SPECS
from engram.transfer import ExportCounts
from engram.validate import (
    memory_id_value,
    path_value,
    positive_int,
    string_list,
    type_name,
)
from engram.write import BATCH, Progress

log = logging.getLogger("engram")

#: The background filler's store failures in a row before it gives up, and its pause
#: after each: about half a minute covers a PostgreSQL restart.
BACKFILL_STORE_TRIES = 30
BACKFILL_PAUSE_S = 1.0


class Admin(Part):
    """Store-wide maintenance and diagnostics of a ``Memory``."""

    @property
    def location(self) -> str:
        """Where the store lives (a file path, ``:memory:`` or a redacted URL)."""
        return self._core.store.location

    def purge(self, *, namespace: str | None = None, all_namespaces: bool = False) -> int:
        """Hard-delete tombstoned memories of a namespace (or every namespace)."""
        core = self._core
        core.check_open()
        target = None if all_namespaces else core.scope(namespace).namespace
        count = core.store.memories.purge(target)
        if core.index is not None:
            core.index.invalidate()
        return count

    def feedback_log(self, *, namespace: str | None = None) -> list[dict[str, Any]]:
        """The feedback log of a namespace: (memory_id, rating, comment, time) rows."""
        self._core.check_open()
        return self._core.store.feedback.log(self._core.scope(namespace).namespace)

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
        core = self._core
        core.check_open()
        if core.embedder is None:
            raise EmbeddingError("no embedder is configured; set embedder.name = 'minilm'")
        positive_int("batch_size", batch_size)
        vectors = core.store.vectors
        if rebuild:
            vectors.delete()
            core.store.chunks.delete()
        else:
            stale = [m for m, d in vectors.dimensions().items() if d != core.embedder.dimension]
            for model in stale:
                vectors.delete(model)
        total = vectors.count_missing(core.embedder.name)
        done = 0
        while True:
            batch = vectors.missing(core.embedder.name, limit=batch_size)
            if not batch:
                break
            before = core.embed_failures
            core.embed_and_store(batch)
            if core.embed_failures != before:
                raise EmbeddingError(
                    f"embedding failed after {done} of {total} memories; see the log and "
                    "run reindex again to continue"
                )
            done += len(batch)
            if progress is not None:
                progress(done, total)
        # Long memories embedded before chunk vectors were on get theirs (issue 13).
        fill_chunks(core.embedder, core.store.chunks, core.config.recall, batch_size)
        # So do standing instructions' conditions (issue 24).
        fill_conditions(
            core.embedder,
            core.store.chunks,
            core.config.recall,
            batch_size,
            core.retriever.conditioned,
        )
        # And document chunks ingested before their windows (round twenty-two).
        fill_windows(core.embedder, core.store.chunks, batch_size, core.retriever.windowed)
        # And the user's standing items (issue 24, beam30).
        fill_standing(core.embedder, core.store.chunks, core.config.recall, batch_size)
        if core.index is not None:
            core.index.invalidate()
        return done

    def backfill(self, *, batch_size: int = 64, stop: threading.Event | None = None) -> int:
        """Embed memories stored without a current vector, a batch at a time, until
        none is left or ``stop`` is set; returns how many were embedded.

        ``engram serve`` runs this in the background at start, so rows a crash left
        between their two transactions (or that an unreachable embedder skipped) come
        back into dense search without anyone running ``reindex``. An embedding failure
        ends it (logged): recall keeps warning, and ``reindex`` reports the error. A
        store failure (a restart, a deadlock) is waited out: up to
        ``BACKFILL_STORE_TRIES`` in a row, ``BACKFILL_PAUSE_S`` apart, when ``stop`` is
        given (the server's thread); a direct call raises it.
        """
        core = self._core
        core.check_open()
        if core.embedder is None:
            return 0
        positive_int("batch_size", batch_size)
        done = lost = 0
        tried: set[str] = set()
        while stop is None or not stop.is_set():
            before = core.embed_failures
            try:
                batch = [
                    r
                    for r in core.store.vectors.missing(core.embedder.name, limit=batch_size)
                    if r.id not in tried
                ]
                if not batch:
                    break  # done, or only rows that changed again while being embedded
                core.embed_and_store(batch)
            except StoreClosedError:
                raise
            except StoreError as exc:
                # A database restart or a deadlock: the rows are still there and still
                # lack vectors. Wait and try again, a bounded number of times in a row
                # (engram issue 26: one restart used to end the filler for good).
                lost += 1
                if lost >= BACKFILL_STORE_TRIES or stop is None:
                    raise
                log.warning("backfill: the store failed, retrying: %s", exc)
                stop.wait(BACKFILL_PAUSE_S)
                continue
            lost = 0
            tried.update(r.id for r in batch)
            if core.embed_failures != before:
                log.warning("backfill stopped after %d memories: the embedder failed", done)
                break
            done += len(batch)
        if done:
            log.info("backfill embedded %d memories that had no vector", done)
        return done

    def warm_indexes(self, *, most: int = 16, stop: threading.Event | None = None) -> list[str]:
        """Load the in-memory search indexes of the ``most`` largest namespaces that
        have any (``recall.keyword_index_min`` memories or more), largest first, and
        return the namespaces warmed.

        Each namespace gets one read-only recall: it loads the namespace's vectors and
        starts its HNSW graph and term index building in the background (SQLite; on
        PostgreSQL the indexes live in the database and this only warms the model).
        ``engram serve`` runs it at start: at 1M memories the first recall otherwise
        waits ~46 s for the vectors (docs/benchmarks.md, "The last runs").
        """
        core = self._core
        core.check_open()
        positive_int("most", most)
        floor = core.config.recall.keyword_index_min
        sizes = core.store.memories.namespaces()
        large = sorted((ns for ns, n in sizes.items() if n >= floor), key=lambda ns: -sizes[ns])
        warmed: list[str] = []
        for namespace in large[:most]:
            if stop is not None and stop.is_set():
                break
            # No rerank: an LLM or cross-encoder reranker is not an index to warm.
            cfg = replace(core.config.recall, rerank="none")
            try:
                core.retriever.recall(RecallRequest("warm up", namespace, 1, config=cfg))
            except EngramError as exc:  # closed meanwhile, or the store failed: a warm-up
                log.warning("warming the indexes of %r stopped: %s", namespace, exc)
                break
            warmed.append(namespace)
        if warmed:
            log.info("warmed the search indexes of %d namespace(s)", len(warmed))
        return warmed

    @scoped
    def resolve_id(
        self, memory_id: str, *, include_deleted: bool = False, **who: Unpack[ScopeArgs]
    ) -> str:
        """The full id of the memory ``memory_id`` names in this scope: the id itself,
        or a unique prefix of at least 8 characters (as git takes a short hash).

        ``NotFoundError`` when nothing in the namespace matches (tombstoned memories
        count only with ``include_deleted``); ``InvalidInputError`` when the prefix is
        shorter than 8 characters or matches several memories.
        """
        core = self._core
        scope = core.open_scope(**who)
        memories = core.store.memories

        def starting(prefix: str, limit: int) -> list[str]:
            query = ListQuery(id_prefix=prefix, limit=limit, include_deleted=include_deleted)
            return [r.id for r in memories.select(scope.namespace, query)]

        return resolve_prefix(
            memory_id_value(memory_id),
            exact=lambda key: (
                memories.get(scope.namespace, key, include_deleted=include_deleted) is not None
            ),
            starting=starting,
            what="memory",
            where=f" in namespace {shown(scope.namespace)}",
            # Ids are per namespace: a memory stored with --user is not found without it.
            listed=(
                "`engram list` shows this namespace's ids; "
                "--user, --agent or --namespace names another"
            ),
        )

    def doctor(self) -> dict[str, Any]:
        """Versions, store, counts per namespace, vector index, embedder and recall mode."""
        core = self._core
        core.check_open()
        model = core.embedder.name if core.embedder is not None else None
        stats = core.store.stats(model)
        embedder: dict[str, Any] = {"configured": core.config.embedder.name}
        if core.embedder is not None:
            info = getattr(core.embedder, "info", None)
            embedder.update(info() if callable(info) else {"name": core.embedder.name})
            embedder["dimension"] = core.embedder.dimension
            embedder["failures"] = core.embed_failures
        mode = (
            core.config.recall.strategy
            if core.embedder is not None
            else "keyword (no embedder configured)"
        )
        if core.embedder is not None and stats.missing_vectors:
            mode += f" ({stats.missing_vectors} memories lack vectors: run `engram reindex`)"
        return {
            "engram": __version__,
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "store": {
                "backend": type(core.store).__name__,
                "location": stats.location,
                "schema": stats.schema_version,
                "tombstoned": stats.tombstoned,
                "flagged": stats.flagged,
            },
            "namespaces": stats.memories,
            "vectors": {
                "rows": stats.vectors,
                "missing": stats.missing_vectors,
                "index": core.index.state() if core.index is not None else None,
            },
            "embedder": embedder,
            "recall": {
                "mode": mode,
                "fusion": core.config.recall.fusion,
                "limit": core.config.recall.limit,
                "keyword": core.store.keyword.state(),
            },
            "injection_mode": core.config.injection_mode,
            # every namespace's queue: pending jobs are facts, relations and hints not
            # made yet (no worker ran), dead ones failed for good (`engram jobs dead`)
            "jobs": core.store.jobs.counts(),
        }

    def export_jsonl(
        self,
        out: TextIO,
        *,
        namespaces: list[str] | None = None,
        vectors: bool = False,
        progress: Progress | None = None,
    ) -> ExportCounts:
        """Write the memories of ``namespaces`` (all when None) with their history,
        feedback, transcripts and, with ``vectors``, their vectors, as JSONL (see
        ``engram.transfer``)."""
        self._core.check_open()
        if not isinstance(vectors, bool):
            raise InvalidInputError(f"vectors must be true or false, got {type_name(vectors)}")
        chosen = None if namespaces is None else list(string_list("namespaces", namespaces))
        return transfer.export_jsonl(
            self._core.store, out, namespaces=chosen, vectors=vectors, progress=progress
        )

    def _screen(self, item: transfer.Item) -> transfer.Item | str:
        """The injection scan of one imported item: the item to import, or why not."""
        try:
            if isinstance(item, TranscriptRow):
                self._core.scan_text(item.content)
                return item
            if isinstance(item, TableRow):  # the columns a write scans (core block values)
                for column in SPECS[item.table].scanned:
                    if isinstance(text := item.values.get(column), str):
                        self._core.scan_text(text)
                return item
            record = item.record
            # A file can carry any flags; only what the scan finds now counts, except the
            # learned detector's quarantine, which the scan cannot read again (it runs
            # where vectors are made, on new writes): kept, or a restored backup would
            # put back into every context what the detector kept out of them. A flag
            # only keeps a memory out of contexts, so a forged one hides, never admits.
            clean = {k: v for k, v in record.metadata.items() if k != FLAGS}
            scanned = self._core.scan(record.with_changes(metadata=clean))
            learned = self._learned_flags(record.metadata.get(FLAGS))
            if learned:
                found = [r for r in scanned.metadata.get(FLAGS, []) if r not in learned]
                scanned = scanned.with_changes(
                    metadata={**scanned.metadata, FLAGS: [*found, *learned]}
                )
            return item if scanned == record else replace(item, record=scanned)
        except InjectionBlocked as exc:
            return "; ".join(exc.reasons)

    def _learned_flags(self, flags: Any) -> list[str]:
        """The learned detector's reasons among a file's ``injection_flags`` (none with
        the scan off, which turns the detector off on writes too)."""
        if self._core.config.injection_mode == "off" or not isinstance(flags, list):
            return []
        return [f for f in flags if isinstance(f, str) and f.startswith(f"{CODE}:")]

    def import_jsonl(
        self,
        path: str | Path,
        *,
        vectors: bool = True,
        trusted: bool = False,
        progress: Progress | None = None,
    ) -> ImportCounts:
        """Import an ``export_jsonl`` file: checked whole first, then imported in
        batches; what is already stored is skipped, so importing twice is a no-op.

        Every memory and transcript passes the injection scan, as if it were added now:
        in block mode a flagged item is skipped (``counts.blocked``, with the reasons in
        ``counts.blocked_items``) and the rest are imported; in flag mode it is imported
        with its flags. ``trusted=True`` skips the scan, for restoring your own backup.
        """
        core = self._core
        core.check_open()
        counts = transfer.import_jsonl(
            core.store,
            Path(path_value("path", path)),
            vectors=vectors,
            progress=progress,
            screen=None if trusted else self._screen,
        )
        if core.index is not None:
            core.index.invalidate()
        return counts
