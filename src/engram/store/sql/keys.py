"""API keys of ``engram serve``: only the SHA-256 of a secret is kept, never the secret."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import NotFoundError
from engram.records import ApiKey, utcnow
from engram.store.sql.dialect import Dialect
from engram.store.sql.session import Sql

#: ``user`` is a reserved word in PostgreSQL; SQLite takes the quoted name too.
_KEY_COLUMNS = 'id, "user", admin, name, created_at, last_used_at, revoked_at'


def _key_from_row(d: Dialect, row: Sequence[Any]) -> ApiKey:
    return ApiKey(
        id=row[0],
        user=row[1],
        admin=bool(row[2]),
        name=row[3],
        created_at=d.time(row[4]),
        last_used_at=d.time_or_none(row[5]),
        revoked_at=d.time_or_none(row[6]),
    )


class SqlKeys:
    """``KeyStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._d = sql.d

    def add(self, key: ApiKey, key_hash: str) -> None:
        d = self._d
        with self._sql.tx("storing the API key") as conn:
            conn.execute(
                f"INSERT INTO api_keys({_KEY_COLUMNS}, key_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key.id,
                    key.user,
                    bool(key.admin),  # SQLite stores it as 1 or 0
                    key.name,
                    d.ts(key.created_at),
                    d.ts_or_none(key.last_used_at),
                    d.ts_or_none(key.revoked_at),
                    key_hash,
                ),
            )

    def find(self, key_hash: str) -> ApiKey | None:
        with self._sql.read() as conn:
            row = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
                (key_hash,),
            ).fetchone()
        return None if row is None else _key_from_row(self._d, row)

    def all(self) -> list[ApiKey]:
        with self._sql.read() as conn:
            rows = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [_key_from_row(self._d, r) for r in rows]

    def revoke(self, key_id: str) -> ApiKey:
        with self._sql.tx("revoking the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (self._d.ts(utcnow()), key_id),
            )
            row = conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no API key {key_id!r}; `engram keys list` shows them")
        return _key_from_row(self._d, row)

    def touch(self, key_id: str, when: datetime) -> None:
        with self._sql.tx("updating the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET last_used_at = ? WHERE id = ?", (self._d.ts(when), key_id)
            )

    def export(self) -> list[tuple[ApiKey, str]]:
        with self._sql.read() as conn:
            rows = conn.execute(
                f"SELECT {_KEY_COLUMNS}, key_hash FROM api_keys ORDER BY created_at, id"
            ).fetchall()
        return [(_key_from_row(self._d, r), r[7]) for r in rows]
