"""Storage backends, one small protocol per concern, and the one place that picks a
backend (``open_store``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engram.errors import ConfigError
from engram.store import protocols
from engram.store.protocols import *  # noqa: F403 (the contracts, re-exported)
from engram.store.protocols import Store

if TYPE_CHECKING:
    from engram.config import Config

#: URL schemes that select the PostgreSQL backend.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite://"


def is_postgres(location: str) -> bool:
    """True when ``location`` names a PostgreSQL database."""
    return location.startswith(POSTGRES_SCHEMES)


def sqlite_path(location: str) -> str:
    """The file path of a SQLite location: a plain path, ``:memory:`` or ``sqlite:///p``.

    ``sqlite:///rel/path`` is relative and ``sqlite:////abs/path`` absolute, as in
    SQLAlchemy; ``sqlite://`` alone is ``:memory:``.
    """
    if not location.startswith(SQLITE_SCHEME):
        return location
    rest = location[len(SQLITE_SCHEME) :]
    if rest in ("", "/", "/:memory:"):
        return ":memory:"
    if not rest.startswith("/"):
        raise ConfigError(f"store {location!r}: write sqlite:///path (three slashes)")
    return rest[1:]


def open_store(location: str, config: Config) -> Store:
    """Open the store ``location`` names: a ``postgresql://`` URL opens PostgreSQL, any
    other location (a path, ``sqlite:///path``, ``:memory:``) a SQLite file."""
    if is_postgres(location):
        try:
            from engram.store.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigError(
                f"store {location.split('@')[-1]!r} needs the PostgreSQL driver: "
                f"pip install 'engramdb[postgres]' ({exc})"
            ) from exc
        return PostgresStore(location, config.postgres)
    if "://" in location and not location.startswith(SQLITE_SCHEME):
        scheme = location.split("://", 1)[0]
        raise ConfigError(
            f"unknown store scheme {scheme!r}: use a SQLite path, sqlite:///path or "
            "postgresql://user@host/db"
        )
    from engram.store.sqlite import SQLiteStore

    return SQLiteStore(sqlite_path(location), busy_timeout_ms=config.busy_timeout_ms)


__all__ = [
    *protocols.__all__,
    "is_postgres",
    "open_store",
    "sqlite_path",
]
