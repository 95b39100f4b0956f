"""SQLite backend (the embedded default)."""

from engram.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
