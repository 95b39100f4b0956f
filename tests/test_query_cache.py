"""The LRU cache of query vectors: a hit skips the model, the oldest entry is evicted
first, and entries are keyed on the model so another model never sees them."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.embed.cache import QueryVectorCache


class OtherModel(HashEmbedder):
    name = "test-other"


def test_a_repeated_query_skips_the_model() -> None:
    cache = QueryVectorCache(size=4)
    embedder = HashEmbedder()
    first = cache.embed(embedder, "where did we go hiking")
    again = cache.embed(embedder, "where did we go hiking")
    assert embedder.calls == 1
    assert cache.hits == 1 and cache.misses == 1
    assert np.array_equal(first, again)
    assert np.allclose(first, HashEmbedder().embed_batch(["where did we go hiking"])[0])


def test_the_least_recently_used_vector_is_evicted() -> None:
    cache = QueryVectorCache(size=2)
    embedder = HashEmbedder()
    cache.embed(embedder, "a")
    cache.embed(embedder, "b")
    cache.embed(embedder, "a")  # "b" is now the least recently used
    cache.embed(embedder, "c")
    assert len(cache) == 2
    calls = embedder.calls
    cache.embed(embedder, "a")
    assert embedder.calls == calls  # still cached
    cache.embed(embedder, "b")
    assert embedder.calls == calls + 1  # evicted, embedded again


def test_entries_are_keyed_on_the_model() -> None:
    cache = QueryVectorCache(size=8)
    small, other = HashEmbedder(dimension=16), OtherModel(dimension=16)
    cache.embed(small, "same text")
    cache.embed(other, "same text")
    cache.embed(HashEmbedder(dimension=32), "same text")  # same name, other dimension
    assert small.calls == 1 and other.calls == 1
    assert len(cache) == 3


def test_cached_vectors_cannot_be_changed_by_a_caller() -> None:
    cache = QueryVectorCache()
    vector = cache.embed(HashEmbedder(), "text")
    with pytest.raises(ValueError):
        vector[0] = 1.0


def test_size_zero_caches_nothing() -> None:
    cache = QueryVectorCache(size=0)
    embedder = HashEmbedder()
    cache.embed(embedder, "x")
    cache.embed(embedder, "x")
    assert embedder.calls == 2 and len(cache) == 0


def test_recall_embeds_a_repeated_query_once(mem: Memory) -> None:
    mem.add("We went hiking at Mount Rainier in July", namespace="ns")
    embedder = mem.embedder
    assert isinstance(embedder, HashEmbedder)
    first = mem.recall("where did we go hiking?", namespace="ns")
    calls = embedder.calls
    second = mem.recall("where did we go hiking?", namespace="ns")
    assert embedder.calls == calls
    assert [h.memory.id for h in first.hits] == [h.memory.id for h in second.hits]
