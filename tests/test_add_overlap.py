"""``add_many`` embeds one group on a worker thread while it writes the next
(``write.OVERLAP_GROUP``), when the embedder says it can run beside the caller
(``embed.base.runs_beside``): every memory still gets its own vector, duplicates across
groups are written as one group at a time writes them, and an embedder failure on the
worker leaves the memories stored with their vector pending."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from engram import Memory, write
from engram.config import Config
from engram.embed.base import Vectors, runs_beside
from engram.records import Outcome
from hashembed import HashEmbedder


class BesideEmbedder(HashEmbedder):
    """The suite's hash embedder, declared safe to run on a worker thread; it records
    the thread of each call and can be made to fail."""

    def __init__(self) -> None:
        super().__init__()
        self.concurrent = True
        self.threads: list[str] = []
        self.fail = False

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.threads.append(threading.current_thread().name)
        if self.fail:
            raise RuntimeError("the model crashed")
        return super().embed_batch(texts)


@pytest.fixture
def beside(config: Config, store_location: str) -> Iterator[tuple[Memory, BesideEmbedder]]:
    embedder = BesideEmbedder()
    with Memory(store_location, config=config, embedder=embedder) as m:
        yield m, embedder


def texts(n: int, start: int = 0) -> list[str]:
    return [f"memory number {i} says the colour {i % 7} is fine" for i in range(start, start + n)]


def test_only_an_embedder_that_says_so_runs_beside() -> None:
    assert runs_beside(BesideEmbedder())
    assert not runs_beside(HashEmbedder())
    stated = HashEmbedder()
    stated.concurrent = "yes"  # type: ignore[attr-defined]
    assert not runs_beside(stated)


def test_every_memory_gets_its_own_vector(beside: tuple[Memory, BesideEmbedder]) -> None:
    mem, embedder = beside
    items = texts(3 * write.OVERLAP_GROUP + 17)
    # A duplicate of the group before (its vector not stored yet when it is written) and
    # one of the same group.
    items[write.OVERLAP_GROUP + 5] = items[3]
    items[10] = items[4]
    batch = mem.add_many(items, namespace="ns")
    assert any(name.startswith("engram-embed") for name in embedder.threads)
    outcomes = [i.outcome for i in batch.items]
    assert outcomes.count(Outcome.DUPLICATE) == 2
    assert batch.items[write.OVERLAP_GROUP + 5].outcome is Outcome.DUPLICATE
    assert batch.items[write.OVERLAP_GROUP + 5].duplicate_of == batch.items[3].record.id
    assert all(
        i.record is not None and i.record.embedding_model == "test-hash" for i in batch.items
    )
    assert all(not i.warnings for i in batch.items)
    stored = mem.store.vectors.load("ns", "test-hash")
    assert len(stored.ids) == len(set(items))
    by_id = dict(zip(stored.ids, stored.matrix, strict=True))
    expected = HashEmbedder().embed_batch(items)
    for item, vector in zip(batch.items, expected, strict=True):
        assert item.record is not None
        np.testing.assert_allclose(by_id[item.record.id], vector, atol=1e-6)
    assert mem.store.vectors.unembedded("ns") == 0


def test_a_failing_model_on_the_worker_leaves_the_vectors_pending(
    beside: tuple[Memory, BesideEmbedder],
) -> None:
    mem, embedder = beside
    embedder.fail = True
    batch = mem.add_many(texts(2 * write.OVERLAP_GROUP + 1), namespace="ns")
    assert all(i.outcome is Outcome.STORED for i in batch.items)
    assert all(i.record is not None and i.record.embedding_model is None for i in batch.items)
    assert all(w.startswith("stored without a vector") for i in batch.items for w in i.warnings)
    assert mem.embed_failures == len(batch.items)
    embedder.fail = False
    assert mem.admin.backfill() == len(batch.items)


def test_a_small_batch_embeds_on_the_callers_thread(config: Config, tmp_path: Path) -> None:
    embedder = BesideEmbedder()
    with Memory(tmp_path / "s.db", config=config, embedder=embedder) as mem:
        mem.add_many(texts(write.OVERLAP_GROUP), namespace="ns")
    assert embedder.threads == [threading.current_thread().name]
