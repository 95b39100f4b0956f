"""The backend: one connection (or pool) and one transaction helper, handing out parts.

A backend is a set of parts, one per concern, that share the backend's connection.
Writes that span parts (a memory and the job it enqueues, say) commit together inside
``transaction()``: every part's write made in that block joins the one transaction.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engram.store.protocols.aspects import AspectStore
from engram.store.protocols.audit import AuditStore
from engram.store.protocols.chunks import ChunkVectorStore
from engram.store.protocols.documents import DocumentStore
from engram.store.protocols.feedback import FeedbackStore
from engram.store.protocols.graph import GraphStore
from engram.store.protocols.graph_counts import GraphCountStore
from engram.store.protocols.hints import HintStore
from engram.store.protocols.jobs import JobStore
from engram.store.protocols.keys import KeyStore
from engram.store.protocols.keyword import KeywordIndex
from engram.store.protocols.memories import MemoryStore
from engram.store.protocols.palace import PalaceStore
from engram.store.protocols.review import ReviewStore
from engram.store.protocols.transcripts import TranscriptStore
from engram.store.protocols.transfer import TransferStore
from engram.store.protocols.vectors import VectorStore


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Counts that ``doctor`` shows."""

    memories: dict[str, int]
    """Live memories per namespace."""
    tombstoned: int
    vectors: dict[str, int]
    """Vector rows per model."""
    missing_vectors: int
    """Live memories without a current vector for the active model."""
    schema_version: str
    location: str


@runtime_checkable
class Store(Protocol):
    """A storage backend: its parts, one transaction helper and its lifecycle.

    Implementations: ``engram.store.sqlite.SQLiteStore``,
    ``engram.store.postgres.PostgresStore``.
    """

    location: str

    # Parts are read-only here, so a backend may hold its own concrete classes.
    @property
    def memories(self) -> MemoryStore:
        """Memories and their audit history."""
        ...

    @property
    def feedback(self) -> FeedbackStore:
        """Ratings and the feedback log."""
        ...

    @property
    def keyword(self) -> KeywordIndex:
        """Full-text search, per namespace."""
        ...

    @property
    def vectors(self) -> VectorStore:
        """Vector rows and the dense search over them."""
        ...

    @property
    def chunks(self) -> ChunkVectorStore:
        """Chunk vectors of long memories and the best-chunk search over them."""
        ...

    @property
    def transcripts(self) -> TranscriptStore:
        """Raw session transcripts."""
        ...

    @property
    def keys(self) -> KeyStore:
        """API keys."""
        ...

    @property
    def audit(self) -> AuditStore:
        """Audit rows that record a decision without changing a memory."""
        ...

    @property
    def review(self) -> ReviewStore:
        """Proposals held back for a person (the review queue)."""
        ...

    @property
    def documents(self) -> DocumentStore:
        """Ingested documents and the memories their chunks became."""
        ...

    @property
    def jobs(self) -> JobStore:
        """seed 004's job queue: the pipeline work that follows a write."""
        ...

    @property
    def graph(self) -> GraphStore:
        """Entities, relations with validity windows, mentions."""
        ...

    @property
    def graph_counts(self) -> GraphCountStore:
        """How many entities and relations the graph's listings have in all."""
        ...

    @property
    def aspects(self) -> AspectStore:
        """Entity aspects and attributes, and the aspect weights' feedback and decay."""
        ...

    @property
    def palace(self) -> PalaceStore:
        """Wings, rooms, closets and drawers (seed 003's palace)."""
        ...

    @property
    def hints(self) -> HintStore:
        """Hints (seed 004's prospective index) and the search over them."""
        ...

    @property
    def transfer(self) -> TransferStore:
        """Bulk export and import."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Hold one transaction open: every part's write inside the block joins it and
        commits when the block ends, or none does if it raises."""
        ...

    @property
    def closed(self) -> bool:
        """True after ``close``."""
        ...

    def schema_version(self) -> str:
        """The newest applied migration."""
        ...

    def stats(self, model: str | None) -> StoreStats:
        """Counts for diagnostics (``model``: the embedder whose missing vectors count)."""
        ...

    def close(self) -> None:
        """Release the connection; further calls raise ``StoreClosedError``."""
        ...
