"""What the shared parts need that each engine keeps its own way.

- The keyword index's upkeep: SQLite keeps one FTS5 table per namespace (and hint
  indexes whose removals are queued), PostgreSQL the ``memories.search`` tsvector a
  trigger computes. Each backend hands ``SqlStore`` its ``KeywordUpkeep``.
- Vector rows: SQLite's ``memory_vectors`` and ``memory_chunks`` name their memory by
  its ``seq`` and hold a float32 BLOB (``vector``); PostgreSQL's name it by its ``id``
  and hold a pgvector ``embedding``. ``vector_rows(d)`` gives the names to build SQL
  with, ``vector_array`` reads either value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engram.store.sql.dialect import Conn, Dialect


class KeywordUpkeep(Protocol):
    """The keyword index's health and repair, inside the caller's transaction."""

    def counts(self, conn: Conn) -> tuple[int, int]:
        """(rows the keyword index holds, how many live memories it is out of step by)."""
        ...

    def repair(self, conn: Conn) -> int:
        """Re-index what is out of step; how many were before."""
        ...

    def flush(self, conn: Conn, namespace: str) -> None:
        """After an erase in ``namespace``: apply queued index removals now rather than
        at the next write, and drop the erased words from the index's storage where it
        keeps them until a merge (SQLite's FTS5 segments)."""
        ...


@dataclass(frozen=True, slots=True)
class VectorRows:
    """How one engine's vector tables name their memory."""

    #: The column of ``memory_vectors`` and ``memory_chunks`` naming the memory.
    key: str
    #: The ``memories`` column it holds.
    memory_key: str
    #: The vector column of ``memory_vectors``.
    vector: str


_VECTOR_ROWS = {
    "sqlite": VectorRows(key="memory_seq", memory_key="seq", vector="vector"),
    "postgres": VectorRows(key="memory_id", memory_key="id", vector="embedding"),
}


def vector_rows(d: Dialect) -> VectorRows:
    """The vector tables' names on ``d``'s engine."""
    return _VECTOR_ROWS[d.name]


def vector_array(value: Any) -> npt.NDArray[np.float32]:
    """A float32 copy of a stored vector: SQLite's BLOB, or pgvector's value (its
    ``Vector``, or the array its loader returns)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return np.frombuffer(value, dtype=np.float32).copy()
    to_numpy = getattr(value, "to_numpy", None)
    if to_numpy is not None:
        return np.array(to_numpy(), dtype=np.float32)
    return np.array(value, dtype=np.float32)
