"""PostgreSQL's namespace means for recall's centred cosines (``VectorCentres``).

PostgreSQL has no in-process copy of the vectors to keep a running sum beside, so
``PgCentres`` keeps each namespace's sum and count read from the database (pgvector's
``avg(vector)``, accumulated in float8, times the count) and serves it from memory. The
read path never passes over the vectors once a namespace is known: a namespace's sum is
read again on a worker thread, while recall goes on with the one it has, once this
process has written ``max(REFRESH_MIN, REFRESH_SHARE x count)`` vectors to it since the
sum was read, or ``REFRESH_SECONDS`` have passed (another process's writes). So the mean
recall centres on is at most that many of this process's writes stale (a 2 % change of
a namespace moves its mean's direction by well under 1e-2 cosine when it has a topic:
``tests/test_vector_centres.py``), and exact after a refresh. The first recall of a
namespace in a process reads it in its own thread, as it does after an erase or an
import (``invalidate``), so an erased vector never stays in a mean.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from engram.store.postgres.db import Database
from engram.store.protocols.vector_centres import Centre

#: Writes of this process to a namespace, as a share of its count, that call for a
#: fresh sum (read on a worker thread); at least ``REFRESH_MIN``.
REFRESH_SHARE = 0.02
REFRESH_MIN = 8
#: Age after which a namespace's sum is read again (other processes' writes).
REFRESH_SECONDS = 300.0


@dataclass(slots=True)
class _Held:
    centre: Centre
    read_at: float
    writes: int = 0


class PgCentres:
    """Namespace sums for one model and dimension, read by ``avg`` and held here."""

    def __init__(self, db: Database, model: str, dimension: int) -> None:
        self._db = db
        self.dimension = dimension
        self._held: dict[str, _Held] = {}
        self._lock = threading.Lock()
        self._refreshing: set[str] = set()
        self._workers: list[threading.Thread] = []
        self._generation = 0
        """Moved by ``forget``: a read begun before it installs nothing."""
        self.reads = 0
        """Statements run to read sums (tests: the read path runs none once known)."""
        self._sums = sql.SQL(
            "SELECT namespace, avg(embedding::vector({dim}))::float4[], count(*) "
            "FROM memory_vectors WHERE model = {model} AND dim = {dim} AND live "
            "AND namespace = ANY(%s) GROUP BY namespace"
        ).format(dim=sql.Literal(int(dimension)), model=sql.Literal(model))

    def centre(self, namespaces: Sequence[str]) -> Centre | None:
        """The namespaces' sums together: from memory, read first if unknown."""
        with self._lock:
            unknown = [ns for ns in namespaces if ns not in self._held]
        if unknown:
            self._read(unknown)
        now = time.monotonic()
        found: Centre | None = None
        stale: list[str] = []
        with self._lock:
            for ns in namespaces:
                held = self._held.get(ns)
                if held is None:
                    continue
                found = held.centre if found is None else found + held.centre
                due = max(REFRESH_MIN, REFRESH_SHARE * held.centre.count)
                old = held.writes >= due or now - held.read_at >= REFRESH_SECONDS
                if old and ns not in self._refreshing:
                    self._refreshing.add(ns)
                    stale.append(ns)
        if stale:
            worker = threading.Thread(target=self._refresh, args=(stale,), daemon=True)
            self._workers = [w for w in self._workers if w.is_alive()] + [worker]
            worker.start()
        return found

    def _refresh(self, namespaces: list[str]) -> None:
        try:
            self._read(namespaces)
        except Exception:  # a ranking lever: the sum held stays until the next try
            pass
        finally:
            with self._lock:
                self._refreshing.difference_update(namespaces)

    def _read(self, namespaces: list[str]) -> None:
        """Read the namespaces' sums (a namespace with no vectors sums to nothing)."""
        with self._lock:
            generation = self._generation
        with self._db.read("vector centres") as conn:
            rows: list[Any] = conn.execute(self._sums, (list(namespaces),)).fetchall()
        self.reads += 1
        now = time.monotonic()
        read = {ns: Centre(np.zeros(self.dimension), 0) for ns in namespaces}
        for ns, mean, count in rows:
            read[ns] = Centre(np.asarray(mean, dtype=np.float64) * int(count), int(count))
        with self._lock:
            if generation != self._generation:
                return  # an erase or import landed meanwhile: read again on next use
            for ns, centre in read.items():
                self._held[ns] = _Held(centre, now)

    def wrote(self, namespace: str, count: int) -> None:
        """This process wrote ``count`` vectors of ``namespace`` (or tombstoned them)."""
        with self._lock:
            held = self._held.get(namespace)
            if held is not None:
                held.writes += count

    def forget(self, namespace: str | None = None) -> None:
        """Drop what is held (of one namespace, or all): read again on next use."""
        with self._lock:
            self._generation += 1
            if namespace is None:
                self._held.clear()
            else:
                self._held.pop(namespace, None)

    def settle(self) -> None:
        """Wait for refreshes under way (tests, benchmarks)."""
        for worker in list(self._workers):
            worker.join()
