"""Storage backends behind one protocol."""

from engram.store.base import (
    InsertResult,
    ListQuery,
    NamespaceVectors,
    Store,
    StoreStats,
    VectorRow,
)

__all__ = ["InsertResult", "ListQuery", "NamespaceVectors", "Store", "StoreStats", "VectorRow"]
