"""engram: long-term memory for AI agents.

Keep what happened verbatim; recall the right few memories, ranked by relevance,
quality and time.
"""

from engram._version import __version__
from engram.aio import AsyncMemory
from engram.config import Config, EmbedderConfig, RecallConfig
from engram.errors import (
    AuthenticationError,
    CapabilityError,
    ConfigError,
    ContentTooLargeError,
    DimensionMismatchError,
    EmbeddingError,
    EmptyContentError,
    EngramConnectionError,
    EngramError,
    InjectionBlocked,
    InvalidInputError,
    LlmError,
    MigrationError,
    NotFoundError,
    PermissionDeniedError,
    RetrievalError,
    StoreClosedError,
    StoreConnectionError,
    StoreError,
    UrlRefusedError,
    WriteRefusedError,
)
from engram.memory import Memory
from engram.records import (
    ApiKey,
    HistoryEntry,
    Hit,
    MemoryCategory,
    MemoryRecord,
    MemoryType,
    Recall,
    RecallMode,
    ScoreBreakdown,
)

__all__ = [
    "ApiKey",
    "AsyncMemory",
    "AuthenticationError",
    "CapabilityError",
    "Config",
    "ConfigError",
    "ContentTooLargeError",
    "DimensionMismatchError",
    "EmbedderConfig",
    "EmbeddingError",
    "EmptyContentError",
    "EngramConnectionError",
    "EngramError",
    "HistoryEntry",
    "Hit",
    "InjectionBlocked",
    "InvalidInputError",
    "LlmError",
    "Memory",
    "MemoryCategory",
    "MemoryRecord",
    "MemoryType",
    "MigrationError",
    "NotFoundError",
    "PermissionDeniedError",
    "Recall",
    "RecallConfig",
    "RecallMode",
    "RetrievalError",
    "ScoreBreakdown",
    "StoreClosedError",
    "StoreConnectionError",
    "StoreError",
    "UrlRefusedError",
    "WriteRefusedError",
    "__version__",
]
