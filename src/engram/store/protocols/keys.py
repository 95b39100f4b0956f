"""The API-keys part of a store: who may call ``engram serve``.

Keys are global, not per namespace: a key names the user whose namespaces it reaches.
Only the SHA-256 hash of the secret is stored, never the secret.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.records import ApiKey


@runtime_checkable
class KeyStore(Protocol):
    """Hashed API keys: add, look up, list, revoke, touch and export."""

    def add(self, key: ApiKey, key_hash: str) -> None:
        """Store a new key under the hex SHA-256 ``key_hash`` of its secret."""
        ...

    def find(self, key_hash: str) -> ApiKey | None:
        """The non-revoked key whose secret hashes to ``key_hash``, or None."""
        ...

    def all(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        ...

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key (idempotent) and return it; ``NotFoundError`` if unknown."""
        ...

    def touch(self, key_id: str, when: datetime) -> None:
        """Record that a key was used at ``when`` (sets ``last_used_at``)."""
        ...

    def export(self) -> list[tuple[ApiKey, str]]:
        """Every key with the hash of its secret, oldest first (for ``migrate-store``;
        re-added elsewhere with ``add``)."""
        ...
