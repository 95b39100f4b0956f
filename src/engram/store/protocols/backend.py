"""The backend: one connection (or pool) and one transaction helper, handing out parts.

A backend is a set of parts, one per concern, that share the backend's connection.
Writes that span parts (a memory and the job it enqueues, say) commit together inside
``transaction()``: every part's write made in that block joins the one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.agents import AgentStore
from engram.store.protocols.aspects import AspectStore
from engram.store.protocols.audit import AuditStore
from engram.store.protocols.blocks import CoreBlockStore
from engram.store.protocols.capabilities import Capabilities
from engram.store.protocols.chat import ChatSettingsStore
from engram.store.protocols.chunks import ChunkVectorStore
from engram.store.protocols.curation import CurationStore
from engram.store.protocols.documents import DocumentStore
from engram.store.protocols.erase import EraseStore
from engram.store.protocols.feedback import FeedbackStore
from engram.store.protocols.graph import GraphStore
from engram.store.protocols.graph_counts import GraphCountStore
from engram.store.protocols.hints import HintStore
from engram.store.protocols.jobs import JobStore
from engram.store.protocols.keys import KeyStore
from engram.store.protocols.keyword import KeywordIndex
from engram.store.protocols.lifecycle import LifecycleStore
from engram.store.protocols.maintenance import MaintenanceStore
from engram.store.protocols.memories import MemoryStore
from engram.store.protocols.org import OrgStore
from engram.store.protocols.palace import PalaceStore
from engram.store.protocols.palace_turns import PalaceTurnStore
from engram.store.protocols.review import ReviewStore
from engram.store.protocols.runs import RunStore
from engram.store.protocols.schedules import ScheduleLeaseStore
from engram.store.protocols.sessions import SessionStore
from engram.store.protocols.tables import TableStore
from engram.store.protocols.transcripts import TranscriptStore
from engram.store.protocols.transfer import TransferStore
from engram.store.protocols.vectors import VectorStore


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Counts that ``doctor`` shows."""

    memories: dict[str, int]
    """Live memories per namespace."""
    tombstoned: int
    flagged: int
    """Live memories carrying ``metadata["injection_flags"]``: kept out of every context."""
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
    clock: Callable[[], datetime]
    """The time the parts stamp rows with (history, tombstones, queued jobs): UTC now,
    or the hand-moved clock of a test or simulation (``mem.lifecycle.clock`` sets it)."""

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
    def erase(self) -> EraseStore:
        """Hard deletes of a namespace or chosen memories, with an audit that survives."""
        ...

    @property
    def review(self) -> ReviewStore:
        """Proposals held back for a person (the review queue)."""
        ...

    @property
    def curation(self) -> CurationStore:
        """Reads behind review: prune candidates, the graph view, preference export."""
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
    def lifecycle(self) -> LifecycleStore:
        """The archive of consolidated originals, retention overrides and the retention
        sweep (seed 002, seed 004)."""
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
    def palace_turns(self) -> PalaceTurnStore:
        """A room's turn index: what aligning a mined request with it reads."""
        ...

    @property
    def schedule_leases(self) -> ScheduleLeaseStore:
        """Which process runs each server schedule now (``engram.serving``)."""
        ...

    @property
    def runs(self) -> RunStore:
        """The run log and the memories injected into each run (seed 000's RunTrace)."""
        ...

    @property
    def sessions(self) -> SessionStore:
        """Session checkpoints, injected memories and continuity scores (seed 004)."""
        ...

    @property
    def maintenance(self) -> MaintenanceStore:
        """Health counts, repairs and the maintenance worker's records (seed 004)."""
        ...

    @property
    def org(self) -> OrgStore:
        """Organisational memory: the append-only fact ledger and its audit (seed 002)."""
        ...

    @property
    def blocks(self) -> CoreBlockStore:
        """Core memory blocks and their append-only history (seed 002's self-editing)."""
        ...

    @property
    def chat_settings(self) -> ChatSettingsStore:
        """Each user's own chat-memory settings (seed 003; issue 31)."""
        ...

    @property
    def hints(self) -> HintStore:
        """Hints (seed 004's prospective index) and the search over them."""
        ...

    @property
    def transfer(self) -> TransferStore:
        """Bulk export and import."""
        ...

    @property
    def tables(self) -> TableStore:
        """Every other carried table as canonical rows (``engram.store.tables``)."""
        ...

    @property
    def agents(self) -> AgentStore:
        """Agent profiles: each agent's memory level (seed 002's ``MemoryLevel``)."""
        ...

    # -- seed 002's lifecycle and capability discovery (FEATURES S1) ---------------
    @property
    def backend_name(self) -> str:
        """``sqlite`` or ``postgresql``."""
        ...

    @property
    def is_connected(self) -> bool:
        """True while the store holds its connection (not after ``disconnect`` or
        ``close``)."""
        ...

    def connect(self) -> None:
        """Reopen the same location after ``disconnect``; a no-op when connected.
        ``StoreClosedError`` after ``close``; ``StoreConnectionError`` if unreachable."""
        ...

    def disconnect(self) -> None:
        """Release the connection, keeping the store usable again after ``connect``;
        until then every call raises ``StoreConnectionError``."""
        ...

    def bounded_wait(self, seconds: float) -> AbstractContextManager[None]:
        """Within the block, a call on this thread waits at most ``seconds`` for a
        connection while the database is unreachable (then ``StoreConnectionError``),
        not the configured wait; a busy but reachable database is waited for as
        usual. A no-op where there is no server to lose (SQLite)."""
        ...

    def health_check(self) -> bool:
        """One real round trip to the database; False (never an error) when it fails
        or the store is disconnected or closed."""
        ...

    def capabilities(self) -> Capabilities:
        """What this backend can do (seed 002's ``MemoryCapabilities``)."""
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
