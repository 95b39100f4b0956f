"""The abstain decision reads the dense leg's nearest cosines (issue 24, round 7).

In a big store fusion can rank the memory nearest the query below the decision's pool
(the fused top ``recall.candidates``): keyword matches with low cosines fill it. The
decision then read a lower best cosine than the dense leg found, and recall fell
silent, or marked, a question something stored is close to."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np
import pytest

from conftest import ranked_hit
from engram import Memory
from engram.bench import abstain as bench
from engram.config import Config, RecallConfig
from engram.embed.base import BaseEmbedder, Vectors, normalize_rows
from engram.recall import abstain
from engram.recall.abstain import CALIBRATION, Verdict
from engram.records import Hit

QUERY = "Where is the zeppelin hangar?"
#: Thirteen keyword matches (one more than the pool holds) nearly orthogonal to the
#: query: fusion ranks them first (the whole keyword leg, a twentieth of the cosine).
KEYWORD = [f"Zeppelin hangar checklist, step {n}: {w}." for n, w in enumerate("abcdefghijklm")]
#: No word in common with the query, the nearest memory by far (cosine 0.40: above the
#: confident floor; its fused relevance 0.7 x 0.40 is below the keyword matches' 0.33).
NEAREST = "Airships are kept in the big shed by the river."
NEAR_COSINE = 0.40
FAR_COSINE = 0.05
DIMENSION = 48


class Planned(BaseEmbedder):
    """Vectors laid out by hand under the calibrated model's name: the query on the
    first axis, each memory at a chosen cosine to it on an axis of its own."""

    name = CALIBRATION.embedder
    dimension = DIMENSION

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            if text == QUERY:
                out[row, 0] = 1.0
                continue
            if text == NEAREST:
                axis, cosine = 1, NEAR_COSINE
            elif text in KEYWORD:
                axis, cosine = 2 + KEYWORD.index(text), FAR_COSINE
            else:  # anything else: off the query's axis
                digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
                axis, cosine = 16 + int.from_bytes(digest, "little") % 32, 0.0
            out[row, 0] = cosine
            out[row, axis] = np.sqrt(1.0 - cosine * cosine)
        return normalize_rows(out)


@pytest.fixture
def crowded(config: Config, store_location: str) -> Iterator[Memory]:
    """A store on each backend where fusion ranks the nearest memory below the pool."""
    with Memory(store_location, config=config, embedder=Planned()) as mem:
        mem.add_many([{"content": text} for text in [*KEYWORD, NEAREST]])
        yield mem


def test_fusion_pushes_the_nearest_memory_out_of_the_pool(crowded: Memory) -> None:
    # The scenario itself: the pool holds the keyword matches alone, and the pool's
    # cosines alone (what the decision read before round 7) are below the silent floor.
    ranked = crowded.recall(QUERY, limit=RecallConfig().candidates, abstain=False)
    assert NEAREST not in [h.memory.content for h in ranked.hits]
    pool = abstain.evidence(QUERY, ranked.hits)
    assert pool.sim == pytest.approx(FAR_COSINE, abs=1e-3)
    assert abstain.decide(pool, CALIBRATION.embedder).verdict is Verdict.UNRELATED


def test_the_decision_reads_the_dense_legs_nearest(crowded: Memory) -> None:
    recall = crowded.recall(QUERY)
    # Something stored is close (cosine 0.40): not silent, not marked unsure.
    assert not recall.abstained and not recall.low_confidence
    assert recall.hits and recall.context
    assert recall.cosines[0] == pytest.approx(NEAR_COSINE, abs=1e-3)
    assert len(recall.cosines) == RecallConfig().candidates


def test_a_filter_keeps_what_it_excludes_out_of_the_evidence(crowded: Memory) -> None:
    # The nearest memory filtered out is no evidence: the decision reads what may be
    # returned (the keyword matches, far from the query) and is silent.
    crowded.add("Zeppelin hangar keys hang by the door.", metadata={"kind": "keys"})
    recall = crowded.recall(QUERY, filters={"metadata.kind": "keys"})
    assert recall.abstained and recall.hits == ()
    assert len(recall.cosines) == 1 and recall.cosines[0] < FAR_COSINE


def _hit(memory_id: str, sim: float | None) -> Hit:
    hit = ranked_hit(memory_id, 0.5)
    return replace(hit, breakdown=replace(hit.breakdown, sim=sim))


def test_cosines_join_the_pool_and_the_nearest() -> None:
    hits = [_hit("a", 0.2), _hit("b", None), _hit("c", 0.1)]
    # The same memory in both counts once; the depth is the larger of the two.
    assert abstain.cosines(hits, {"a": 0.2, "x": 0.6}) == [0.6, 0.2, 0.1]
    assert abstain.cosines(hits) == [0.2, 0.1]
    assert abstain.cosines([], {"x": 0.6}) == [0.6]
    found = abstain.evidence("anything", hits, {"x": 0.6, "y": 0.5})
    assert (found.sim, found.second) == (0.6, 0.5)
    assert found.mean == pytest.approx((0.6 + 0.5 + 0.2) / 3)


def test_nearest_keeps_the_candidates_highest() -> None:
    scores = {str(n): n / 100 for n in range(30)}
    assert list(abstain.nearest(scores, RecallConfig(candidates=3))) == ["29", "28", "27"]


def test_rows_score_either_source() -> None:
    row = bench.Row(
        "answerable", "paraphrase", 0, "s:a0", "s", 0.6, 0.0, 2, False, 0.3, 0.3, 0, 0.0,
        hit_sims=[0.2, None, 0.1], cosines=[0.6, 0.2, 0.1],
    )  # fmt: skip
    assert (row.evidence().sim, row.evidence().second) == (0.6, 0.2)
    assert (row.evidence(pool=True).sim, row.evidence(pool=True).second) == (0.2, 0.1)
    # Rows saved before round 7 have no cosines: their recorded best and the pool's.
    before = replace(row, cosines=None)
    assert (before.evidence().sim, before.evidence().second) == (0.6, 0.1)
