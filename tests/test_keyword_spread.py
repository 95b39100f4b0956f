"""The keyword leg scaled by how far its best match stands out (issue 24, round 8):
common words that match many memories about equally stop outranking the dense leg's
nearest memory, and a match that stands alone keeps its whole weight."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from engram import Memory
from engram.config import Config
from engram.embed.base import BaseEmbedder, Vectors, normalize_rows
from engram.recall.fusion import keyword_spread


def test_the_spread_is_the_best_over_the_kth_best() -> None:
    assert keyword_spread({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 0.5}, 4) == 0.75
    # Four or more as good as the best: the leg cannot pick the context.
    assert keyword_spread({"a": 2.0, "b": 2.0, "c": 2.0, "d": 2.0, "e": 1.0}, 4) == 0.0
    # Fewer than k matches: the k-th is no match at all, the whole weight stays.
    assert keyword_spread({"a": 3.0, "b": 3.0, "c": 3.0, "z": 0.0}, 4) == 1.0
    assert keyword_spread({"a": 3.0}, 1) == 0.0
    assert keyword_spread({"a": 4.0, "b": 1.0}, 2) == 0.75


def test_no_matches_or_rank_zero_keep_the_whole_weight() -> None:
    assert keyword_spread({}, 4) == 1.0
    assert keyword_spread({"a": 0.0}, 4) == 1.0
    assert keyword_spread({"a": 2.0, "b": 2.0, "c": 2.0, "d": 2.0}, 0) == 1.0


QUERY = "Which gate code opens the hangar?"
#: The one memory that names the hangar: a middling cosine, the only keyword match.
NAMED = "Hangar gate code: 4471."
#: Nearer the query by cosine, no word in common with it.
NEARER = "Airships are kept in the big shed by the river."
FILLER = [f"Weekly shopping list number {n}: apples and bread." for n in range(8)]
DIMENSION = 32


class Planned(BaseEmbedder):
    """The query on the first axis, each memory at a chosen cosine to it."""

    name = "planned"
    dimension = DIMENSION

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            if text == QUERY:
                out[row, 0] = 1.0
                continue
            cosine = {NAMED: 0.30, NEARER: 0.40}.get(text, 0.0)
            digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
            axis = 1 + int.from_bytes(digest, "little") % (DIMENSION - 1)
            out[row, 0] = cosine
            out[row, axis] = np.sqrt(1.0 - cosine * cosine)
        return normalize_rows(out)


@pytest.fixture
def named(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=Planned()) as mem:
        mem.add_many([{"content": text} for text in [NAMED, NEARER, *FILLER]])
        yield mem


def test_a_lone_keyword_match_keeps_its_weight(named: Memory) -> None:
    # One memory names what the query asks for: the keyword leg stands out (spread 1)
    # and its match ranks above the memory nearer by cosine, as before round 8.
    for rank in (4, 0):
        hits = named.recall(QUERY, abstain=False, keyword_spread_rank=rank).hits
        assert [h.memory.content for h in hits[:2]] == [NAMED, NEARER]
        assert hits[0].breakdown.fused == pytest.approx(0.7 * 0.30 + 0.3, abs=1e-3)
