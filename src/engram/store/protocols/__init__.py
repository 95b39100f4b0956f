"""The store's contracts: one small protocol per concern, and the backend that hands
out its parts (``store.memories``, ``store.vectors``, ``store.keys`` ...).

Adding a concern (jobs, graph, runs ...) adds one module here, one module per backend
and one attribute on ``Store``; see ``docs/architecture.md``.
"""

from engram.store.protocols.agents import AgentProfile, AgentStore, SessionMemory
from engram.store.protocols.aspects import AspectFeedback, AspectStore
from engram.store.protocols.audit import AuditStore
from engram.store.protocols.backend import Store
from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock, CoreBlockStore
from engram.store.protocols.chat import ChatSettingsStore
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.curation import CurationStore, PreferenceRow, RecentVectors
from engram.store.protocols.documents import (
    DOCUMENT_STATUSES,
    SOURCE_TYPES,
    Document,
    DocumentChunk,
    DocumentStore,
)
from engram.store.protocols.erase import KEPT_TABLES, EraseAudit, EraseStore
from engram.store.protocols.feedback import FeedbackRow, FeedbackStore
from engram.store.protocols.graph import (
    Aspect,
    Attribute,
    Entity,
    GraphStore,
    Mention,
    Neighbor,
    RecordResult,
    Relation,
)
from engram.store.protocols.graph_counts import GraphCountStore
from engram.store.protocols.hints import HintSet, HintStore, clean_hints
from engram.store.protocols.jobs import JOB_KINDS, JOB_STATUSES, Job, JobStore
from engram.store.protocols.keys import KeyStore
from engram.store.protocols.keyword import KeywordIndex, KeywordSettings
from engram.store.protocols.lifecycle import ArchiveEntry, LifecycleStore
from engram.store.protocols.maintenance import (
    HaltState,
    HealthCounts,
    MaintenanceRun,
    MaintenanceStore,
    NewRun,
)
from engram.store.protocols.memories import InsertResult, ListQuery, MemoryStore
from engram.store.protocols.org import (
    NewOrgFact,
    OrgAuditEntry,
    OrgFact,
    OrgFactAuthor,
    OrgStore,
)
from engram.store.protocols.palace import (
    Closet,
    Drawer,
    NewDrawer,
    PalaceStore,
    Room,
    RoomNode,
    Wing,
    WingNode,
)
from engram.store.protocols.palace_turns import Mined, PalaceTurnStore
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem, ReviewStore
from engram.store.protocols.runs import Run, RunHit, RunStore
from engram.store.protocols.schedules import ScheduleLease, ScheduleLeaseStore
from engram.store.protocols.sessions import (
    Checkpoint,
    InjectedMemory,
    NewCheckpoint,
    SessionScore,
    SessionStore,
)
from engram.store.protocols.tables import TableCounts, TableRow, TableStore
from engram.store.protocols.transcripts import TranscriptRow, TranscriptStore
from engram.store.protocols.transfer import ImportCounts, MemoryBundle, TransferStore
from engram.store.protocols.vector_centres import Centre, Centred, VectorCentres
from engram.store.protocols.vectors import (
    VectorRow,
    VectorSearch,
    VectorStore,
)

__all__ = [
    "Centre",
    "Centred",
    "VectorCentres",
    "AgentProfile",
    "AgentStore",
    "SessionMemory",
    "CurationStore",
    "PreferenceRow",
    "RecentVectors",
    "ChunkVectorStore",
    "MemoryChunks",
    "DOCUMENT_STATUSES",
    "Document",
    "DocumentChunk",
    "DocumentStore",
    "SOURCE_TYPES",
    "AuditStore",
    "EraseAudit",
    "EraseStore",
    "KEPT_TABLES",
    "Closet",
    "Drawer",
    "Mined",
    "NewDrawer",
    "PalaceStore",
    "PalaceTurnStore",
    "NewOrgFact",
    "OrgAuditEntry",
    "OrgFact",
    "OrgFactAuthor",
    "OrgStore",
    "Room",
    "RoomNode",
    "Wing",
    "WingNode",
    "REVIEW_STATUSES",
    "Run",
    "RunHit",
    "RunStore",
    "ScheduleLease",
    "ScheduleLeaseStore",
    "Checkpoint",
    "InjectedMemory",
    "NewCheckpoint",
    "SessionScore",
    "SessionStore",
    "BlockEdit",
    "BlockWrite",
    "CoreBlock",
    "CoreBlockStore",
    "ChatSettingsStore",
    "ReviewItem",
    "ReviewStore",
    "HintSet",
    "HintStore",
    "HaltState",
    "HealthCounts",
    "MaintenanceRun",
    "MaintenanceStore",
    "NewRun",
    "clean_hints",
    "JOB_KINDS",
    "JOB_STATUSES",
    "Job",
    "JobStore",
    "ArchiveEntry",
    "LifecycleStore",
    "FeedbackRow",
    "FeedbackStore",
    "Aspect",
    "AspectFeedback",
    "AspectStore",
    "Attribute",
    "Entity",
    "GraphCountStore",
    "GraphStore",
    "Mention",
    "Neighbor",
    "RecordResult",
    "Relation",
    "ImportCounts",
    "InsertResult",
    "KeyStore",
    "KeywordIndex",
    "KeywordSettings",
    "ListQuery",
    "MemoryBundle",
    "MemoryStore",
    "Store",
    "TableCounts",
    "TableRow",
    "TableStore",
    "TranscriptRow",
    "TranscriptStore",
    "TransferStore",
    "VectorRow",
    "VectorSearch",
    "VectorStore",
]
