"""Chunk vectors of long memories (issue 13): cutting, storing, pooling, keeping in step."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from conftest import HashEmbedder
from engram.config import Config
from engram.embed.base import Vectors
from engram.memory import Memory
from engram.recall.chunks import windows

WINDOW = 200


class HeadEmbedder(HashEmbedder):
    """The hash embedder reading only the first ``WINDOW`` characters of a text, as a
    real model reads only its first few hundred word pieces."""

    name = "test-head"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return super().embed_batch([t[:WINDOW] for t in texts])


FILLER = " ".join(f"alpha{n % 17} beta{n % 13} gamma{n % 11}" for n in range(60))
TAIL = "the lighthouse keeper painted the boat turquoise"
LONG = f"{FILLER} {TAIL}"
QUERY = "lighthouse keeper painted boat turquoise"


def chunked(config: Config, chars: int = WINDOW) -> Config:
    return config.with_overrides(recall={"chunk_chars": chars, "chunk_overlap": 50})


@pytest.fixture
def long_mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=chunked(config), embedder=HeadEmbedder()) as m:
        yield m


def dense_ids(mem: Memory, pooling: bool, query: str = QUERY) -> list[str]:
    found = mem.recall(
        query,
        limit=10,
        strategy="dense",
        chunk_pooling=pooling,
        min_relevance=0.0,
        context_dense=0.0,
        session_dense=0.0,
    )
    return [h.memory.id for h in found.hits]


def tail_similarity(mem: Memory, memory_id: str) -> float:
    """The pooled dense score of ``memory_id`` for ``QUERY``."""
    hits = mem.recall(QUERY, limit=10, strategy="dense", chunk_pooling=True, min_relevance=0.0)
    sims = [h.breakdown.sim for h in hits.hits if h.memory.id == memory_id]
    return float(sims[0] or 0.0) if sims else 0.0


# -- cutting ----------------------------------------------------------------------------


def test_short_text_has_no_windows() -> None:
    assert windows("a short message", 200, 50) == []
    assert windows(LONG, 0, 50) == []


def test_windows_cover_the_tail_cut_at_spaces() -> None:
    pieces = windows(LONG, WINDOW, 50)
    assert pieces, "a text longer than the window gets windows past its head"
    assert all(len(p) <= WINDOW for p in pieces)
    words = set(LONG.split())
    assert all(set(p.split()) <= words for p in pieces), "windows never cut a word"
    assert pieces[-1].endswith("turquoise")
    assert not LONG.startswith(pieces[0]), "the head is the memory's own vector"


def test_windows_overlap() -> None:
    text = " ".join(f"w{n:03d}" for n in range(200))  # 5 characters a word
    pieces = windows(text, 100, 40)
    for before, after in zip(pieces, pieces[1:], strict=False):
        assert set(before.split()) & set(after.split()), "consecutive windows share words"


# -- storing and recall -------------------------------------------------------------------


def test_tail_match_is_found_by_the_dense_leg(long_mem: Memory) -> None:
    target = long_mem.add(LONG).id
    for n in range(8):
        long_mem.add(f"a note about gardening and tomatoes number {n}")
    long_mem.add("the keeper of records filed the papers")
    assert long_mem.store.chunks.count("test-head") >= 1
    assert dense_ids(long_mem, pooling=True)[0] == target
    # Without pooling the head vector never saw the tail's words.
    assert dense_ids(long_mem, pooling=False)[0] != target


def test_short_memories_get_no_chunks(long_mem: Memory) -> None:
    long_mem.add_many([{"content": f"short note {n}"} for n in range(5)])
    assert long_mem.store.chunks.count() == 0


def test_delete_removes_and_update_replaces_chunks(long_mem: Memory) -> None:
    target = long_mem.add(LONG).id
    other = long_mem.add("a note about gardening and tomatoes").id
    assert dense_ids(long_mem, pooling=True)[0] == target

    before = tail_similarity(long_mem, target)
    long_mem.update(target, content=f"{FILLER} the orchard grew quince and medlar")
    assert tail_similarity(long_mem, target) < before - 0.3, "the old tail's chunks are gone"
    found = dense_ids(long_mem, pooling=True, query="orchard quince medlar")
    assert found[0] == target

    long_mem.update(target, content="now a short message")
    assert long_mem.store.chunks.count() == 0
    long_mem.update(target, content=LONG)
    assert dense_ids(long_mem, pooling=True)[0] == target

    long_mem.delete(target)
    assert target not in dense_ids(long_mem, pooling=True)
    assert dense_ids(long_mem, pooling=True) == [other]


def test_purge_drops_chunk_rows(long_mem: Memory) -> None:
    target = long_mem.add(LONG).id
    assert long_mem.store.chunks.count() > 0
    long_mem.delete(target)
    long_mem.admin.purge()
    assert long_mem.store.chunks.count() == 0


def test_reindex_fills_and_rebuilds_chunks(config: Config, reopenable: str) -> None:
    with Memory(reopenable, config=chunked(config, 0), embedder=HeadEmbedder()) as before:
        target = before.add(LONG).id
        before.add("a note about gardening and tomatoes")
        assert before.store.chunks.count() == 0  # chunking was off when it was written
    with Memory(reopenable, config=chunked(config), embedder=HeadEmbedder()) as after:
        assert dense_ids(after, pooling=True)[0] != target
        after.admin.reindex()
        made = after.store.chunks.count("test-head")
        assert made == len(windows(LONG, WINDOW, 50))
        assert dense_ids(after, pooling=True)[0] == target
        after.admin.reindex(rebuild=True)
        assert after.store.chunks.count("test-head") == made
        assert dense_ids(after, pooling=True)[0] == target


def test_chunk_weight_zero_is_the_head_alone(long_mem: Memory) -> None:
    target = long_mem.add(LONG).id
    long_mem.add("the keeper of records filed the papers")
    hits = long_mem.recall(
        QUERY, limit=5, strategy="dense", chunk_pooling=True, chunk_weight=0.0, min_relevance=0.0
    ).hits
    plain = long_mem.recall(
        QUERY, limit=5, strategy="dense", chunk_pooling=False, min_relevance=0.0
    ).hits
    assert [h.memory.id for h in hits] == [h.memory.id for h in plain]
    assert target in [h.memory.id for h in hits]


# -- per-leg weights by length ------------------------------------------------------------


def fused_by_id(mem: Memory, query: str, **settings: object) -> dict[str, float]:
    found = mem.recall(query, limit=10, min_relevance=0.0, **settings)
    return {h.memory.id: h.breakdown.fused for h in found.hits}


def test_long_memories_get_their_own_dense_weight(mem: Memory) -> None:
    long_text = " ".join([LONG] * 12)  # past recall.long_chars (2000)
    long_id = mem.add(long_text).id
    short_id = mem.add("the lighthouse keeper sold the boat").id
    mem.add("a note about gardening and tomatoes")
    facts = mem.store.memories.facts(mem.config.default_namespace, [long_id, short_id, "gone"])
    assert {i: f.chars for i, f in facts.items()} == {
        long_id: len(long_text),
        short_id: len("the lighthouse keeper sold the boat"),
    }
    default = fused_by_id(mem, QUERY)
    dense_only = fused_by_id(mem, QUERY, alpha=1.0)
    same_alpha = fused_by_id(mem, QUERY, long_alpha=None)
    # A long memory is fused with long_alpha (1.0: its dense leg alone) ...
    assert default[long_id] == pytest.approx(dense_only[long_id])
    assert default[long_id] != pytest.approx(same_alpha[long_id])
    # ... a short one with alpha, as before.
    assert default[short_id] == pytest.approx(same_alpha[short_id])
    assert default[short_id] != pytest.approx(dense_only[short_id])
