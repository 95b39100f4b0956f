"""The pieces of recall's overlapped reads that need no database (issue 29, session
twelve; ``engram.recall.waiting``): a read made while the keyword leg runs never hides
that leg's failure, and the stale-fact read started before fusion answers exactly what
reading the fused ids answers."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

import pytest

from engram.config import Config, RecallConfig
from engram.errors import StoreConnectionError, StoreError
from engram.recall import current, waiting
from engram.recall.request import RecallRequest
from engram.recall.workers import Workers
from engram.store import open_store
from engram.store.sql import graph_changes
from engram.store.sqlite.dialect import SQLITE

NOW = "Where does Sam live now?"
STALE = {"m1", "m4", "m9"}


def _failed(exc: BaseException) -> Future[object]:
    pending: Future[object] = Future()
    pending.set_exception(exc)
    return pending


def test_a_failing_read_in_the_wait_raises_the_keyword_legs_error() -> None:
    def read() -> None:
        raise StoreConnectionError("facts: the connection was lost")

    with pytest.raises(StoreError, match="the ranking broke") as caught:
        waiting.before_join(_failed(StoreError("the ranking broke")), read, "the keyword search")
    assert type(caught.value) is StoreError


def test_a_failing_read_in_the_wait_raises_its_own_error_when_the_leg_answers() -> None:
    done: Future[object] = Future()
    done.set_result([("m1", 1.0)])

    def read() -> None:
        raise StoreConnectionError("facts: the connection was lost")

    with pytest.raises(StoreConnectionError, match="facts"):
        waiting.before_join(done, read, "the keyword search")
    assert waiting.before_join(done, lambda: 7, "the keyword search") == 7
    assert not waiting.waiting(done) and not waiting.waiting(None)


class _Reader:
    """A stale-fact reader over ``STALE`` that keeps the ids of each read."""

    def __init__(self) -> None:
        self.reads: list[list[str]] = []

    def __call__(self, namespace: str, ids: Sequence[str]) -> set[str]:
        self.reads.append(list(ids))
        return {i for i in ids if i in STALE}


def test_the_stale_read_started_early_answers_what_reading_the_ids_answers() -> None:
    reader, pool = _Reader(), Workers(1, "test-stale")
    request = RecallRequest(query=NOW, namespace="ns", limit=5)
    try:
        ahead = waiting.StaleAhead.start(pool, reader, request, RecallConfig(), ["m1", "m2", "m3"])
        assert isinstance(ahead, waiting.StaleAhead)
        # A subset of the ids asked, then a superset (a session neighbour joined after).
        assert ahead("ns", ["m2", "m3"]) == reader("ns", ["m2", "m3"]) == set()
        assert ahead("ns", ["m1", "m2", "m4"]) == {"m1", "m4"}
        assert reader.reads[0] == ["m1", "m2", "m3"]  # the early read
        assert ["m4"] in reader.reads  # only the id it was not asked about
        fused = {"m1": 0.9, "m2": 0.8, "m4": 0.5}
        ids = list(fused)
        assert current.closed(ahead, "ns", NOW, RecallConfig(), ids, []) == current.closed(
            reader, "ns", NOW, RecallConfig(), ids, []
        )
    finally:
        pool.close()


def test_the_stale_read_starts_only_when_demotion_reads() -> None:
    reader, pool = _Reader(), Workers(1, "test-stale")
    try:
        past = RecallRequest(query="Where did Sam live in 2019?", namespace="ns", limit=5)
        now = RecallRequest(query=NOW, namespace="ns", limit=5)
        off = RecallConfig(stale_fact_factor=1.0)
        assert waiting.StaleAhead.start(pool, reader, past, RecallConfig(), ["m1"]) is reader
        assert waiting.StaleAhead.start(pool, reader, now, off, ["m1"]) is reader
        assert waiting.StaleAhead.start(pool, reader, now, RecallConfig(), []) is reader
        assert reader.reads == []
    finally:
        pool.close()


def test_a_failed_early_stale_read_warns_as_the_read_did() -> None:
    def broken(namespace: str, ids: Sequence[str]) -> set[str]:
        raise StoreError("relations are unreadable")

    pool = Workers(1, "test-stale")
    request = RecallRequest(query=NOW, namespace="ns", limit=5)
    try:
        ahead = waiting.StaleAhead.start(pool, broken, request, RecallConfig(), ["m1"])
        fused = {"m1": 0.9}
        warned: list[str] = []
        plain: list[str] = []
        assert current.closed(ahead, "ns", NOW, RecallConfig(), list(fused), warned) == set()
        assert current.closed(broken, "ns", NOW, RecallConfig(), list(fused), plain) == set()
        assert warned == plain and "relations are unreadable" in warned[0]
    finally:
        pool.close()


class _Recording:
    """A connection that keeps each statement and its parameters."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.seen: list[tuple[str, Sequence[object]]] = []

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        self.seen.append((sql, params))
        return self.conn.execute(sql, params)


def test_the_stale_fact_read_starts_from_the_ids_mentions(tmp_path: Path, config: Config) -> None:
    # Issue 29, round 9: SQLite (no ANALYZE statistics) planned the join from the
    # namespace's relations, probing each closed one for every id: ~7 ms for 160 ids
    # at 100k. Reading the ids' mentions first, then each relation by key, is ~1.5 ms.
    store = open_store(str(tmp_path / "plan.db"), config)
    try:
        with store.graph_counts._sql.read() as conn:
            recording = _Recording(conn)
            ids = [f"m{i}" for i in range(160)]
            assert graph_changes.stale_memories(recording, SQLITE, "ns", ids) == set()
            # The ids' mentions, then their rows for a pipeline fact's source (task
            # extract20: a correlated test there walked the relations again, 300 ms).
            mentions, sources = (
                [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params)]
                for sql, params in recording.seen
            )
    finally:
        store.close()
    assert mentions[0].startswith("SEARCH m USING INDEX relation_mentions_memory (memory_id=?)")
    assert sources == ["SEARCH f USING INDEX sqlite_autoindex_memories_1 (id=?)"], sources
    for plan in (mentions, sources):
        assert not any("SCAN" in step or "(namespace=?)" in step for step in plan), plan
