"""The abstain decision in a store where fusion outranks the nearest memory (issue 24,
rounds 7 and 9).

In a big store fusion could rank the memory nearest the query below the decision's
pool (the fused top ``recall.candidates``): keyword matches with low cosines filled it,
and the decision, which judges the pool recall returns, read a lower best cosine than
the dense leg found. Round 7 measured how often (docs/benchmarks.md) and kept the
decision as it is; round 9 fixed the ranking for memories outside any session: their
keyword leg is scaled by how far its best match stands above its
``recall.keyword_spread_rank``-th (here, thirteen equal matches, to nothing), so the
nearest memory ranks first and is answered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engram import Memory
from engram.config import Config, RecallConfig
from engram.recall import abstain
from engram.recall.abstain import CALIBRATION, Verdict
from hashembed import PlannedEmbedder

QUERY = "Where is the zeppelin hangar?"
#: Thirteen keyword matches (one more than the pool holds) nearly orthogonal to the
#: query, all matching it equally: with the keyword leg's full weight fusion ranks them
#: first (the whole keyword leg, a twentieth of the cosine).
KEYWORD = [f"Zeppelin hangar checklist, step {n}: {w}." for n, w in enumerate("abcdefghijklm")]
#: No word in common with the query, the nearest memory by far (cosine 0.40: above the
#: confident floor; its fused relevance 0.7 x 0.40 is below the keyword matches' 0.33
#: at the keyword leg's full weight).
NEAREST = "Airships are kept in the big shed by the river."
NEAR_COSINE = 0.40
FAR_COSINE = 0.05
DIMENSION = 48


@pytest.fixture
def crowded(config: Config, store_location: str) -> Iterator[Memory]:
    """A store on each backend where the keyword leg at full weight ranks the nearest
    memory below the pool."""
    # Vectors under the calibrated model's name, so the shipped decision judges them.
    cosines = {NEAREST: NEAR_COSINE, **dict.fromkeys(KEYWORD, FAR_COSINE)}
    embedder = PlannedEmbedder(QUERY, cosines, name=CALIBRATION.embedder, dimension=DIMENSION)
    with Memory(store_location, config=config, embedder=embedder) as mem:
        mem.add_many([{"content": text} for text in [*KEYWORD, NEAREST]])
        yield mem


def test_full_keyword_weight_pushes_the_nearest_memory_out_of_the_pool(crowded: Memory) -> None:
    # The scenario round 7 pinned, with the keyword leg's full weight (the spread off):
    # the pool holds the keyword matches alone, their cosines are below the silent
    # floor, and recall is silent.
    ranked = crowded.recall(
        QUERY, limit=RecallConfig().candidates, abstain=False, keyword_spread_rank=0
    )
    assert NEAREST not in [h.memory.content for h in ranked.hits]
    pool = abstain.evidence(QUERY, ranked.hits)
    assert pool.sim == pytest.approx(FAR_COSINE, abs=1e-3)
    assert abstain.decide(pool, CALIBRATION.embedder).verdict is Verdict.UNRELATED
    assert crowded.recall(QUERY, keyword_spread_rank=0).abstained


def test_the_nearest_memory_answers(crowded: Memory) -> None:
    # Thirteen equal keyword matches cannot say which four belong in the context: the
    # keyword leg of these notes (outside any session) scales to nothing, the nearest
    # memory ranks first and is answered.
    recall = crowded.recall(QUERY)
    assert not recall.abstained
    assert recall.hits[0].memory.content == NEAREST
    assert not recall.low_confidence
