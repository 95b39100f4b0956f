"""The store's contracts: one small protocol per concern, and the backend that hands
out its parts (``store.memories``, ``store.vectors``, ``store.keys`` ...).

Adding a concern (jobs, graph, runs ...) adds one module here, one module per backend
and one attribute on ``Store``; see ``docs/architecture.md``.
"""

from engram.store.protocols.aspects import AspectFeedback, AspectStore
from engram.store.protocols.audit import AuditStore
from engram.store.protocols.backend import Store, StoreStats
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.documents import (
    DOCUMENT_STATUSES,
    SOURCE_TYPES,
    Document,
    DocumentChunk,
    DocumentStore,
)
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
from engram.store.protocols.keyword import KeywordIndex
from engram.store.protocols.memories import InsertResult, ListQuery, MemoryStore
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
from engram.store.protocols.review import REVIEW_STATUSES, ReviewItem, ReviewStore
from engram.store.protocols.transcripts import TranscriptRow, TranscriptStore
from engram.store.protocols.transfer import ImportCounts, MemoryBundle, TransferStore
from engram.store.protocols.vectors import (
    NamespaceVectors,
    VectorRow,
    VectorSearch,
    VectorStore,
)

__all__ = [
    "ChunkVectorStore",
    "MemoryChunks",
    "DOCUMENT_STATUSES",
    "Document",
    "DocumentChunk",
    "DocumentStore",
    "SOURCE_TYPES",
    "AuditStore",
    "Closet",
    "Drawer",
    "NewDrawer",
    "PalaceStore",
    "Room",
    "RoomNode",
    "Wing",
    "WingNode",
    "REVIEW_STATUSES",
    "ReviewItem",
    "ReviewStore",
    "HintSet",
    "HintStore",
    "clean_hints",
    "JOB_KINDS",
    "JOB_STATUSES",
    "Job",
    "JobStore",
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
    "ListQuery",
    "MemoryBundle",
    "MemoryStore",
    "NamespaceVectors",
    "Store",
    "StoreStats",
    "TranscriptRow",
    "TranscriptStore",
    "TransferStore",
    "VectorRow",
    "VectorSearch",
    "VectorStore",
]
