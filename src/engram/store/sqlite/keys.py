"""API keys of ``engram serve`` in the SQLite store: hashed secrets, never the secret."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, NotFoundError, StoreError
from engram.records import ApiKey, utcnow
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database


class SQLiteKeys:
    """The SQLite implementation of ``KeyStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    _KEY_COLUMNS = "id, user, admin, name, created_at, last_used_at, revoked_at"

    @staticmethod
    def _key_from_row(row: Sequence[Any]) -> ApiKey:
        return ApiKey(
            id=row[0],
            user=row[1],
            admin=bool(row[2]),
            name=row[3],
            created_at=datetime.fromisoformat(row[4]),
            last_used_at=parse_ts(row[5]),
            revoked_at=parse_ts(row[6]),
        )

    def add(self, key: ApiKey, key_hash: str) -> None:
        """Store a key under the SHA-256 hash of its secret."""
        try:
            with self._db.tx() as conn:
                conn.execute(
                    f"INSERT INTO api_keys({self._KEY_COLUMNS}, key_hash) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        key.id,
                        key.user,
                        int(key.admin),
                        key.name,
                        ts(key.created_at),
                        None if key.last_used_at is None else ts(key.last_used_at),
                        None if key.revoked_at is None else ts(key.revoked_at),
                        key_hash,
                    ),
                )
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"cannot store API key: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"storing the API key failed: {exc}") from exc

    def find(self, key_hash: str) -> ApiKey | None:
        """The live key with this secret hash, or None."""
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {self._KEY_COLUMNS} FROM api_keys "
                "WHERE key_hash = ? AND revoked_at IS NULL",
                (key_hash,),
            ).fetchone()
        return None if row is None else self._key_from_row(row)

    def all(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {self._KEY_COLUMNS} FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [self._key_from_row(r) for r in rows]

    def revoke(self, key_id: str) -> ApiKey:
        """Set ``revoked_at`` (once) and return the key."""
        try:
            with self._db.tx() as conn:
                conn.execute(
                    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                    (ts(utcnow()), key_id),
                )
                row = conn.execute(
                    f"SELECT {self._KEY_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)
                ).fetchone()
                if row is None:
                    raise NotFoundError(f"no API key {key_id!r}; `engram keys list` shows them")
        except sqlite3.Error as exc:
            raise StoreError(f"revoking the API key failed: {exc}") from exc
        return self._key_from_row(row)

    def touch(self, key_id: str, when: datetime) -> None:
        """Set ``last_used_at``."""
        try:
            with self._db.tx() as conn:
                conn.execute(
                    "UPDATE api_keys SET last_used_at = ? WHERE id = ?", (ts(when), key_id)
                )
        except sqlite3.Error as exc:
            raise StoreError(f"updating the API key failed: {exc}") from exc

    def export(self) -> list[tuple[ApiKey, str]]:
        """Every key with its secret hash, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {self._KEY_COLUMNS}, key_hash FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [(self._key_from_row(r), r[7]) for r in rows]
