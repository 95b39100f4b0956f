"""pgvector values as numpy arrays; and, transitionally, the PostgreSQL spellings of the
memory row codec for the modules not yet written once (issue 25).

``vector_array`` stays native: it reads pgvector's ``Vector``. The rest is
``engram.store.sql.codec`` and the dialect over ``POSTGRES``; delete those names when
nothing imports them any more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from pgvector import Vector

from engram.records import MemoryRecord
from engram.store.postgres.dialect import POSTGRES
from engram.store.sql import codec
from engram.store.sql.codec import SELECT
from engram.store.sql.dialect import dumps, utc

__all__ = ["SELECT", "check_text", "dumps", "from_row", "utc", "vector_array"]


def vector_array(value: Any) -> npt.NDArray[np.float32]:
    """A float32 copy of a ``vector`` value as pgvector's loader returns it."""
    if isinstance(value, Vector):
        return value.to_numpy().astype(np.float32, copy=True)
    return np.array(value, dtype=np.float32)


def check_text(value: Any, what: str) -> Any:
    """PostgreSQL ``text`` cannot hold U+0000: refuse it with a clear message."""
    return POSTGRES.text(value, what)


def from_row(row: Sequence[Any]) -> MemoryRecord:
    """A record from a ``SELECT`` row (psycopg has already parsed JSON and timestamps)."""
    return codec.from_row(POSTGRES, row)
