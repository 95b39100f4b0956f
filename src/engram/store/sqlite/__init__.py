"""SQLite backend (the embedded default)."""

from engram.store.sqlite.backend import SQLiteStore

__all__ = ["SQLiteStore"]
