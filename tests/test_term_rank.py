"""The long posting lists' bitmaps (``term_rank``) give what a binary search gives."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engram import Config, Memory
from engram.store.sqlite import term_rank
from engram.store.sqlite.term_index import Doc, TermBlock, _List, _lookup


@pytest.mark.parametrize("popcount", ["numpy", "table"])
def test_a_bitmap_lookup_is_the_binary_search(
    popcount: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if popcount == "table":  # numpy before 2.0 has no bitwise_count
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    rng = np.random.default_rng(3)
    size = 1_000  # not a multiple of 64: the last word is part-filled
    rows = np.sort(rng.choice(size, 300, replace=False)).astype(np.int32)
    rows[-1] = size - 1  # the last row held too
    tf = rng.random(len(rows)).astype(np.float32)
    ranks = term_rank.Ranks(size)
    # Every row, rows past the build (appended since: never in a build list), repeats.
    wanted = np.concatenate([np.arange(size + 70), rng.integers(0, size, 500)]).astype(np.int32)
    got = ranks.lookup(5, rows, tf, wanted)
    expected = _lookup(_List(rows, tf, float(tf.max()), 5), wanted)
    assert got.tolist() == expected.tolist()
    assert got[rows].tolist() == tf.astype(np.float64).tolist()


def _docs(n: int, seed: int) -> list[Doc]:
    rng = random.Random(seed)
    common = ["alpha", "beta", "gamma"]  # each in most documents: looked up by bitmap
    rare = [f"w{i}" for i in range(40)]
    return [
        Doc(
            i + 1,
            f"m{i + 1}",
            (
                " ".join(
                    rng.sample(common, rng.randint(0, 3)) + rng.choices(rare, k=rng.randint(1, 8))
                ),
                None,
                None,
                None,
                None,
            ),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rankings_and_scores_are_the_same_with_the_bitmaps(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _docs(3_000, seed)
    block = TermBlock(docs[:2_500])
    block.append(docs[2_500:])  # appended lists are searched, never bitmapped
    for seq in range(1, 3_000, 17):
        block.remove(seq)
    queries = [["alpha", "beta", "gamma"], ["alpha", "w3"], ["w1", "w2", "beta", "gamma"]]
    ids = list(range(0, block.size, 3))
    monkeypatch.setattr(term_rank, "MIN_POSTINGS", 10**9)
    searched = [(block.top(q, 25), block.scores(q, ids)) for q in queries]
    monkeypatch.setattr(term_rank, "MIN_POSTINGS", 1)
    mapped = [(block.top(q, 25), block.scores(q, ids)) for q in queries]
    assert block._ranks._made, "the common terms' lists went through bitmaps"
    assert mapped == searched


TEXTS = [f"note {i} about alpha" if i % 3 else f"note {i} about beta and alpha" for i in range(12)]


def test_a_deleted_or_rewritten_memory_never_comes_back_through_a_bitmap(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(term_rank, "MIN_POSTINGS", 1)  # "alpha", in every memory, gets one
    path = tmp_path / "s.db"
    small = {"keyword_index_min": 5, "keyword_index_background": False}
    with Memory(path, config=config.with_overrides(recall=small), embedder=None) as reader:
        ids = [r.id for r in reader.add_many(TEXTS, namespace="ns")]
        keyword = reader.store.keyword
        assert keyword.search("ns", '"alpha"', 100)  # builds the namespace's block
        assert set(keyword.scores("ns", '"alpha"', ids)) == set(ids)
        block = keyword.terms._entries["ns"].block
        assert block is not None and block._ranks._made  # looked up through the bitmap
        with Memory(path, config=config, embedder=None) as writer:  # another connection
            writer.delete(ids[1], namespace="ns")
        reader.update(ids[2], content="now about delta only", namespace="ns")
        assert set(keyword.scores("ns", '"alpha"', ids)) == set(ids) - {ids[1], ids[2]}
        found = {i for i, _ in keyword.search("ns", '"beta" OR "alpha"', 100)}
        assert found == set(ids) - {ids[1], ids[2]}
        assert keyword.terms._entries["ns"].block is block  # kept in step, not rebuilt
