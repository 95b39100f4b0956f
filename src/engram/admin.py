"""``mem.admin``: housekeeping on a store — reindex, purge, doctor, export, import, and
the feedback log."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from engram import transfer
from engram._version import __version__
from engram.core import Part
from engram.errors import EmbeddingError
from engram.store.protocols import ImportCounts
from engram.transfer import ExportCounts
from engram.validate import positive_int
from engram.write import BATCH, Progress


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
        if core.index is not None:
            core.index.invalidate()
        return done

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
            },
            "injection_mode": core.config.injection_mode,
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
        return transfer.export_jsonl(
            self._core.store, out, namespaces=namespaces, vectors=vectors, progress=progress
        )

    def import_jsonl(
        self, path: str | Path, *, vectors: bool = True, progress: Progress | None = None
    ) -> ImportCounts:
        """Import an ``export_jsonl`` file: checked whole first, then imported in
        batches; what is already stored is skipped, so importing twice is a no-op."""
        core = self._core
        core.check_open()
        counts = transfer.import_jsonl(core.store, Path(path), vectors=vectors, progress=progress)
        if core.index is not None:
            core.index.invalidate()
        return counts
