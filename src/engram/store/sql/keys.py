"""API keys of ``engram serve``: only the SHA-256 of a secret is kept, never the secret."""

from __future__ import annotations

from datetime import datetime

from engram.records import ApiKey, utcnow
from engram.store.protocols import KeyStore
from engram.store.sql.rows import record
from engram.store.sql.session import SqlPart

#: ``user`` is a reserved word in PostgreSQL; SQLite takes the quoted name too.
_KEY_COLUMNS = 'id, "user", admin, name, created_at, last_used_at, revoked_at, agent'


class SqlKeys(SqlPart, KeyStore):
    """``KeyStore`` on either engine."""

    def add(self, key: ApiKey, key_hash: str) -> None:
        d = self._d
        with self._sql.tx("storing the API key") as conn:
            conn.execute(
                f"INSERT INTO api_keys({_KEY_COLUMNS}, key_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key.id,
                    key.user,
                    bool(key.admin),  # SQLite stores it as 1 or 0
                    key.name,
                    d.ts(key.created_at),
                    d.ts_or_none(key.last_used_at),
                    d.ts_or_none(key.revoked_at),
                    key.agent,
                    key_hash,
                ),
            )

    def find(self, key_hash: str) -> ApiKey | None:
        return self._record(
            ApiKey,
            f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
            (key_hash,),
        )

    def all(self) -> list[ApiKey]:
        return self._records(ApiKey, f"SELECT {_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id")

    def revoke(self, key_id: str) -> ApiKey:
        with self._sql.tx("revoking the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (self._d.ts(utcnow()), key_id),
            )
            return self._found(
                conn,
                ApiKey,
                f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = ?",
                (key_id,),
                f"no API key {key_id!r}; `engram keys list` shows them",
            )

    def touch(self, key_id: str, when: datetime) -> None:
        with self._sql.tx("updating the API key") as conn:
            conn.execute(
                "UPDATE api_keys SET last_used_at = ? WHERE id = ?", (self._d.ts(when), key_id)
            )

    def export(self) -> list[tuple[ApiKey, str]]:
        rows = self._rows(f"SELECT {_KEY_COLUMNS}, key_hash FROM api_keys ORDER BY created_at, id")
        return [(record(self._d, ApiKey, r), r[8]) for r in rows]
