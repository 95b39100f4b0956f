"""engram's exception tree.

Every error engram raises on purpose is an :class:`EngramError`; surfaces translate
the tree at their boundary (the CLI to a one-line message and an exit code, the HTTP
API to a status code with a JSON body)::

    EngramError
    ├── ConfigError                 invalid setting, unknown backend or embedder
    ├── InvalidInputError           the caller passed something engram cannot store
    │   ├── EmptyContentError       content is empty after normalisation
    │   ├── ContentTooLargeError    content is over ``max_content_chars``
    │   ├── InjectionBlocked        content tries to plant instructions (seed 000)
    │   ├── WriteRefusedError       the agent's memory level keeps nothing of this write
    │   └── UrlRefusedError         a URL to ingest points at a loopback, private or
    │                               other non-public address (issue 26)
    ├── NotFoundError               no memory with that id in that namespace
    ├── StoreError                  the store failed to read or write
    │   ├── StoreClosedError        the store was closed
    │   ├── MigrationError          the schema could not be brought up to date
    │   └── RetrievalError          a recall or search failed in the store
    ├── EmbeddingError              the embedder failed or is unavailable
    │   └── DimensionMismatchError  the store holds vectors of another dimension
    ├── LlmError                    the LLM failed, timed out, or answered unusably
    ├── CapabilityError             the backend cannot do what was asked
    ├── AuthenticationError         no API key, or an unknown or revoked one
    ├── PermissionDeniedError       the API key may not reach that namespace
    └── EngramConnectionError       a backend cannot be reached, or was disconnected
        ├── ServerConnectionError   ``engram.client`` cannot reach the HTTP API
        └── StoreConnectionError    the store is disconnected or unreachable (also a
                                    ``StoreError``)

The names follow seed 002's error hierarchy (connection, store, retrieval, not found,
config, capability): ``EngramConnectionError`` is its ``MemoryConnectionError``,
``StoreError`` its ``MemoryStoreError``, ``RetrievalError`` its
``MemoryRetrievalError``, and so on; engram never shadows the builtin ``MemoryError``
(nor ``ConnectionError``).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import TypeVar

#: A registry's factory type (``registered``).
F = TypeVar("F")


class _Short(reprlib.Repr):
    """``repr`` cut to a few levels and characters."""

    def repr_int(self, x: int, level: int) -> str:
        try:
            return super().repr_int(x, level)
        except ValueError:  # more digits than ``str(int)`` converts
            return f"<an integer of {x.bit_length()} bits>"


_SHORT = _Short()
_SHORT.maxlevel = 3
_SHORT.maxstring = 80
_SHORT.maxother = 80


def shown(value: object) -> str:
    """``value`` for an error message. Messages echo caller input, which may be huge or
    nested past the recursion limit (where ``repr`` itself raises ``RecursionError``)."""
    return _SHORT.repr(value)


class EngramError(Exception):
    """Base class of every error engram raises on purpose."""

    #: a short machine-readable code, stable across versions (used by the HTTP API)
    code = "engram_error"


class ConfigError(EngramError):
    """A setting is invalid, or names a backend or embedder that does not exist."""

    code = "config_error"


def registered(registry: Mapping[str, F], name: str, what: str) -> F:
    """The factory ``registry`` holds under the configured ``name``; a ``ConfigError``
    naming ``what`` and the names there are (``none`` among them) for any other."""
    factory = registry.get(name)
    if factory is None:
        raise ConfigError(
            f"unknown {what} {name!r}; available: none, {', '.join(sorted(registry))}"
        )
    return factory


class InvalidInputError(EngramError, ValueError):
    """The caller passed input engram cannot accept; nothing was stored."""

    code = "invalid_input"


class EmptyContentError(InvalidInputError):
    """Content is empty once whitespace is collapsed."""

    code = "empty_content"


class ContentTooLargeError(InvalidInputError):
    """Content is longer than the configured ``max_content_chars``."""

    code = "content_too_large"


class InjectionBlocked(InvalidInputError):  # noqa: N818 - the name the issue and docs use
    """Content tries to plant instructions for a future model (seed 000's injection scan)."""

    code = "injection_blocked"

    def __init__(self, message: str, *, reasons: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.reasons = reasons


class WriteRefusedError(InvalidInputError):
    """The writing agent's memory level keeps nothing of this write (seed 002's
    ``MemoryLevel``): level ``none``, a ``session`` write without a session id, or a
    ``project`` write aimed outside the project's namespace. Nothing was stored."""

    code = "write_refused"


class UrlRefusedError(InvalidInputError):
    """A URL given to document ingest (or a redirect it led to) points at a loopback,
    private, link-local, multicast, unspecified or reserved address, which the server
    does not fetch unless its operator allows it (``[documents] allow_private_urls`` or
    ``allowed_private_hosts``). Nothing was fetched."""

    code = "url_refused"


class NotFoundError(EngramError, KeyError):
    """No record with that id exists in the namespace the call was scoped to."""

    code = "not_found"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "not found"


class StoreError(EngramError):
    """The store failed to read or write."""

    code = "store_error"


class StoreClosedError(StoreError):
    """The store was closed; open a new ``Memory`` to keep working."""

    code = "store_closed"


class StoreBusyError(StoreError):
    """The database aborted a transaction to break a deadlock or a serialization
    conflict with another writer (PostgreSQL SQLSTATE 40P01 / 40001), and it still did
    after engram re-ran it a few times. Nothing of that transaction was written; retry."""

    code = "store_busy"


class MigrationError(StoreError):
    """The store's schema could not be brought up to date."""

    code = "migration_error"


class RetrievalError(StoreError):
    """A recall, search or count failed in the store (seed 002's
    ``MemoryRetrievalError``); the query itself was valid."""

    code = "retrieval_error"


class EmbeddingError(EngramError):
    """The embedder failed or is unavailable."""

    code = "embedding_error"


class DimensionMismatchError(EmbeddingError):
    """The store holds vectors of a different dimension than the configured embedder."""

    code = "dimension_mismatch"


class LlmError(EngramError):
    """The LLM provider failed (unreachable, HTTP error, timeout, non-zero exit) or its
    answer could not be used (not JSON)."""

    code = "llm_error"


class CapabilityError(EngramError):
    """The backend does not support the requested operation."""

    code = "capability_error"


class AuthenticationError(EngramError):
    """The HTTP API got no API key, or one that is unknown or revoked."""

    code = "unauthorized"


class PermissionDeniedError(EngramError):
    """The API key is valid but may not reach the namespace asked for."""

    code = "forbidden"


class EngramConnectionError(EngramError):
    """A backend cannot be reached, or the connection was lost or closed on purpose
    (seed 002's ``MemoryConnectionError``): catch it for both the store and the HTTP
    client."""

    code = "connection_error"


class ServerConnectionError(EngramConnectionError):
    """``engram.client`` could not reach the HTTP API, or lost the connection (seed 002's
    ``MemoryConnectionError``); the server's state after a lost write is unknown."""

    code = "connection_error"


class StoreConnectionError(EngramConnectionError, StoreError):
    """The store is disconnected (``mem.backend.disconnect()``; ``connect()`` reopens
    it) or its database cannot be reached. Nothing was read or written."""

    code = "store_disconnected"


__all__ = [
    "AuthenticationError",
    "CapabilityError",
    "ConfigError",
    "ContentTooLargeError",
    "DimensionMismatchError",
    "EmbeddingError",
    "EmptyContentError",
    "EngramConnectionError",
    "EngramError",
    "InjectionBlocked",
    "InvalidInputError",
    "LlmError",
    "MigrationError",
    "NotFoundError",
    "PermissionDeniedError",
    "RetrievalError",
    "ServerConnectionError",
    "StoreBusyError",
    "StoreClosedError",
    "StoreConnectionError",
    "StoreError",
    "UrlRefusedError",
    "WriteRefusedError",
]
