"""API keys of the HTTP API in the PostgreSQL store: only the SHA-256 of a secret is kept."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import NotFoundError
from engram.records import ApiKey, utcnow
from engram.store.postgres import codec
from engram.store.postgres.db import Database

_KEY_COLUMNS = 'id, "user", admin, name, created_at, last_used_at, revoked_at'


def _key_from_row(row: Sequence[Any]) -> ApiKey:
    return ApiKey(
        id=row[0],
        user=row[1],
        admin=bool(row[2]),
        name=row[3],
        created_at=codec.utc(row[4]),
        last_used_at=None if row[5] is None else codec.utc(row[5]),
        revoked_at=None if row[6] is None else codec.utc(row[6]),
    )


class PgKeys:
    """The PostgreSQL implementation of ``KeyStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def add(self, key: ApiKey, key_hash: str) -> None:
        """Store a key under the SHA-256 hash of its secret."""
        with self._db.tx("storing the API key") as conn:
            conn.execute(
                f"INSERT INTO api_keys({_KEY_COLUMNS}, key_hash) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    key.id,
                    key.user,
                    key.admin,
                    key.name,
                    codec.utc(key.created_at),
                    key.last_used_at,
                    key.revoked_at,
                    key_hash,
                ),
            )

    def find(self, key_hash: str) -> ApiKey | None:
        """The live key with this secret hash, or None."""
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_hash = %s AND revoked_at IS NULL",
                (key_hash,),
            ).fetchone()
        return None if row is None else _key_from_row(row)

    def all(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [_key_from_row(r) for r in rows]

    def revoke(self, key_id: str) -> ApiKey:
        """Set ``revoked_at`` (once) and return the key."""
        with self._db.tx("revoking the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                (utcnow(), key_id),
            )
            row = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = %s", (key_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no API key {key_id!r}; `engram keys list` shows them")
        return _key_from_row(row)

    def touch(self, key_id: str, when: datetime) -> None:
        """Set ``last_used_at``."""
        with self._db.tx("updating the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET last_used_at = %s WHERE id = %s", (codec.utc(when), key_id)
            )

    def export(self) -> list[tuple[ApiKey, str]]:
        """Every key with its secret hash, oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_KEY_COLUMNS}, key_hash FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [(_key_from_row(r), r[7]) for r in rows]
