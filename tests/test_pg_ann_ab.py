"""``engram.bench.pg_ann_ab``: two checkouts' workers answer the same questions in
turn; with one checkout on both sides every keyword ranking is identical."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engram import Config, Memory
from engram.bench.pg_ann_ab import NAMESPACE, STRATEGIES, compare
from engram.bench.pg_scale import LookupEmbedder

pytestmark = pytest.mark.postgres

SRC = str(Path(__file__).resolve().parents[1] / "src")


def test_both_sides_answer_every_question(pg_url: str, config: Config, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    texts = [f"Caroline paints {w} at the lake" for w in ("sunsets", "boats", "birds")]
    questions = ["What does Caroline paint?", "Where does Caroline paint boats?"]
    vectors = rng.normal(size=(len(texts) + len(questions), 8)).astype(np.float32)
    table = dict(zip(texts + questions, vectors, strict=True))
    with Memory(pg_url, config=config, embedder=LookupEmbedder("all-MiniLM-L6-v2", table)) as mem:
        mem.add_many(texts, namespace=NAMESPACE)
    qfile = tmp_path / "q.npz"
    np.savez(qfile, q=np.array(questions, dtype=object), v=vectors[len(texts) :])
    out = compare((SRC, pg_url), (SRC, pg_url), str(qfile), range(2), warm=0)
    assert out["keyword_rankings_identical"] == "2/2"
    assert out["top_10_identical"] == {"hybrid": "2/2", "dense": "2/2", "bm25": "2/2"}
    for side in ("a", "b"):
        assert set(out[side]) == {*STRATEGIES, "hybrid_stage_p50_ms", "cpu_ms_per_answer"}
        assert out[side]["hybrid"]["p50_ms"] > 0
        assert "dense" in out[side]["hybrid_stage_p50_ms"]
        cpu = out[side]["cpu_ms_per_answer"]
        assert set(cpu) == set(STRATEGIES)
        assert all(c["client"] > 0 and c["server"] >= 0 for c in cpu.values())
