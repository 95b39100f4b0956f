"""Recall's reads on PostgreSQL (issue 29, round 8): the reads that do not depend on
each other run beside the calling thread's (``Retriever.overlap_reads``), so a recall
waits for three round trips in turn instead of six; the answers stay the same, a write
from another connection shows in the next recall, and a read that fails on a worker
thread fails the recall with engram's error and leaves the pool working."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from conftest import HashEmbedder
from engram import Config, Memory, RetrievalError
from engram.org import human
from engram.org.policies import HEADER
from engram.recall import ranking, waiting
from engram.records import utcnow
from engram.shared import DEFAULT_SPACE
from engram.store.postgres.db import Database

pytestmark = pytest.mark.postgres

ALICE = human("alice")
NS = "ops"  # its shared space is shared:default
TEXTS = [
    "We picked Postgres for the billing service",
    "The billing service bills customers monthly",
    "Caroline went hiking near the lake in May",
    "Melanie paints sunsets at the lake",
    "The deploy pipeline runs on Fridays",
    "Postgres backups run every night at two",
]
QUERIES = ["billing database", "who paints at the lake", "when do backups run", "deploy Fridays"]


def _seed(mem: Memory) -> None:
    mem.add_many(TEXTS, namespace=NS)
    mem.shared.publish("bob", "Billing invoices go out on the first of the month")
    mem.org.write("PRs require 2 approvals", category="policy", author=ALICE)


@contextmanager
def _calling_thread_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The reads (connection checkouts: one round trip each here) the calling thread
    makes, named by the function that made them."""
    made: list[str] = []
    me = threading.current_thread()
    read = Database.read

    @contextmanager
    def counted(self: Database, what: str = "read") -> Iterator[Any]:
        if threading.current_thread() is me:
            made.append(what)
        with read(self, what) as conn:
            yield conn

    monkeypatch.setattr(Database, "read", counted)
    yield made


def test_recall_waits_for_three_round_trips_in_turn(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        _seed(mem)
        mem.recall("billing database", namespace=NS)  # warm: the vector index exists
        # The keyword leg has answered when the dense leg ends (had it not, the facts of
        # the dense candidates would be read in its wait: tests/test_recall_speed_pg.py).
        monkeypatch.setattr(waiting, "waiting", lambda pending: False)
        with _calling_thread_reads(monkeypatch) as made:
            got = mem.recall("billing invoices database", namespace=NS, abstain=False)
        # The dense search (with its settings and the unembedded count), the
        # candidates' facts, the fetch of the ranked ones; the shared space's count,
        # the policy block and the other candidates' cosines ran on worker threads.
        # When the keyword leg ended before the dense search began, the candidates'
        # facts came with the search (round 11: tests/test_pg_recall_along.py).
        assert made in (["vector search", "read", "read"], ["vector search", "read"])
        assert got.context.startswith(HEADER)
        assert any(h.memory.namespace == DEFAULT_SPACE for h in got.hits)


def test_overlapped_reads_give_the_same_recall(
    pg_url: str, config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Recency reads the clock: frozen, so the two recalls' scores compare exactly (scores
    # rounded to 6 places, with the clock running between them, once fell on either side
    # of a rounding boundary and failed).
    frozen = utcnow()
    monkeypatch.setattr(ranking, "utcnow", lambda: frozen)
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        _seed(mem)
        retriever = mem._core.retriever
        assert retriever.overlap_reads  # PostgreSQL: each read is a round trip
        for strategy in ("hybrid", "dense", "bm25"):
            for query in QUERIES:
                retriever.overlap_reads = True
                overlapped = mem.recall(query, namespace=NS, strategy=strategy)
                retriever.overlap_reads = False
                in_turn = mem.recall(query, namespace=NS, strategy=strategy)
                assert [(h.memory.id, h.score) for h in overlapped.hits] == [
                    (h.memory.id, h.score) for h in in_turn.hits
                ], (strategy, query)
                assert overlapped.hits, (strategy, query)
                assert overlapped.context == in_turn.context
                assert overlapped.warnings == in_turn.warnings


def test_a_write_from_another_connection_shows_in_the_next_recall(
    pg_url: str, config: Config
) -> None:
    with (
        Memory(pg_url, config=config, embedder=HashEmbedder()) as reader,
        Memory(pg_url, config=config, embedder=HashEmbedder()) as writer,
    ):
        reader.add_many(TEXTS, namespace=NS)
        before = reader.recall("billing invoices", namespace=NS, abstain=False)
        assert not before.context.startswith(HEADER)
        assert all(h.memory.namespace == NS for h in before.hits)
        # Another pool (another process's, as far as the reader can tell) publishes
        # into the empty shared space and writes a policy.
        pub = writer.shared.publish("bob", "Billing invoices go out on the first")
        writer.org.write("PRs require 2 approvals", category="policy", author=ALICE)
        after = reader.recall("billing invoices", namespace=NS, abstain=False)
        assert after.context.startswith(f"{HEADER}\n- PRs require 2 approvals")
        assert pub.id in [h.memory.id for h in after.hits]
        writer.shared.retract("bob", pub.id)
        again = reader.recall("billing invoices", namespace=NS, abstain=False)
        assert pub.id not in [h.memory.id for h in again.hits]


def test_a_failed_read_on_a_worker_fails_the_recall_and_the_pool_still_works(
    pg_url: str, config: Config
) -> None:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        _seed(mem)
        assert mem.recall("billing database", namespace=NS).context.startswith(HEADER)
        # The policy block's read (on a worker thread) now fails in the server.
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("ALTER TABLE org_facts RENAME TO org_facts_away")
            try:
                with pytest.raises(RetrievalError, match="org_facts"):
                    mem.recall("billing database", namespace=NS)
            finally:
                admin.execute("ALTER TABLE org_facts_away RENAME TO org_facts")
        for query in QUERIES:  # every pooled connection still answers
            got = mem.recall(query, namespace=NS)
            assert got.context.startswith(HEADER) and got.hits
